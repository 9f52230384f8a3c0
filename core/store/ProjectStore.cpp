#include "store/ProjectStore.h"
#include "store/RunsListing.h"

#include "store/NameRules.h"
#include "store/SqlSupport.h"
#include "store/StoreSchema.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUnhandledException>

#include <exception>
#include <new>

#include <cmath>
#include <unistd.h>

namespace moewb::store {

namespace {

constexpr int kBusyTimeoutMs = 5000;
constexpr int kNewPageSize = 16384; // bytes; SQLite's default is 4096

QString newConnectionName() {
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("moewb-store-%1").arg(counter.fetchAndAddOrdered(1) + 1);
}

QSqlDatabase connection(const QString& name) {
    return QSqlDatabase::database(name, /*open=*/false);
}

// Removes the Qt Sql connection when an open() fails half-way.
struct ConnectionGuard {
    QString name;
    bool keep = false;
    ~ConnectionGuard() {
        if (keep)
            return;
        {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
};

std::optional<qint64> pragmaInt(QSqlDatabase& db, const char* pragma, QString* error) {
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA %1").arg(QLatin1String(pragma))) || !q.next()) {
        *error = sql::errorText(q);
        return std::nullopt;
    }
    return q.value(0).toLongLong();
}

// access(2), not the permission bits: it also answers "no" on read-only media for root.
bool writable(const QString& path) {
    return ::access(QFile::encodeName(path).constData(), W_OK) == 0;
}

// A unique "<file>.v<N>.bak[.K]" next to the project.
QString backupPathFor(const QString& path, int version) {
    const QString base = QStringLiteral("%1.v%2.bak").arg(path).arg(version);
    QString candidate = base;
    for (int k = 2; QFileInfo::exists(candidate); ++k)
        candidate = QStringLiteral("%1.%2").arg(base).arg(k);
    return candidate;
}

// The refusal of a file whose schema is not moewb's of `version` (nothing when it is).
std::optional<StoreError> checkSchema(const QString& file, const QList<schema::SchemaObject>& objects,
                                      int version) {
    QString err;
    const auto departures = schema::schemaDepartures(objects, version, &err);
    if (!departures)
        return StoreError{file, StoreTr::tr("cannot be checked: %1").arg(err)};
    if (departures->isEmpty())
        return std::nullopt;
    const QString message = schema::foreignSchemaMessage(*departures);
    schema::noteForeignSchemaRefusal(file, message);
    return StoreError{file, message};
}

// What an exception that left a migration step was, in words.
QString describeException(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
        return StoreTr::tr("ran out of memory");
    } catch (const QUnhandledException& u) {
        if (u.exception())
            return describeException(u.exception());
        return StoreTr::tr("an error on a worker thread");
    } catch (const std::exception& x) {
        return StoreTr::tr("an unexpected error (%1)").arg(QString::fromLocal8Bit(x.what()));
    } catch (...) {
        return StoreTr::tr("an unexpected error");
    }
}

// Every migration from the file's version to the current one, in ONE transaction:
// any failure (a step's error, an exception thrown from it, a foreign key left
// dangling, a result that is not moewb's schema of the next version) rolls back all of
// them, and the file stays as it was. Nothing when the upgrade committed.
std::optional<StoreError> upgrade(QSqlDatabase& db, const QString& file) {
    auto failed = [&file](const QString& message) { return std::optional<StoreError>(StoreError{file, message}); };
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return failed(StoreTr::tr("cannot upgrade the project: %1").arg(err));
    // Re-read inside the write lock: another process may have upgraded it (or changed
    // it: it is checked again).
    const auto current = pragmaInt(db, "user_version", &err);
    if (!current)
        return failed(StoreTr::tr("cannot upgrade the project: %1").arg(err));
    if (*current >= ProjectStore::kSchemaVersion)
        return std::nullopt;
    QList<schema::SchemaObject> objects;
    if (!schema::readSchemaObjects(db, &objects, &err))
        return failed(StoreTr::tr("cannot upgrade the project: %1").arg(err));
    if (auto refused = checkSchema(file, objects, int(*current)))
        return refused;
    for (const schema::Migration& m : schema::migrations()) {
        if (m.from < *current)
            continue;
        const QString step = StoreTr::tr("cannot upgrade the project from schema version %1 to %2: %3");
        bool ok = false;
        try {
            ok = m.apply(db, &err);
        } catch (...) {
            err = describeException(std::current_exception());
        }
        if (!ok)
            return failed(step.arg(m.from).arg(m.from + 1).arg(err));
        QSqlQuery check(db);
        if (!check.exec(QStringLiteral("PRAGMA foreign_key_check")))
            return failed(StoreTr::tr("cannot upgrade the project: %1").arg(sql::errorText(check)));
        if (check.next())
            return failed(step.arg(m.from)
                              .arg(m.from + 1)
                              .arg(StoreTr::tr("a row of table %1 refers to a missing row of %2")
                                       .arg(check.value(0).toString(), check.value(2).toString())));
        check.finish();
        if (!sql::exec(db, QStringLiteral("PRAGMA user_version = %1").arg(m.from + 1), &err))
            return failed(StoreTr::tr("cannot upgrade the project: %1").arg(err));
        // The step made moewb's schema of the next version, nothing else.
        if (!schema::readSchemaObjects(db, &objects, &err))
            return failed(step.arg(m.from).arg(m.from + 1).arg(err));
        if (auto differs = checkSchema(file, objects, m.from + 1))
            return failed(step.arg(m.from).arg(m.from + 1).arg(differs->message));
    }
    if (!tx.commit(&err))
        return failed(StoreTr::tr("cannot upgrade the project: %1").arg(err));
    return std::nullopt;
}

} // namespace

QString StoreError::text() const {
    return file.isEmpty() ? message : QStringLiteral("%1: %2").arg(file, message);
}

QString runKindTitle(RunKind kind) {
    switch (kind) {
    case RunKind::Probe:
        return StoreTr::tr("probe", "run kind");
    case RunKind::Training:
        return StoreTr::tr("training", "run kind");
    case RunKind::Imported:
        return StoreTr::tr("imported", "run kind");
    }
    return {};
}

QString runKindName(RunKind kind) {
    switch (kind) {
    case RunKind::Probe:
        return QStringLiteral("probe");
    case RunKind::Training:
        return QStringLiteral("training");
    case RunKind::Imported:
        return QStringLiteral("imported");
    }
    return {};
}

std::optional<RunKind> runKindFromName(const QString& name) {
    for (RunKind k : {RunKind::Probe, RunKind::Training, RunKind::Imported})
        if (runKindName(k) == name)
            return k;
    return std::nullopt;
}

QString thresholdSourceName(ThresholdSource source) {
    switch (source) {
    case ThresholdSource::Placeholder:
        return QStringLiteral("placeholder");
    case ThresholdSource::Team:
        return QStringLiteral("team");
    case ThresholdSource::Suggested:
        return QStringLiteral("suggested");
    }
    return {};
}

std::optional<ThresholdSource> thresholdSourceFromName(const QString& name) {
    for (ThresholdSource s :
         {ThresholdSource::Placeholder, ThresholdSource::Team, ThresholdSource::Suggested})
        if (thresholdSourceName(s) == name)
            return s;
    return std::nullopt;
}

QString ProjectStore::defaultProjectPath() {
    // XDG by hand rather than QStandardPaths::AppDataLocation, which would add the
    // organisation/application names of whichever program is running.
    QString dataHome = qEnvironmentVariable("XDG_DATA_HOME");
    if (dataHome.isEmpty() || QDir::isRelativePath(dataHome))
        dataHome = QDir::homePath() + QStringLiteral("/.local/share");
    return QDir::cleanPath(dataHome + QStringLiteral("/moe-workbench/default.moewb"));
}

ProjectStore::ProjectStore(QString path, QString connectionName)
    : m_path(std::move(path)), m_connectionName(std::move(connectionName)) {}

ProjectStore::~ProjectStore() {
    forgetRunsListing(m_connectionName);
    {
        QSqlDatabase db = connection(m_connectionName);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

QString ProjectStore::path() const {
    return m_path;
}

int ProjectStore::schemaVersion() const {
    return m_schemaVersion;
}

bool ProjectStore::readOnly() const {
    return m_readOnly;
}

StoreError ProjectStore::readOnlyError() const {
    return error(StoreTr::tr("the project is read-only (its file or folder cannot be written); nothing was "
                             "changed. Copy it to a writable folder to change it."));
}

StoreError ProjectStore::error(const QString& message) const {
    return StoreError{m_path, message};
}

Expected<std::unique_ptr<ProjectStore>, StoreError> ProjectStore::open(const QString& path, OpenMode mode) {
    if (path.trimmed().isEmpty())
        return unexpected(StoreError{QString(), StoreTr::tr("no project file given")});
    const QString file = QFileInfo(path).absoluteFilePath();
    auto fail = [&file](const QString& message) { return unexpected(StoreError{file, message}); };

    const QFileInfo info(file);
    // Read-only media or another user's file: opened read-only. Without a -wal file
    // nobody has it open for writing, and SQLite is told the file is immutable, so it
    // makes no -wal/-shm files (a read-only reader's would be left behind, owned by
    // it, and lock the owner out); with one, mode=ro reads the WAL's commits too.
    bool readOnly = false;
    bool immutable = false;
    if (info.exists()) {
        if (info.isDir())
            return fail(StoreTr::tr("is a folder, not a project file"));
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return fail(StoreTr::tr("cannot be read: %1").arg(f.errorString()));
        const QByteArray header = f.read(16);
        // An empty file is an empty database to SQLite; anything else must be one.
        if (!header.isEmpty() && header != QByteArray("SQLite format 3\0", 16))
            return fail(StoreTr::tr("is not a MoE Workbench project (not an SQLite database)"));
        readOnly = !writable(info.absolutePath()) || !writable(file);
        immutable = readOnly && !QFileInfo::exists(file + QStringLiteral("-wal"));
    } else if (mode == OpenMode::MustExist) {
        return fail(StoreTr::tr("no such project file"));
    } else if (!QDir().mkpath(info.absolutePath())) {
        return fail(
            StoreTr::tr("cannot create the folder %1").arg(QDir::toNativeSeparators(info.absolutePath())));
    } else if (!writable(info.absolutePath())) {
        return fail(StoreTr::tr("cannot be created: the folder %1 is read-only")
                        .arg(QDir::toNativeSeparators(info.absolutePath())));
    }

    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return fail(StoreTr::tr("the Qt SQLite driver (QSQLITE) is not installed"));
    const QString name = newConnectionName();
    ConnectionGuard guard{name};
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    if (readOnly) {
        db.setDatabaseName(QUrl::fromLocalFile(file).toString(QUrl::FullyEncoded) +
                           (immutable ? QStringLiteral("?immutable=1") : QStringLiteral("?mode=ro")));
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=%1")
                                 .arg(kBusyTimeoutMs));
    } else {
        db.setDatabaseName(file);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(kBusyTimeoutMs));
    }
    if (!db.open())
        return fail(StoreTr::tr("cannot be opened: %1").arg(db.lastError().text()));

    QString err;
    // A project file may come from someone else: before anything else, nothing stored
    // in its schema may run (views and triggers off, schema not trusted, no extensions;
    // sql::hardenConnection, docs/store.md, "What opening a project checks").
    if (!sql::hardenConnection(db, &err))
        return fail(StoreTr::tr("cannot be opened safely: %1").arg(err));
    if (!sql::exec(db, QStringLiteral("PRAGMA busy_timeout = %1").arg(kBusyTimeoutMs), &err))
        return fail(StoreTr::tr("cannot be opened: %1").arg(err));
    const auto appId = pragmaInt(db, "application_id", &err);
    const auto version = appId ? pragmaInt(db, "user_version", &err) : std::nullopt;
    QList<schema::SchemaObject> objects;
    if (!version || !schema::readSchemaObjects(db, &objects, &err)) // e.g. "file is not a database"
        return fail(StoreTr::tr("is not a readable project: %1").arg(err));

    const bool isNew = *appId == 0 && *version == 0 && objects.isEmpty();
    if (readOnly && isNew)
        return fail(StoreTr::tr("is read-only and empty: a new project cannot be created there"));
    if (!isNew) {
        if (*appId != kApplicationId)
            return fail(StoreTr::tr("is an SQLite database but not a MoE Workbench project"));
        if (*version > kSchemaVersion)
            return fail(
                StoreTr::tr(
                    "was written by a newer MoE Workbench (schema version %1; this build reads up to %2). "
                    "Update MoE Workbench to open it.")
                    .arg(*version)
                    .arg(kSchemaVersion));
        if (*version < 1)
            return fail(StoreTr::tr("is a damaged project (it has no schema version)"));
        // Only what moewb wrote: every table, index, view and trigger must be one that
        // moewb's schema of this version has, with moewb's definition, before any other
        // statement reads the file.
        if (auto refused = checkSchema(file, objects, int(*version)))
            return unexpected(*refused);
        if (readOnly && *version < kSchemaVersion)
            return fail(StoreTr::tr("is read-only and was written by an older MoE Workbench (schema version %1); "
                                    "copy it to a writable folder so it can be upgraded")
                            .arg(*version));
    }
    if (readOnly) {
        if (!sql::exec(db, QStringLiteral("PRAGMA foreign_keys = ON"), &err))
            return fail(StoreTr::tr("cannot be opened: %1").arg(err));
        std::unique_ptr<ProjectStore> store(new ProjectStore(file, name));
        store->m_schemaVersion = int(*version);
        store->m_readOnly = true;
        guard.keep = true;
        return store;
    }

    // WAL: readers (the GUI) never block the writer (an import), and a commit is one
    // append to the -wal file. FULL: every commit is fsync'ed, so a committed run
    // survives a power loss too (NORMAL would only survive a process crash); runs
    // are few, large transactions, so the extra fsync per commit costs nothing.
    //
    // A new file gets 16 KiB pages (set before anything is written; a file of 4 KiB
    // pages keeps them): an import's chunks span several pages each, and every page
    // is copied from the -wal file into the project at commit (the checkpoint), one
    // read and one write a page; four times fewer pages cut the import's system time
    // by a third, for the same bytes per count (docs/store.md, "Durability").
    if (isNew && !sql::exec(db, QStringLiteral("PRAGMA page_size = %1").arg(kNewPageSize), &err))
        return fail(StoreTr::tr("cannot create the project: %1").arg(err));
    QSqlQuery pragma(db);
    if (!pragma.exec(QStringLiteral("PRAGMA journal_mode = WAL")) || !pragma.next())
        return fail(StoreTr::tr("cannot switch to write-ahead logging: %1").arg(sql::errorText(pragma)));
    pragma.finish();
    if (!sql::exec(db, QStringLiteral("PRAGMA synchronous = FULL"), &err))
        return fail(StoreTr::tr("cannot be opened: %1").arg(err));

    if (isNew) {
        // Foreign keys are switched on after creation; PRAGMA foreign_keys is a
        // no-op inside a transaction.
        sql::Transaction tx(db);
        if (!tx.begin(&err))
            return fail(StoreTr::tr("cannot create the project: %1").arg(err));
        const auto again = pragmaInt(db, "user_version", &err); // another process may have won the race
        if (!again)
            return fail(StoreTr::tr("cannot create the project: %1").arg(err));
        if (*again == 0) {
            if (!sql::exec(db, QStringLiteral("PRAGMA application_id = %1").arg(kApplicationId), &err) ||
                !schema::createLatest(db, &err) ||
                !sql::exec(db, QStringLiteral("PRAGMA user_version = %1").arg(kSchemaVersion), &err))
                return fail(StoreTr::tr("cannot create the project: %1").arg(err));
        }
        if (!tx.commit(&err))
            return fail(StoreTr::tr("cannot create the project: %1").arg(err));
    } else if (*version < kSchemaVersion) {
        // Keep the file as it was before changing it: a consistent copy, WAL included.
        // A failed upgrade leaves the file as it was, so its copy is removed: failed
        // attempts never pile up copies (at most one per version and upgrade).
        const QString backup = backupPathFor(file, int(*version));
        struct BackupGuard {
            QString path;
            bool keep = false;
            ~BackupGuard() {
                if (!keep)
                    QFile::remove(path);
            }
        } backupGuard{backup};
        QSqlQuery vacuum(db);
        vacuum.prepare(QStringLiteral("VACUUM INTO ?"));
        vacuum.bindValue(0, backup);
        if (!vacuum.exec())
            return fail(StoreTr::tr("cannot back up the project before upgrading it: %1")
                            .arg(sql::errorText(vacuum)));
        vacuum.finish();

        if (!sql::exec(db, QStringLiteral("PRAGMA foreign_keys = OFF"), &err))
            return fail(StoreTr::tr("cannot upgrade the project: %1").arg(err));
        if (auto failed = upgrade(db, file))
            return unexpected(*failed);
        backupGuard.keep = true;
    }
    if (!sql::exec(db, QStringLiteral("PRAGMA foreign_keys = ON"), &err))
        return fail(StoreTr::tr("cannot be opened: %1").arg(err));
    const auto finalVersion = pragmaInt(db, "user_version", &err);
    if (!finalVersion || *finalVersion != kSchemaVersion)
        return fail(StoreTr::tr("cannot be opened: unexpected schema version after upgrade"));
    std::unique_ptr<ProjectStore> store(new ProjectStore(file, name));
    store->m_schemaVersion = int(*finalVersion);
    guard.keep = true;
    return store;
}

// ---- config records -------------------------------------------------------------

namespace {
ConfigRecordRow recordFrom(const QSqlQuery& q) {
    ConfigRecordRow r;
    r.id = q.value(0).toLongLong();
    r.name = sql::nameFromDb(q.value(1));
    r.json = sql::objectFromDb(q.value(2));
    r.complete = q.value(3).toBool();
    r.created = sql::fromDbTime(q.value(4));
    return r;
}
} // namespace

Expected<qint64, StoreError> ProjectStore::addConfigRecord(const QString& name, const QJsonObject& json,
                                                           bool complete) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    if (const QString problem = nameProblem(NameKind::Record, name); !problem.isEmpty())
        return unexpected(error(problem));
    QSqlDatabase db = connection(m_connectionName);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(err));
    if (configRecord(name))
        return unexpected(error(StoreTr::tr("a config record named %1 already exists").arg(name)));
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("INSERT INTO config_record (name, json, complete, created) VALUES (?, ?, ?, ?)"));
    q.bindValue(0, name);
    q.bindValue(1, sql::toDbJson(json));
    q.bindValue(2, complete ? 1 : 0);
    q.bindValue(3, sql::toDbTime(QDateTime::currentDateTimeUtc()));
    if (!sql::exec(q, &err))
        return unexpected(error(StoreTr::tr("cannot save config record %1: %2").arg(name, err)));
    const qint64 id = q.lastInsertId().toLongLong();
    if (!tx.commit(&err))
        return unexpected(error(StoreTr::tr("cannot save config record %1: %2").arg(name, err)));
    return id;
}

Expected<Ok, StoreError> ProjectStore::updateConfigRecord(const QString& name, const QJsonObject& json,
                                                          bool complete) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    QSqlDatabase db = connection(m_connectionName);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE config_record SET json = ?, complete = ? WHERE name = ?"));
    q.bindValue(0, sql::toDbJson(json));
    q.bindValue(1, complete ? 1 : 0);
    q.bindValue(2, name);
    QString err;
    if (!sql::exec(q, &err))
        return unexpected(error(StoreTr::tr("cannot save config record %1: %2").arg(name, err)));
    if (q.numRowsAffected() != 1)
        return unexpected(error(StoreTr::tr("no config record named %1").arg(name)));
    return Ok{};
}

QList<ConfigRecordRow> ProjectStore::configRecords() const {
    QList<ConfigRecordRow> rows;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT id, name, json, complete, created FROM config_record ORDER BY name")))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        rows.append(recordFrom(q));
    return rows;
}

std::optional<ConfigRecordRow> ProjectStore::configRecord(const QString& name) const {
    QSqlDatabase db = connection(m_connectionName);
    const auto id = sql::idByName(db, "config_record", name);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT id, name, json, complete, created FROM config_record WHERE id = ?"));
    q.bindValue(0, id.value_or(-1));
    if (!id || !q.exec() || !q.next())
        return std::nullopt;
    return recordFrom(q);
}

// ---- clusters -------------------------------------------------------------------

Expected<qint64, StoreError> ProjectStore::addCluster(const ClusterRow& cluster,
                                                      const QList<NodeRow>& nodes) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    if (const QString problem = nameProblem(NameKind::Cluster, cluster.name); !problem.isEmpty())
        return unexpected(error(problem));
    QSqlDatabase db = connection(m_connectionName);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(err));
    {
        QSqlQuery exists(db);
        exists.prepare(QStringLiteral("SELECT 1 FROM cluster WHERE name = ?"));
        exists.bindValue(0, cluster.name);
        if (exists.exec() && exists.next())
            return unexpected(error(StoreTr::tr("a cluster named %1 already exists").arg(cluster.name)));
    }
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT INTO cluster (name, gpus_per_node, identity_file, facts) VALUES (?, ?, ?, ?)"));
    q.bindValue(0, cluster.name);
    q.bindValue(1, cluster.gpusPerNode);
    q.bindValue(2, sql::toDbText(cluster.identityFile));
    q.bindValue(3, sql::toDbJson(cluster.facts));
    if (!sql::exec(q, &err))
        return unexpected(error(StoreTr::tr("cannot save cluster %1: %2").arg(cluster.name, err)));
    const qint64 id = q.lastInsertId().toLongLong();

    QSqlQuery n(db);
    n.prepare(QStringLiteral("INSERT INTO node (cluster_id, address, gpus, facts) VALUES (?, ?, ?, ?)"));
    QSet<QString> seen;
    for (const NodeRow& node : nodes) {
        if (node.address.trimmed().isEmpty())
            return unexpected(error(StoreTr::tr("a node of cluster %1 has no address").arg(cluster.name)));
        if (seen.contains(node.address))
            return unexpected(
                error(StoreTr::tr("node %1 is listed twice in cluster %2").arg(node.address, cluster.name)));
        seen.insert(node.address);
        n.bindValue(0, id);
        n.bindValue(1, node.address);
        n.bindValue(2, node.gpus);
        n.bindValue(3, sql::toDbJson(node.facts));
        if (!sql::exec(n, &err))
            return unexpected(error(StoreTr::tr("cannot save node %1: %2").arg(node.address, err)));
    }
    if (!tx.commit(&err))
        return unexpected(error(StoreTr::tr("cannot save cluster %1: %2").arg(cluster.name, err)));
    return id;
}

QList<ClusterRow> ProjectStore::clusters() const {
    QList<ClusterRow> rows;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral(
            "SELECT id, name, gpus_per_node, identity_file, facts FROM cluster ORDER BY name")))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        rows.append(ClusterRow{q.value(0).toLongLong(), sql::nameFromDb(q.value(1)), q.value(2).toInt(),
                               sql::textFromDb(q.value(3)), sql::objectFromDb(q.value(4))});
    return rows;
}

QList<NodeRow> ProjectStore::nodes(qint64 clusterId) const {
    QList<NodeRow> rows;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    q.prepare(QStringLiteral(
        "SELECT id, cluster_id, address, gpus, facts FROM node WHERE cluster_id = ? ORDER BY id"));
    q.bindValue(0, clusterId);
    if (!q.exec())
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        rows.append(NodeRow{q.value(0).toLongLong(), q.value(1).toLongLong(), sql::nameFromDb(q.value(2)),
                            q.value(3).toInt(), sql::objectFromDb(q.value(4))});
    return rows;
}

// ---- thresholds, verdicts, overrides ----------------------------------------------

namespace {
ThresholdRow thresholdFrom(const QSqlQuery& q) {
    return ThresholdRow{sql::nameFromDb(q.value(0)), q.value(1).toDouble(),
                        thresholdSourceFromName(q.value(2).toString()).value_or(ThresholdSource::Team),
                        sql::textFromDb(q.value(3)), sql::fromDbTime(q.value(4))};
}
} // namespace

Expected<Ok, StoreError> ProjectStore::setThreshold(const ThresholdRow& t) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    if (t.key.trimmed().isEmpty())
        return unexpected(error(StoreTr::tr("a threshold needs a key")));
    if (!std::isfinite(t.value))
        return unexpected(error(StoreTr::tr("threshold %1 must be a finite number").arg(t.key)));
    QSqlQuery q(connection(m_connectionName));
    q.prepare(QStringLiteral(
        "INSERT OR REPLACE INTO threshold (key, value, source, note, updated) VALUES (?, ?, ?, ?, ?)"));
    q.bindValue(0, t.key);
    q.bindValue(1, t.value);
    q.bindValue(2, thresholdSourceName(t.source));
    q.bindValue(3, sql::toDbText(t.note));
    q.bindValue(4, sql::toDbTime(t.updated.isValid() ? t.updated : QDateTime::currentDateTimeUtc()));
    QString err;
    if (!sql::exec(q, &err))
        return unexpected(error(StoreTr::tr("cannot save threshold %1: %2").arg(t.key, err)));
    return Ok{};
}

QList<ThresholdRow> ProjectStore::thresholds() const {
    QList<ThresholdRow> rows;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT key, value, source, note, updated FROM threshold ORDER BY key")))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        rows.append(thresholdFrom(q));
    return rows;
}

std::optional<ThresholdRow> ProjectStore::threshold(const QString& key) const {
    QSqlQuery q(connection(m_connectionName));
    q.prepare(QStringLiteral("SELECT key, value, source, note, updated FROM threshold WHERE key = ?"));
    q.bindValue(0, key);
    if (!q.exec() || !q.next())
        return std::nullopt;
    return thresholdFrom(q);
}

namespace {
bool validStage(int stage) {
    return stage >= 1 && stage <= 4;
}
VerdictRow verdictFrom(const QSqlQuery& q) {
    return VerdictRow{q.value(0).toInt(), sql::nameFromDb(q.value(1)), sql::arrayFromDb(q.value(2)),
                      sql::fromDbTime(q.value(3)), sql::basisFromDb(q.value(4))};
}
} // namespace

Expected<Ok, StoreError> ProjectStore::saveVerdict(const VerdictRow& v) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    if (!validStage(v.stage))
        return unexpected(error(StoreTr::tr("there is no stage %1 (stages are 1 to 4)").arg(v.stage)));
    if (v.status.trimmed().isEmpty())
        return unexpected(error(StoreTr::tr("a verdict needs a status")));
    QSqlQuery q(connection(m_connectionName));
    q.prepare(QStringLiteral(
        "INSERT OR REPLACE INTO verdict (stage, status, reasons, decided, basis) VALUES (?, ?, ?, ?, ?)"));
    q.bindValue(0, v.stage);
    q.bindValue(1, v.status);
    q.bindValue(2, sql::toDbJson(v.reasons));
    q.bindValue(3, sql::toDbTime(v.decided.isValid() ? v.decided : QDateTime::currentDateTimeUtc()));
    q.bindValue(4, sql::toDbJson(v.basis));
    QString err;
    if (!sql::exec(q, &err))
        return unexpected(
            error(StoreTr::tr("cannot save the verdict of stage %1: %2").arg(v.stage).arg(err)));
    return Ok{};
}

QList<VerdictRow> ProjectStore::verdicts() const {
    QList<VerdictRow> rows;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT stage, status, reasons, decided, basis FROM verdict ORDER BY stage")))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        rows.append(verdictFrom(q));
    return rows;
}

std::optional<VerdictRow> ProjectStore::verdict(int stage) const {
    QSqlQuery q(connection(m_connectionName));
    q.prepare(QStringLiteral("SELECT stage, status, reasons, decided, basis FROM verdict WHERE stage = ?"));
    q.bindValue(0, stage);
    if (!q.exec() || !q.next())
        return std::nullopt;
    return verdictFrom(q);
}

Expected<qint64, StoreError> ProjectStore::addOverride(const OverrideRow& o) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    if (!validStage(o.stage))
        return unexpected(error(StoreTr::tr("there is no stage %1 (stages are 1 to 4)").arg(o.stage)));
    if (o.justification.trimmed().isEmpty())
        return unexpected(
            error(StoreTr::tr("overriding stage %1 needs a written justification").arg(o.stage)));
    QSqlQuery q(connection(m_connectionName));
    q.prepare(
        QStringLiteral("INSERT INTO override (stage, justification, author, created) VALUES (?, ?, ?, ?)"));
    q.bindValue(0, o.stage);
    q.bindValue(1, o.justification);
    q.bindValue(2, sql::toDbText(o.author));
    q.bindValue(3, sql::toDbTime(o.created.isValid() ? o.created : QDateTime::currentDateTimeUtc()));
    QString err;
    if (!sql::exec(q, &err))
        return unexpected(
            error(StoreTr::tr("cannot save the override of stage %1: %2").arg(o.stage).arg(err)));
    return q.lastInsertId().toLongLong();
}

QList<OverrideRow> ProjectStore::overrides() const {
    QList<OverrideRow> rows;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT id, stage, justification, author, created FROM override ORDER BY id")))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        rows.append(OverrideRow{q.value(0).toLongLong(), q.value(1).toInt(), sql::textFromDb(q.value(2)),
                                sql::nameFromDb(q.value(3)), sql::fromDbTime(q.value(4))});
    return rows;
}

Expected<QStringList, StoreError> ProjectStore::integrityProblems() const {
    QStringList problems;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("PRAGMA integrity_check")))
        return unexpected(error(sql::errorText(q)));
    while (q.next()) {
        const QString line = q.value(0).toString();
        if (line != QLatin1String("ok"))
            problems.append(line);
    }
    if (!q.exec(QStringLiteral("PRAGMA foreign_key_check")))
        return unexpected(error(sql::errorText(q)));
    while (q.next())
        problems.append(StoreTr::tr("row %1 of table %2 refers to a missing row of %3")
                            .arg(q.value(1).toString(), q.value(0).toString(), q.value(2).toString()));
    return problems;
}

} // namespace moewb::store
