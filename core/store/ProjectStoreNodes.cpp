// Node facts refreshed after a cluster check.
#include "store/ProjectStore.h"

#include "store/SqlSupport.h"

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

} // namespace moewb::store
