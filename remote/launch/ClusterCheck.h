#pragma once
// `moewb cluster check` and the first half of every sweep: connect to each node (host
// keys strictly), upload the probe bundle, run `moe-probe --inventory` and return the
// node's facts (moe-probe-inventory/1). Blocking; on a worker thread. Events as in
// StageOneSweep.h (called from worker threads).
#include "StageOneSweep.h"

#include <QJsonObject>

namespace moewb::remote {

struct SshClientConfig {
    QString sshDir;          // empty: libssh's defaults (~/.ssh, ...)
    QString configFile;
    QString knownHostsFile;
    QStringList identityFiles;
    bool useAgent = true;
    int connectTimeoutMs = 10000;
    bool acceptNewHostKeys = false;
    // Asked for a key's passphrase (on a worker thread); empty: skip that key. The
    // answer is used once and never stored (SshOptions::passphrase).
    std::function<QString(const QString& prompt)> passphrase;
};

struct ClusterCheckRequest {
    QList<NodeAddress> nodes;
    QString probeBundleDir;  // as StageOneRequest::probeBundleDir
    SshClientConfig ssh;
    int commandTimeoutMs = 60000;  // each command on one node; scaled to the nodes (FanoutTimeouts.h), as ssh.connectTimeoutMs
};

struct NodeCheck {
    QString node;              // NodeAddress::display()
    bool ok = false;
    NodeFailure failure;       // when !ok
    QJsonObject inventory;     // moe-probe --inventory
    QString probePath;         // absolute path of the probe on the node
    bool uploaded = false;     // false: already there (same sha256) or shared filesystem
};

// The probe bundle directory for a request value (see StageOneRequest::probeBundleDir),
// or an error naming where it looked.
Expected<QString, QString> locateProbeBundle(const QString& given);

QList<NodeCheck> checkCluster(const ClusterCheckRequest& request, const StageOneEvents& events = {},
                              const std::atomic_bool* cancel = nullptr);

} // namespace moewb::remote
