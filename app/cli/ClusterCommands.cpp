// moewb cluster add / check / list: the cluster inventory of a project.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextTable.h"
#include "launch/ClusterCheck.h"
#include "launch/ClusterDefinition.h"
#include "launch/LocalRanks.h"
#include "store/ProjectStore.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QMutex>

#include <cstdio>

#include <unistd.h>

namespace moewb::cli {

namespace {

const QString kAdd = QStringLiteral("cluster add");
const QString kCheck = QStringLiteral("cluster check");
const QString kList = QStringLiteral("cluster list");

std::optional<store::ClusterRow> findCluster(store::ProjectStore& project, const QString& name) {
    for (const auto& c : project.clusters())
        if (c.name == name)
            return c;
    return std::nullopt;
}

// Live lines on stderr, from worker threads: "[node] text".
struct LiveLog {
    QMutex mutex;
    void line(const QString& node, const QString& text) {
        QMutexLocker lock(&mutex);
        const QByteArray b = (node.isEmpty() ? QString() : QStringLiteral("[%1] ").arg(node)).toLocal8Bit() +
                             text.toLocal8Bit() + '\n';
        std::fwrite(b.constData(), 1, static_cast<size_t>(b.size()), stderr);
        std::fflush(stderr);
    }
};

// The option a validation problem is about (remote/launch/ClusterDefinition.h).
QString optionOf(remote::ClusterField field) {
    switch (field) {
    case remote::ClusterField::Name: return Cli::tr("NAME");
    case remote::ClusterField::Nodes: return QStringLiteral("--node");
    case remote::ClusterField::GpusPerNode: return QStringLiteral("--gpus");
    case remote::ClusterField::IdentityFile: return QStringLiteral("--identity");
    case remote::ClusterField::Ranks: return QStringLiteral("--ranks");
    case remote::ClusterField::NetnsRate: return QStringLiteral("--netns-rate");
    case remote::ClusterField::NetnsBurst: return QStringLiteral("--netns-burst");
    }
    return {};
}

QString ncclText(const QJsonObject& inventory) {
    const QJsonValue n = inventory.value(QStringLiteral("nccl"));
    return n.isObject() ? n.toObject().value(QStringLiteral("version")).toString() : Cli::tr("none");
}

// `cluster add NAME --local --ranks N [--netns-rate RATE] [--netns-burst B] [--check]`:
// nodes "local:0".."local:N-1", the spec in the cluster's facts (launch/LocalRanks.h).
int runAddLocal(CliContext& ctx, const remote::ClusterDefinition& def, bool check) {
    const QString& name = def.name;
    const remote::LocalClusterSpec spec = *def.local;
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    if (findCluster(*project, name))
        return ctx.runtimeError(Cli::tr("%1: a cluster named %2 already exists").arg(project->path(), name));
    QJsonObject facts;
    if (check) {
        auto bundle = remote::locateProbeBundle({});
        auto inv = bundle ? remote::localInventory(*bundle) : Expected<QJsonObject, QString>(unexpected(bundle.error()));
        if (!inv)
            return ctx.runtimeError(Cli::tr("cluster %1 not added: this computer could not be checked: %2").arg(name, inv.error()));
        facts = *inv;
        facts.insert(QStringLiteral("checked"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    }
    QList<store::NodeRow> rows = def.nodeRows();
    for (auto& r : rows)
        r.facts = facts;
    store::ClusterRow cluster = def.clusterRow();
    auto added = project->addCluster(cluster, rows);
    if (!added)
        return ctx.runtimeError(added.error().text());
    if (!spec.netnsRate.isEmpty())
        if (const QString why = remote::NetnsCluster::unavailableReason(); !why.isEmpty())
            ctx.err() << Cli::tr("moewb: note: %1; stage 1 on %2 will be refused here").arg(why, name) << Qt::endl;
    if (ctx.json) {
        QJsonArray nodes;
        for (const auto& r : rows)
            nodes.append(QJsonObject{{QStringLiteral("address"), r.address}, {QStringLiteral("gpus"), r.gpus}});
        ctx.printJson({{QStringLiteral("cluster"), name}, {QStringLiteral("local"), spec.facts()}, {QStringLiteral("nodes"), nodes}});
    } else if (spec.netnsRate.isEmpty()) {
        ctx.out() << Cli::tr("Added cluster %1 (this computer, %2 ranks on loopback) to %3.").arg(name).arg(spec.ranks).arg(project->path())
                  << Qt::endl;
    } else {
        ctx.out() << Cli::tr("Added cluster %1 (this computer, %2 ranks in network namespaces, links shaped to %3) to %4.")
                         .arg(name)
                         .arg(spec.ranks)
                         .arg(spec.netnsRate, project->path())
                  << Qt::endl;
    }
    return Success;
}

// `cluster check` of a local cluster: this computer's inventory (the verified probe), no SSH.
int runCheckLocal(CliContext& ctx, store::ProjectStore& project, const store::ClusterRow& cluster, const QString& bundleDir,
                  bool update) {
    const QList<store::NodeRow> stored = project.nodes(cluster.id);
    auto bundle = remote::locateProbeBundle(bundleDir);
    Expected<QJsonObject, QString> inv = bundle ? remote::localInventory(*bundle) : Expected<QJsonObject, QString>(unexpected(bundle.error()));
    QJsonObject facts;
    if (inv) {
        facts = *inv;
        facts.insert(QStringLiteral("checked"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    }
    const auto spec = remote::LocalClusterSpec::fromFacts(cluster.facts);
    const QString shaping = spec && !spec->netnsRate.isEmpty() ? remote::NetnsCluster::unavailableReason() : QString();
    QJsonArray array;
    TextTable table;
    table.addColumn(Cli::tr("NODE"));
    table.addColumn(Cli::tr("STATUS"));
    table.addColumn(Cli::tr("HOSTNAME"));
    table.addColumn(Cli::tr("GPUS"), TextTable::Align::Right);
    table.addColumn(Cli::tr("NCCL"));
    for (const auto& n : stored) {
        array.append(QJsonObject{{QStringLiteral("node"), n.address},
                                 {QStringLiteral("ok"), bool(inv)},
                                 {QStringLiteral("error"), inv ? QString() : inv.error()},
                                 {QStringLiteral("inventory"), facts}});
        table.addRow({n.address, inv ? Cli::tr("ok") : Cli::tr("FAILED"), facts.value(QStringLiteral("hostname")).toString(QStringLiteral("-")),
                      inv ? QString::number(facts.value(QStringLiteral("gpu_count")).toInt()) : QStringLiteral("-"),
                      inv ? ncclText(facts) : QStringLiteral("-")});
    }
    int refreshedCount = 0;
    if (update) {
        QList<remote::NodeCheck> checks;
        for (const auto& n : stored)
            checks << remote::NodeCheck{n.address, bool(inv),
                                        remote::NodeFailure{n.address, remote::RemoteError::Kind::Protocol,
                                                            inv ? QString() : Cli::tr("this computer: %1").arg(inv.error())},
                                        inv ? *inv : QJsonObject(), QString(), false};
        auto kept = remote::storeClusterCheck(project, cluster, stored, checks);
        if (!kept)
            return ctx.runtimeError(kept.error().text());
        refreshedCount = *kept;
    }
    if (ctx.json) {
        ctx.printJson({{QStringLiteral("cluster"), cluster.name},
                       {QStringLiteral("ok"), bool(inv) && shaping.isEmpty()},
                       {QStringLiteral("local"), cluster.facts},
                       {QStringLiteral("shaping_problem"), shaping},
                       {QStringLiteral("updated"), refreshedCount},
                       {QStringLiteral("nodes"), array}});
    } else {
        ctx.out() << table.render();
        ctx.out() << Cli::tr("Cluster %1 is this computer: no SSH, no host keys.").arg(cluster.name) << Qt::endl;
        if (!update)
            ctx.out() << Cli::tr("Facts not stored (--no-update).") << Qt::endl;
        else
            ctx.out() << Cli::tr("Stored the facts of %n node(s) in %1.", nullptr, refreshedCount).arg(project.path())
                      << Qt::endl;
        if (!inv)
            ctx.err() << Cli::tr("moewb: this computer: %1").arg(inv.error()) << Qt::endl;
        if (!shaping.isEmpty())
            ctx.err() << Cli::tr("moewb: %1").arg(shaping) << Qt::endl;
    }
    return inv && shaping.isEmpty() ? Success : RuntimeFailure;
}

int runAdd(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption nodeOption(QStringLiteral("node"),
                                        Cli::tr("a node: ~/.ssh/config alias or [user@]host[:port]; comma-separated or repeated"),
                                        QStringLiteral("ADDR"));
    const QCommandLineOption gpusOption(QStringLiteral("gpus"), Cli::tr("accelerators per node (default 0: from the inventory)"),
                                        QStringLiteral("N"));
    const QCommandLineOption identityOption(QStringLiteral("identity"), Cli::tr("SSH private key for these nodes"),
                                            QStringLiteral("FILE"));
    const QCommandLineOption checkOption(QStringLiteral("check"),
                                         Cli::tr("connect to every node first and store its inventory (as cluster check)"));
    const QCommandLineOption acceptOption(QStringLiteral("accept-new-host-keys"),
                                          Cli::tr("with --check: trust and record unknown host keys"));
    const QCommandLineOption localOption(QStringLiteral("local"),
                                         Cli::tr("a cluster of this computer: the ranks as local processes, no SSH"));
    const QCommandLineOption ranksOption(QStringLiteral("ranks"), Cli::tr("with --local: the ranks (>= 2), one node each"),
                                         QStringLiteral("N"));
    const QCommandLineOption rateOption(QStringLiteral("netns-rate"),
                                        Cli::tr("with --local: each rank in its own network namespace, its link shaped "
                                                "to RATE (tc tbf, e.g. 200mbit; root only)"),
                                        QStringLiteral("RATE"));
    const QCommandLineOption burstOption(QStringLiteral("netns-burst"),
                                         Cli::tr("with --netns-rate: tbf's burst (default 10 ms of the rate, at least 32kb)"),
                                         QStringLiteral("B"));
    parser.addOption(nodeOption);
    parser.addOption(gpusOption);
    parser.addOption(identityOption);
    parser.addOption(checkOption);
    parser.addOption(acceptOption);
    parser.addOption(localOption);
    parser.addOption(ranksOption);
    parser.addOption(rateOption);
    parser.addOption(burstOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(Cli::tr("needs exactly one cluster name"), kAdd);
    remote::ClusterInput input;
    input.name = pos.first();
    input.local = parser.isSet(localOption);
    if (input.local && (parser.isSet(nodeOption) || parser.isSet(identityOption) || parser.isSet(acceptOption) ||
                        parser.isSet(gpusOption)))
        return ctx.usageError(Cli::tr("--local takes no --node, --gpus, --identity or --accept-new-host-keys"), kAdd);
    if (!input.local && (parser.isSet(ranksOption) || parser.isSet(rateOption) || parser.isSet(burstOption)))
        return ctx.usageError(Cli::tr("--ranks, --netns-rate and --netns-burst go with --local"), kAdd);
    input.nodes = parser.values(nodeOption);
    input.gpusPerNode = parser.value(gpusOption);
    if (parser.isSet(gpusOption) && input.gpusPerNode.trimmed().isEmpty())
        return ctx.usageError(Cli::tr("--gpus: give a whole number >= 0"), kAdd);
    input.identityFile = parser.value(identityOption);
    input.ranks = parser.value(ranksOption);
    input.netnsRate = parser.value(rateOption);
    input.netnsBurst = parser.value(burstOption);
    if (parser.isSet(rateOption) && input.netnsRate.trimmed().isEmpty())
        return ctx.usageError(Cli::tr("--netns-rate: give a rate, e.g. 200mbit"), kAdd);
    const auto def = remote::validateCluster(input);
    if (!def)
        return ctx.usageError(def.error().field == remote::ClusterField::Name
                                  ? def.error().message
                                  : Cli::tr("%1: %2").arg(optionOf(def.error().field), def.error().message),
                              kAdd);
    if (def->local)
        return runAddLocal(ctx, *def, parser.isSet(checkOption));
    const QString& name = def->name;
    const QList<remote::NodeAddress>& addresses = def->nodes;
    int gpus = def->gpusPerNode;
    const QString& identity = def->identityFile;
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    if (findCluster(*project, name))
        return ctx.runtimeError(Cli::tr("%1: a cluster named %2 already exists").arg(project->path(), name));

    QList<store::NodeRow> rows = def->nodeRows();
    QJsonObject clusterFacts;
    if (parser.isSet(checkOption)) {
        remote::ClusterCheckRequest req;
        req.nodes = addresses;
        req.ssh = remote::sshConfigFromHome();
        req.ssh.acceptNewHostKeys = parser.isSet(acceptOption);
        if (!identity.isEmpty())
            req.ssh.identityFiles << identity;
        LiveLog live;
        remote::StageOneEvents ev;
        ev.progress = [&](const QString& node, double, const QString& what) { live.line(node, what); };
        const QList<remote::NodeCheck> checks = remote::checkCluster(req, ev);
        bool allOk = true;
        for (qsizetype i = 0; i < checks.size(); ++i) {
            if (!checks[i].ok) {
                allOk = false;
                ctx.err() << checks[i].failure.message << Qt::endl;
                continue;
            }
            rows[i].facts = remote::checkedNodeFacts(checks[i].inventory);
            if (rows[i].gpus == 0)
                rows[i].gpus = checks[i].inventory.value(QStringLiteral("gpu_count")).toInt();
        }
        if (!allOk)
            return ctx.runtimeError(Cli::tr("cluster %1 not added: not every node could be checked").arg(name));
        clusterFacts.insert(QStringLiteral("checked"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
        if (gpus == 0 && !rows.isEmpty())
            gpus = rows.first().gpus;
    }
    store::ClusterRow cluster{0, name, gpus, identity, clusterFacts};
    auto added = project->addCluster(cluster, rows);
    if (!added)
        return ctx.runtimeError(added.error().text());
    if (ctx.json) {
        QJsonArray nodes;
        for (const auto& r : rows)
            nodes.append(QJsonObject{{QStringLiteral("address"), r.address}, {QStringLiteral("gpus"), r.gpus}});
        ctx.printJson({{QStringLiteral("cluster"), name}, {QStringLiteral("nodes"), nodes}});
    } else {
        ctx.out() << Cli::tr("Added cluster %1 with %n node(s) to %2.", nullptr, int(rows.size())).arg(name, project->path())
                  << Qt::endl;
    }
    return Success;
}

int runCheck(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption acceptOption(QStringLiteral("accept-new-host-keys"),
                                          Cli::tr("trust unknown host keys and record them in ~/.ssh/known_hosts "
                                                  "(default: refuse them)"));
    const QCommandLineOption timeoutOption(QStringLiteral("connect-timeout"), Cli::tr("seconds per connection (default 10)"),
                                           QStringLiteral("S"));
    const QCommandLineOption bundleOption(QStringLiteral("probe-bundle"), Cli::tr("the probe bundle directory"),
                                          QStringLiteral("DIR"));
    const QCommandLineOption noUpdateOption(QStringLiteral("no-update"),
                                            Cli::tr("only show the facts; do not store them in the project"));
    parser.addOption(acceptOption);
    parser.addOption(timeoutOption);
    parser.addOption(bundleOption);
    parser.addOption(noUpdateOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(Cli::tr("needs exactly one cluster name"), kCheck);
    int timeoutS = 10;
    if (parser.isSet(timeoutOption)) {
        bool ok = false;
        timeoutS = parser.value(timeoutOption).toInt(&ok);
        if (!ok || timeoutS < 1)
            return ctx.usageError(Cli::tr("--connect-timeout must be a whole number of seconds >= 1"), kCheck);
    }
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const auto cluster = findCluster(*project, pos.first());
    if (!cluster)
        return ctx.runtimeError(Cli::tr("%1: no cluster named %2").arg(project->path(), pos.first()));
    if (remote::LocalClusterSpec::fromFacts(cluster->facts))
        return runCheckLocal(ctx, *project, *cluster, parser.value(bundleOption), !parser.isSet(noUpdateOption));
    remote::ClusterCheckRequest req;
    const QList<store::NodeRow> stored = project->nodes(cluster->id);
    for (const auto& n : stored) {
        auto a = remote::NodeAddress::parse(n.address);
        if (!a)
            return ctx.runtimeError(Cli::tr("cluster %1: bad node address \"%2\": %3").arg(cluster->name, n.address, a.error()));
        req.nodes << *a;
    }
    req.ssh = remote::sshConfigFromHome();
    req.ssh.acceptNewHostKeys = parser.isSet(acceptOption);
    req.ssh.connectTimeoutMs = timeoutS * 1000;
    req.probeBundleDir = parser.value(bundleOption);
    if (!cluster->identityFile.isEmpty())
        req.ssh.identityFiles << cluster->identityFile;
    LiveLog live;
    remote::StageOneEvents ev;
    if (!ctx.json)
        ev.progress = [&](const QString& node, double, const QString& what) { live.line(node, what); };
    const QList<remote::NodeCheck> checks = remote::checkCluster(req, ev);
    bool allOk = true;
    QJsonArray array;
    TextTable table;
    table.addColumn(Cli::tr("NODE"));
    table.addColumn(Cli::tr("STATUS"));
    table.addColumn(Cli::tr("HOSTNAME"));
    table.addColumn(Cli::tr("GPUS"), TextTable::Align::Right);
    table.addColumn(Cli::tr("NCCL"));
    for (const auto& c : checks) {
        allOk = allOk && c.ok;
        array.append(QJsonObject{{QStringLiteral("node"), c.node},
                                 {QStringLiteral("ok"), c.ok},
                                 {QStringLiteral("error"), c.ok ? QString() : c.failure.message},
                                 {QStringLiteral("probe"), c.probePath},
                                 {QStringLiteral("inventory"), c.inventory}});
        table.addRow({c.node, c.ok ? Cli::tr("ok") : Cli::tr("FAILED"),
                      c.inventory.value(QStringLiteral("hostname")).toString(QStringLiteral("-")),
                      c.ok ? QString::number(c.inventory.value(QStringLiteral("gpu_count")).toInt()) : QStringLiteral("-"),
                      c.ok ? ncclText(c.inventory) : QStringLiteral("-")});
    }
    // The refreshed facts of the nodes that answered replace the stored ones (the GPU
    // count given at `cluster add` is kept); a failed node keeps its old facts.
    // The cluster's last check is kept too (remote/launch/ClusterDefinition.h).
    int refreshedCount = 0;
    if (!parser.isSet(noUpdateOption)) {
        auto stored2 = remote::storeClusterCheck(*project, *cluster, stored, checks);
        if (!stored2)
            return ctx.runtimeError(stored2.error().text());
        refreshedCount = *stored2;
    }
    if (ctx.json) {
        ctx.printJson({{QStringLiteral("cluster"), cluster->name},
                       {QStringLiteral("ok"), allOk},
                       {QStringLiteral("updated"), refreshedCount},
                       {QStringLiteral("nodes"), array}});
    } else {
        ctx.out() << table.render();
        if (parser.isSet(noUpdateOption))
            ctx.out() << Cli::tr("Facts not stored (--no-update).") << Qt::endl;
        else
            ctx.out() << Cli::tr("Stored the facts of %n node(s) in %1.", nullptr, refreshedCount).arg(project->path())
                      << Qt::endl;
        for (const auto& c : checks)
            if (!c.ok)
                ctx.err() << c.failure.message << Qt::endl;
    }
    return allOk ? Success : RuntimeFailure;
}

int runListClusters(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments"), kList);
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const auto clusters = project->clusters();
    if (ctx.json) {
        QJsonArray array;
        for (const auto& c : clusters) {
            QJsonArray nodes;
            for (const auto& n : project->nodes(c.id))
                nodes.append(QJsonObject{{QStringLiteral("address"), n.address},
                                         {QStringLiteral("gpus"), n.gpus},
                                         {QStringLiteral("facts"), n.facts}});
            QJsonObject o{{QStringLiteral("name"), c.name},
                          {QStringLiteral("gpus_per_node"), c.gpusPerNode},
                          {QStringLiteral("identity_file"), c.identityFile},
                          {QStringLiteral("nodes"), nodes}};
            if (remote::LocalClusterSpec::fromFacts(c.facts))
                o.insert(QStringLiteral("local"), c.facts);
            array.append(o);
        }
        ctx.printJson({{QStringLiteral("project"), project->path()}, {QStringLiteral("clusters"), array}});
        return Success;
    }
    if (clusters.isEmpty()) {
        ctx.out() << Cli::tr("No clusters in %1.").arg(project->path()) << Qt::endl;
        return Success;
    }
    TextTable table;
    table.addColumn(Cli::tr("CLUSTER"));
    table.addColumn(Cli::tr("NODES"), TextTable::Align::Right);
    table.addColumn(Cli::tr("GPUS/NODE"), TextTable::Align::Right);
    table.addColumn(Cli::tr("ADDRESSES"));
    for (const auto& c : clusters) {
        QStringList addrs;
        const auto nodes = project->nodes(c.id);
        for (const auto& n : nodes)
            addrs << n.address;
        if (const auto local = remote::LocalClusterSpec::fromFacts(c.facts)) {
            addrs = QStringList{local->netnsRate.isEmpty()
                                    ? Cli::tr("this computer (%1 ranks, loopback)").arg(nodes.size())
                                    : Cli::tr("this computer (%1 ranks, network namespaces at %2)").arg(nodes.size()).arg(local->netnsRate)};
        }
        table.addRow({c.name, QString::number(nodes.size()), QString::number(c.gpusPerNode), addrs.join(QStringLiteral(", "))});
    }
    ctx.out() << table.render();
    return Success;
}

} // namespace

QList<Command> clusterCommands() {
    QList<Command> list;
    list << Command{{QStringLiteral("cluster"), QStringLiteral("add")},
                    QStringLiteral("NAME --node ADDR[,ADDR...] [--gpus N] [--identity FILE] [--check] | "
                                   "NAME --local --ranks N [--netns-rate RATE] [--netns-burst B]"),
                    Cli::tr("add a cluster (nodes by ~/.ssh/config alias or user@host:port, or --local: this computer)"), {}};
    list.last().run = [cmd = list.last()](CliContext& ctx, const QStringList& a) { return runAdd(ctx, cmd, a); };
    list << Command{{QStringLiteral("cluster"), QStringLiteral("check")}, QStringLiteral("NAME [--accept-new-host-keys] [--no-update]"),
                    Cli::tr("connect to every node, check host keys, upload the probe, show and store its inventory"), {}};
    list.last().run = [cmd = list.last()](CliContext& ctx, const QStringList& a) { return runCheck(ctx, cmd, a); };
    list << Command{{QStringLiteral("cluster"), QStringLiteral("list")}, QString(), Cli::tr("the clusters of the project"), {}};
    list.last().run = [cmd = list.last()](CliContext& ctx, const QStringList& a) { return runListClusters(ctx, cmd, a); };
    return list;
}

} // namespace moewb::cli
