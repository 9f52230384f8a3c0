#pragma once
// Small pieces shared by the store's .cpp files (not part of the public API).
#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

namespace moewb::store {
// Translation context of the store's messages: StoreTr::tr("...").
class StoreTr {
    Q_DECLARE_TR_FUNCTIONS(Store)
};
} // namespace moewb::store

namespace moewb::store::sql {

// Times are stored as ISO 8601 UTC text with milliseconds: sortable and readable
// with the sqlite3 shell.
QString toDbTime(const QDateTime& time);
// Qt binds a null QString as SQL NULL; text columns are NOT NULL, '' when empty.
inline QVariant toDbText(const QString& text) {
    return text.isNull() ? QVariant(QStringLiteral("")) : QVariant(text);
}
QDateTime fromDbTime(const QVariant& value);
QString toDbJson(const QJsonObject& object);
QString toDbJson(const QJsonArray& array);
QJsonObject objectFromDb(const QVariant& value);
QJsonArray arrayFromDb(const QVariant& value);

// Runs one statement; on failure returns false and sets *error to the statement's
// error text.
bool exec(QSqlDatabase& db, const QString& statement, QString* error);
bool exec(QSqlQuery& query, QString* error); // a prepared query
QString errorText(const QSqlQuery& query);

// parallelism.ep of a config record's JSON; 0 when absent or not a positive integer.
int expertParallelOfRecord(QSqlDatabase& db, qint64 recordId);

// BEGIN IMMEDIATE ... COMMIT, rolled back when left without commit(). IMMEDIATE
// takes the write lock up front, so busy_timeout applies at BEGIN rather than
// failing half-way through with SQLITE_BUSY on a lock upgrade.
class Transaction {
public:
    explicit Transaction(QSqlDatabase& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    bool begin(QString* error);
    bool commit(QString* error);
    void rollback();

private:
    QSqlDatabase& m_db;
    bool m_active = false;
};

} // namespace moewb::store::sql
