#include "store/SqlSupport.h"

#include <QJsonDocument>
#include <QSqlError>

namespace moewb::store::sql {

QString toDbTime(const QDateTime& time) {
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QDateTime fromDbTime(const QVariant& value) {
    QDateTime t = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t.toUTC() : t;
}

QString toDbJson(const QJsonObject& object) {
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QString toDbJson(const QJsonArray& array) {
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QJsonObject objectFromDb(const QVariant& value) {
    return QJsonDocument::fromJson(value.toString().toUtf8()).object();
}

QJsonArray arrayFromDb(const QVariant& value) {
    return QJsonDocument::fromJson(value.toString().toUtf8()).array();
}

QString errorText(const QSqlQuery& query) {
    const QSqlError e = query.lastError();
    return e.databaseText().isEmpty() ? e.text() : e.databaseText();
}

bool exec(QSqlDatabase& db, const QString& statement, QString* error) {
    QSqlQuery q(db);
    if (q.exec(statement))
        return true;
    if (error)
        *error = errorText(q);
    return false;
}

bool exec(QSqlQuery& query, QString* error) {
    if (query.exec())
        return true;
    if (error)
        *error = errorText(query);
    return false;
}

Transaction::Transaction(QSqlDatabase& db) : m_db(db) {}

Transaction::~Transaction() {
    rollback();
}

bool Transaction::begin(QString* error) {
    m_active = exec(m_db, QStringLiteral("BEGIN IMMEDIATE"), error);
    return m_active;
}

bool Transaction::commit(QString* error) {
    if (!m_active)
        return false;
    if (!exec(m_db, QStringLiteral("COMMIT"), error))
        return false; // still active: the destructor rolls back
    m_active = false;
    return true;
}

void Transaction::rollback() {
    if (m_active) {
        exec(m_db, QStringLiteral("ROLLBACK"), nullptr);
        m_active = false;
    }
}

} // namespace moewb::store::sql
