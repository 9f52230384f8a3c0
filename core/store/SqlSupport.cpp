#include "store/SqlSupport.h"

#include "common/DisplayText.h"

#include "store/NameRules.h"

#include <QJsonDocument>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlResult>

#include <sqlite3.h>

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

QString capText(const QString& text, qsizetype limit) {
    return displayText(text, limit, LineBreaks::Keep);
}

QString nameFromDb(const QVariant& value) {
    return displayText(value.toString(), kMaxNameLength);
}

QString textFromDb(const QVariant& value) {
    return capText(value.toString(), kMaxTextLength);
}

namespace {

// Every string of a JSON value (object keys too) capped; the value unchanged, without
// a copy, when nothing is too long.
bool capStrings(QJsonValue& v);
bool capStrings(QJsonArray& a) {
    bool changed = false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        QJsonValue item = a.at(i);
        if (capStrings(item)) {
            a.replace(i, item);
            changed = true;
        }
    }
    return changed;
}
bool capStrings(QJsonObject& o) {
    bool tooLongKey = false;
    for (auto it = o.constBegin(); it != o.constEnd() && !tooLongKey; ++it)
        tooLongKey = capText(it.key()) != it.key();
    bool changed = false;
    if (tooLongKey) {
        QJsonObject capped;
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            capped.insert(capText(it.key()), it.value());
        o = capped;
        changed = true;
    }
    for (auto it = o.begin(); it != o.end(); ++it) {
        QJsonValue item = it.value();
        if (capStrings(item)) {
            it.value() = item;
            changed = true;
        }
    }
    return changed;
}
bool capStrings(QJsonValue& v) {
    if (v.isString()) {
        const QString text = v.toString();
        const QString shown = capText(text);
        if (shown.size() == text.size() && shown == text)
            return false;
        v = shown;
        return true;
    }
    if (v.isArray()) {
        QJsonArray a = v.toArray();
        if (!capStrings(a))
            return false;
        v = a;
        return true;
    }
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        if (!capStrings(o))
            return false;
        v = o;
        return true;
    }
    return false;
}

QJsonDocument boundedJson(const QVariant& value, qsizetype maxBytes) {
    const QByteArray utf8 = value.toString().toUtf8();
    if (utf8.size() > maxBytes) {
        qWarning("a JSON column of %lld bytes (more than %lld) is read as empty", qlonglong(utf8.size()),
                 qlonglong(maxBytes));
        return {};
    }
    return QJsonDocument::fromJson(utf8);
}

} // namespace

QJsonObject objectFromDb(const QVariant& value, qsizetype maxBytes) {
    QJsonObject o = boundedJson(value, maxBytes).object();
    capStrings(o);
    return o;
}

QJsonArray arrayFromDb(const QVariant& value, qsizetype maxBytes) {
    QJsonArray a = boundedJson(value, maxBytes).array();
    capStrings(a);
    return a;
}

QJsonObject basisFromDb(const QVariant& value) {
    QJsonObject basis = objectFromDb(value, kMaxBasisJsonBytes);
    QJsonArray runs = basis.value(QLatin1String("runs")).toArray();
    bool cut = false;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        QJsonObject r = runs.at(i).toObject();
        const QString name = r.value(QLatin1String("name")).toString();
        if (const QString shown = displayText(name, kMaxNameLength); shown != name) {
            r.insert(QStringLiteral("name"), shown);
            runs.replace(i, r);
            cut = true;
        }
    }
    if (cut)
        basis.insert(QStringLiteral("runs"), runs);
    return basis;
}

QJsonObject rawObjectFromDb(const QVariant& value) {
    return QJsonDocument::fromJson(value.toString().toUtf8()).object();
}

std::optional<qint64> idByName(QSqlDatabase& db, const char* table, const QString& name) {
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT id FROM %1 WHERE name = ?").arg(QLatin1String(table)));
    q.bindValue(0, name);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    if (!name.contains(QLatin1Char('\\')) && !name.endsWith(QChar(0x2026)))
        return std::nullopt;
    // A name as nameFromDb showed it (cut, or with hidden characters escaped): the row
    // whose name it was shown for (names of at least 128 code points, or holding any
    // character outside printable ASCII).
    QSqlQuery cut(db);
    cut.setForwardOnly(true);
    cut.prepare(QStringLiteral("SELECT id, name FROM %1 WHERE length(name) >= 128 OR name GLOB '*[^ -~]*'")
                    .arg(QLatin1String(table)));
    std::optional<qint64> found;
    if (!cut.exec())
        return std::nullopt;
    while (cut.next()) {
        if (nameFromDb(cut.value(1)) != name)
            continue;
        if (found)
            return std::nullopt; // two names cut alike: neither is meant
        found = cut.value(0).toLongLong();
    }
    return found;
}

QString errorText(const QSqlQuery& query) {
    const QSqlError e = query.lastError();
    if (!e.databaseText().isEmpty())
        return e.databaseText();
    // Qt's own words for a statement that was never prepared (its preparation failed
    // and the failure was replaced when the query ran): prepare it again for SQLite's.
    if (e.type() == QSqlError::StatementError && e.nativeErrorCode().isEmpty() && !query.lastQuery().isEmpty() &&
        query.driver() != nullptr) {
        QSqlQuery again(query.driver()->createResult());
        if (!again.prepare(query.lastQuery())) {
            const QSqlError p = again.lastError();
            if (!p.databaseText().isEmpty())
                return p.databaseText();
        }
    }
    return e.text();
}

sqlite3* sqliteHandle(QSqlDatabase& db) {
    if (!db.driver())
        return nullptr;
    const QVariant v = db.driver()->handle();
    if (!v.isValid() || qstrcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3* const*>(v.constData());
}

bool hardenConnection(QSqlDatabase& db, QString* error) {
    auto failed = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    sqlite3* h = sqliteHandle(db);
    if (!h)
        return failed(QStringLiteral("the Qt SQLite driver gives no SQLite handle"));
    // The handle is configured through the SQLite library moewb is linked with: it must
    // be the one the driver uses (Debian's QSQLITE uses the system libsqlite3). The
    // version query names no table, so the file's schema is not consulted.
    {
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("SELECT sqlite_source_id()")) || !q.next())
            return failed(errorText(q));
        if (q.value(0).toString() != QString::fromLatin1(sqlite3_sourceid()))
            return failed(QStringLiteral("the Qt SQLite driver uses another SQLite (%1) than moewb (%2)")
                              .arg(q.value(0).toString(), QString::fromLatin1(sqlite3_sourceid())));
    }
    struct Setting {
        int op;
        int value;
        const char* name;
    };
    const Setting settings[] = {
        {SQLITE_DBCONFIG_DEFENSIVE, 1, "DEFENSIVE"},
        {SQLITE_DBCONFIG_ENABLE_VIEW, 0, "ENABLE_VIEW"},
        {SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, "ENABLE_TRIGGER"},
        {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "TRUSTED_SCHEMA"},
        {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, "ENABLE_LOAD_EXTENSION"},
        {SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, "ENABLE_FTS3_TOKENIZER"},
        {SQLITE_DBCONFIG_WRITABLE_SCHEMA, 0, "WRITABLE_SCHEMA"},
    };
    for (const Setting& s : settings) {
        int now = -1;
        if (sqlite3_db_config(h, s.op, s.value, &now) != SQLITE_OK || now != s.value)
            return failed(QStringLiteral("SQLite refused SQLITE_DBCONFIG_%1 = %2").arg(QLatin1String(s.name)).arg(s.value));
    }
    sqlite3_enable_load_extension(h, 0);
    // Nothing moewb stores or runs comes near these.
    sqlite3_limit(h, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
    sqlite3_limit(h, SQLITE_LIMIT_SQL_LENGTH, 1 << 20);
    sqlite3_limit(h, SQLITE_LIMIT_EXPR_DEPTH, 200);
    sqlite3_limit(h, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
    sqlite3_limit(h, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 1000);
    for (const char* pragma : {"PRAGMA trusted_schema = OFF", "PRAGMA cell_size_check = ON", "PRAGMA mmap_size = 0"}) {
        QString err;
        if (!exec(db, QString::fromLatin1(pragma), &err))
            return failed(err);
    }
    return true;
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
