// ProjectStore: editing runs after import — remove several, rename, move to another
// config record, tag (the window's run menu, docs/gui.md "Runs"). Each edit is one
// transaction; a refusal changes nothing.
#include "store/NameRules.h"
#include "store/ProjectStore.h"
#include "store/SqlSupport.h"

#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <functional>

namespace moewb::store {

namespace {

const QLatin1String kTagsKey("user_tags");
const QLatin1String kPatternOriginKey("pattern_origin");
constexpr int kMaxTagLength = 64;

QSqlDatabase connectionOf(const QString& name) {
    return QSqlDatabase::database(name, /*open=*/false);
}

// A run's id by its name, or by its name as the store cut it on reading (SqlSupport.h).
std::optional<qint64> runId(QSqlDatabase& db, const QString& name) {
    return sql::idByName(db, "run", name);
}

// "from-run:OLD", "from-run:OLD:LAYER (…)", "from-run:OLD (…)" name the run OLD.
std::optional<QString> renamedOrigin(const QString& origin, const QString& oldName, const QString& newName) {
    const QString prefix = QStringLiteral("from-run:") + oldName;
    if (!origin.startsWith(prefix))
        return std::nullopt;
    const QString rest = origin.mid(prefix.size());
    if (!rest.isEmpty() && !rest.startsWith(QLatin1Char(':')) && !rest.startsWith(QLatin1Char(' ')))
        return std::nullopt;
    return QStringLiteral("from-run:") + newName + rest;
}

// Rewrites a JSON object column row by row, inside the caller's transaction: `select`
// yields (key, object) rows; `edit` changes an object and says whether it did; each
// changed row is written back by `update`, bound (object, key). Every row is read
// before the first is written.
bool rewriteJsonColumn(QSqlDatabase& db, const QString& select, const QString& update,
                       const std::function<bool(QJsonObject&)>& edit, QString* error) {
    QSqlQuery read(db);
    read.setForwardOnly(true);
    if (!read.exec(select)) {
        *error = sql::errorText(read);
        return false;
    }
    QList<QPair<QVariant, QJsonObject>> changed;
    while (read.next()) {
        QJsonObject object = sql::rawObjectFromDb(read.value(1));
        if (edit(object))
            changed.append({read.value(0), object});
    }
    QSqlQuery write(db);
    write.prepare(update);
    for (const auto& [key, object] : std::as_const(changed)) {
        write.bindValue(0, sql::toDbJson(object));
        write.bindValue(1, key);
        if (!sql::exec(write, error))
            return false;
    }
    return true;
}

} // namespace

QStringList ProjectStore::runTags(const RunRow& run) {
    QStringList tags;
    for (const QJsonValue& v : run.environment.value(kTagsKey).toArray())
        if (v.isString())
            tags << v.toString();
    return tags;
}

Expected<Ok, StoreError> ProjectStore::removeRuns(const QStringList& names) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    QSqlDatabase db = connectionOf(m_connectionName);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(err));
    QSqlQuery q(db);
    q.prepare(QStringLiteral("DELETE FROM run WHERE id = ?"));
    for (const QString& name : names) {
        const auto id = runId(db, name);
        if (!id)
            return unexpected(error(StoreTr::tr("no run named %1").arg(name)));
        q.bindValue(0, *id);
        if (!sql::exec(q, &err))
            return unexpected(error(StoreTr::tr("cannot remove run %1: %2").arg(name, err)));
        if (q.numRowsAffected() != 1)
            return unexpected(error(StoreTr::tr("no run named %1").arg(name)));
    }
    if (!tx.commit(&err))
        return unexpected(error(StoreTr::tr("cannot remove the runs: %1").arg(err)));
    return Ok{};
}

Expected<Ok, StoreError> ProjectStore::renameRun(const QString& name, const QString& newName) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    if (const QString problem = nameProblem(NameKind::Run, newName); !problem.isEmpty())
        return unexpected(error(problem));
    QSqlDatabase db = connectionOf(m_connectionName);
    QString err;
    auto failed = [&](const QString& why) {
        return unexpected(error(StoreTr::tr("run %1 not renamed: %2").arg(name, why)));
    };
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return failed(err);
    const auto id = runId(db, name);
    if (!id)
        return unexpected(error(StoreTr::tr("no run named %1").arg(name)));
    if (newName == name)
        return Ok{};
    if (runId(db, newName))
        return unexpected(error(StoreTr::tr("a run named %1 already exists").arg(newName)));
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("UPDATE run SET name = ? WHERE id = ?"));
        q.bindValue(0, newName);
        q.bindValue(1, *id);
        if (!sql::exec(q, &err))
            return failed(err);
    }
    // The verdicts that read it keep pointing at it (stages::verdictFreshness compares
    // each run's name, id and counts).
    const bool basesRenamed = rewriteJsonColumn(
        db, QStringLiteral("SELECT stage, basis FROM verdict"),
        QStringLiteral("UPDATE verdict SET basis = ? WHERE stage = ?"),
        [&](QJsonObject& basis) {
            QJsonArray runs = basis.value(QLatin1String("runs")).toArray();
            bool touched = false;
            for (qsizetype i = 0; i < runs.size(); ++i) {
                QJsonObject r = runs[i].toObject();
                const bool same = r.value(QLatin1String("id")).toInteger(-1) == *id ||
                                  (!r.contains(QLatin1String("id")) && r.value(QLatin1String("name")).toString() == name);
                if (same && r.value(QLatin1String("name")).toString() == name) {
                    r.insert(QStringLiteral("name"), newName);
                    runs[i] = r;
                    touched = true;
                }
            }
            if (touched)
                basis.insert(QStringLiteral("runs"), runs);
            return touched;
        },
        &err);
    if (!basesRenamed)
        return failed(err);
    // Probe runs that measured this run's routing name it in their environment.
    const bool originsRenamed = rewriteJsonColumn(
        db, QStringLiteral("SELECT id, environment FROM run WHERE environment LIKE '%from-run:%'"),
        QStringLiteral("UPDATE run SET environment = ? WHERE id = ?"),
        [&](QJsonObject& env) {
            const auto origin = renamedOrigin(env.value(kPatternOriginKey).toString(), name, newName);
            if (origin)
                env.insert(kPatternOriginKey, *origin);
            return origin.has_value();
        },
        &err);
    if (!originsRenamed)
        return failed(err);
    if (!tx.commit(&err))
        return failed(err);
    return Ok{};
}

Expected<Ok, StoreError> ProjectStore::moveRun(const QString& name, const QString& recordName) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    QSqlDatabase db = connectionOf(m_connectionName);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(err));
    const auto id = runId(db, name);
    if (!id)
        return unexpected(error(StoreTr::tr("no run named %1").arg(name)));
    const auto recordId = sql::idByName(db, "config_record", recordName);
    if (!recordId)
        return unexpected(error(StoreTr::tr("run %1 not moved: no config record named %2").arg(name, recordName)));
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE run SET record_id = ? WHERE id = ?"));
    q.bindValue(0, *recordId);
    q.bindValue(1, *id);
    if (!sql::exec(q, &err) || !tx.commit(&err))
        return unexpected(error(StoreTr::tr("run %1 not moved: %2").arg(name, err)));
    return Ok{};
}

Expected<Ok, StoreError> ProjectStore::setRunTags(const QString& name, const QStringList& tags) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    QStringList clean;
    for (const QString& t : tags) {
        const QString tag = t.trimmed();
        if (tag.isEmpty() || clean.contains(tag))
            continue;
        if (tag.size() > kMaxTagLength)
            return unexpected(error(StoreTr::tr("a tag may be at most %1 characters long; \"%2\" has %3")
                                        .arg(kMaxTagLength)
                                        .arg(tag.left(kMaxTagLength) + QStringLiteral("…"))
                                        .arg(tag.size())));
        if (printableName(tag) != tag)
            return unexpected(error(StoreTr::tr("the tag \"%1\" holds a control character; tags may not")
                                        .arg(printableName(tag))));
        clean << tag;
    }
    QSqlDatabase db = connectionOf(m_connectionName);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(err));
    const auto found = runId(db, name);
    QSqlQuery select(db);
    select.prepare(QStringLiteral("SELECT id, environment FROM run WHERE id = ?"));
    select.bindValue(0, found.value_or(-1));
    if (!found || !select.exec() || !select.next())
        return unexpected(error(StoreTr::tr("no run named %1").arg(name)));
    const qint64 id = select.value(0).toLongLong();
    QJsonObject env = sql::rawObjectFromDb(select.value(1));
    select.finish();
    if (clean.isEmpty())
        env.remove(kTagsKey);
    else
        env.insert(kTagsKey, QJsonArray::fromStringList(clean));
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE run SET environment = ? WHERE id = ?"));
    q.bindValue(0, sql::toDbJson(env));
    q.bindValue(1, id);
    if (!sql::exec(q, &err) || !tx.commit(&err))
        return unexpected(error(StoreTr::tr("the tags of run %1 were not saved: %2").arg(name, err)));
    return Ok{};
}

} // namespace moewb::store
