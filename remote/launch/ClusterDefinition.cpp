#include "ClusterDefinition.h"

#include "RemoteTr.h"
#include "store/NameRules.h"

#include <QFileInfo>
#include <QJsonValue>
#include <QRegularExpression>
#include <QSet>

namespace moewb::remote {

namespace {

QString lastCheckKey() { return QStringLiteral("last_check"); }

} // namespace

store::ClusterRow ClusterDefinition::clusterRow() const {
    return store::ClusterRow{0, name, local ? 0 : gpusPerNode, local ? QString() : identityFile,
                             local ? local->facts() : QJsonObject()};
}

QList<store::NodeRow> ClusterDefinition::nodeRows() const {
    QList<store::NodeRow> rows;
    if (local) {
        for (int k = 0; k < local->ranks; ++k)
            rows << store::NodeRow{0, 0, LocalClusterSpec::nodeName(k), 0, {}};
        return rows;
    }
    for (const NodeAddress& a : nodes)
        rows << store::NodeRow{0, 0, a.display(), gpusPerNode, {}};
    return rows;
}

Expected<ClusterDefinition, ClusterProblem> validateCluster(const ClusterInput& in, const QStringList& takenNames) {
    auto problem = [](ClusterField f, const QString& message) { return unexpected(ClusterProblem{f, message}); };
    ClusterDefinition d;
    d.name = in.name;
    if (in.name.trimmed().isEmpty())
        return problem(ClusterField::Name, RemoteLaunch::tr("the cluster name is empty"));
    if (const QString why = store::nameProblem(store::NameKind::Cluster, in.name); !why.isEmpty())
        return problem(ClusterField::Name, why);
    if (takenNames.contains(in.name))
        return problem(ClusterField::Name, RemoteLaunch::tr("a cluster named %1 already exists").arg(store::printableName(in.name)));

    if (in.local) {
        LocalClusterSpec spec;
        bool ok = false;
        spec.ranks = in.ranks.trimmed().toInt(&ok);
        if (in.ranks.trimmed().isEmpty())
            return problem(ClusterField::Ranks, RemoteLaunch::tr("give the ranks, a whole number from %1 to %2")
                                                    .arg(kMinLocalRanks)
                                                    .arg(kMaxLocalRanks));
        if (!ok || spec.ranks < kMinLocalRanks || spec.ranks > kMaxLocalRanks)
            return problem(ClusterField::Ranks, RemoteLaunch::tr("must be a whole number from %1 to %2, not \"%3\"")
                                                    .arg(kMinLocalRanks)
                                                    .arg(kMaxLocalRanks)
                                                    .arg(in.ranks));
        spec.netnsRate = in.netnsRate.trimmed();
        if (!spec.netnsRate.isEmpty())
            if (const QString why = LocalClusterSpec::rateProblem(spec.netnsRate); !why.isEmpty())
                return problem(ClusterField::NetnsRate, why);
        spec.netnsBurst = in.netnsBurst.trimmed();
        if (!spec.netnsBurst.isEmpty()) {
            if (spec.netnsRate.isEmpty())
                return problem(ClusterField::NetnsBurst,
                               RemoteLaunch::tr("a burst goes with a rate: give the network namespace rate too"));
            if (const QString why = LocalClusterSpec::burstProblem(spec.netnsBurst); !why.isEmpty())
                return problem(ClusterField::NetnsBurst, why);
        }
        d.local = spec;
        return d;
    }

    static const QRegularExpression separators(QStringLiteral("[,\\r\\n]+"));
    QSet<QString> seen;
    for (const QString& entry : in.nodes) {
        for (QString part : entry.split(separators, Qt::SkipEmptyParts)) {
            part = part.trimmed();
            if (part.isEmpty())
                continue;
            auto a = NodeAddress::parse(part);
            if (!a)
                return problem(ClusterField::Nodes, RemoteLaunch::tr("\"%1\": %2").arg(part, a.error()));
            if (seen.contains(a->display()))
                return problem(ClusterField::Nodes, RemoteLaunch::tr("%1 is listed twice").arg(a->display()));
            seen.insert(a->display());
            d.nodes << *a;
        }
    }
    if (d.nodes.isEmpty())
        return problem(ClusterField::Nodes, RemoteLaunch::tr("give at least one node: an ~/.ssh/config alias or "
                                                             "[user@]host[:port]"));
    if (!in.gpusPerNode.trimmed().isEmpty()) {
        bool ok = false;
        d.gpusPerNode = in.gpusPerNode.trimmed().toInt(&ok);
        if (!ok || d.gpusPerNode < 0)
            return problem(ClusterField::GpusPerNode,
                           RemoteLaunch::tr("must be a whole number >= 0, not \"%1\"").arg(in.gpusPerNode));
    }
    if (!in.identityFile.trimmed().isEmpty()) {
        d.identityFile = QFileInfo(in.identityFile.trimmed()).absoluteFilePath();
        if (!QFileInfo(d.identityFile).isFile())
            return problem(ClusterField::IdentityFile, RemoteLaunch::tr("%1: no such file").arg(d.identityFile));
    }
    return d;
}

SshClientConfig sshConfigFromHome() {
    SshClientConfig ssh;
    const QString home = qEnvironmentVariable("HOME");
    if (home.isEmpty())
        return ssh;
    ssh.sshDir = home + QStringLiteral("/.ssh");
    ssh.knownHostsFile = ssh.sshDir + QStringLiteral("/known_hosts");
    if (QFileInfo::exists(ssh.sshDir + QStringLiteral("/config")))
        ssh.configFile = ssh.sshDir + QStringLiteral("/config");
    return ssh;
}

QJsonObject checkedNodeFacts(const QJsonObject& inventory, const QDateTime& when) {
    QJsonObject f = inventory;
    f.insert(QStringLiteral("checked"), when.toUTC().toString(Qt::ISODate));
    return f;
}

LastCheck lastCheckOf(const store::ClusterRow& cluster) {
    LastCheck c;
    const QJsonObject o = cluster.facts.value(lastCheckKey()).toObject();
    c.at = QDateTime::fromString(o.value(QStringLiteral("at")).toString(), Qt::ISODate);
    c.ok = o.value(QStringLiteral("ok")).toInt();
    c.failed = o.value(QStringLiteral("failed")).toInt();
    c.problem = o.value(QStringLiteral("problem")).toString();
    return c;
}

Expected<int, store::StoreError> storeClusterCheck(store::ProjectStore& project, const store::ClusterRow& cluster,
                                                   const QList<store::NodeRow>& stored, const QList<NodeCheck>& checks,
                                                   const QDateTime& when) {
    QList<store::NodeRow> refreshed;
    int failed = 0;
    QString problem;
    for (qsizetype i = 0; i < checks.size(); ++i) {
        if (!checks[i].ok) {
            ++failed;
            if (problem.isEmpty())
                problem = checks[i].failure.message;
            continue;
        }
        if (i < stored.size())
            refreshed << store::NodeRow{stored[i].id, cluster.id, stored[i].address, 0,
                                        checkedNodeFacts(checks[i].inventory, when)};
    }
    if (!refreshed.isEmpty())
        if (auto updated = project.updateNodeFacts(cluster.id, refreshed); !updated)
            return unexpected(updated.error());
    QJsonObject facts = cluster.facts;
    facts.insert(lastCheckKey(), QJsonObject{{QStringLiteral("at"), when.toUTC().toString(Qt::ISODate)},
                                             {QStringLiteral("ok"), int(checks.size()) - failed},
                                             {QStringLiteral("failed"), failed},
                                             {QStringLiteral("problem"), problem}});
    if (auto set = project.setClusterFacts(cluster.id, facts); !set)
        return unexpected(set.error());
    return int(refreshed.size());
}

} // namespace moewb::remote
