// moewb run stage1: a stage 1 sweep on a cluster over SSH, headless, with live
// per-node output on stderr; Ctrl-C (SIGINT) cancels and leaves nothing running.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "RunLoadInput.h"
#include "common/Units.h"
#include "launch/StageOneSweep.h"
#include "store/ProjectStore.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QJsonArray>
#include <QMutex>

#include <atomic>
#include <optional>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>
#include <utility>

namespace moewb::cli {

namespace {

const QString kStage1 = QStringLiteral("run stage1");

std::atomic_bool g_interrupted{false};
extern "C" void onInterrupt(int) { g_interrupted.store(true); }

struct LiveOutput {
    QMutex mutex;
    QHash<QString, QString> lastWhat;  // progress lines only when their text changes
    void line(const QString& node, const QString& text) {
        QMutexLocker lock(&mutex);
        const QByteArray b = (node.isEmpty() ? QStringLiteral("[moewb] ") : QStringLiteral("[%1] ").arg(node)).toLocal8Bit() +
                             text.toLocal8Bit() + '\n';
        std::fwrite(b.constData(), 1, static_cast<size_t>(b.size()), stderr);
        std::fflush(stderr);
    }
    void progress(const QString& node, double fraction, const QString& what) {
        {
            QMutexLocker lock(&mutex);
            // Upload progress: only the start and the end of each step.
            if (lastWhat.value(node) == what || (fraction > 0.0 && fraction < 1.0))
                return;
            lastWhat.insert(node, what);
        }
        line(node, what);
    }
};

// "-n/--iterations" for a message: every name of the option.
QString optionText(const QCommandLineOption& o) {
    QStringList names;
    for (const QString& n : o.names())
        names << (n.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + n;
    return names.join(QLatin1Char('/'));
}

std::optional<QList<int>> parseCounts(const QString& text) {
    QList<int> out;
    for (const QString& p : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = p.trimmed().toInt(&ok);
        if (!ok || n < 1)
            return std::nullopt;
        out << n;
    }
    if (out.isEmpty())
        return std::nullopt;
    return out;
}

int runStage1(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption clusterOption(QStringLiteral("cluster"), Cli::tr("the cluster (moewb cluster add)"), QStringLiteral("NAME"));
    const QCommandLineOption recordOption(QStringLiteral("record"), Cli::tr("the config record the runs belong to"), QStringLiteral("NAME"));
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), Cli::tr("node counts to sweep, e.g. 2,4 (default: all nodes)"),
                                         QStringLiteral("N,..."));
    const QCommandLineOption sizesOption(QStringLiteral("sizes"),
                                         Cli::tr("bytes each rank sends, e.g. 1M,16M,64M (K/M/G = 2^10/2^20/2^30; default 1M,16M,64M)"),
                                         QStringLiteral("SIZE,..."));
    // As moe-probe and nccl-tests: -b/-e/-f, -n, -w, -R (docs/probe.md).
    const QCommandLineOption minBytesOption(QStringList{QStringLiteral("b"), QStringLiteral("minbytes")},
                                            Cli::tr("smallest size each rank sends, as moe-probe -b (K/M/G; default 32M "
                                                    "when -e or -f is given)"),
                                            QStringLiteral("SIZE"));
    const QCommandLineOption maxBytesOption(QStringList{QStringLiteral("e"), QStringLiteral("maxbytes")},
                                            Cli::tr("largest size, as moe-probe -e (default 32M when -b or -f is given)"),
                                            QStringLiteral("SIZE"));
    const QCommandLineOption factorOption(QStringList{QStringLiteral("f"), QStringLiteral("stepfactor")},
                                          Cli::tr("multiply the size by F from -b up to -e (a whole number 2 to "
                                                  "1048576; default 2)"),
                                          QStringLiteral("F"));
    const QCommandLineOption repeatsOption(QStringList{QStringLiteral("R"), QStringLiteral("repeats")},
                                           Cli::tr("repeats per size (default 5)"), QStringLiteral("N"));
    const QCommandLineOption itersOption(QStringList{QStringLiteral("n"), QStringLiteral("iterations")},
                                         Cli::tr("timed iterations per repeat (default 20)"), QStringLiteral("N"));
    const QCommandLineOption warmupOption(QStringList{QStringLiteral("w"), QStringLiteral("warmup")},
                                          Cli::tr("warm-up iterations per size (default 5)"), QStringLiteral("N"));
    const QCommandLineOption patternOption(QStringLiteral("pattern"),
                                           Cli::tr("traffic pattern for every node's probe: uniform (default), hot:K:F "
                                                   "(K hot destinations get F times the bytes), zipf:S, matrix:FILE "
                                                   "(an N×N byte matrix on this machine, uploaded to every node; N "
                                                   "must be the ranks of every sweep point), or from-run:RUN[:LAYER] "
                                                   "(the dispatch matrix of a stored run's measured routing, as `moewb "
                                                   "traffic RUN --layer LAYER` computes it; LAYER defaults to worst)"),
                                           QStringLiteral("P"));
    const QCommandLineOption launcherOption(QStringLiteral("launcher"), Cli::tr("ssh (default), mpirun, slurm or local (this computer; the default for a local cluster)"), QStringLiteral("L"));
    const QCommandLineOption sbatchOption(QStringLiteral("sbatch"), Cli::tr("slurm: submit with sbatch --wait instead of srun"));
    const QCommandLineOption backendOption(QStringLiteral("backend"), Cli::tr("tcp (default) or nccl"), QStringLiteral("B"));
    const QCommandLineOption gpusOption(QStringLiteral("gpus"), Cli::tr("nccl: GPUs per node (default: the cluster's, else 1)"), QStringLiteral("N"));
    const QCommandLineOption nameOption(QStringLiteral("name"), Cli::tr("run name prefix (runs PREFIX-nN; default stage1-<time>)"),
                                        QStringLiteral("PREFIX"));
    const QCommandLineOption acceptOption(QStringLiteral("accept-new-host-keys"),
                                          Cli::tr("trust unknown host keys and record them (default: refuse them)"));
    const QCommandLineOption connectOption(QStringLiteral("connect-timeout"), Cli::tr("seconds per SSH connection (default 10)"),
                                           QStringLiteral("S"));
    const QCommandLineOption timeoutOption(QStringLiteral("timeout"), Cli::tr("seconds per sweep point (default 600)"), QStringLiteral("S"));
    const QCommandLineOption probeTimeoutOption(QStringLiteral("probe-timeout"),
                                                Cli::tr("seconds of silence from a peer the probe tolerates (default 60)"),
                                                QStringLiteral("S"));
    const QCommandLineOption bundleOption(QStringLiteral("probe-bundle"), Cli::tr("the probe bundle directory"), QStringLiteral("DIR"));
    const QCommandLineOption mpirunArgOption(QStringLiteral("mpirun-arg"), Cli::tr("mpirun: one extra argument (repeatable)"),
                                             QStringLiteral("ARG"));
    const QCommandLineOption slurmArgOption(QStringLiteral("slurm-arg"), Cli::tr("slurm: one extra srun/sbatch argument (repeatable)"),
                                            QStringLiteral("ARG"));
    const QCommandLineOption wholeWorldOption(
        QStringLiteral("whole-world"),
        Cli::tr("one all-to-all over all ranks (default: the record's EP groups, all at once, laid out as in training)"));
    const QCommandLineOption epSizeOption(QStringLiteral("ep-size"), Cli::tr("0: the same as --whole-world"), QStringLiteral("0"));
    parser.addOption(wholeWorldOption);
    parser.addOption(epSizeOption);
    for (const auto* o : {&clusterOption, &recordOption, &nodesOption, &sizesOption, &minBytesOption, &maxBytesOption,
                          &factorOption, &repeatsOption, &itersOption, &warmupOption, &patternOption,
                          &launcherOption, &sbatchOption, &backendOption, &gpusOption, &nameOption, &acceptOption, &connectOption,
                          &timeoutOption, &probeTimeoutOption, &bundleOption, &mpirunArgOption, &slurmArgOption})
        parser.addOption(*o);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments, only options"), kStage1);
    if (!parser.isSet(clusterOption) || !parser.isSet(recordOption))
        return ctx.usageError(Cli::tr("--cluster and --record are required"), kStage1);

    remote::StageOneRequest req;
    // $HOME/.ssh (libssh alone would take the home directory from the password database).
    if (const QString home = qEnvironmentVariable("HOME"); !home.isEmpty()) {
        req.sshDir = home + QStringLiteral("/.ssh");
        req.knownHostsFile = req.sshDir + QStringLiteral("/known_hosts");
        if (QFileInfo::exists(req.sshDir + QStringLiteral("/config")))
            req.sshConfigFile = req.sshDir + QStringLiteral("/config");
    }
    req.clusterName = parser.value(clusterOption);
    req.recordName = parser.value(recordOption);
    req.acceptNewHostKeys = parser.isSet(acceptOption);
    req.runNamePrefix = parser.value(nameOption);
    req.probeBundleDir = parser.value(bundleOption);
    req.mpirunExtraArgs = parser.values(mpirunArgOption);
    req.slurmExtraArgs = parser.values(slurmArgOption);
    req.slurmUseSbatch = parser.isSet(sbatchOption);
    req.wholeWorld = parser.isSet(wholeWorldOption);
    if (parser.isSet(epSizeOption)) {
        if (parser.value(epSizeOption) != QLatin1String("0"))
            return ctx.usageError(Cli::tr("--ep-size takes only 0 (one all-to-all over the world); the EP size comes from "
                                          "the record's parallelism.ep"),
                                  kStage1);
        req.wholeWorld = true;
    }
    auto intOption = [&](const QCommandLineOption& o, int min, int* into) -> bool {
        if (!parser.isSet(o))
            return true;
        bool ok = false;
        const int v = parser.value(o).toInt(&ok);
        if (!ok || v < min)
            return false;
        *into = v;
        return true;
    };
    int connectS = 10, timeoutS = 600;
    int gpus = 0;
    const struct {
        const QCommandLineOption* option;
        int min;
        int* into;
    } ints[] = {{&repeatsOption, 1, &req.repeats},         {&itersOption, 1, &req.iterations},
                {&warmupOption, 0, &req.warmup},           {&connectOption, 1, &connectS},
                {&timeoutOption, 1, &timeoutS},            {&probeTimeoutOption, 1, &req.probeTimeoutS},
                {&gpusOption, 1, &gpus}};
    for (const auto& i : ints)
        if (!intOption(*i.option, i.min, i.into))
            return ctx.usageError(Cli::tr("%1 must be a whole number >= %2, not \"%3\"")
                                      .arg(optionText(*i.option))
                                      .arg(i.min)
                                      .arg(parser.value(*i.option)),
                                  kStage1);
    req.connectTimeoutMs = connectS * 1000;
    req.commandTimeoutMs = timeoutS * 1000;
    if (parser.isSet(nodesOption)) {
        const auto counts = parseCounts(parser.value(nodesOption));
        if (!counts)
            return ctx.usageError(Cli::tr("--nodes must be node counts >= 1 separated by commas, not \"%1\"")
                                      .arg(parser.value(nodesOption)),
                                  kStage1);
        req.nodeCounts = *counts;
    } else {
        req.nodeCounts.clear();  // all nodes of the cluster
    }
    const bool series = parser.isSet(minBytesOption) || parser.isSet(maxBytesOption) || parser.isSet(factorOption);
    if (series && parser.isSet(sizesOption))
        return ctx.usageError(Cli::tr("--sizes lists the sizes; -b/-e/-f make a series: give one or the other"), kStage1);
    if (series) {
        // moe-probe's rules (probe_options.cpp): -b and -e default to 32M, -f to 2.
        quint64 b = 32u << 20, e = 32u << 20, f = 2;
        for (const auto& [option, into] : {std::pair{&minBytesOption, &b}, std::pair{&maxBytesOption, &e}}) {
            if (!parser.isSet(*option))
                continue;
            const auto v = units::parseBytes(parser.value(*option).trimmed());
            if (!v || *v == 0)
                return ctx.usageError(Cli::tr("%1: \"%2\" is not a size in bytes > 0 (e.g. 64K, 16M, 1G)")
                                          .arg(optionText(*option), parser.value(*option)),
                                      kStage1);
            *into = *v;
        }
        if (parser.isSet(factorOption)) {
            bool ok = false;
            const qulonglong v = parser.value(factorOption).trimmed().toULongLong(&ok);
            if (!ok || v < 2 || v > (1u << 20))
                return ctx.usageError(Cli::tr("-f must be a whole number from 2 to 1048576, not \"%1\"")
                                          .arg(parser.value(factorOption)),
                                      kStage1);
            f = v;
        }
        if (b > e)
            return ctx.usageError(Cli::tr("-b (%1 bytes) is larger than -e (%2 bytes)").arg(b).arg(e), kStage1);
        req.messageSizes.clear();
        for (quint64 s = b; s <= e; s *= f) {
            req.messageSizes << s;
            if (s > e / f)
                break;
        }
    }
    // from-run:RUN[:LAYER]: the matrix is computed once the project is open.
    QString fromRun, fromRunLayer = QStringLiteral("worst");
    if (parser.isSet(patternOption) && parser.value(patternOption).trimmed().startsWith(QLatin1String("from-run:"))) {
        fromRun = parser.value(patternOption).trimmed().mid(9);
        const qsizetype colon = fromRun.lastIndexOf(QLatin1Char(':'));
        if (colon > 0) {
            const QString tail = fromRun.mid(colon + 1);
            bool number = false;
            tail.toInt(&number);
            if (number || tail == QLatin1String("worst") || tail == QLatin1String("all")) {
                fromRunLayer = tail;
                fromRun.truncate(colon);
            }
        }
        if (fromRun.isEmpty())
            return ctx.usageError(Cli::tr("--pattern from-run:RUN[:LAYER] needs a run name"), kStage1);
    } else if (parser.isSet(patternOption)) {
        const QString pattern = parser.value(patternOption).trimmed();
        const QString problem = remote::StageOneSweep::patternProblem(pattern);
        if (!problem.isEmpty())
            return ctx.usageError(Cli::tr("--pattern: %1").arg(problem), kStage1);
        req.pattern = pattern.startsWith(QLatin1String("matrix:"))
                          ? QStringLiteral("matrix:") + QFileInfo(pattern.mid(7)).absoluteFilePath()
                          : pattern;
    }
    if (parser.isSet(sizesOption)) {
        req.messageSizes.clear();
        for (const QString& p : parser.value(sizesOption).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto b = units::parseBytes(p.trimmed());
            if (!b || *b == 0)
                return ctx.usageError(Cli::tr("--sizes: \"%1\" is not a size in bytes (e.g. 64K, 16M, 1G)").arg(p), kStage1);
            req.messageSizes << *b;
        }
    }
    if (parser.isSet(launcherOption)) {
        const auto l = remote::launcherFromName(parser.value(launcherOption));
        if (!l)
            return ctx.usageError(Cli::tr("--launcher must be ssh, mpirun, slurm or local, not \"%1\"").arg(parser.value(launcherOption)),
                                  kStage1);
        req.launcher = *l;
    }
    if (parser.isSet(backendOption)) {
        const auto b = remote::backendFromName(parser.value(backendOption));
        if (!b)
            return ctx.usageError(Cli::tr("--backend must be tcp or nccl, not \"%1\"").arg(parser.value(backendOption)), kStage1);
        req.backend = *b;
    }

    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    req.projectPath = project->path();
    // The run's dispatch matrix goes to a temporary file that outlives the sweep (the
    // sweep uploads it with the probe); the runs record where it came from.
    std::optional<QTemporaryDir> matrixDir;
    if (!fromRun.isEmpty()) {
        RunTrafficOptions options;
        options.layer = fromRunLayer;
        const auto traffic = computeRunTraffic(*project, fromRun, options);
        if (!traffic)
            return ctx.runtimeError(Cli::tr("--pattern from-run:%1: %2").arg(fromRun, traffic.error()));
        matrixDir.emplace(QDir::tempPath() + QStringLiteral("/moewb-from-run-XXXXXX"));
        const QString file = matrixDir->filePath(QStringLiteral("dispatch-matrix.txt"));
        QSaveFile out(file);
        if (!matrixDir->isValid() || !out.open(QIODevice::WriteOnly) ||
            out.write(traffic::matrixFileText(traffic->measured, traffic->matrixHeader(fromRun))) < 0 || !out.commit())
            return ctx.runtimeError(Cli::tr("cannot write the traffic matrix in %1").arg(QDir::tempPath()));
        req.pattern = QStringLiteral("matrix:") + file;
        req.patternOrigin = QStringLiteral("from-run:%1:%2 (steps %3-%4, layer %5, %6 tokens per rank, top-%7, "
                                           "hidden %8 x %9 B, independent-experts model)")
                                .arg(fromRun, fromRunLayer)
                                .arg(traffic->input.loads.firstStep)
                                .arg(traffic->input.loads.lastStep)
                                .arg(traffic->layer < 0 ? QStringLiteral("all") : QString::number(traffic->layer))
                                .arg(traffic->shape.tokensPerRank)
                                .arg(traffic->shape.topK)
                                .arg(traffic->shape.hiddenSize)
                                .arg(traffic->shape.bytesPerElement);
        const double busiest = traffic->measured.busiestRankBytes();
        const double uniform = traffic->uniform.busiestRankBytes();
        ctx.out() << Cli::tr("Traffic from run %1, layer %2: %3×%3 dispatch matrix, busiest rank %4 per micro-batch "
                             "against %5 if routing were uniform; the probe scales it to each size.")
                         .arg(fromRun, traffic->layerLabel)
                         .arg(traffic->measured.ranks)
                         .arg(units::formatBytes(busiest), units::formatBytes(uniform))
                  << Qt::endl;
    }
    for (const auto& c : project->clusters()) {
        if (c.name != req.clusterName)
            continue;
        if (!c.identityFile.isEmpty())
            req.identityFiles << c.identityFile;
        req.gpusPerNode = gpus > 0 ? gpus : qMax(1, c.gpusPerNode);
    }

    LiveOutput live;
    remote::StageOneEvents ev;
    ev.progress = [&](const QString& node, double f, const QString& what) { live.progress(node, f, what); };
    ev.log = [&](const QString& node, remote::LogStream, const QString& text) { live.line(node, text); };
    remote::StageOneSweep sweep(req, ev);

    // The sweep runs on a worker; this thread turns SIGINT into cancel().
    g_interrupted.store(false);
    struct sigaction sa {};
    struct sigaction old {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old);
    std::atomic_bool finished{false};
    Expected<QStringList, remote::StageOneFailure> result = QStringList();
    std::thread worker([&] {
        result = sweep.run();
        finished.store(true);
    });
    bool announced = false;
    while (!finished.load()) {
        if (g_interrupted.load() && !announced) {
            announced = true;
            live.line({}, Cli::tr("interrupted: cancelling (remote processes are being stopped)"));
            sweep.cancel();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    worker.join();
    ::sigaction(SIGINT, &old, nullptr);

    if (ctx.json) {
        QJsonArray failures;
        if (!result)
            for (const auto& f : result.error().nodes)
                failures.append(QJsonObject{{QStringLiteral("node"), f.node}, {QStringLiteral("message"), f.message}});
        const QStringList saved = result ? result.value() : result.error().savedRuns;
        ctx.printJson({{QStringLiteral("ok"), bool(result)},
                       {QStringLiteral("cancelled"), !result && result.error().cancelled},
                       {QStringLiteral("runs"), QJsonArray::fromStringList(saved)},
                       {QStringLiteral("failures"), failures}});
    }
    if (!result) {
        for (const auto& f : result.error().nodes)
            ctx.err() << Cli::tr("moewb: %1").arg(f.message) << Qt::endl;
        if (!result.error().savedRuns.isEmpty())
            ctx.err() << Cli::tr("moewb: saved before the failure: %1").arg(result.error().savedRuns.join(QStringLiteral(", ")))
                      << Qt::endl;
        return result.error().cancelled ? 130 : RuntimeFailure;
    }
    if (!ctx.json)
        for (const QString& name : result.value())
            ctx.out() << Cli::tr("saved run %1").arg(name) << Qt::endl;
    return Success;
}

} // namespace

QList<Command> runCommands() {
    Command c;
    c.words = {QStringLiteral("run"), QStringLiteral("stage1")};
    c.synopsis = QStringLiteral("--cluster NAME --record NAME [--launcher ssh|mpirun|slurm|local] [--backend nccl|tcp] "
                                "[--nodes 2,4] [-b SIZE] [-e SIZE] [-f F] [--sizes 1M,16M] [-n N] [-w N] [-R N] "
                                "[--pattern uniform|hot:K:F|zipf:S|matrix:FILE|from-run:RUN[:LAYER]] [--whole-world] [--timeout SEC] "
                                "[--accept-new-host-keys]");
    c.summary = Cli::tr("stage 1 on a cluster: the probe over SSH, one run per node count");
    c.run = [c](CliContext& ctx, const QStringList& a) { return runStage1(ctx, c, a); };
    return {c};
}

} // namespace moewb::cli
