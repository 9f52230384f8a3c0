#pragma once
// Stage 1 over SSH: upload the probe bundle to the nodes, run moe-probe for each sweep
// point (a node count) through a launcher (ssh | mpirun | slurm), collect rank 0's
// moe-probe/2 JSON, import it (core/importers) and save it (core/store) as one run.
// Launcher local: the ranks run on this computer, no SSH (LocalRanks.h): a local cluster
// (`moewb cluster add NAME --local --ranks N`) runs with it whatever launcher is asked
// (ssh, the default, or local; mpirun and slurm are refused), its node counts are rank
// counts, and with a rate (the cluster's or netnsRate) each rank runs in its own network
// namespace behind a shaped link.
//
// Threading: run() blocks; call it on a worker thread. It opens its own ProjectStore
// on request.projectPath and its own SSH sessions (one per thread). Every event is
// called from a worker thread (not necessarily the one that called run()), possibly
// from several at once: the callbacks must be thread-safe (the GUI posts them to its
// thread with QMetaObject::invokeMethod(..., Qt::QueuedConnection)).
// cancel() may be called from any thread; run() then returns within about a second
// when the probes honour SIGTERM (each node's watchdog ends its process group; SIGKILL
// after 0.5 s; see RemoteCommand).
//
// Results: each finished sweep point is one run "<prefix>-n<N>" (kind probe, with the
// request's config record and cluster). A point that failed or was cancelled is never
// saved: no partial run is stored. run() returns the saved run names, or a failure
// listing per-node errors together with the runs saved before the failure.
#include "../NodeAddress.h"
#include "../ssh/KnownHostsPolicy.h"
#include "../ssh/RemoteError.h"
#include "common/Expected.h"
#include "record/ConfigRecord.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace moewb::remote {

enum class Launcher { Ssh, Mpirun, Slurm, Local };
enum class ProbeBackend { Tcp, Nccl };

QString launcherName(Launcher l);                  // "ssh", "mpirun", "slurm", "local"
std::optional<Launcher> launcherFromName(const QString& name);
QString backendName(ProbeBackend b);               // "tcp", "nccl"
std::optional<ProbeBackend> backendFromName(const QString& name);

struct StageOneRequest {
    QString projectPath;     // the *.moewb file; run() opens its own ProjectStore on it
    QString clusterName;     // a cluster stored in the project (`moewb cluster add`)
    QList<NodeAddress> nodes;  // empty: the cluster's nodes, in stored order
    QList<int> nodeCounts{2};  // sweep points: the first N nodes each; each <= nodes
    QList<quint64> messageSizes{1u << 20, 16u << 20, 64u << 20}; // bytes each rank sends
    int repeats = 5;          // moe-probe -R
    int iterations = 20;      // moe-probe -n
    int warmup = 5;           // moe-probe -w
    // moe-probe --pattern: empty or "uniform", "hot:K:F", "zipf:S", "matrix:FILE"
    // (FILE on this machine: uploaded to every node with the probe, content-addressed
    // like it, and passed as the node's copy; its N×N must match every sweep point's
    // world). Recorded in each run's environment ("pattern").
    QString pattern;
    // Where a matrix pattern came from, for the reader (`moewb run stage1 --pattern
    // from-run:RUN[:LAYER]`); recorded in each run's environment ("pattern_origin").
    QString patternOrigin;
    // A matrix pattern's N, once run() has read the file (0: no matrix); epChoice uses it
    // instead of reading the file again. -1: not read yet (epChoice reads it).
    int matrixRanks = -1;
    int gpusPerNode = 1;      // nccl: -g N (one process per node driving N GPUs)
    Launcher launcher = Launcher::Ssh;
    ProbeBackend backend = ProbeBackend::Tcp;
    // EP groups (docs/probe.md): by default each sweep point measures the record's EP
    // groups, all at once, laid out as Megatron-Core lays them out for its parallelism
    // (moe-probe --ep-size ep --tp etp --ep-order order, and --pp when needed) — when the
    // record has ep > 1 and the point's ranks are whole EP groups of the training's first
    // ranks; else one all-to-all over the world (why: in the log). wholeWorld: always
    // one all-to-all over the world, as before.
    bool wholeWorld = false;
    // The record's parallelism; run() reads it from the record when not given.
    std::optional<record::ParallelismRecord> parallelism;
    QString recordName;       // config record the runs belong to (must exist)
    QString runNamePrefix;    // empty: "stage1-<yyyyMMdd-hhmmss>"

    // Bounds (FanoutTimeouts.h): the connect and helper bounds are for one node; run()
    // adds to them for the nodes it reaches at once and for the bytes it moves (uploads,
    // the report read back).
    int connectTimeoutMs = 10000;   // per SSH connection (+ 250 ms per further node)
    int helperTimeoutMs = 60000;    // small commands on a node: inventory, mkdir, cat, rm, scancel (+ 250 ms per further node)
    // Per probe invocation (the whole probe run of a sweep point's sizes): > 0, exactly
    // that; 0 (the default), scaled to the request: the probe's --timeout + 10 s + 1 s
    // per rank + the bytes each rank sends (sizes × (warm-up + repeats × iterations + 1))
    // at 10 MB/s.
    int commandTimeoutMs = 0;
    int probeTimeoutS = 60;         // moe-probe --timeout (silence from a peer)
    // Unknown host keys: refused unless accepted here or by events.hostKeyQuestion.
    bool acceptNewHostKeys = false;

    // Where the probe comes from: a bundle directory (moe-probe, manifest.json, maybe
    // libnccl.so.2.zst). Empty: $MOEWB_PROBE_BUNDLE, else probe-bundle/ next to the
    // program, else ../remote/probe/probe-bundle (build tree).
    QString probeBundleDir;

    // SSH client configuration (empty: ~/.ssh, ~/.ssh/config, ~/.ssh/known_hosts).
    QString sshDir;
    QString sshConfigFile;
    QString knownHostsFile;
    QStringList identityFiles;  // e.g. the cluster's identity file
    bool useAgent = true;

    // Rendezvous for the probe: rank 0's node as the other ranks reach it. Empty host:
    // the first node's host name as ~/.ssh/config resolves it; port 0: a free port
    // chosen on that node for each point.
    QString rendezvousHost;
    int rendezvousPort = 0;

    // mpirun / slurm: the programs run on the head node (the first node).
    QString mpirunProgram = QStringLiteral("mpirun");
    QStringList mpirunExtraArgs;   // e.g. {"--allow-run-as-root"}
    QStringList mpirunHosts;       // -H names, one per node; empty: the nodes' host names
    QString srunProgram = QStringLiteral("srun");
    QString sbatchProgram = QStringLiteral("sbatch");
    QString scancelProgram = QStringLiteral("scancel");  // sbatch: cancels the job on cancel/timeout
    bool slurmUseSbatch = false;   // false: srun inside an existing allocation
    QStringList slurmExtraArgs;    // e.g. {"--partition=gpu"}

    // Launcher local (also chosen by itself for a local cluster). The ranks: the local
    // cluster's, else the largest node count (clusterName may then be empty: the runs
    // are saved without a cluster). netnsRate (a tc rate, e.g. "200mbit"; empty: the
    // local cluster's, if any): every sweep point runs each rank in its own network
    // namespace, its link shaped with tc tbf at that rate (root only: refused otherwise,
    // naming why, before anything runs); netnsBurst: tbf's burst (empty: the cluster's,
    // else 10 ms of the rate, at least 32 KiB). noNetns: plain loopback even for a
    // shaped cluster.
    QString netnsRate;
    QString netnsBurst;
    bool noNetns = false;
};

enum class LogStream { Stdout, Stderr, Info };

struct StageOneEvents {
    // node: NodeAddress::display(), or empty for the sweep as a whole.
    // fraction in [0,1] for that node's current step; what: e.g.
    // "uploading probe 2.1/4.0 MB", "running 4 nodes, 64 MiB".
    std::function<void(const QString& node, double fraction, const QString& what)> progress;
    // One line of a node's output (without the newline).
    std::function<void(const QString& node, LogStream stream, const QString& text)> log;
    // An unknown host key: return true to trust it (written to known_hosts). Not
    // asked when request.acceptNewHostKeys is set. Without it, unknown keys are refused.
    std::function<bool(const HostKeyInfo& key)> hostKeyQuestion;
    // The same with three answers (HostKeyDecision: reject, accept once, accept and
    // remember); used instead of hostKeyQuestion when set. It is also shown a changed key
    // (key.changed, key.knownFingerprints), which is refused whatever it answers.
    std::function<HostKeyDecision(const HostKeyInfo& key)> hostKeyDecision;
};

struct NodeFailure {
    QString node;  // NodeAddress::display(); empty when not tied to one node
    RemoteError::Kind kind = RemoteError::Kind::Protocol;
    QString message;  // full sentence, names the node
};

struct StageOneFailure {
    QList<NodeFailure> nodes;  // at least one entry
    QStringList savedRuns;     // sweep points that finished (and were saved) before
    bool cancelled = false;
    QString summary() const;   // one line per node failure
};

class StageOneSweep {
public:
    StageOneSweep(StageOneRequest request, StageOneEvents events = {});
    ~StageOneSweep();
    StageOneSweep(const StageOneSweep&) = delete;
    StageOneSweep& operator=(const StageOneSweep&) = delete;

    // Blocking; on a worker thread. Checks the request first (record and cluster
    // exist, node counts within the node list, sizes > 0, run names free).
    Expected<QStringList, StageOneFailure> run();

    // Any thread, any time (also before run()). run() ends within about a second.
    void cancel();
    bool cancelled() const;

    // Why a --pattern spec cannot be used (empty: it can): the probe's grammar
    // (uniform | hot:K:F with K a whole number >= 1 and F > 0 | zipf:S with S >= 0 |
    // matrix:FILE with FILE a readable square matrix of byte sizes). *matrixRanks (when
    // given) receives a matrix's N, else 0.
    static QString patternProblem(const QString& spec, int* matrixRanks = nullptr);

    // The EP groups a sweep point of `ranks` probe ranks measures (see wholeWorld):
    // the probe options (empty: the whole world) and a sentence for the log.
    struct EpChoice {
        QStringList arguments;  // --ep-size N --tp T --ep-order O [--pp P]; empty: whole world
        int epSize = 0;         // 0: whole world
        int groups = 1;
        QString text;           // "4 groups of EP 8 at once (...)" or "one all-to-all over 32 ranks (why)"
    };
    static EpChoice epChoice(const StageOneRequest& request, int ranks);

    // The remote argv of one probe process (exposed for tests and logs).
    static QStringList probeArguments(const StageOneRequest& request, const QString& probePath, int world,
                                      const QString& rendezvous, const QString& jsonPath);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace moewb::remote
