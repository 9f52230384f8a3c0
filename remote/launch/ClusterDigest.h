#pragma once
// `moewb import --on-cluster NAME PATH`: the per-rank profiler traces digested where
// they lie, on the cluster's shared file system (docs/anatomy.md, "On the cluster").
// moe-digest (the probe bundle's Qt-free digest binary, the same reader as a local
// import) is uploaded to every node like the probe (content-addressed in
// ~/.cache/moe-workbench/probe/<sha256>/, verified, run only through
// SftpUpload::verifiedExec); the first node lists the trace files under PATH
// (moe-digest --list: the folder walk and content check of a local import); the files
// are shared out among the nodes by size; each node digests its share and sends back
// only the per-step digests (moe-digest/1), read bounded and strictly
// (anatomy/DigestDocument.h). Every remote command runs in its own process group,
// killed on cancel, timeout or bad output (RemoteCommand): no process is left behind.
#include "ClusterCheck.h"
#include "StageOneSweep.h"
#include "anatomy/RankTrace.h"
#include "common/Expected.h"
#include "importers/ImportError.h"

#include <QList>
#include <QString>

#include <atomic>
#include <optional>

namespace moewb::remote {

struct ClusterDigestRequest {
    QList<NodeAddress> nodes;
    SshClientConfig ssh;
    QString path;            // the traces' folder, as the nodes see it (absolute)
    QString probeBundleDir;  // as ClusterCheckRequest::probeBundleDir
    int helperTimeoutMs = 60000; // the listing and other small commands, for one node (scaled: FanoutTimeouts)
    // Each node's digest: > 0 exactly that; 0, scaled: helper bound + its files' bytes at
    // 10 MB/s (FanoutTimeouts::kFloorBytesPerS).
    int digestTimeoutMs = 0;
};

struct ClusterDigestFile {
    QString path;   // on the nodes
    QString shown;  // as a local import of PATH shows it: PATH's folder name / the path under it
    QString node;   // the node that digested it
    qint64 bytes = 0;
    std::optional<anatomy::RankTrace> trace; // or, refused:
    importers::ImportError error;
};

// The files under PATH in the listing's order, each digested or refused with the
// reason a local read gives; or the failures (a node down or refusing the upload, a
// listing or digest that timed out, failed or sent a malformed document, cancel).
Expected<QList<ClusterDigestFile>, QList<NodeFailure>> digestOnCluster(const ClusterDigestRequest& request,
                                                                      const StageOneEvents& events = {},
                                                                      const std::atomic_bool* cancel = nullptr);

} // namespace moewb::remote
