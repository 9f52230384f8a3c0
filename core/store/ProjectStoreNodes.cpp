// Node facts refreshed after a cluster check; clusters edited and removed.
#include "store/ProjectStore.h"

#include "store/NameRules.h"
#include "store/SqlSupport.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>

namespace moewb::store {

Expected<Ok, StoreError> ProjectStore::updateNodeFacts(qint64 clusterId, const QList<NodeRow>& nodes) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(err));
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE node SET facts = ?, gpus = CASE WHEN ? > 0 THEN ? ELSE gpus END "
                             "WHERE cluster_id = ? AND address = ?"));
    for (const NodeRow& n : nodes) {
        q.bindValue(0, sql::toDbJson(n.facts));
        q.bindValue(1, n.gpus);
        q.bindValue(2, n.gpus);
        q.bindValue(3, clusterId);
        q.bindValue(4, n.address);
        if (!sql::exec(q, &err))
            return unexpected(error(StoreTr::tr("cannot update node %1: %2").arg(n.address, err)));
        if (q.numRowsAffected() != 1)
            return unexpected(error(StoreTr::tr("cluster %1 has no node %2").arg(clusterId).arg(n.address)));
    }
    if (!tx.commit(&err))
        return unexpected(error(StoreTr::tr("cannot update the nodes of cluster %1: %2").arg(clusterId).arg(err)));
    return Ok{};
}

Expected<Ok, StoreError> ProjectStore::setClusterFacts(qint64 clusterId, const QJsonObject& facts) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.prepare(QStringLiteral("UPDATE cluster SET facts = ? WHERE id = ?"));
    q.bindValue(0, sql::toDbJson(facts));
    q.bindValue(1, clusterId);
    QString err;
    if (!sql::exec(q, &err))
        return unexpected(error(StoreTr::tr("cannot update cluster %1: %2").arg(clusterId).arg(err)));
    if (q.numRowsAffected() != 1)
        return unexpected(error(StoreTr::tr("there is no cluster %1").arg(clusterId)));
    return Ok{};
}

Expected<Ok, StoreError> ProjectStore::updateCluster(qint64 clusterId, const ClusterRow& cluster,
                                                     const QList<NodeRow>& nodes) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    if (const QString problem = nameProblem(NameKind::Cluster, cluster.name); !problem.isEmpty())
        return unexpected(error(problem));
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(err));
    {
        QSqlQuery exists(db);
        exists.prepare(QStringLiteral("SELECT 1 FROM cluster WHERE name = ? AND id <> ?"));
        exists.bindValue(0, cluster.name);
        exists.bindValue(1, clusterId);
        if (exists.exec() && exists.next())
            return unexpected(error(StoreTr::tr("a cluster named %1 already exists").arg(cluster.name)));
    }
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE cluster SET name = ?, gpus_per_node = ?, identity_file = ?, facts = ? WHERE id = ?"));
    q.bindValue(0, cluster.name);
    q.bindValue(1, cluster.gpusPerNode);
    q.bindValue(2, sql::toDbText(cluster.identityFile));
    q.bindValue(3, sql::toDbJson(cluster.facts));
    q.bindValue(4, clusterId);
    if (!sql::exec(q, &err))
        return unexpected(error(StoreTr::tr("cannot save cluster %1: %2").arg(cluster.name, err)));
    if (q.numRowsAffected() != 1)
        return unexpected(error(StoreTr::tr("there is no cluster %1").arg(clusterId)));

    QHash<QString, qint64> old;
    {
        QSqlQuery s(db);
        s.prepare(QStringLiteral("SELECT id, address FROM node WHERE cluster_id = ?"));
        s.bindValue(0, clusterId);
        if (!sql::exec(s, &err))
            return unexpected(error(err));
        while (s.next())
            old.insert(s.value(1).toString(), s.value(0).toLongLong());
    }
    QSet<QString> seen;
    QSqlQuery keep(db), add(db), drop(db);
    keep.prepare(QStringLiteral("UPDATE node SET gpus = ? WHERE id = ?"));
    add.prepare(QStringLiteral("INSERT INTO node (cluster_id, address, gpus, facts) VALUES (?, ?, ?, ?)"));
    drop.prepare(QStringLiteral("DELETE FROM node WHERE id = ?"));
    for (const NodeRow& node : nodes) {
        if (node.address.trimmed().isEmpty())
            return unexpected(error(StoreTr::tr("a node of cluster %1 has no address").arg(cluster.name)));
        if (seen.contains(node.address))
            return unexpected(error(StoreTr::tr("node %1 is listed twice in cluster %2").arg(node.address, cluster.name)));
        seen.insert(node.address);
        QSqlQuery& w = old.contains(node.address) ? keep : add;
        if (old.contains(node.address)) {
            keep.bindValue(0, node.gpus);
            keep.bindValue(1, old.value(node.address));
        } else {
            add.bindValue(0, clusterId);
            add.bindValue(1, node.address);
            add.bindValue(2, node.gpus);
            add.bindValue(3, sql::toDbJson(node.facts));
        }
        if (!sql::exec(w, &err))
            return unexpected(error(StoreTr::tr("cannot save node %1: %2").arg(node.address, err)));
    }
    for (auto it = old.cbegin(); it != old.cend(); ++it) {
        if (seen.contains(it.key()))
            continue;
        drop.bindValue(0, it.value());
        if (!sql::exec(drop, &err))
            return unexpected(error(StoreTr::tr("cannot remove node %1: %2").arg(it.key(), err)));
    }
    if (!tx.commit(&err))
        return unexpected(error(StoreTr::tr("cannot save cluster %1: %2").arg(cluster.name, err)));
    return Ok{};
}

Expected<Ok, StoreError> ProjectStore::removeCluster(qint64 clusterId) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(err));
    QString name;
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("SELECT name FROM cluster WHERE id = ?"));
        q.bindValue(0, clusterId);
        if (!q.exec() || !q.next())
            return unexpected(error(StoreTr::tr("there is no cluster %1").arg(clusterId)));
        name = sql::nameFromDb(q.value(0));
    }
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("SELECT name FROM run WHERE cluster_id = ? ORDER BY name"));
        q.bindValue(0, clusterId);
        if (!sql::exec(q, &err))
            return unexpected(error(err));
        QStringList runs;
        while (q.next())
            runs << sql::nameFromDb(q.value(0));
        if (!runs.isEmpty())
            return unexpected(error(StoreTr::tr("cluster %1 is not removed: %n run(s) were measured on it (%2); remove "
                                                "them first",
                                                nullptr, int(runs.size()))
                                        .arg(name, runs.join(QStringLiteral(", ")))));
    }
    for (const QString& sqlText : {QStringLiteral("DELETE FROM node WHERE cluster_id = ?"),
                                   QStringLiteral("DELETE FROM cluster WHERE id = ?")}) {
        QSqlQuery q(db);
        q.prepare(sqlText);
        q.bindValue(0, clusterId);
        if (!sql::exec(q, &err))
            return unexpected(error(StoreTr::tr("cannot remove cluster %1: %2").arg(name, err)));
    }
    if (!tx.commit(&err))
        return unexpected(error(StoreTr::tr("cannot remove cluster %1: %2").arg(name, err)));
    return Ok{};
}

} // namespace moewb::store
