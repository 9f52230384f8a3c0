#pragma once
// Stage 1 on this computer (launcher "local", docs/remote.md "Local clusters"): the probe
// ranks as local processes, no SSH, and optionally each rank in its own network namespace
// joined to the others through a shaped link (tc tbf), a second "cluster" with a slower
// network on the same machine.
//
// A local cluster in the project: a ClusterRow whose facts hold
//   {"launcher": "local", "ranks": N, "netns_rate": "200mbit", "netns_burst": "64kb"}
// (the last two only when shaped) and N node rows "local:0" .. "local:N-1", one per rank
// (stage 1's node counts are rank counts). Those addresses are names, not SSH addresses:
// nothing parses them as NodeAddress.
#include "common/Expected.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace moewb::remote {

struct LocalClusterSpec {
    int ranks = 0;
    QString netnsRate;   // tc rate ("100mbit"); empty: plain loopback, no namespaces
    QString netnsBurst;  // tc burst ("64kb"); empty: from the rate (defaultBurst)

    QJsonObject facts() const;  // the ClusterRow facts above
    // The cluster's facts say "launcher": "local": its spec; else nullopt.
    static std::optional<LocalClusterSpec> fromFacts(const QJsonObject& facts);
    static QString nodeName(int rank);  // "local:K"
    static bool isNodeName(const QString& address);
    // Why a tc rate / burst text cannot be used (empty: it can). Rates: a number and
    // bit, kbit, mbit, gbit, tbit, bps, kbps, mbps, gbps (tc's units); bursts: a number
    // and b, k/kb, m/mb, g/gb.
    static QString rateProblem(const QString& rate);
    static QString burstProblem(const QString& burst);
    // bits per second of a valid rate (0: not valid).
    static double rateBitsPerSecond(const QString& rate);
    // 10 ms of the rate, at least 32 KiB (tbf needs at least rate/HZ): "NNNNb".
    static QString defaultBurst(const QString& rate);
};

// The network namespaces of one sweep point: a hub namespace with a bridge, and per rank
// a namespace with eth0 = 10.77.0.(K+1)/24, joined by a veth pair whose both ends are
// shaped with `tc qdisc add dev … root tbf rate RATE burst B latency 50ms`. Everything
// is created inside the new namespaces (nothing in this machine's own namespace), named
// "moewb-<PID>-<SEQ>-hub" / "-r<K>". Removed by remove() and the destructor.
class NetnsCluster {
public:
    NetnsCluster() = default;
    ~NetnsCluster();
    NetnsCluster(const NetnsCluster&) = delete;
    NetnsCluster& operator=(const NetnsCluster&) = delete;

    // Empty when namespaces can be made here: root, `ip` and `tc` found. Else a sentence.
    static QString unavailableReason();
    // Namespaces "moewb-<PID>-…" whose PID is no longer alive (a killed earlier run):
    // their processes killed and the namespaces removed. Returns the names removed.
    static QStringList removeStale();
    // Every namespace of the prefix "moewb-<pid>-" (tests: nothing left behind).
    static QStringList namespacesOf(qint64 pid);

    // Creates the namespaces for `ranks` ranks; on failure removes what it made.
    Expected<bool, QString> create(int ranks, const QString& rate, const QString& burst);
    void remove();  // idempotent; kills what still runs inside, deletes the namespaces
    QString rankNamespace(int rank) const;
    static QString rankAddress(int rank);  // "10.77.0.(K+1)"
    QStringList names() const { return m_names; }

private:
    QString m_prefix;
    QStringList m_names;  // created, hub first
};

// One local probe rank: started in a new session (process group), output read line by
// line, ended as a group (SIGTERM, SIGKILL after killGraceMs) on cancel or timeout and
// always before run() returns, so nothing of it outlives the call.
struct LocalRankSpec {
    int execFd = -1;          // an open descriptor of the verified probe (run with fexecve)
    QStringList arguments;    // after the program: the probe's options
    QString netns;            // empty: this namespace; else the child enters /run/netns/NS first
    QByteArray secret;        // MOEWB_PROBE_SECRET (environment only)
    QString workDir;          // the probe's working directory
    int timeoutMs = 600000;
    int killGraceMs = 500;
    const std::atomic_bool* cancel = nullptr;
    std::function<void(const QString&)> onStdout;  // one line, without the newline
    std::function<void(const QString&)> onStderr;
    // The process id, as soon as it is started (tests, logs).
    std::function<void(qint64)> onStarted;
};

struct LocalRankResult {
    bool started = false;
    int exitStatus = -1;      // 0..255 for an exit, 128 + N for signal N
    bool cancelled = false;
    bool timedOut = false;
    bool groupGone = true;    // false: the process group still had members after SIGKILL
    qint64 pid = 0;
    QString error;            // could not start
};

LocalRankResult runLocalRank(const LocalRankSpec& spec);

// Opens the bundle's moe-probe for running: a regular file (no link), owned by us or by
// root, writable by nobody else, whose SHA-256 (read from the descriptor) is the one in
// the bundle's manifest.json. Returns the descriptor (close-on-exec) or why not.
Expected<int, QString> openVerifiedLocalProbe(const QString& bundleDir, QString* sha256 = nullptr);

// The inventory of this computer (moe-probe --inventory, the verified probe).
Expected<QJsonObject, QString> localInventory(const QString& bundleDir, int timeoutMs = 60000);

} // namespace moewb::remote
