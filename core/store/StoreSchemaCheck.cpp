// What opening a project checks (docs/store.md): moewb's schema of each version, built
// from StoreSchema.cpp's own statements and migrations, and how a file departs from it.
#include "common/DisplayText.h"
#include "store/ProjectStore.h"
#include "store/SqlSupport.h"
#include "store/StoreSchema.h"

#include <QAtomicInteger>
#include <QHash>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include <map>
#include <memory>
#include <mutex>

namespace moewb::store::schema {

namespace {

// Where a file at some version began: created at version 1, at version 2 (the
// migrations then make the same statements as any later creation but the current
// one's), or new at the current version.
enum class Origin { V1, V2, Latest };

// The schema a file of `origin` has at `version`, built in an in-memory database.
bool buildSchema(Origin origin, int version, QList<SchemaObject>* objects, QString* error) {
    static QAtomicInteger<quint64> counter;
    const QString name = QStringLiteral("moewb-known-schema-%1").arg(counter.fetchAndAddOrdered(1) + 1);
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(QStringLiteral(":memory:"));
        if (!db.open()) {
            *error = db.lastError().text();
        } else {
            const int start = origin == Origin::V1 ? 1 : 2;
            ok = true;
            if (origin == Origin::Latest) {
                ok = createAtVersion(db, ProjectStore::kSchemaVersion, error);
            } else {
                ok = createAtVersion(db, start, error);
                for (const Migration& m : migrations())
                    if (ok && m.from >= start && m.from < version)
                        ok = m.apply(db, error);
            }
            ok = ok && readSchemaObjects(db, objects, error);
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

QString objectKey(const QString& type, const QString& name) {
    return type.toLower() + QLatin1Char(' ') + name.toLower();
}

bool isIdentifierStart(QChar c) {
    return c.isLetter() || c == QLatin1Char('_') || c.unicode() >= 0x80;
}

bool isIdentifierPart(QChar c) {
    return isIdentifierStart(c) || c.isDigit() || c == QLatin1Char('$');
}

// "a trigger", "an index", "a view", "a table".
QString withArticle(const QString& type) {
    if (type == QLatin1String("table"))
        return StoreTr::tr("a table");
    if (type == QLatin1String("index"))
        return StoreTr::tr("an index");
    if (type == QLatin1String("view"))
        return StoreTr::tr("a view");
    if (type == QLatin1String("trigger"))
        return StoreTr::tr("a trigger");
    return StoreTr::tr("an object of type %1").arg(shownName(type, 16));
}

// "table", "index", ... as a message says it.
QString typeWord(const QString& type) {
    if (type == QLatin1String("table"))
        return StoreTr::tr("table");
    if (type == QLatin1String("index"))
        return StoreTr::tr("index");
    if (type == QLatin1String("view"))
        return StoreTr::tr("view");
    if (type == QLatin1String("trigger"))
        return StoreTr::tr("trigger");
    return shownName(type, 16);
}

} // namespace

QString normalizedSql(const QString& sql) {
    QStringList tokens;
    const qsizetype n = sql.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = sql[i];
        if (c.isSpace()) {
            ++i;
        } else if (c == QLatin1Char('-') && i + 1 < n && sql[i + 1] == QLatin1Char('-')) {
            while (i < n && sql[i] != QLatin1Char('\n'))
                ++i;
        } else if (c == QLatin1Char('/') && i + 1 < n && sql[i + 1] == QLatin1Char('*')) {
            const qsizetype end = sql.indexOf(QLatin1String("*/"), i + 2);
            i = end < 0 ? n : end + 2;
        } else if (c == QLatin1Char('\'')) {
            // A string literal, '' inside it, kept as written.
            qsizetype j = i + 1;
            while (j < n) {
                if (sql[j] == QLatin1Char('\'')) {
                    if (j + 1 < n && sql[j + 1] == QLatin1Char('\'')) {
                        j += 2;
                        continue;
                    }
                    break;
                }
                ++j;
            }
            tokens << sql.mid(i, std::min(j + 1, n) - i);
            i = j + 1;
        } else if (c == QLatin1Char('"') || c == QLatin1Char('`') || c == QLatin1Char('[')) {
            // A quoted identifier: its name as written, without the quotes (RENAME TABLE
            // writes the new name quoted).
            const QChar close = c == QLatin1Char('[') ? QLatin1Char(']') : c;
            QString ident;
            qsizetype j = i + 1;
            while (j < n) {
                if (sql[j] == close) {
                    if (close != QLatin1Char(']') && j + 1 < n && sql[j + 1] == close) {
                        ident += close;
                        j += 2;
                        continue;
                    }
                    break;
                }
                ident += sql[j];
                ++j;
            }
            tokens << ident;
            i = j + 1;
        } else if (isIdentifierStart(c)) {
            qsizetype j = i + 1;
            while (j < n && isIdentifierPart(sql[j]))
                ++j;
            tokens << sql.mid(i, j - i).toLower();
            i = j;
        } else if (c.isDigit() || (c == QLatin1Char('.') && i + 1 < n && sql[i + 1].isDigit())) {
            qsizetype j = i + 1;
            while (j < n && (sql[j].isLetterOrNumber() || sql[j] == QLatin1Char('.')))
                ++j;
            tokens << sql.mid(i, j - i).toLower();
            i = j;
        } else {
            tokens << QString(c);
            ++i;
        }
    }
    return tokens.join(QLatin1Char(' '));
}

bool readSchemaObjects(QSqlDatabase& db, QList<SchemaObject>* objects, QString* error) {
    objects->clear();
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT type, name, tbl_name, sql FROM main.sqlite_master"))) {
        *error = sql::errorText(q);
        return false;
    }
    while (q.next())
        objects->append(
            SchemaObject{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString()});
    if (q.lastError().isValid()) {
        *error = sql::errorText(q);
        return false;
    }
    return true;
}

const KnownSchema* knownSchema(int version, QString* error) {
    static std::mutex mutex;
    static std::map<int, std::unique_ptr<KnownSchema>> cache;
    if (version < 1 || version > ProjectStore::kSchemaVersion) {
        *error = StoreTr::tr("no schema version %1").arg(version);
        return nullptr;
    }
    const std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(version); it != cache.end())
        return it->second.get();
    auto known = std::make_unique<KnownSchema>();
    QList<Origin> origins{Origin::V1};
    if (version >= 2)
        origins << Origin::V2;
    if (version == ProjectStore::kSchemaVersion)
        origins << Origin::Latest;
    for (Origin origin : origins) {
        QList<SchemaObject> objects;
        if (!buildSchema(origin, version, &objects, error)) {
            *error = StoreTr::tr("cannot build the schema of version %1: %2").arg(version).arg(*error);
            return nullptr;
        }
        for (const SchemaObject& o : objects) {
            KnownObject& k = (*known)[objectKey(o.type, o.name)];
            k.type = o.type;
            k.name = o.name;
            k.table = o.table;
            const QString variant = normalizedSql(o.sql);
            if (!k.variants.contains(variant))
                k.variants << variant;
        }
    }
    return cache.emplace(version, std::move(known)).first->second.get();
}

std::optional<QStringList> schemaDepartures(const QList<SchemaObject>& objects, int version, QString* error) {
    const KnownSchema* known = knownSchema(version, error);
    if (!known)
        return std::nullopt;
    QHash<QString, QString> knownTypeByName; // name → type
    for (const KnownObject& k : *known)
        knownTypeByName.insert(k.name.toLower(), k.type);
    QStringList departures;
    QSet<QString> seen;
    QSet<QString> replaced; // known names that another type of object took
    for (const SchemaObject& o : objects) {
        const QString key = objectKey(o.type, o.name);
        const auto k = known->constFind(key);
        if (k != known->constEnd()) {
            seen.insert(key);
            if (o.table.compare(k->table, Qt::CaseInsensitive) != 0 || !k->variants.contains(normalizedSql(o.sql)))
                departures << StoreTr::tr("the %1 %2 with a definition that moewb does not give it")
                                  .arg(typeWord(o.type), shownName(o.name));
            continue;
        }
        const auto other = knownTypeByName.constFind(o.name.toLower());
        if (other != knownTypeByName.constEnd()) {
            replaced.insert(objectKey(*other, o.name));
            departures << StoreTr::tr("%1 %2 in place of moewb's %3 %2")
                              .arg(withArticle(o.type), shownName(o.name), typeWord(*other));
            continue;
        }
        departures << StoreTr::tr("%1 %2 that moewb did not create").arg(withArticle(o.type), shownName(o.name));
    }
    // A missing table's indexes and triggers are not named again.
    QSet<QString> tablesGone;
    for (auto k = known->constBegin(); k != known->constEnd(); ++k)
        if (k->type == QLatin1String("table") && !seen.contains(k.key()))
            tablesGone.insert(k->name.toLower());
    for (auto k = known->constBegin(); k != known->constEnd(); ++k)
        if (!seen.contains(k.key()) && !replaced.contains(k.key()) &&
            (k->type == QLatin1String("table") || !tablesGone.contains(k->table.toLower())))
            departures << StoreTr::tr("no %1 %2 (moewb creates one)").arg(typeWord(k->type), shownName(k->name));
    return departures;
}

QString foreignSchemaMessage(const QStringList& departures) {
    constexpr int kNamed = 6;
    QStringList named = departures.mid(0, kNamed);
    QString list;
    if (departures.size() > kNamed) {
        list = StoreTr::tr("%1 and %n more", "", int(departures.size() - kNamed)).arg(named.join(QStringLiteral(", ")));
    } else if (named.size() > 1) {
        const QString last = named.takeLast();
        list = StoreTr::tr("%1 and %2").arg(named.join(QStringLiteral(", ")), last);
    } else {
        list = named.value(0);
    }
    return StoreTr::tr("this project contains %1; it may have been altered — not opened").arg(list);
}

QString shownName(const QString& name, int maxChars) {
    return displayText(name, maxChars);
}


namespace {

std::mutex g_refusalsMutex;
QHash<QString, QString> g_refusals; // file → the message of its last refusal for its schema

} // namespace

void noteForeignSchemaRefusal(const QString& file, const QString& message) {
    const std::lock_guard<std::mutex> lock(g_refusalsMutex);
    g_refusals.insert(file, message);
}

bool wasForeignSchemaRefusal(const QString& file, const QString& message) {
    const std::lock_guard<std::mutex> lock(g_refusalsMutex);
    const auto it = g_refusals.constFind(file);
    return it != g_refusals.constEnd() && *it == message;
}

} // namespace moewb::store::schema
