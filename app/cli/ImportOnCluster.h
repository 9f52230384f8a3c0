#pragma once
// `moewb import --on-cluster NAME PATH`: the traces under PATH digested on the cluster's
// nodes (remote/launch/ClusterDigest.h) and planned as a local import of them would be
// (runimport::planReadTraceImport). Separate from ImportCommands.cpp, which saves the plan.
#include "importers/ImportError.h"
#include "record/ConfigRecord.h"
#include "runimport/RunImport.h"
#include "store/ProjectStore.h"

#include <optional>

namespace moewb::cli {

struct OnClusterOptions {
    QString cluster;          // the project's cluster (an SSH cluster)
    QString path;             // the traces' folder as the nodes see it
    bool acceptNewHostKeys = false;
    QString probeBundleDir;   // empty: found as for `moewb cluster check`
    bool liveProgress = true; // "[node] what" lines on stderr
};

// The plan, or the errors: files refused (as a local import names them), or a node's
// failure (ImportError::unreadable set: nothing was wrong with the files themselves).
Expected<runimport::ImportPlan, QList<importers::ImportError>> planOnCluster(
    store::ProjectStore& project, const OnClusterOptions& options, const std::optional<record::ConfigRecord>& record);

} // namespace moewb::cli
