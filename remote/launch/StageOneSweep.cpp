#include "StageOneSweep.h"

#include "../RemoteTr.h"
#include "ClusterCheck.h"
#include "FanoutTimeouts.h"
#include "LocalRanks.h"
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
#include <QDir>
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
#include <mutex>
#include <thread>

#include <unistd.h>

namespace moewb::remote {

QString launcherName(Launcher l) {
    switch (l) {
    case Launcher::Ssh: return QStringLiteral("ssh");
    case Launcher::Mpirun: return QStringLiteral("mpirun");
    case Launcher::Slurm: return QStringLiteral("slurm");
    case Launcher::Local: return QStringLiteral("local");
    }
    return {};
}

std::optional<Launcher> launcherFromName(const QString& name) {
    for (Launcher l : {Launcher::Ssh, Launcher::Mpirun, Launcher::Slurm, Launcher::Local})
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

// The sizes one invocation runs (begin, begin × factor, ... up to end).
QList<quint64> sweepSizes(const SizeSweep& s) {
    QList<quint64> out;
    for (quint64 b = s.begin; b > 0 && b <= s.end; b *= qMax<quint64>(2, s.factor)) {
        out << b;
        if (b > s.end / qMax<quint64>(2, s.factor))
            break;
    }
    return out;
}

// One probe invocation's bound: the request's commandTimeoutMs when given (> 0), else
// scaled to its ranks, sizes, warm-up, iterations and repeats (FanoutTimeouts.h).
int runTimeoutMs(const StageOneRequest& r, int ranks, const SizeSweep& sweep) {
    if (r.commandTimeoutMs > 0)
        return r.commandTimeoutMs;
    return FanoutTimeouts::probeRunMs(ranks, sweepSizes(sweep), r.warmup, r.iterations, r.repeats, r.probeTimeoutS);
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
    // Launcher local: the sweep points on this computer (after run()'s checks).
    Expected<QStringList, StageOneFailure> runLocal(store::ProjectStore& project, const QList<int>& counts,
                                                    const QString& prefix, const QString& bundle, int matrixRanks);
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
    // ssh and local: rank and world on the command line (the rank is added per node);
    // mpirun and srun give both through the environment, and the probe refuses --world alone.
    if (r.launcher == Launcher::Ssh || r.launcher == Launcher::Local)
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
    int matrixRanks = r.matrixRanks;
    if (matrixRanks < 0) {
        matrixRanks = 0;
        if (r.pattern.startsWith(QLatin1String("matrix:")) && !patternProblem(r.pattern, &matrixRanks).isEmpty())
            matrixRanks = 0;
    }
    if (matrixRanks > 0 && matrixRanks == ranks)
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
                    const StageOneEvents& events, int helperMs) {
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
        auto c = RemoteCommand::capture(*session, argv, helperMs);
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

// A finished sweep point saved as one run (kind probe): the probe's environment with the
// nodes, the launcher and what was asked (sizes, pattern). Empty: saved; else why not.
QString savePoint(store::ProjectStore& project, const StageOneRequest& r, const QString& runName,
                  const QStringList& nodeNames, const decltype(store::RunData::commSamples)& samples,
                  QJsonObject environment, const QString& sourceFile, const QList<SizeSweep>& sweeps, int matrixRanks,
                  const QString& matrixOnNodes, const std::atomic_bool& cancel) {
    // A local cluster's ranks are processes of this one computer: one node (the probe's
    // own count of distinct hosts), its world the rank count. Elsewhere a node per address.
    if (r.launcher == Launcher::Local)
        environment.insert(QStringLiteral("nodes"), std::max(1, environment.value(QStringLiteral("nodes")).toInt()));
    else
        environment.insert(QStringLiteral("nodes"), int(nodeNames.size()));
    environment.insert(QStringLiteral("node_addresses"), QJsonArray::fromStringList(nodeNames));
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
        environment.insert(QStringLiteral("pattern_on_nodes"), QStringLiteral("matrix:") + matrixOnNodes);
        if (!r.patternOrigin.isEmpty())
            environment.insert(QStringLiteral("pattern_origin"), r.patternOrigin);
    } else if (!environment.contains(QStringLiteral("pattern"))) {
        environment.insert(QStringLiteral("pattern"), r.pattern.isEmpty() ? QStringLiteral("uniform") : r.pattern);
    }
    if (r.launcher == Launcher::Local && !r.netnsRate.isEmpty() && !r.noNetns) {
        environment.insert(QStringLiteral("netns_rate"), r.netnsRate);
        environment.insert(QStringLiteral("netns_burst"),
                           r.netnsBurst.isEmpty() ? LocalClusterSpec::defaultBurst(r.netnsRate) : r.netnsBurst);
    }
    store::RunData run;
    run.name = runName;
    run.kind = store::RunKind::Probe;
    run.recordName = r.recordName;
    run.clusterName = r.clusterName;
    run.sourceFile = sourceFile;
    run.environment = environment;
    run.commSamples = samples;
    auto savedId = project.saveRun(run, [&cancel](double) { return !cancel.load(); });
    if (!savedId)
        return RemoteLaunch::tr("run %1 not saved: %2").arg(runName, savedId.error().text());
    return {};
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
    std::optional<LocalClusterSpec> localSpec;
    int localRanks = 0;
    if (!r.clusterName.isEmpty()) {
        const auto clusters = project.clusters();
        const auto it = std::find_if(clusters.begin(), clusters.end(),
                                     [&](const store::ClusterRow& c) { return c.name == r.clusterName; });
        if (it == clusters.end())
            return failWith({}, invalid, RemoteLaunch::tr("%1: no cluster named \"%2\"").arg(r.projectPath, r.clusterName));
        localSpec = LocalClusterSpec::fromFacts(it->facts);
        if (localSpec) {
            // A cluster on this computer runs with launcher local, whatever was asked.
            if (r.launcher != Launcher::Ssh && r.launcher != Launcher::Local)
                return failWith({}, invalid,
                                RemoteLaunch::tr("cluster %1 is this computer (cluster add --local): it runs with launcher "
                                                 "local, not %2")
                                    .arg(r.clusterName, launcherName(r.launcher)));
            d->request.launcher = Launcher::Local;
            if (r.netnsRate.isEmpty())
                d->request.netnsRate = localSpec->netnsRate;
            if (r.netnsBurst.isEmpty())
                d->request.netnsBurst = localSpec->netnsBurst;
            localRanks = int(project.nodes(it->id).size());
        } else if (r.launcher == Launcher::Local) {
            return failWith({}, invalid,
                            RemoteLaunch::tr("launcher local runs a cluster of this computer (moewb cluster add %1 --local "
                                             "--ranks N); %1 has remote nodes")
                                .arg(r.clusterName));
        } else if (nodes.isEmpty()) {
            for (const store::NodeRow& n : project.nodes(it->id)) {
                auto a = NodeAddress::parse(n.address);
                if (!a)
                    return failWith(n.address, invalid,
                                    RemoteLaunch::tr("cluster %1: bad node address \"%2\": %3").arg(r.clusterName, n.address, a.error()));
                nodes << *a;
            }
        }
    }
    const bool local = r.launcher == Launcher::Local;
    if (local && !localSpec) {
        // No local cluster: as many ranks as the request's nodes or its largest count.
        localRanks = int(nodes.size());
        for (int n : r.nodeCounts)
            localRanks = std::max(localRanks, n);
    }
    if (local && localRanks < 1)
        return failWith({}, invalid, RemoteLaunch::tr("launcher local: no ranks (give node counts or a local cluster)"));
    if (!local && nodes.isEmpty())
        return failWith({}, invalid, RemoteLaunch::tr("no nodes: give a cluster with nodes or a node list"));
    const int available = local ? localRanks : int(nodes.size());
    QList<int> counts = r.nodeCounts;
    if (counts.isEmpty())
        counts << available;
    for (int n : counts)
        if (n < 1 || n > available)
            return failWith({}, invalid,
                            RemoteLaunch::tr("node count %1 is outside 1..%2 (the nodes of %3)")
                                .arg(n)
                                .arg(available)
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
        d->request.matrixRanks = matrixRanks; // read once: epChoice takes it from here (r is d->request)
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
    if (local) {
        if (!r.netnsRate.isEmpty() && !r.noNetns) {
            if (const QString why = LocalClusterSpec::rateProblem(r.netnsRate); !why.isEmpty())
                return failWith({}, invalid, RemoteLaunch::tr("netns rate: %1").arg(why));
            if (!r.netnsBurst.isEmpty())
                if (const QString why = LocalClusterSpec::burstProblem(r.netnsBurst); !why.isEmpty())
                    return failWith({}, invalid, RemoteLaunch::tr("netns burst: %1").arg(why));
            if (const QString why = NetnsCluster::unavailableReason(); !why.isEmpty())
                return failWith({}, invalid, why);
        }
        return d->runLocal(project, counts, prefix, *bundle, matrixRanks);
    }

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
    ssh.acceptNewHostKeys = r.acceptNewHostKeys;
    const int maxCount = *std::max_element(counts.begin(), counts.end());
    // ssh and mpirun: the probe goes to every node (mpirun starts it at the head node's
    // path). Slurm: only the head node is reached over SSH; the compute nodes are
    // expected to share its home (the usual case), so the probe is there too.
    const QList<NodeAddress> used = r.launcher == Launcher::Slurm ? nodes.mid(0, 1) : nodes.mid(0, maxCount);
    // Every helper bound scaled to the nodes reached at once and to the bytes moved
    // (FanoutTimeouts.h); each preparation step has its own, not the sweep point's.
    const FanoutTimeouts bounds = FanoutTimeouts::scaled(r.connectTimeoutMs, r.helperTimeoutMs, int(used.size()));
    ssh.connectTimeoutMs = bounds.connectMs;
    NodePool pool(used, ssh, d->events, &d->cancel);
    QList<NodeFailure> failures = pool.prepare(*bundle + QStringLiteral("/moe-probe"), ncclFallback, bounds);
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
                auto up = SftpUpload::upload(*session, localMatrix, bounds.uploadMs(QFileInfo(localMatrix).size()), {},
                                             &d->cancel);
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
            auto dir = SftpUpload::secureDirectory(*session, SftpUpload::resultsDir(), bounds.helperMs);
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
        decltype(store::RunData::commSamples) samples;
        QJsonObject environment;
        QString sourceFile;
        for (qsizetype si = 0; si < sweeps.size(); ++si) {
            const SizeSweep& sweep = sweeps[si];
            const QString what = RemoteLaunch::tr("running %1 nodes, %2%3")
                                     .arg(count)
                                     .arg(sizeText(sweep.begin))
                                     .arg(sweep.end != sweep.begin ? QStringLiteral("..") + sizeText(sweep.end) : QString());
            const QString head = pn[0].name;
            // This invocation's bounds: the probe run, and reading its report back.
            const int ranks = count * (r.backend == ProbeBackend::Nccl ? qMax(1, r.gpusPerNode) : 1);
            const int runMs = runTimeoutMs(r, ranks, sweep);
            const int collectMs = bounds.collectMs(FanoutTimeouts::reportBytes(
                int(sweepSizes(sweep).size()), r.iterations, r.repeats, epChoice(r, ranks).groups));
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
                    const int timeoutMs = runMs;
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
                    cancelSlurmJob(r, pn[0], outcome[0].slurmJobId, slurmJobName, d->events, bounds.helperMs);
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
                                                    collectMs);
                if (!c)
                    readError = c.error();
                else
                    json = *c;  // empty: no report (said below)
                RemoteCommand::capture(*session, {QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("--"), jsonPath,
                                                  jsonPath + QStringLiteral(".log")},
                                       bounds.helperMs);
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
        QStringList addresses;
        for (int i = 0; i < count; ++i)
            addresses << nodes[i].display();
        if (const QString problem = savePoint(project, r, runName, addresses, samples, environment, sourceFile, sweeps,
                                              matrixRanks, matrixOnNode[0], d->cancel);
            !problem.isEmpty()) {
            const bool wasCancelled = d->cancel.load();
            return failWith({}, wasCancelled ? RemoteError::Kind::Cancelled : RemoteError::Kind::Protocol, problem, saved);
        }
        saved << runName;
        if (d->events.log)
            d->events.log({}, LogStream::Info,
                          RemoteLaunch::tr("saved run %1 (%2 samples, %3 nodes)").arg(runName).arg(samples.size()).arg(count));
    }
    return saved;
}

// ---- Launcher local ---------------------------------------------------------------
// The same sweep as above with the ranks as processes of this computer (LocalRanks.h):
// the bundle's probe checked against its manifest and run from that descriptor, the
// argv of the ssh launcher, the secret in the environment, rank 0's report in a private
// temporary folder; with a rate, each point's ranks in network namespaces made for it
// and removed after it (also on failure and cancel).
Expected<QStringList, StageOneFailure> StageOneSweep::Impl::runLocal(store::ProjectStore& project, const QList<int>& counts,
                                                                     const QString& prefix, const QString& bundle,
                                                                     int matrixRanks) {
    const StageOneRequest& r = request;
    QStringList saved;
    auto failWith = [&saved](const QString& node, RemoteError::Kind k, const QString& msg) {
        StageOneFailure f;
        f.nodes << NodeFailure{node, k, msg};
        f.savedRuns = saved;
        f.cancelled = k == RemoteError::Kind::Cancelled;
        return unexpected(std::move(f));
    };
    auto info = [this](const QString& text) {
        if (events.log)
            events.log({}, LogStream::Info, text);
    };
    const bool shaped = !r.netnsRate.isEmpty() && !r.noNetns;
    const QString burst = r.netnsBurst.isEmpty() ? LocalClusterSpec::defaultBurst(r.netnsRate) : r.netnsBurst;
    if (shaped) {
        const QStringList stale = NetnsCluster::removeStale();
        if (!stale.isEmpty())
            info(RemoteLaunch::tr("removed network namespaces left by an earlier run: %1").arg(stale.join(QStringLiteral(", "))));
    }
    QString sha;
    auto probeFd = openVerifiedLocalProbe(bundle, &sha);
    if (!probeFd)
        return failWith({}, RemoteError::Kind::Verification, probeFd.error());
    struct FdCloser {
        int fd;
        ~FdCloser() { ::close(fd); }
    } closer{*probeFd};
    info(RemoteLaunch::tr("this computer: %1/moe-probe (sha256 %2, as in the bundle's manifest)").arg(bundle, sha.left(16)));
    // Rank 0's report: in a folder of our own (0700), read back and removed with it.
    QTemporaryDir results(QDir::tempPath() + QStringLiteral("/moewb-stage1-XXXXXX"));
    if (!results.isValid())
        return failWith({}, RemoteError::Kind::Protocol,
                        RemoteLaunch::tr("cannot make a private folder in %1 for the probe's report").arg(QDir::tempPath()));
    QFile::setPermissions(results.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const QString matrixFile = matrixRanks > 0 ? QFileInfo(r.pattern.mid(7)).absoluteFilePath() : QString();

    const QList<SizeSweep> sweeps = sizeSweeps(r.messageSizes);
    for (int count : counts) {
        const QString runName = QStringLiteral("%1-n%2").arg(prefix).arg(count);
        info(RemoteLaunch::tr("%1: %2").arg(runName, epChoice(r, count).text));
        // This point's namespaces; removed when it ends, however it ends.
        NetnsCluster netns;
        if (shaped) {
            if (events.progress)
                events.progress({}, 0.0, RemoteLaunch::tr("making %1 network namespaces (%2, burst %3)").arg(count).arg(r.netnsRate, burst));
            auto made = netns.create(count, r.netnsRate, burst);
            if (!made)
                return failWith({}, RemoteError::Kind::Protocol, made.error());
            info(RemoteLaunch::tr("network namespaces %1: each rank's link shaped to %2 (tc tbf, burst %3)")
                     .arg(netns.names().join(QStringLiteral(", ")), r.netnsRate, burst));
        }
        decltype(store::RunData::commSamples) samples;
        QJsonObject environment;
        QString sourceFile;
        for (const SizeSweep& sweep : sweeps) {
            const QString what = RemoteLaunch::tr("running %1 nodes, %2%3")
                                     .arg(count)
                                     .arg(sizeText(sweep.begin))
                                     .arg(sweep.end != sweep.begin ? QStringLiteral("..") + sizeText(sweep.end) : QString());
            const QString head = LocalClusterSpec::nodeName(0);
            const QString jsonPath = results.filePath(fileSafe(runName) + QStringLiteral("-") +
                                                      QString::number(QRandomGenerator::global()->generate64(), 16) +
                                                      QStringLiteral(".json"));
            const QString rvHost = shaped ? NetnsCluster::rankAddress(0) : QStringLiteral("127.0.0.1");
            const int runMs = runTimeoutMs(r, count, sweep);  // every rank on this computer
            struct Outcome {
                LocalRankResult result;
                QString lastStderr;
                QString allStderr;
            };
            std::vector<Outcome> outcome;
            for (int attempt = 1;; ++attempt) {
                const int port = r.rendezvousPort > 0 ? r.rendezvousPort : int(QRandomGenerator::global()->bounded(20000, 60000));
                const QString rendezvous = rvHost + QLatin1Char(':') + QString::number(port);
                const QByteArray secret = ProbeSecret::generate();
                std::atomic_bool pointCancel{false};
                std::atomic_int finished{0};
                std::mutex outMutex;
                outcome.assign(static_cast<size_t>(count), Outcome{});
                std::vector<std::thread> threads;
                for (int k = 0; k < count; ++k) {
                    QStringList argv = probeArguments(r, QStringLiteral("moe-probe"), count, rendezvous, k == 0 ? jsonPath : QString());
                    replaceSizes(argv, sweep);
                    argv << QStringLiteral("--rank") << QString::number(k);
                    const QString label = LocalClusterSpec::nodeName(k);
                    if (k == 0)
                        info(QStringLiteral("$ ") + (shaped ? QStringLiteral("ip netns exec %1 ").arg(netns.rankNamespace(0)) : QString()) +
                             shellJoin(argv));
                    LocalRankSpec spec;
                    spec.execFd = *probeFd;
                    spec.arguments = argv.mid(1);
                    spec.netns = shaped ? netns.rankNamespace(k) : QString();
                    spec.secret = secret;
                    spec.workDir = results.path();
                    spec.timeoutMs = runMs;
                    spec.killGraceMs = 500;
                    spec.cancel = &pointCancel;
                    Outcome* out = &outcome[static_cast<size_t>(k)];
                    spec.onStdout = [this, label](const QString& line) {
                        if (events.log)
                            events.log(label, LogStream::Stdout, line);
                    };
                    spec.onStderr = [this, label, out, &outMutex](const QString& line) {
                        {
                            std::lock_guard<std::mutex> lock(outMutex);
                            if (!line.trimmed().isEmpty())
                                out->lastStderr = line.trimmed();
                            if (out->allStderr.size() < 16384)
                                out->allStderr += line + QLatin1Char('\n');
                        }
                        if (events.log)
                            events.log(label, LogStream::Stderr, line);
                    };
                    threads.emplace_back([this, spec, label, out, what, &outMutex, &finished] {
                        if (events.progress)
                            events.progress(label, 0.0, what);
                        LocalRankResult res = runLocalRank(spec);
                        {
                            std::lock_guard<std::mutex> lock(outMutex);
                            out->result = res;
                        }
                        if (events.progress)
                            events.progress(label, 1.0,
                                            res.exitStatus == 0 ? RemoteLaunch::tr("finished") : RemoteLaunch::tr("failed"));
                        finished.fetch_add(1);
                    });
                }
                // As the remote launchers: after the first failure the others get 2 s to end
                // by themselves (a probe names the rank that failed), then they are stopped.
                QElapsedTimer sinceFailure;
                while (finished.load() < count) {
                    if (cancel.load())
                        pointCancel.store(true);
                    bool anyFailed = false;
                    {
                        std::lock_guard<std::mutex> lock(outMutex);
                        for (const Outcome& o : outcome)
                            anyFailed = anyFailed || (o.result.started && o.result.exitStatus != 0) ||
                                        (!o.result.started && !o.result.error.isEmpty());
                    }
                    if (anyFailed && !sinceFailure.isValid())
                        sinceFailure.start();
                    if (sinceFailure.isValid() && sinceFailure.elapsed() > 2000)
                        pointCancel.store(true);
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                }
                for (std::thread& t : threads)
                    t.join();
                const bool busy = outcome[0].result.exitStatus != 0 && outcome[0].allStderr.contains(QLatin1String("in use"));
                if (busy && r.rendezvousPort == 0 && attempt < 3 && !cancel.load()) {
                    info(RemoteLaunch::tr("rendezvous port %1 busy; trying another").arg(port));
                    continue;
                }
                break;
            }
            QList<NodeFailure> left;  // a process group not confirmed gone
            for (int k = 0; k < count; ++k)
                if (!outcome[static_cast<size_t>(k)].result.groupGone)
                    left << NodeFailure{LocalClusterSpec::nodeName(k), RemoteError::Kind::Protocol,
                                        RemoteLaunch::tr("%1: process group %2 could not be confirmed ended; it may still be running")
                                            .arg(LocalClusterSpec::nodeName(k))
                                            .arg(outcome[static_cast<size_t>(k)].result.pid)};
            if (cancel.load()) {
                StageOneFailure f;
                f.cancelled = true;
                f.savedRuns = saved;
                f.nodes = left;
                f.nodes << NodeFailure{{}, RemoteError::Kind::Cancelled,
                                       RemoteLaunch::tr("cancelled during %1; %2 not saved").arg(what, runName)};
                return unexpected(std::move(f));
            }
            QList<NodeFailure> failures, stopped;
            for (int k = 0; k < count; ++k) {
                const Outcome& o = outcome[static_cast<size_t>(k)];
                const QString node = LocalClusterSpec::nodeName(k);
                if (o.result.exitStatus == 0)
                    continue;
                if (!o.result.started) {
                    failures << NodeFailure{node, RemoteError::Kind::Protocol, QStringLiteral("%1: %2").arg(node, o.result.error)};
                } else if (o.result.cancelled) {
                    stopped << NodeFailure{node, RemoteError::Kind::Cancelled,
                                           RemoteLaunch::tr("%1: stopped after another node failed").arg(node)};
                } else if (o.result.timedOut) {
                    failures << NodeFailure{node, RemoteError::Kind::TimedOut,
                                            RemoteLaunch::tr("%1: moe-probe (rank %2) ran past %3 s and was stopped")
                                                .arg(node)
                                                .arg(k)
                                                .arg((runMs + 999) / 1000)};
                } else {
                    QString status = RemoteLaunch::tr("exited with status %1").arg(o.result.exitStatus);
                    if (o.result.exitStatus > 128 && o.result.exitStatus < 160)
                        status = RemoteLaunch::tr("was killed by signal %1%2 (exit status %3)")
                                     .arg(o.result.exitStatus - 128)
                                     .arg(signalName(o.result.exitStatus - 128))
                                     .arg(o.result.exitStatus);
                    failures << NodeFailure{node, RemoteError::Kind::Protocol,
                                            QStringLiteral("%1: %2 %3%4")
                                                .arg(node, RemoteLaunch::tr("moe-probe (rank %1)").arg(k), status,
                                                     o.lastStderr.isEmpty() ? QString() : QStringLiteral(": ") + o.lastStderr)};
                }
            }
            if (!failures.isEmpty() || !stopped.isEmpty() || !left.isEmpty()) {
                StageOneFailure f;
                f.nodes = failures + stopped + left;
                f.savedRuns = saved;
                f.nodes << NodeFailure{{}, RemoteError::Kind::Protocol,
                                       RemoteLaunch::tr("%1 failed; run %2 not saved").arg(what, runName)};
                return unexpected(std::move(f));
            }
            // Rank 0's report: a plain file in our private folder, bounded, then removed.
            QByteArray json;
            {
                const QFileInfo fi(jsonPath);
                QFile f(jsonPath);
                if (!fi.exists())
                    return failWith(head, RemoteError::Kind::Protocol,
                                    RemoteLaunch::tr("%1: rank 0 wrote no report at %2; run %3 not saved").arg(head, jsonPath, runName));
                if (fi.isSymLink() || !fi.isFile() || fi.size() > kMaxReportBytes || !f.open(QIODevice::ReadOnly))
                    return failWith(head, RemoteError::Kind::Protocol,
                                    RemoteLaunch::tr("%1: cannot read the report %2 (not a plain file, or larger than %3 MiB)")
                                        .arg(head, jsonPath)
                                        .arg(kMaxReportBytes >> 20));
                json = f.read(kMaxReportBytes);
                f.close();
                QFile::remove(jsonPath);
            }
            const QString source = head + QLatin1Char(':') + jsonPath;
            auto imported = importers::ProbeJsonImporter::parse(json, source);
            if (!imported)
                return failWith(head, RemoteError::Kind::Protocol,
                                RemoteLaunch::tr("%1: %2; run %3 not saved").arg(head, imported.error().text(), runName));
            samples += imported->commSamples;
            if (environment.isEmpty())
                environment = imported->environment;
            sourceFile = sourceFile.isEmpty() ? source : sourceFile + QStringLiteral(", ") + source;
        }
        netns.remove();
        QStringList names;
        for (int k = 0; k < count; ++k)
            names << LocalClusterSpec::nodeName(k);
        if (const QString problem =
                savePoint(project, r, runName, names, samples, environment, sourceFile, sweeps, matrixRanks, matrixFile, cancel);
            !problem.isEmpty())
            return failWith({}, cancel.load() ? RemoteError::Kind::Cancelled : RemoteError::Kind::Protocol, problem);
        saved << runName;
        info(RemoteLaunch::tr("saved run %1 (%2 samples, %3 nodes)").arg(runName).arg(samples.size()).arg(count));
    }
    return saved;
}

} // namespace moewb::remote
