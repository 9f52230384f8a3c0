#include "store/SqlSupport.h"

#include "store/NameRules.h"

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

QString capText(const QString& text, qsizetype limit) {
    if (text.size() <= limit || limit < 2)
        return text;
    qsizetype keep = limit - 1;
    if (text[keep - 1].isHighSurrogate())
        --keep;
    return text.left(keep) + QChar(0x2026);
}

QString nameFromDb(const QVariant& value) {
    return capText(value.toString(), kMaxNameLength);
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
        tooLongKey = it.key().size() > kMaxTextLength;
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
        if (v.toString().size() <= kMaxTextLength)
            return false;
        v = capText(v.toString());
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
        if (name.size() > kMaxNameLength) {
            r.insert(QStringLiteral("name"), capText(name, kMaxNameLength));
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
    if (name.size() != kMaxNameLength || !name.endsWith(QChar(0x2026)))
        return std::nullopt;
    // A name cut on reading: the row whose name it was cut from (one more than 128
    // characters at least: SQLite counts code points, a cut name has over 256 UTF-16 units).
    QSqlQuery cut(db);
    cut.setForwardOnly(true);
    cut.prepare(QStringLiteral("SELECT id, name FROM %1 WHERE length(name) > 128").arg(QLatin1String(table)));
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
