#include "StageOneSweep.h"

#include "../RemoteTr.h"
#include "ClusterCheck.h"
#include "NodePool.h"
#include "ProbeSecret.h"
#include "../ssh/RemoteCommand.h"
#include "../ssh/SftpUpload.h"
#include "../ssh/ShellQuote.h"
#include "importers/ProbeJsonImporter.h"
#include "record/RankGrid.h"
#include "record/RecordJson.h"
#include "store/ProjectStore.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>  // sigabbrev_np (glibc ≥ 2.32, with _GNU_SOURCE)
#include <thread>

namespace moewb::remote {

QString launcherName(Launcher l) {
    switch (l) {
    case Launcher::Ssh: return QStringLiteral("ssh");
    case Launcher::Mpirun: return QStringLiteral("mpirun");
    case Launcher::Slurm: return QStringLiteral("slurm");
    }
    return {};
}

std::optional<Launcher> launcherFromName(const QString& name) {
    for (Launcher l : {Launcher::Ssh, Launcher::Mpirun, Launcher::Slurm})
        if (launcherName(l) == name)
            return l;
    return std::nullopt;
}

QString backendName(ProbeBackend b) { return b == ProbeBackend::Nccl ? QStringLiteral("nccl") : QStringLiteral("tcp"); }

std::optional<ProbeBackend> backendFromName(const QString& name) {
    if (name == QLatin1String("tcp"))
        return ProbeBackend::Tcp;
    if (name == QLatin1String("nccl"))
        return ProbeBackend::Nccl;
    return std::nullopt;
}

QString StageOneFailure::summary() const {
    QStringList lines;
    for (const NodeFailure& f : nodes)
        lines << f.message;
    return lines.join(QLatin1Char('\n'));
}

namespace {

// Rank 0's report is read whole into memory: a bound against a runaway file.
constexpr qint64 kMaxReportBytes = 512ll << 20;

QString sizeText(quint64 b) {
    if (b >= (1ull << 30) && b % (1ull << 30) == 0)
        return QStringLiteral("%1 GiB").arg(b >> 30);
    if (b >= (1ull << 20) && b % (1ull << 20) == 0)
        return QStringLiteral("%1 MiB").arg(b >> 20);
    if (b >= (1ull << 10) && b % (1ull << 10) == 0)
        return QStringLiteral("%1 KiB").arg(b >> 10);
    return QStringLiteral("%1 B").arg(b);
}

// One probe invocation covers a geometric run of sizes (-b, -e, -f); an arbitrary list
// becomes one invocation per size, merged into one run.
struct SizeSweep {
    quint64 begin = 0;
    quint64 end = 0;
    quint64 factor = 2;
};

QList<SizeSweep> sizeSweeps(QList<quint64> sizes) {
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (sizes.size() == 1)
        return {SizeSweep{sizes[0], sizes[0], 2}};
    if (sizes.size() >= 2 && sizes[0] > 0 && sizes[1] % sizes[0] == 0) {
        const quint64 f = sizes[1] / sizes[0];
        bool geometric = f >= 2;
        for (qsizetype i = 1; geometric && i < sizes.size(); ++i)
            geometric = sizes[i] == sizes[i - 1] * f;
        if (geometric)
            return {SizeSweep{sizes.first(), sizes.last(), f}};
    }
    QList<SizeSweep> out;
    for (quint64 s : sizes)
        out << SizeSweep{s, s, 2};
    return out;
}

struct RankOutcome {
    bool done = false;
    bool ok = false;
    int exitStatus = -1;
    std::optional<RemoteError> error;
    QString lastStderr;  // the last non-empty stderr line (for messages)
    QString allStderr;   // bounded
    QString slurmJobId;  // sbatch: the id from "Submitted batch job N"
    RemoteCommandStop stop;  // filled when the command was stopped (cancel, timeout)
};

// Ranks whose stopped process group could not be confirmed gone (after the retry).
QList<NodeFailure> groupsLeft(const std::vector<RankOutcome>& outcome, const std::vector<PoolNode>& pn) {
    QList<NodeFailure> out;
    for (size_t k = 0; k < outcome.size(); ++k)
        if (outcome[k].stop.pgid > 1 && !outcome[k].stop.confirmedGone)
            out << NodeFailure{pn[k].name, RemoteError::Kind::Protocol,
                               RemoteLaunch::tr("%1: process group %2 could not be confirmed ended; it may still be running")
                                   .arg(pn[k].name)
                                   .arg(outcome[k].stop.pgid)};
    return out;
}

} // namespace

struct StageOneSweep::Impl {
    StageOneRequest request;
    StageOneEvents events;
    std::atomic_bool cancel{false};
};

StageOneSweep::StageOneSweep(StageOneRequest request, StageOneEvents events) : d(std::make_unique<Impl>()) {
    d->request = std::move(request);
    d->events = std::move(events);
}

StageOneSweep::~StageOneSweep() = default;

void StageOneSweep::cancel() { d->cancel.store(true); }
bool StageOneSweep::cancelled() const { return d->cancel.load(); }

QStringList StageOneSweep::probeArguments(const StageOneRequest& r, const QString& probePath, int world,
                                          const QString& rendezvous, const QString& jsonPath) {
    // The first sweep of sizes; run() passes per-invocation sizes through -b/-e/-f below.
    const QList<SizeSweep> sweeps = sizeSweeps(r.messageSizes);
    const SizeSweep s = sweeps.value(0);
    QStringList a{probePath,
                  QStringLiteral("--backend"), backendName(r.backend),
                  QStringLiteral("-b"), QString::number(s.begin),
                  QStringLiteral("-e"), QString::number(s.end),
                  QStringLiteral("-f"), QString::number(s.factor),
                  QStringLiteral("-w"), QString::number(r.warmup),
                  QStringLiteral("-n"), QString::number(r.iterations),
                  QStringLiteral("-R"), QString::number(r.repeats),
                  QStringLiteral("--rendezvous"), rendezvous,
                  QStringLiteral("--timeout"), QString::number(r.probeTimeoutS)};
    // ssh: rank and world on the command line (the rank is added per node); mpirun and
    // srun give both through the environment, and the probe refuses --world alone.
    if (r.launcher == Launcher::Ssh)
        a << QStringLiteral("--world") << QString::number(world);
    if (r.backend == ProbeBackend::Nccl)
        a << QStringLiteral("-g") << QString::number(qMax(1, r.gpusPerNode));
    if (!r.pattern.isEmpty())
        a << QStringLiteral("--pattern") << r.pattern;
    a << epChoice(r, world * (r.backend == ProbeBackend::Nccl ? qMax(1, r.gpusPerNode) : 1)).arguments;
    if (!jsonPath.isEmpty())
        a << QStringLiteral("-J") << jsonPath;
    return a;
}

namespace {

// The EP groups of `grid` among its ranks 0..n-1 (every coordinate but ep's shared),
// listed by lowest rank; nullopt when one of them reaches past rank n-1.
std::optional<QList<QList<qint64>>> epGroupsBelow(const record::RankGrid& grid, qint64 n) {
    using record::ParallelAxis;
    QMap<QList<qint64>, qsizetype> index;
    QList<QList<qint64>> groups;
    for (qint64 rank = 0; rank < grid.world(); ++rank) {
        QList<qint64> key;
        for (ParallelAxis a : {ParallelAxis::Tp, ParallelAxis::Cp, ParallelAxis::Dp, ParallelAxis::Pp})
            key << grid.coordinate(rank, a);
        auto it = index.find(key);
        if (it == index.end()) {
            if (rank >= n)
                continue;  // a group wholly past n
            it = index.insert(key, groups.size());
            groups.append(QList<qint64>());
        }
        if (rank >= n)
            return std::nullopt;  // a group that straddles n
        groups[*it] << rank;
    }
    return groups;
}

} // namespace

StageOneSweep::EpChoice StageOneSweep::epChoice(const StageOneRequest& r, int ranks) {
    auto whole = [ranks](const QString& why) {
        EpChoice c;
        c.text = RemoteLaunch::tr("one all-to-all over %1 ranks (%2)").arg(ranks).arg(why);
        return c;
    };
    if (r.wholeWorld)
        return whole(RemoteLaunch::tr("as asked: --whole-world"));
    if (!r.parallelism || r.parallelism->epOrDefault() <= 1)
        return whole(RemoteLaunch::tr("the record has no expert parallelism"));
    // A traffic matrix of the world's size is one all-to-all over the world; one of an EP
    // group's size (what `moewb traffic` and from-run: compute) runs in every EP group.
    int matrixRanks = 0;
    if (r.pattern.startsWith(QLatin1String("matrix:")) && patternProblem(r.pattern, &matrixRanks).isEmpty() &&
        matrixRanks == ranks)
        return whole(RemoteLaunch::tr("the traffic matrix covers the whole world"));
    const record::ParallelismRecord& p = *r.parallelism;
    const auto training = record::RankGrid::expertGrid(p);
    if (!training)
        return whole(training.error());
    const qint64 etp = p.etpOrDefault(), ep = p.epOrDefault();
    const QString order = p.orderOrDefault();
    if (ranks > training->world())
        return whole(RemoteLaunch::tr("more ranks than the record's world of %1").arg(training->world()));
    const auto wanted = epGroupsBelow(*training, ranks);
    if (!wanted || ranks % (etp * ep) != 0)
        return whole(RemoteLaunch::tr("%1 ranks are not whole EP groups of the record (ep %2, expert tp %3, order %4)")
                         .arg(ranks)
                         .arg(ep)
                         .arg(etp)
                         .arg(order));
    // The probe computes its layout from its own world: find the pp (1, the record's, or
    // what keeps the training's expert dp) under which it equals the training's.
    QList<qint64> pps{1, p.pp.value_or(1)};
    if (training->size(record::ParallelAxis::Dp) > 0 && ranks % (etp * ep * training->size(record::ParallelAxis::Dp)) == 0)
        pps << ranks / (etp * ep * training->size(record::ParallelAxis::Dp));
    for (qint64 pp : pps) {
        if (pp < 1 || ranks % (etp * ep * pp) != 0)
            continue;
        const auto grid = record::RankGrid::make({etp, 1, ep, ranks / (etp * ep * pp), pp}, order);
        if (!grid || epGroupsBelow(*grid, ranks) != wanted)
            continue;
        EpChoice c;
        c.epSize = int(ep);
        c.groups = int(ranks / ep);
        c.arguments << QStringLiteral("--ep-size") << QString::number(ep) << QStringLiteral("--tp") << QString::number(etp)
                    << QStringLiteral("--ep-order") << order;
        if (pp > 1)
            c.arguments << QStringLiteral("--pp") << QString::number(pp);
        c.text = RemoteLaunch::tr("%1 groups of EP %2 at once, laid out as the record's training (expert tp %3, order %4)")
                     .arg(c.groups)
                     .arg(ep)
                     .arg(etp)
                     .arg(order);
        return c;
    }
    return whole(RemoteLaunch::tr("the probe cannot lay out the record's EP groups on %1 ranks").arg(ranks));
}

QString StageOneSweep::patternProblem(const QString& spec, int* matrixRanks) {
    if (matrixRanks)
        *matrixRanks = 0;
    auto number = [](const QString& text, double* v) {
        bool ok = false;
        *v = text.trimmed().toDouble(&ok);
        return ok && !text.trimmed().isEmpty() && std::isfinite(*v);
    };
    if (spec == QLatin1String("uniform"))
        return {};
    if (spec.startsWith(QLatin1String("hot:"))) {
        const QStringList parts = spec.mid(4).split(QLatin1Char(':'));
        double k = 0, f = 0;
        if (parts.size() != 2)
            return RemoteLaunch::tr("hot:K:F needs K (hot destinations) and F (their byte factor), e.g. hot:2:4");
        if (!number(parts[0], &k) || k < 1 || k != std::floor(k) || k > 1e6)
            return RemoteLaunch::tr("hot:K: K must be a whole number >= 1, not \"%1\"").arg(parts[0]);
        if (!number(parts[1], &f) || f <= 0)
            return RemoteLaunch::tr("hot:K:F: F must be a number > 0, not \"%1\"").arg(parts[1]);
        return {};
    }
    if (spec.startsWith(QLatin1String("zipf:"))) {
        double e = 0;
        if (!number(spec.mid(5), &e) || e < 0)
            return RemoteLaunch::tr("zipf:S: S must be a number >= 0, not \"%1\"").arg(spec.mid(5));
        return {};
    }
    if (spec.startsWith(QLatin1String("matrix:"))) {
        // The probe's reading (traffic_pattern.cpp): '#' comments, cells split by spaces,
        // tabs or commas, each a byte size (K/M/G), every row as long as the first, square.
        const QString path = spec.mid(7);
        if (path.isEmpty())
            return RemoteLaunch::tr("matrix:FILE needs a file");
        QFile f(path);
        if (!QFileInfo(path).isFile() || !f.open(QIODevice::ReadOnly))
            return RemoteLaunch::tr("matrix file %1 cannot be read").arg(path);
        if (f.size() > 64 * 1024 * 1024)
            return RemoteLaunch::tr("matrix file %1 is larger than 64 MiB").arg(path);
        static const QRegularExpression cellRe(QStringLiteral("^[0-9]+(B|b|K|k|KiB|KB|M|m|MiB|MB|G|g|GiB|GB)?$"));
        int rows = 0, columns = 0, lineNo = 0;
        while (!f.atEnd()) {
            ++lineNo;
            QString line = QString::fromUtf8(f.readLine());
            line = line.section(QLatin1Char('#'), 0, 0);
            line.replace(QLatin1Char(','), QLatin1Char(' ')).replace(QLatin1Char('\t'), QLatin1Char(' '));
            const QStringList cells = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            if (cells.isEmpty())
                continue;
            for (const QString& c : cells)
                if (!cellRe.match(c.trimmed()).hasMatch())
                    return RemoteLaunch::tr("%1:%2: \"%3\" is not a byte size").arg(path).arg(lineNo).arg(c.trimmed());
            if (rows == 0)
                columns = int(cells.size());
            else if (cells.size() != columns)
                return RemoteLaunch::tr("%1:%2: the row has %3 entries, the first row has %4")
                    .arg(path)
                    .arg(lineNo)
                    .arg(cells.size())
                    .arg(columns);
            ++rows;
        }
        if (rows == 0)
            return RemoteLaunch::tr("matrix file %1 has no rows").arg(path);
        if (rows != columns)
            return RemoteLaunch::tr("matrix file %1 is not square: %2 rows of %3 entries").arg(path).arg(rows).arg(columns);
        if (matrixRanks)
            *matrixRanks = rows;
        return {};
    }
    return RemoteLaunch::tr("unknown pattern \"%1\" (uniform, hot:K:F, zipf:S, matrix:FILE)").arg(spec);
}

namespace {

void replaceSizes(QStringList& argv, const SizeSweep& s) {
    auto set = [&](const QString& flag, quint64 v) {
        const qsizetype i = argv.indexOf(flag);
        if (i >= 0 && i + 1 < argv.size())
            argv[i + 1] = QString::number(v);
    };
    set(QStringLiteral("-b"), s.begin);
    set(QStringLiteral("-e"), s.end);
    set(QStringLiteral("-f"), s.factor);
}

// A run name as one file name on a node: letters, digits, '.', '_' and '-' kept, any
// other character (a '/' above all) becomes '_'. The run keeps its real name.
QString fileSafe(const QString& name) {
    QString out = name;
    for (QChar& c : out)
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('.') && c != QLatin1Char('_') && c != QLatin1Char('-'))
            c = QLatin1Char('_');
    return out.left(100);
}

// " (SIGSEGV)" for signal 11; empty for a number that names no signal.
QString signalName(int signal) {
    // glibc's own table (the nodes are Linux, as is this machine): every signal it knows.
    const char* abbrev = signal > 0 ? ::sigabbrev_np(signal) : nullptr;
    return abbrev ? QStringLiteral(" (SIG%1)").arg(QLatin1String(abbrev)) : QString();
}

// `sbatch --wait` stopped by us (cancel, timeout): its job is still queued or running on
// the cluster. `scancel` it on the head node, where sbatch ran, with the same environment:
// by the id sbatch printed, or, when it was stopped before printing one (or printed
// something else), by the job's name, unique to this sweep point.
void cancelSlurmJob(const StageOneRequest& r, PoolNode& head, QString jobId, const QString& jobName,
                    const StageOneEvents& events) {
    bool numeric = false;
    jobId.toULongLong(&numeric);
    if (!numeric)
        jobId.clear();
    const QString job = jobId.isEmpty() ? RemoteLaunch::tr("named %1").arg(jobName) : jobId;
    const QStringList argv = jobId.isEmpty() ? QStringList{r.scancelProgram, QStringLiteral("--name=") + jobName}
                                             : QStringList{r.scancelProgram, jobId};
    QString message;
    head.worker->post([&](std::unique_ptr<SshSession>& session) {
        if (!session) {
            message = RemoteLaunch::tr("%1: Slurm job %2 may still be running: not connected to scancel it").arg(head.name, job);
            return;
        }
        auto c = RemoteCommand::capture(*session, argv, r.helperTimeoutMs);
        if (!c)
            message = RemoteLaunch::tr("%1: Slurm job %2 may still be running: %3").arg(head.name, job, c.error().message);
        else if (c->exitStatus != 0)
            message = RemoteLaunch::tr("%1: Slurm job %2 may still be running: %3 exited with status %4: %5")
                          .arg(head.name, job, r.scancelProgram)
                          .arg(c->exitStatus)
                          .arg(QString::fromUtf8(c->err).trimmed());
        else
            message = RemoteLaunch::tr("cancelled Slurm job %1 (%2)").arg(job, shellJoin(argv));
    }).wait();
    if (events.log)
        events.log(head.name, LogStream::Info, message);
}

} // namespace

Expected<QStringList, StageOneFailure> StageOneSweep::run() {
    const StageOneRequest& r = d->request;
    auto failWith = [](const QString& node, RemoteError::Kind k, const QString& msg, QStringList saved = {}) {
        StageOneFailure f;
        f.nodes << NodeFailure{node, k, msg};
        f.savedRuns = std::move(saved);
        f.cancelled = k == RemoteError::Kind::Cancelled;
        return unexpected(std::move(f));
    };
    const auto invalid = RemoteError::Kind::InvalidArgument;

    // ---- The request and the project ----------------------------------------------
    auto storex = store::ProjectStore::open(r.projectPath, store::OpenMode::MustExist);
    if (!storex)
        return failWith({}, invalid, storex.error().text());
    store::ProjectStore& project = *storex.value();
    const auto recordRow = r.recordName.isEmpty() ? std::nullopt : project.configRecord(r.recordName);
    if (!recordRow)
        return failWith({}, invalid, RemoteLaunch::tr("%1: no config record named \"%2\"").arg(r.projectPath, r.recordName));
    // The EP layout comes from the record's parallelism (epChoice).
    if (!d->request.parallelism)
        d->request.parallelism = record::parseRecord(QJsonDocument(recordRow->json).toJson()).record.parallelism;
    QList<NodeAddress> nodes = r.nodes;
    if (!r.clusterName.isEmpty()) {
        const auto clusters = project.clusters();
        const auto it = std::find_if(clusters.begin(), clusters.end(),
                                     [&](const store::ClusterRow& c) { return c.name == r.clusterName; });
        if (it == clusters.end())
            return failWith({}, invalid, RemoteLaunch::tr("%1: no cluster named \"%2\"").arg(r.projectPath, r.clusterName));
        if (nodes.isEmpty()) {
            for (const store::NodeRow& n : project.nodes(it->id)) {
                auto a = NodeAddress::parse(n.address);
                if (!a)
                    return failWith(n.address, invalid,
                                    RemoteLaunch::tr("cluster %1: bad node address \"%2\": %3").arg(r.clusterName, n.address, a.error()));
                nodes << *a;
            }
        }
    }
    if (nodes.isEmpty())
        return failWith({}, invalid, RemoteLaunch::tr("no nodes: give a cluster with nodes or a node list"));
    QList<int> counts = r.nodeCounts;
    if (counts.isEmpty())
        counts << int(nodes.size());
    for (int n : counts)
        if (n < 1 || n > nodes.size())
            return failWith({}, invalid,
                            RemoteLaunch::tr("node count %1 is outside 1..%2 (the nodes of %3)")
                                .arg(n)
                                .arg(nodes.size())
                                .arg(r.clusterName.isEmpty() ? RemoteLaunch::tr("the request") : r.clusterName));
    if (r.messageSizes.isEmpty())
        return failWith({}, invalid, RemoteLaunch::tr("no message sizes"));
    for (quint64 s : r.messageSizes)
        if (s == 0)
            return failWith({}, invalid, RemoteLaunch::tr("message sizes must be > 0 bytes per rank"));
    if (r.repeats < 1 || r.iterations < 1 || r.warmup < 0)
        return failWith({}, invalid, RemoteLaunch::tr("repeats and iterations must be >= 1, warm-up >= 0"));
    int matrixRanks = 0;
    if (!r.pattern.isEmpty()) {
        const QString problem = patternProblem(r.pattern, &matrixRanks);
        if (!problem.isEmpty())
            return failWith({}, invalid, RemoteLaunch::tr("--pattern %1: %2").arg(r.pattern, problem));
        // A matrix is the world's or an EP group's: every sweep point must run all-to-alls
        // of its N ranks.
        const int perNode = r.backend == ProbeBackend::Nccl ? qMax(1, r.gpusPerNode) : 1;
        for (int n : counts) {
            const EpChoice ep = matrixRanks > 0 ? epChoice(r, n * perNode) : EpChoice{};
            if (matrixRanks > 0 && ep.epSize > 0 && ep.epSize != matrixRanks)
                return failWith({}, invalid,
                                RemoteLaunch::tr("--pattern %1: the matrix is %2×%2 but %3 nodes run EP groups of %4 "
                                                 "(%5); a matrix has an EP group's or the whole world's size")
                                    .arg(r.pattern)
                                    .arg(matrixRanks)
                                    .arg(n)
                                    .arg(ep.epSize)
                                    .arg(ep.text));
            if (matrixRanks > 0 && ep.epSize == 0 && n * perNode != matrixRanks)
                return failWith({}, invalid,
                                RemoteLaunch::tr("--pattern %1: the matrix is %2×%2 but %3 nodes run %4 ranks; sweep "
                                                 "only --nodes %5 with it")
                                    .arg(r.pattern)
                                    .arg(matrixRanks)
                                    .arg(n)
                                    .arg(n * perNode)
                                    .arg(matrixRanks % perNode == 0 ? QString::number(matrixRanks / perNode)
                                                                    : RemoteLaunch::tr("(none fits)")));
        }
    }
    const QString prefix = r.runNamePrefix.isEmpty()
                               ? QStringLiteral("stage1-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))
                               : r.runNamePrefix;
    for (int n : counts) {
        const QString name = QStringLiteral("%1-n%2").arg(prefix).arg(n);
        if (project.run(name))
            return failWith({}, invalid, RemoteLaunch::tr("%1: a run named %2 already exists").arg(r.projectPath, name));
    }
    auto bundle = locateProbeBundle(r.probeBundleDir);
    if (!bundle)
        return failWith({}, invalid, bundle.error());

    // The fallback NCCL, unpacked here, goes only to nodes whose inventory has none.
    QTemporaryDir unpackDir;
    QString ncclFallback;
    const QString zst = *bundle + QStringLiteral("/libnccl.so.2.zst");
    if (r.backend == ProbeBackend::Nccl && QFileInfo::exists(zst) && unpackDir.isValid()) {
        QProcess z;
        z.start(QStringLiteral("zstd"), {QStringLiteral("-q"), QStringLiteral("-d"), QStringLiteral("-f"), zst,
                                         QStringLiteral("-o"), unpackDir.path() + QStringLiteral("/libnccl.so.2")});
        if (z.waitForFinished(60000) && z.exitStatus() == QProcess::NormalExit && z.exitCode() == 0)
            ncclFallback = unpackDir.path() + QStringLiteral("/libnccl.so.2");
        else if (d->events.log)
            d->events.log({}, LogStream::Info, RemoteLaunch::tr("cannot unpack %1 (zstd): nodes without NCCL get none").arg(zst));
    }

    // ---- Prepare every node once ------------------------------------------------
    SshClientConfig ssh;
    ssh.sshDir = r.sshDir;
    ssh.configFile = r.sshConfigFile;
    ssh.knownHostsFile = r.knownHostsFile;
    ssh.identityFiles = r.identityFiles;
    ssh.useAgent = r.useAgent;
    ssh.connectTimeoutMs = r.connectTimeoutMs;
    ssh.acceptNewHostKeys = r.acceptNewHostKeys;
    const int maxCount = *std::max_element(counts.begin(), counts.end());
    // ssh and mpirun: the probe goes to every node (mpirun starts it at the head node's
    // path). Slurm: only the head node is reached over SSH; the compute nodes are
    // expected to share its home (the usual case), so the probe is there too.
    const QList<NodeAddress> used = r.launcher == Launcher::Slurm ? nodes.mid(0, 1) : nodes.mid(0, maxCount);
    NodePool pool(used, ssh, d->events, &d->cancel);
    // Each preparation step (upload, inventory) has its own bound, not the sweep point's.
    QList<NodeFailure> failures = pool.prepare(*bundle + QStringLiteral("/moe-probe"), ncclFallback, 120000);
    if (d->cancel.load())
        return failWith({}, RemoteError::Kind::Cancelled, RemoteLaunch::tr("cancelled"));
    if (!failures.isEmpty()) {
        StageOneFailure f;
        f.nodes = failures;
        return unexpected(std::move(f));
    }
    std::vector<PoolNode>& pn = pool.nodes();
    // matrix:FILE travels like the probe: content-addressed into each node's cache
    // (Slurm: the head node's, on the home the compute nodes share).
    std::vector<QString> matrixOnNode(pn.size());
    if (matrixRanks > 0) {
        const QString localMatrix = QFileInfo(r.pattern.mid(7)).absoluteFilePath();
        std::vector<std::future<void>> uploads;
        std::mutex failMutex;
        QList<NodeFailure> uploadFailures;
        for (size_t k = 0; k < pn.size(); ++k) {
            PoolNode* node = &pn[k];
            QString* into = &matrixOnNode[k];
            uploads.push_back(node->worker->post([&, node, into](std::unique_ptr<SshSession>& session) {
                if (!session)
                    return;
                pool.progress(node->name, 0.0, RemoteLaunch::tr("uploading traffic matrix"));
                auto up = SftpUpload::upload(*session, localMatrix, r.helperTimeoutMs, {}, &d->cancel);
                if (!up) {
                    std::lock_guard<std::mutex> lock(failMutex);
                    uploadFailures << NodePool::failureOf(up.error());
                    return;
                }
                *into = up->remotePath;
                pool.progress(node->name, 1.0, RemoteLaunch::tr("traffic matrix uploaded"));
            }));
        }
        waitAll(uploads);
        if (d->cancel.load())
            return failWith({}, RemoteError::Kind::Cancelled, RemoteLaunch::tr("cancelled"));
        if (!uploadFailures.isEmpty()) {
            StageOneFailure f;
            f.nodes = uploadFailures;
            return unexpected(std::move(f));
        }
    }
    // The results folder on the head node, where rank 0 writes its report: made once,
    // with the preparation, not while a sweep point starts its processes; every part of
    // it checked (SftpUpload::secureDirectory: the user's, private, no links).
    QString resultsDir;
    {
        std::optional<RemoteError> dirError;
        pn[0].worker->post([&](std::unique_ptr<SshSession>& session) {
            if (!session)
                return;
            auto dir = SftpUpload::secureDirectory(*session, SftpUpload::resultsDir(), r.helperTimeoutMs);
            if (dir)
                resultsDir = *dir;
            else
                dirError = dir.error();
        }).wait();
        if (dirError)
            return failWith(pn[0].name, dirError->kind, dirError->message);
        if (resultsDir.isEmpty())
            return failWith(pn[0].name, RemoteError::Kind::Protocol, RemoteLaunch::tr("%1: not connected").arg(pn[0].name));
    }

    // ---- Sweep points ------------------------------------------------------------
    QStringList saved;
    const QList<SizeSweep> sweeps = sizeSweeps(r.messageSizes);
    for (int count : counts) {
        const QString runName = QStringLiteral("%1-n%2").arg(prefix).arg(count);
        if (d->events.log)
            d->events.log({}, LogStream::Info,
                          RemoteLaunch::tr("%1: %2")
                              .arg(runName,
                                   epChoice(r, count * (r.backend == ProbeBackend::Nccl ? qMax(1, r.gpusPerNode) : 1)).text));
        QVector<store::CommSample> samples;
        QJsonObject environment;
        QString sourceFile;
        for (qsizetype si = 0; si < sweeps.size(); ++si) {
            const SizeSweep& sweep = sweeps[si];
            const QString what = RemoteLaunch::tr("running %1 nodes, %2%3")
                                     .arg(count)
                                     .arg(sizeText(sweep.begin))
                                     .arg(sweep.end != sweep.begin ? QStringLiteral("..") + sizeText(sweep.end) : QString());
            const QString head = pn[0].name;
            const QString jsonName = fileSafe(runName) + QStringLiteral("-") +
                                     QString::number(QRandomGenerator::global()->generate64(), 16) + QStringLiteral(".json");
            const QString jsonPath = resultsDir + QLatin1Char('/') + jsonName;
            // Rendezvous: rank 0's node; a random port unless given, tried again when busy.
            const QString rvHost = !r.rendezvousHost.isEmpty() ? r.rendezvousHost
                                   : r.launcher == Launcher::Ssh ? pn[0].host
                                                                 : nodes[0].host;
            std::vector<RankOutcome> outcome;
            int attempt = 0;
            for (;;) {
                ++attempt;
                const int port = r.rendezvousPort > 0 ? r.rendezvousPort
                                                      : int(QRandomGenerator::global()->bounded(20000, 60000));
                const QString rendezvous = (rvHost.contains(QLatin1Char(':')) ? QLatin1Char('[') + rvHost + QLatin1Char(']') : rvHost) +
                                           QLatin1Char(':') + QString::number(port);
                // The jobs: one per rank (ssh) or one on the head node (mpirun, slurm).
                std::atomic_bool pointCancel{false};
                // sbatch: a job name of this attempt's own, to find the job should sbatch be
                // stopped before it printed the job id.
                const QString slurmJobName =
                    QStringLiteral("moewb-%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
                const int jobs = r.launcher == Launcher::Ssh ? count : 1;
                outcome.assign(static_cast<size_t>(jobs), RankOutcome{});
                std::vector<std::future<void>> futures;
                std::mutex outMutex;
                // A new secret for every start: the ranks prove it to each other, and
                // nobody else can join, abort or hold the run (ProbeSecret.h).
                const QByteArray probeSecret = ProbeSecret::generate();
                for (int k = 0; k < jobs; ++k) {
                    PoolNode& node = pn[static_cast<size_t>(k)];
                    QStringList argv = probeArguments(r, node.probePath, count, rendezvous, k == 0 ? jsonPath : QString());
                    replaceSizes(argv, sweep);
                    if (!matrixOnNode[static_cast<size_t>(k)].isEmpty()) {
                        const qsizetype at = argv.indexOf(QStringLiteral("--pattern"));
                        if (at >= 0 && at + 1 < argv.size())
                            argv[at + 1] = QStringLiteral("matrix:") + matrixOnNode[static_cast<size_t>(k)];
                    }
                    if (!node.ncclLib.isEmpty())
                        argv << QStringLiteral("--nccl-lib") << node.ncclLib;
                    // The probe runs only as what was uploaded: hashed and executed from one
                    // descriptor on each node (SftpUpload::verifiedExec, docs/remote.md).
                    argv = SftpUpload::verifiedExec(node.probeSha256, argv.first()) + argv.mid(1);
                    if (r.launcher == Launcher::Ssh) {
                        argv << QStringLiteral("--rank") << QString::number(k);
                    } else if (r.launcher == Launcher::Mpirun) {
                        QStringList hosts;
                        for (int i = 0; i < count; ++i)
                            hosts << r.mpirunHosts.value(i, nodes[i].host) + QStringLiteral(":1");
                        argv = QStringList{r.mpirunProgram, QStringLiteral("-np"), QString::number(count),
                                           QStringLiteral("-H"), hosts.join(QLatin1Char(',')),
                                           QStringLiteral("-x"), ProbeSecret::variableName()} +
                               r.mpirunExtraArgs + argv;
                    } else {
                        QStringList hosts;
                        for (int i = 0; i < count; ++i)
                            hosts << nodes[i].host;
                        const QStringList srun = QStringList{r.srunProgram, QStringLiteral("--nodes=%1").arg(count),
                                                             QStringLiteral("--ntasks=%1").arg(count),
                                                             QStringLiteral("--ntasks-per-node=1"),
                                                             QStringLiteral("--nodelist=%1").arg(hosts.join(QLatin1Char(',')))} +
                                                 r.slurmExtraArgs + argv;
                        if (r.slurmUseSbatch)
                            argv = QStringList{r.sbatchProgram, QStringLiteral("--wait"), QStringLiteral("--nodes=%1").arg(count),
                                               QStringLiteral("--ntasks-per-node=1"),
                                               QStringLiteral("--output=%1.log").arg(jsonPath),
                                               QStringLiteral("--job-name=") + slurmJobName} +
                                   r.slurmExtraArgs + QStringList{QStringLiteral("--wrap=%1").arg(shellJoin(srun))};
                        else
                            argv = srun;
                    }
                    const QString label = node.name;
                    RankOutcome* out = &outcome[static_cast<size_t>(k)];
                    if (k == 0 && d->events.log)
                        d->events.log(label, LogStream::Info, QStringLiteral("$ ") + shellJoin(argv));
                    const int timeoutMs = r.commandTimeoutMs;
                    futures.push_back(node.worker->post([this, &pool, label, argv, out, &pointCancel, &outMutex, jsonPath,
                                                         timeoutMs, what, k, probeSecret](std::unique_ptr<SshSession>& session) {
                        pool.progress(label, 0.0, what);
                        LineSplitter so, se;
                        QString last;
                        QString all;
                        QString jobId;
                        auto stdoutLine = [&](const QString& line) {
                            static const QLatin1String submitted("Submitted batch job ");
                            if (jobId.isEmpty() && line.startsWith(submitted))
                                jobId = line.mid(submitted.size()).section(QLatin1Char(' '), 0, 0).trimmed();
                            pool.log(label, LogStream::Stdout, line);
                        };
                        RemoteCommandOptions o;
                        o.onStdout = [&](const QByteArray& b) { so.feed(b, stdoutLine); };
                        o.onStderr = [&](const QByteArray& b) {
                            se.feed(b, [&](const QString& line) {
                                if (!line.trimmed().isEmpty() && !line.startsWith(QLatin1String("setsid: ")))
                                    last = line.trimmed();
                                if (all.size() < 16384)
                                    all += line + QLatin1Char('\n');
                                pool.log(label, LogStream::Stderr, line);
                            });
                        };
                        o.timeoutMs = timeoutMs;
                        o.cancel = &pointCancel;
                        o.killGraceMs = 500;
                        RemoteCommandStop stop;
                        o.stopReport = &stop;
                        // The secret goes into a 0600 file on this node; the command reads
                        // it into its environment and removes the file before it starts.
                        auto secretFile = ProbeSecret::place(*session, probeSecret);
                        auto res = secretFile ? RemoteCommand::run(*session, ProbeSecret::wrap(*secretFile, argv), o)
                                              : Expected<RemoteCommandResult, RemoteError>(unexpected(secretFile.error()));
                        if (secretFile)
                            ProbeSecret::remove(*session, *secretFile); // gone already unless it never started
                        so.flush(stdoutLine);
                        se.flush([&](const QString& line) {
                            if (!line.trimmed().isEmpty() && !line.startsWith(QLatin1String("setsid: ")))
                                last = line.trimmed();
                            all += line;
                            pool.log(label, LogStream::Stderr, line);
                        });
                        std::lock_guard<std::mutex> lock(outMutex);
                        out->lastStderr = last;
                        out->allStderr = all;
                        out->slurmJobId = jobId;
                        out->stop = stop;
                        if (res) {
                            out->exitStatus = res->exitStatus;
                            out->ok = res->exitStatus == 0;
                        } else {
                            out->error = res.error();
                        }
                        out->done = true;
                        pool.progress(label, 1.0, out->ok ? RemoteLaunch::tr("finished") : RemoteLaunch::tr("failed"));
                    }));
                }
                // Wait; after the first failure the others get 2 s to end by themselves
                // (a probe names the rank that failed), then they are cancelled.
                QElapsedTimer sinceFailure;
                for (;;) {
                    bool allDone = true;
                    bool anyFailed = false;
                    {
                        std::lock_guard<std::mutex> lock(outMutex);
                        for (const RankOutcome& o : outcome) {
                            allDone = allDone && o.done;
                            anyFailed = anyFailed || (o.done && !o.ok);
                        }
                    }
                    if (allDone)
                        break;
                    if (d->cancel.load())
                        pointCancel.store(true);
                    if (anyFailed && !sinceFailure.isValid())
                        sinceFailure.start();
                    if (sinceFailure.isValid() && sinceFailure.elapsed() > 2000)
                        pointCancel.store(true);
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                }
                waitAll(futures);
                // Every stopped process group is confirmed gone before run() goes on or
                // returns: where the first kill did not see it end, one more bounded try.
                std::vector<std::future<void>> confirms;
                for (size_t k = 0; k < outcome.size(); ++k) {
                    RankOutcome* o = &outcome[k];
                    if (o->stop.pgid <= 1 || o->stop.confirmedGone)
                        continue;
                    confirms.push_back(pn[k].worker->post([o](std::unique_ptr<SshSession>& session) {
                        if (!session)
                            return;
                        auto gone = RemoteCommand::killGroup(*session, o->stop.pgid, 500);
                        o->stop.confirmedGone = gone && *gone;
                    }));
                }
                waitAll(confirms);
                // sbatch: killing `sbatch --wait` (cancel, timeout; an exit status means
                // the job ended) leaves its job queued or running; cancel it there.
                if (r.launcher == Launcher::Slurm && r.slurmUseSbatch && outcome[0].error)
                    cancelSlurmJob(r, pn[0], outcome[0].slurmJobId, slurmJobName, d->events);
                const bool busy = !outcome[0].ok && outcome[0].allStderr.contains(QLatin1String("in use"));
                if (busy && r.rendezvousPort == 0 && attempt < 3 && !d->cancel.load()) {
                    if (d->events.log)
                        d->events.log(head, LogStream::Info, RemoteLaunch::tr("rendezvous port %1 busy; trying another").arg(port));
                    continue;
                }
                break;
            }

            // ---- Outcome of this invocation -------------------------------------------
            if (d->cancel.load()) {
                StageOneFailure f;
                f.cancelled = true;
                f.savedRuns = saved;
                f.nodes = groupsLeft(outcome, pn);
                f.nodes << NodeFailure{{}, RemoteError::Kind::Cancelled,
                                       RemoteLaunch::tr("cancelled during %1; %2 not saved").arg(what, runName)};
                return unexpected(std::move(f));
            }
            QList<NodeFailure> pointFailures;
            QList<NodeFailure> stopped;  // ranks ended by us after another failed
            for (size_t k = 0; k < outcome.size(); ++k) {
                const RankOutcome& o = outcome[k];
                if (o.ok)
                    continue;
                const QString node = pn[k].name;
                if (o.error) {
                    if (o.error->kind == RemoteError::Kind::Cancelled)
                        stopped << NodeFailure{node, RemoteError::Kind::Cancelled,
                                               RemoteLaunch::tr("%1: stopped after another node failed").arg(node)};
                    else
                        pointFailures << NodeFailure{node, o.error->kind, o.error->message +
                                                                             (o.lastStderr.isEmpty() ? QString() : RemoteLaunch::tr(" (last output: %1)").arg(o.lastStderr))};
                } else {
                    const QString who = r.launcher == Launcher::Ssh ? RemoteLaunch::tr("moe-probe (rank %1)").arg(k)
                                                                    : QStringLiteral("%1").arg(r.launcher == Launcher::Mpirun ? r.mpirunProgram
                                                                                                : r.slurmUseSbatch ? r.sbatchProgram
                                                                                                                   : r.srunProgram);
                    // The wrapper passes on the shell's status: 128 + N for a command that a
                    // signal N ended.
                    QString status = o.exitStatus >= 0 ? RemoteLaunch::tr("exited with status %1").arg(o.exitStatus)
                                                       : RemoteLaunch::tr("ended without an exit status (killed?)");
                    if (o.exitStatus > 128 && o.exitStatus < 160)
                        status = RemoteLaunch::tr("was killed by signal %1%2 (exit status %3)")
                                     .arg(o.exitStatus - 128)
                                     .arg(signalName(o.exitStatus - 128))
                                     .arg(o.exitStatus);
                    pointFailures << NodeFailure{node, RemoteError::Kind::Protocol,
                                                 QStringLiteral("%1: %2 %3%4")
                                                     .arg(node, who, status,
                                                          o.lastStderr.isEmpty() ? QString() : QStringLiteral(": ") + o.lastStderr)};
                }
            }
            if (!pointFailures.isEmpty() || !stopped.isEmpty()) {
                StageOneFailure f;
                f.nodes = pointFailures + stopped + groupsLeft(outcome, pn);
                f.savedRuns = saved;
                f.nodes << NodeFailure{{}, RemoteError::Kind::Protocol,
                                       RemoteLaunch::tr("%1 failed; run %2 not saved").arg(what, runName)};
                return unexpected(std::move(f));
            }

            // Collect rank 0's report, then remove it from the node.
            QByteArray json;
            std::optional<RemoteError> readError;
            pn[0].worker->post([&](std::unique_ptr<SshSession>& session) {
                // Only from the checked results folder, never through a link, bounded.
                auto c = SftpUpload::readSecureFile(*session, SftpUpload::resultsDir(), jsonName, kMaxReportBytes,
                                                    r.helperTimeoutMs);
                if (!c)
                    readError = c.error();
                else
                    json = *c;  // empty: no report (said below)
                RemoteCommand::capture(*session, {QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("--"), jsonPath,
                                                  jsonPath + QStringLiteral(".log")},
                                       r.helperTimeoutMs);
            }).wait();
            if (readError)
                return failWith(head, readError->kind, readError->message, saved);
            if (json.isEmpty())
                return failWith(head, RemoteError::Kind::Protocol,
                                RemoteLaunch::tr("%1: rank 0 wrote no report at %2; run %3 not saved").arg(head, jsonPath, runName), saved);
            const QString source = head + QLatin1Char(':') + jsonPath;
            auto imported = importers::ProbeJsonImporter::parse(json, source);
            if (!imported)
                return failWith(head, RemoteError::Kind::Protocol,
                                RemoteLaunch::tr("%1: %2; run %3 not saved").arg(head, imported.error().text(), runName), saved);
            samples += imported->commSamples;
            if (environment.isEmpty())
                environment = imported->environment;
            sourceFile = sourceFile.isEmpty() ? source : sourceFile + QStringLiteral(", ") + source;
        }

        // ---- Save the point as one run ------------------------------------------------
        QJsonArray addresses;
        for (int i = 0; i < count; ++i)
            addresses.append(nodes[i].display());
        environment.insert(QStringLiteral("nodes"), count);
        environment.insert(QStringLiteral("node_addresses"), addresses);
        environment.insert(QStringLiteral("launcher"), launcherName(r.launcher));
        environment.insert(QStringLiteral("backend"), backendName(r.backend));
        environment.insert(QStringLiteral("stage"), 1);
        // What was asked for: the sizes (bytes each rank sends) and the traffic pattern
        // (the probe's own "pattern" is what it ran; a matrix is named by its file here).
        QJsonArray sizesAsked;
        for (const SizeSweep& sw : sweeps)
            for (quint64 b = sw.begin; b <= sw.end && b > 0; b *= sw.factor) {
                sizesAsked.append(double(b));
                if (sw.factor < 2 || b > sw.end / sw.factor)
                    break;
            }
        environment.insert(QStringLiteral("sizes"), sizesAsked);
        if (matrixRanks > 0) {
            environment.insert(QStringLiteral("pattern"), QStringLiteral("matrix:") + QFileInfo(r.pattern.mid(7)).absoluteFilePath());
            environment.insert(QStringLiteral("pattern_on_nodes"), QStringLiteral("matrix:") + matrixOnNode[0]);
            if (!r.patternOrigin.isEmpty())
                environment.insert(QStringLiteral("pattern_origin"), r.patternOrigin);
        } else if (!environment.contains(QStringLiteral("pattern"))) {
            environment.insert(QStringLiteral("pattern"), r.pattern.isEmpty() ? QStringLiteral("uniform") : r.pattern);
        }
        store::RunData run;
        run.name = runName;
        run.kind = store::RunKind::Probe;
        run.recordName = r.recordName;
        run.clusterName = r.clusterName;
        run.sourceFile = sourceFile;
        run.environment = environment;
        run.commSamples = samples;
        auto savedId = project.saveRun(run, [this](double) { return !d->cancel.load(); });
        if (!savedId) {
            const bool wasCancelled = d->cancel.load();
            return failWith({}, wasCancelled ? RemoteError::Kind::Cancelled : RemoteError::Kind::Protocol,
                            RemoteLaunch::tr("run %1 not saved: %2").arg(runName, savedId.error().text()), saved);
        }
        saved << runName;
        if (d->events.log)
            d->events.log({}, LogStream::Info,
                          RemoteLaunch::tr("saved run %1 (%2 samples, %3 nodes)").arg(runName).arg(samples.size()).arg(count));
    }
    return saved;
}

} // namespace moewb::remote
