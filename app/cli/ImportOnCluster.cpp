#include "ImportOnCluster.h"

#include "CliTr.h"
#include "launch/ClusterDefinition.h"
#include "launch/ClusterDigest.h"

#include <QMutex>

#include <cstdio>

namespace moewb::cli {

using importers::ImportError;

Expected<runimport::ImportPlan, QList<ImportError>> planOnCluster(store::ProjectStore& project,
                                                                  const OnClusterOptions& options,
                                                                  const std::optional<record::ConfigRecord>& record) {
    auto refuse = [&](const QString& message) {
        return unexpected(QList<ImportError>{ImportError{options.cluster, 0, {}, message, true}});
    };
    std::optional<store::ClusterRow> cluster;
    for (const auto& c : project.clusters())
        if (c.name == options.cluster)
            cluster = c;
    if (!cluster)
        return refuse(Cli::tr("no cluster named %1 in %2").arg(options.cluster, project.path()));
    if (remote::LocalClusterSpec::fromFacts(cluster->facts))
        return refuse(Cli::tr("cluster %1 is this computer: import the folder itself, without --on-cluster")
                          .arg(options.cluster));
    remote::ClusterDigestRequest request;
    for (const auto& n : project.nodes(cluster->id)) {
        auto a = remote::NodeAddress::parse(n.address);
        if (!a)
            return refuse(Cli::tr("cluster %1: bad node address \"%2\": %3").arg(cluster->name, n.address, a.error()));
        request.nodes << *a;
    }
    request.ssh = remote::sshConfigFromHome();
    request.ssh.acceptNewHostKeys = options.acceptNewHostKeys;
    if (!cluster->identityFile.isEmpty())
        request.ssh.identityFiles << cluster->identityFile;
    request.path = options.path;
    request.probeBundleDir = options.probeBundleDir;
    QMutex mutex;
    remote::StageOneEvents events;
    if (options.liveProgress)
        events.progress = [&mutex](const QString& node, double, const QString& what) {
            QMutexLocker lock(&mutex);
            const QByteArray b = (node.isEmpty() ? QString() : QStringLiteral("[%1] ").arg(node)).toLocal8Bit() +
                                 what.toLocal8Bit() + '\n';
            std::fwrite(b.constData(), 1, size_t(b.size()), stderr);
        };
    auto digested = remote::digestOnCluster(request, events);
    if (!digested) {
        QList<ImportError> errors;
        for (const remote::NodeFailure& f : digested.error())
            errors << ImportError{f.node.isEmpty() ? options.cluster : f.node, 0, {}, f.message, true};
        return unexpected(errors);
    }
    QList<runimport::ImportCandidate> files;
    std::vector<Expected<anatomy::RankTrace, ImportError>> read;
    for (remote::ClusterDigestFile& f : digested.value()) {
        files << runimport::ImportCandidate{f.path, f.shown, true};
        if (f.trace)
            read.push_back(std::move(*f.trace));
        else
            read.push_back(unexpected(f.error));
    }
    auto plan = runimport::planReadTraceImport(files, std::move(read), record);
    if (plan) {
        plan->environment.insert(QStringLiteral("trace_digest_cluster"), cluster->name);
        plan->notes << Cli::tr("traces digested on cluster %1 (%n node(s)): only the per-step digests were brought back",
                               "", int(request.nodes.size()))
                           .arg(cluster->name);
    }
    return plan;
}

} // namespace moewb::cli
