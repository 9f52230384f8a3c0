#include "store/ProjectClean.h"

#include "store/SqlSupport.h"
#include "store/StoreSchema.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringDecoder>
#include <QUrl>

#include <sqlite3.h>

#include <limits>
#include <optional>

namespace moewb::store {

qint64 CleanReport::copied() const {
    qint64 n = 0;
    for (const CleanTable& t : tables)
        n += t.copied;
    return n;
}

qint64 CleanReport::skipped() const {
    qint64 n = 0;
    for (const CleanTable& t : tables)
        n += t.skipped;
    return n;
}

namespace {

constexpr int kNewPageSize = 16384; // as ProjectStore gives a new file

QString newConnectionName() {
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("moewb-clean-%1").arg(counter.fetchAndAddOrdered(1) + 1);
}

// A Qt Sql connection removed when it goes out of scope.
class Connection {
public:
    Connection() : m_name(newConnectionName()) {}
    ~Connection() {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    QSqlDatabase add() { return QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name); }
    QSqlDatabase db() const { return QSqlDatabase::database(m_name, false); }

private:
    QString m_name;
};

// A prepared statement of the raw SQLite API, finalized when it goes.
class Statement {
public:
    Statement() = default;
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    bool prepare(sqlite3* db, const QString& sql) {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
        const QByteArray utf8 = sql.toUtf8();
        return sqlite3_prepare_v2(db, utf8.constData(), int(utf8.size()), &m_stmt, nullptr) == SQLITE_OK;
    }
    sqlite3_stmt* get() const { return m_stmt; }

private:
    sqlite3_stmt* m_stmt = nullptr;
};

QString quoted(const QString& identifier) {
    return QLatin1Char('"') + QString(identifier).replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
}

QString sqliteMessage(sqlite3* db) {
    return QString::fromUtf8(sqlite3_errmsg(db));
}

struct Column {
    QString name;
    QString type; // declared type, upper case: INTEGER, REAL, TEXT, BLOB
    bool notNull = false;
    int pk = 0; // position in the primary key, 0 when not part of it
};

struct TargetTable {
    QString name;
    bool withoutRowid = false;
    QList<Column> columns;
    QStringList parents; // tables its foreign keys refer to
};

QString valueTypeWord(int type) {
    switch (type) {
    case SQLITE_INTEGER:
        return StoreTr::tr("an integer");
    case SQLITE_FLOAT:
        return StoreTr::tr("a real number");
    case SQLITE_TEXT:
        return StoreTr::tr("text");
    case SQLITE_BLOB:
        return StoreTr::tr("a blob");
    default:
        return StoreTr::tr("nothing (NULL)");
    }
}

QString declaredTypeWord(const QString& type) {
    if (type == QLatin1String("INTEGER"))
        return StoreTr::tr("an integer");
    if (type == QLatin1String("REAL"))
        return StoreTr::tr("a number");
    if (type == QLatin1String("TEXT"))
        return StoreTr::tr("text");
    if (type == QLatin1String("BLOB"))
        return StoreTr::tr("a blob");
    return type;
}

// Why a column's value is not what moewb stores there; empty when it is.
QString valueProblem(sqlite3_stmt* row, int index, const Column& column) {
    const int type = sqlite3_column_type(row, index);
    if (type == SQLITE_NULL) {
        if (column.notNull || column.pk > 0)
            return StoreTr::tr("%1: nothing (NULL) where moewb requires a value").arg(schema::shownName(column.name));
        return {};
    }
    bool fits = true;
    if (column.type == QLatin1String("INTEGER"))
        fits = type == SQLITE_INTEGER;
    else if (column.type == QLatin1String("REAL"))
        fits = type == SQLITE_FLOAT || type == SQLITE_INTEGER;
    else if (column.type == QLatin1String("TEXT"))
        fits = type == SQLITE_TEXT;
    else if (column.type == QLatin1String("BLOB"))
        fits = type == SQLITE_BLOB;
    if (!fits)
        return StoreTr::tr("%1: %2 where moewb stores %3")
            .arg(schema::shownName(column.name), valueTypeWord(type), declaredTypeWord(column.type));
    if (type == SQLITE_TEXT) {
        const char* text = reinterpret_cast<const char*>(sqlite3_column_text(row, index));
        const int bytes = sqlite3_column_bytes(row, index);
        if (text == nullptr && bytes > 0)
            return StoreTr::tr("%1: cannot be read (out of memory)").arg(schema::shownName(column.name));
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        (void)utf8.decode(QByteArrayView(text, bytes));
        if (utf8.hasError() || QByteArrayView(text, bytes).contains('\0'))
            return StoreTr::tr("%1: text that is not UTF-8").arg(schema::shownName(column.name));
    }
    return {};
}

// moewb's tables in a fresh file of its schema, parents before the tables that refer to them.
std::optional<QList<TargetTable>> targetTables(QSqlDatabase& db, QString* error) {
    QList<schema::SchemaObject> objects;
    if (!schema::readSchemaObjects(db, &objects, error))
        return std::nullopt;
    QList<TargetTable> tables;
    for (const schema::SchemaObject& o : objects) {
        if (o.type != QLatin1String("table") || o.name.startsWith(QLatin1String("sqlite_")))
            continue;
        TargetTable t;
        t.name = o.name;
        t.withoutRowid = schema::normalizedSql(o.sql).endsWith(QLatin1String("without rowid"));
        QSqlQuery info(db);
        if (!info.exec(QStringLiteral("PRAGMA table_info(%1)").arg(quoted(o.name)))) {
            *error = sql::errorText(info);
            return std::nullopt;
        }
        while (info.next())
            t.columns << Column{info.value(1).toString(), info.value(2).toString().toUpper(), info.value(3).toBool(),
                                info.value(5).toInt()};
        QSqlQuery keys(db);
        if (!keys.exec(QStringLiteral("PRAGMA foreign_key_list(%1)").arg(quoted(o.name)))) {
            *error = sql::errorText(keys);
            return std::nullopt;
        }
        while (keys.next()) {
            const QString parent = keys.value(2).toString();
            if (parent.compare(o.name, Qt::CaseInsensitive) != 0 && !t.parents.contains(parent, Qt::CaseInsensitive))
                t.parents << parent;
        }
        tables << t;
    }
    // Parents first, otherwise in the schema's order.
    QList<TargetTable> ordered;
    QSet<QString> placed;
    while (ordered.size() < tables.size()) {
        bool progress = false;
        for (const TargetTable& t : tables) {
            if (placed.contains(t.name.toLower()))
                continue;
            bool ready = true;
            for (const QString& p : t.parents)
                ready = ready && placed.contains(p.toLower());
            if (ready) {
                ordered << t;
                placed.insert(t.name.toLower());
                progress = true;
            }
        }
        if (!progress) { // a cycle (none in moewb's schema): the rest as they come
            for (const TargetTable& t : tables)
                if (!placed.contains(t.name.toLower())) {
                    ordered << t;
                    placed.insert(t.name.toLower());
                }
        }
    }
    return ordered;
}

// The source table's rows into the target, one by one.
void copyRows(sqlite3* source, sqlite3* target, const TargetTable& table, CleanTable& out) {
    auto skip = [&out](const QString& where, const QString& why) {
        ++out.skipped;
        if (out.skippedRows.size() < CleanTable::kListedRows)
            out.skippedRows << QStringLiteral("%1: %2").arg(where, why);
    };
    QStringList names, marks;
    for (const Column& c : table.columns) {
        names << quoted(c.name);
        marks << QStringLiteral("?");
    }
    Statement insert;
    if (!insert.prepare(target, QStringLiteral("INSERT INTO main.%1 (%2) VALUES (%3)")
                                    .arg(quoted(table.name), names.join(QStringLiteral(", ")),
                                         marks.join(QStringLiteral(", "))))) {
        out.notRead = StoreTr::tr("cannot be written: %1").arg(sqliteMessage(target));
        return;
    }
    // NOT INDEXED: only the table's own b-tree is read (an index, even moewb's, is not
    // needed to read every row). A rowid table is read in rowid order, so that a row
    // that cannot be read (a value over the length limit, a damaged page) is skipped
    // and the read goes on after it.
    const int offset = table.withoutRowid ? 0 : 1;
    const QString select = table.withoutRowid
                               ? QStringLiteral("SELECT %1 FROM main.%2 NOT INDEXED")
                                     .arg(names.join(QStringLiteral(", ")), quoted(table.name))
                               : QStringLiteral("SELECT rowid, %1 FROM main.%2 NOT INDEXED WHERE rowid > ?1 ORDER BY rowid")
                                     .arg(names.join(QStringLiteral(", ")), quoted(table.name));
    qint64 lastRowid = std::numeric_limits<qint64>::min();
    qint64 ordinal = 0;
    for (;;) {
        Statement read;
        if (!read.prepare(source, select)) {
            out.notRead = StoreTr::tr("cannot be read: %1").arg(sqliteMessage(source));
            return;
        }
        if (!table.withoutRowid)
            sqlite3_bind_int64(read.get(), 1, lastRowid);
        int rc = SQLITE_ROW;
        while ((rc = sqlite3_step(read.get())) == SQLITE_ROW) {
            ++ordinal;
            QString where;
            if (table.withoutRowid) {
                QStringList key;
                for (int i = 0; i < table.columns.size(); ++i)
                    if (table.columns[i].pk > 0) {
                        const int t = sqlite3_column_type(read.get(), i);
                        key << QStringLiteral("%1 = %2").arg(
                            schema::shownName(table.columns[i].name),
                            t == SQLITE_INTEGER ? QString::number(sqlite3_column_int64(read.get(), i))
                            : t == SQLITE_TEXT
                                ? QLatin1Char('\'') +
                                      schema::shownName(QString::fromUtf8(reinterpret_cast<const char*>(
                                                                             sqlite3_column_text(read.get(), i)),
                                                                         std::min(sqlite3_column_bytes(read.get(), i), 256)),
                                                        40) +
                                      QLatin1Char('\'')
                                : valueTypeWord(t));
                    }
                where = StoreTr::tr("row %1 (%2)").arg(ordinal).arg(key.join(QStringLiteral(", ")));
            } else {
                lastRowid = sqlite3_column_int64(read.get(), 0);
                where = StoreTr::tr("rowid %1").arg(lastRowid);
            }
            QString problem;
            for (int i = 0; i < table.columns.size() && problem.isEmpty(); ++i)
                problem = valueProblem(read.get(), i + offset, table.columns[i]);
            if (!problem.isEmpty()) {
                skip(where, problem);
                continue;
            }
            sqlite3_reset(insert.get());
            sqlite3_clear_bindings(insert.get());
            for (int i = 0; i < table.columns.size(); ++i)
                sqlite3_bind_value(insert.get(), i + 1, sqlite3_column_value(read.get(), i + offset));
            if (sqlite3_step(insert.get()) == SQLITE_DONE)
                ++out.copied;
            else
                skip(where, sqliteMessage(target));
            sqlite3_reset(insert.get());
        }
        if (rc == SQLITE_DONE)
            return;
        // A row that cannot be read: in a rowid table, skip it by its rowid and go on.
        const QString why = sqliteMessage(source);
        if (table.withoutRowid) {
            skip(StoreTr::tr("after row %1").arg(ordinal),
                 StoreTr::tr("cannot be read: %1; the rest of the table was not read").arg(why));
            return;
        }
        Statement next;
        if (!next.prepare(source, QStringLiteral("SELECT rowid FROM main.%1 NOT INDEXED WHERE rowid > ?1 ORDER BY rowid "
                                                 "LIMIT 1")
                                      .arg(quoted(table.name)))) {
            skip(StoreTr::tr("after rowid %1").arg(lastRowid),
                 StoreTr::tr("cannot be read: %1; the rest of the table was not read").arg(why));
            return;
        }
        sqlite3_bind_int64(next.get(), 1, lastRowid);
        if (sqlite3_step(next.get()) != SQLITE_ROW) {
            skip(StoreTr::tr("after rowid %1").arg(lastRowid),
                 StoreTr::tr("cannot be read: %1; the rest of the table was not read").arg(why));
            return;
        }
        lastRowid = sqlite3_column_int64(next.get(), 0);
        ++ordinal;
        skip(StoreTr::tr("rowid %1").arg(lastRowid), StoreTr::tr("cannot be read: %1").arg(why));
    }
}

std::optional<qint64> pragmaValue(QSqlDatabase& db, const QString& pragma, QString* error) {
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA %1").arg(pragma)) || !q.next()) {
        *error = sql::errorText(q);
        return std::nullopt;
    }
    return q.value(0).toLongLong();
}

} // namespace

bool isForeignSchemaRefusal(const StoreError& error) {
    return schema::wasForeignSchemaRefusal(error.file, error.message);
}

Expected<CleanReport, StoreError> cleanProjectCopy(const QString& sourcePath, const QString& targetPath) {
    const QString sourceFile = QFileInfo(sourcePath).absoluteFilePath();
    const QString targetFile = QFileInfo(targetPath).absoluteFilePath();
    auto failSource = [&sourceFile](const QString& message) { return unexpected(StoreError{sourceFile, message}); };
    auto failTarget = [&targetFile](const QString& message) { return unexpected(StoreError{targetFile, message}); };
    if (sourcePath.trimmed().isEmpty() || targetPath.trimmed().isEmpty())
        return unexpected(StoreError{QString(), StoreTr::tr("no project file given")});
    const QFileInfo sourceInfo(sourceFile);
    if (!sourceInfo.exists())
        return failSource(StoreTr::tr("no such project file"));
    if (!sourceInfo.isFile())
        return failSource(StoreTr::tr("is not a project file"));
    if (QFileInfo::exists(targetFile) || QFileInfo(targetFile).isSymLink())
        return failTarget(StoreTr::tr("already exists; a clean copy never overwrites a file"));
    {
        QFile f(sourceFile);
        if (!f.open(QIODevice::ReadOnly))
            return failSource(StoreTr::tr("cannot be read: %1").arg(f.errorString()));
        if (f.read(16) != QByteArray("SQLite format 3\0", 16))
            return failSource(StoreTr::tr("is not a MoE Workbench project (not an SQLite database)"));
    }

    CleanReport report;
    report.source = sourceFile;
    report.target = targetFile;

    // The source, read-only (immutable when no -wal file says someone writes it), with
    // nothing of its schema able to run.
    Connection sourceConnection;
    QSqlDatabase in = sourceConnection.add();
    const bool walPresent = QFileInfo::exists(sourceFile + QStringLiteral("-wal"));
    in.setDatabaseName(QUrl::fromLocalFile(sourceFile).toString(QUrl::FullyEncoded) +
                       (walPresent ? QStringLiteral("?mode=ro") : QStringLiteral("?immutable=1")));
    in.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=5000"));
    if (!in.open())
        return failSource(StoreTr::tr("cannot be opened: %1").arg(in.lastError().text()));
    QString err;
    if (!sql::hardenConnection(in, &err))
        return failSource(StoreTr::tr("cannot be opened safely: %1").arg(err));
    const auto appId = pragmaValue(in, QStringLiteral("application_id"), &err);
    const auto version = appId ? pragmaValue(in, QStringLiteral("user_version"), &err) : std::nullopt;
    QList<schema::SchemaObject> objects;
    if (!version || !schema::readSchemaObjects(in, &objects, &err))
        return failSource(StoreTr::tr("is not a readable project: %1").arg(err));
    if (*appId != ProjectStore::kApplicationId)
        return failSource(StoreTr::tr("is an SQLite database but not a MoE Workbench project"));
    if (*version > ProjectStore::kSchemaVersion)
        return failSource(StoreTr::tr("was written by a newer MoE Workbench (schema version %1; this build reads up "
                                      "to %2). Update MoE Workbench to clean it.")
                              .arg(*version)
                              .arg(ProjectStore::kSchemaVersion));
    if (*version < 1)
        return failSource(StoreTr::tr("is a damaged project (it has no schema version)"));
    report.sourceVersion = int(*version);
    const schema::KnownSchema* known = schema::knownSchema(int(*version), &err);
    if (!known)
        return failSource(err);
    const auto departures = schema::schemaDepartures(objects, int(*version), &err);
    if (!departures)
        return failSource(err);
    report.leftOut = *departures;

    // The target: moewb's schema of the source's version, filled in ONE transaction
    // (a clean that fails leaves no file).
    if (!QDir().mkpath(QFileInfo(targetFile).absolutePath()))
        return failTarget(StoreTr::tr("cannot create the folder %1")
                              .arg(QDir::toNativeSeparators(QFileInfo(targetFile).absolutePath())));
    struct TargetGuard {
        QString path;
        bool keep = false;
        ~TargetGuard() {
            if (!keep)
                for (const char* suffix : {"", "-journal", "-wal", "-shm"})
                    QFile::remove(path + QLatin1String(suffix));
        }
    } targetGuard{targetFile};
    {
        Connection targetConnection;
        QSqlDatabase out = targetConnection.add();
        out.setDatabaseName(targetFile);
        if (!out.open())
            return failTarget(StoreTr::tr("cannot be created: %1").arg(out.lastError().text()));
        sqlite3* target = sql::sqliteHandle(out);
        sqlite3* source = sql::sqliteHandle(in);
        if (!target || !source)
            return failTarget(StoreTr::tr("cannot be created: the Qt SQLite driver gives no SQLite handle"));
        if (!sql::hardenConnection(out, &err) ||
            !sql::exec(out, QStringLiteral("PRAGMA page_size = %1").arg(kNewPageSize), &err) ||
            !sql::exec(out, QStringLiteral("PRAGMA foreign_keys = ON"), &err))
            return failTarget(StoreTr::tr("cannot be created: %1").arg(err));
        sql::Transaction tx(out);
        if (!tx.begin(&err) ||
            !sql::exec(out, QStringLiteral("PRAGMA application_id = %1").arg(ProjectStore::kApplicationId), &err) ||
            !schema::createAtVersion(out, int(*version), &err) ||
            !sql::exec(out, QStringLiteral("PRAGMA user_version = %1").arg(*version), &err))
            return failTarget(StoreTr::tr("cannot be created: %1").arg(err));
        const auto tables = targetTables(out, &err);
        if (!tables)
            return failTarget(StoreTr::tr("cannot be created: %1").arg(err));

        QHash<QString, const schema::SchemaObject*> sourceByName;
        for (const schema::SchemaObject& o : objects)
            sourceByName.insert(o.name.toLower(), &o);
        for (const TargetTable& t : *tables) {
            CleanTable done;
            done.table = t.name;
            const schema::SchemaObject* src = sourceByName.value(t.name.toLower(), nullptr);
            const auto k = known->constFind(QStringLiteral("table ") + t.name.toLower());
            if (!src) {
                done.notRead = StoreTr::tr("the source has no such table");
            } else if (src->type != QLatin1String("table")) {
                done.notRead = StoreTr::tr("the source has %1 of this name in its place; nothing was read from it")
                                   .arg(src->type == QLatin1String("view")      ? StoreTr::tr("a view")
                                        : src->type == QLatin1String("trigger") ? StoreTr::tr("a trigger")
                                        : src->type == QLatin1String("index")   ? StoreTr::tr("an index")
                                                                                : schema::shownName(src->type, 16));
            } else if (k == known->constEnd() || !k->variants.contains(schema::normalizedSql(src->sql))) {
                done.notRead = StoreTr::tr("its definition in the source is not moewb's; nothing was read from it");
            } else {
                copyRows(source, target, t, done);
            }
            report.tables << done;
        }
        if (!tx.commit(&err))
            return failTarget(StoreTr::tr("cannot be written: %1").arg(err));
    }
    report.targetVersion = int(*version);
    targetGuard.keep = true;

    // An older version: upgraded as any file is, its backup (of this new copy) removed.
    if (*version < ProjectStore::kSchemaVersion) {
        const QFileInfo targetInfo(targetFile);
        const QString backups = targetInfo.fileName() + QStringLiteral(".v%1.bak*").arg(*version);
        const QStringList before = targetInfo.dir().entryList({backups}, QDir::Files | QDir::Hidden);
        auto upgraded = ProjectStore::open(targetFile, OpenMode::MustExist);
        for (const QString& name : targetInfo.dir().entryList({backups}, QDir::Files | QDir::Hidden))
            if (!before.contains(name))
                QFile::remove(targetInfo.dir().filePath(name));
        if (!upgraded)
            return failTarget(StoreTr::tr("was written at schema version %1 but cannot be upgraded: %2")
                                  .arg(*version)
                                  .arg(upgraded.error().message));
        report.targetVersion = upgraded.value()->schemaVersion();
    }
    return report;
}

} // namespace moewb::store
