#pragma once
// What a cluster is made of, checked the same way wherever it is entered: `moewb
// cluster add` and the window's Add/Edit dialog (docs/remote.md, "Cluster
// definitions"). Also the SSH files of this user and how a check's results are kept
// in the project, shared by `moewb cluster check` and the Clusters page.
#include "ClusterCheck.h"
#include "LocalRanks.h"
#include "NodeAddress.h"
#include "common/Expected.h"
#include "store/ProjectStore.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace moewb::remote {

// The part of the input a problem is about (the CLI names its option, the dialog its field).
enum class ClusterField { Name, Nodes, GpusPerNode, IdentityFile, Ranks, NetnsRate, NetnsBurst };

// The input as typed: text, so that "abc" for a number is refused with what was typed.
struct ClusterInput {
    QString name;
    bool local = false;        // this computer (launcher local): ranks, no SSH
    QStringList nodes;         // SSH clusters: addresses; an entry may hold several, separated
                               // by commas or line breaks
    QString gpusPerNode;       // empty: 0 (taken from the inventory at the check)
    QString identityFile;      // empty: none (the agent and ~/.ssh/id_*); made absolute
    QString ranks;             // local: 2..250
    QString netnsRate;         // local: empty = loopback; else a tc rate ("200mbit")
    QString netnsBurst;        // local: empty = from the rate; only with netnsRate
};

struct ClusterProblem {
    ClusterField field;
    QString message;  // a sentence without the field's name, e.g. "must be a whole number >= 0, not \"x\""
};

struct ClusterDefinition {
    QString name;
    QList<NodeAddress> nodes;               // SSH clusters
    int gpusPerNode = 0;
    QString identityFile;                   // absolute, or empty
    std::optional<LocalClusterSpec> local;  // local clusters

    // The store rows (facts empty; a local cluster's spec in the cluster's facts).
    store::ClusterRow clusterRow() const;
    QList<store::NodeRow> nodeRows() const;
};

inline constexpr int kMinLocalRanks = 2;
inline constexpr int kMaxLocalRanks = 250;

// The definition, or the first problem found (in the order of ClusterField). `takenNames`:
// the names of the project's other clusters; a name among them is refused.
Expected<ClusterDefinition, ClusterProblem> validateCluster(const ClusterInput& input,
                                                           const QStringList& takenNames = {});

// The SSH files of this user: $HOME/.ssh (libssh alone would take the home directory from
// the password database and ignore $HOME), its config when there is one, its known_hosts.
SshClientConfig sshConfigFromHome();

// The facts kept for a node that answered a check: its inventory and "checked" (UTC, ISO).
QJsonObject checkedNodeFacts(const QJsonObject& inventory, const QDateTime& when = QDateTime::currentDateTimeUtc());

// The last check of a cluster, kept in the cluster's facts under "last_check":
// {"at": ISO time, "ok": nodes that answered, "failed": nodes that did not, "problem": the
// first failure's message}.
struct LastCheck {
    QDateTime at;  // invalid: never checked
    int ok = 0;
    int failed = 0;
    QString problem;
};
LastCheck lastCheckOf(const store::ClusterRow& cluster);

// Keeps a check's results in the project, in one call per table: the facts of each node
// that answered replace its stored ones (the GPU count given at `cluster add` is kept; a
// failed node keeps its old facts), and the cluster's "last_check" is set. `checks` are in
// the order of `stored`. Returns how many nodes were refreshed.
Expected<int, store::StoreError> storeClusterCheck(store::ProjectStore& project, const store::ClusterRow& cluster,
                                                   const QList<store::NodeRow>& stored, const QList<NodeCheck>& checks,
                                                   const QDateTime& when = QDateTime::currentDateTimeUtc());

} // namespace moewb::remote
