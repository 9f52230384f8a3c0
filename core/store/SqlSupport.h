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

#include <optional>

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

// Text read from the file is bounded here, the one place every reader goes through
// (docs/store.md, "Reading a project from someone else"): a project may come from
// someone else, and a 1 MiB name or reason would otherwise reach every table, page and
// report. Names (runs, records, clusters, nodes) longer than kMaxNameLength
// (NameRules.h) come back as their first kMaxNameLength − 1 characters and "…"; other
// text (reasons, justifications, notes, paths, and every string inside a JSON column)
// at kMaxTextLength characters, likewise. A JSON column longer than its byte limit
// reads as empty (and is logged). Rows read to be rewritten use the raw readers.
inline constexpr qsizetype kMaxTextLength = 4096;
inline constexpr qsizetype kMaxJsonBytes = qsizetype(4) << 20;
// A verdict's basis names every run it was computed on: 100,000 runs fit.
inline constexpr qsizetype kMaxBasisJsonBytes = qsizetype(64) << 20;
// `text` cut to `limit` characters, the last of them "…" (never inside a surrogate pair).
QString capText(const QString& text, qsizetype limit = kMaxTextLength);
QString nameFromDb(const QVariant& value);
QString textFromDb(const QVariant& value);
// Bounded: every string capped with capText, the whole column at most maxBytes.
QJsonObject objectFromDb(const QVariant& value, qsizetype maxBytes = kMaxJsonBytes);
QJsonArray arrayFromDb(const QVariant& value, qsizetype maxBytes = kMaxJsonBytes);
// A verdict's basis (kMaxBasisJsonBytes), each run's name in it cut like a name.
QJsonObject basisFromDb(const QVariant& value);
// As stored: for a row that is read to be changed and written back.
QJsonObject rawObjectFromDb(const QVariant& value);
// The id of the row of `table` (run, config_record or cluster) named `name`, or —
// when no name is that, and `name` is a name as nameFromDb cut it — of the one row
// whose name it was cut from. nullopt when none (or several) match.
std::optional<qint64> idByName(QSqlDatabase& db, const char* table, const QString& name);

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
