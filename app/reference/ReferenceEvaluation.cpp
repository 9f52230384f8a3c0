#include "ReferenceEvaluation.h"

#include "ReferenceMarker.h"
#include "launch/LocalRanks.h"
#include "launch/StageOneSweep.h"
#include "record/RecordJson.h"
#include "record/RecordValidation.h"
#include "runimport/RunImport.h"
#include "stages/StageEvaluation.h"
#include "store/ProjectStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMutex>
#include <QProcess>
#include <QRandomGenerator>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace moewb::reference {

namespace {

const QStringList kVariants{QStringLiteral("dense"), QStringLiteral("moe-cf1.0"), QStringLiteral("moe-cf1.25"),
                            QStringLiteral("moe-dropless")};

bool hasScript(const QString& dir) {
    return !dir.isEmpty() && QFileInfo(dir + QStringLiteral("/reference_train.py")).isFile();
}

void removeDatabaseFiles(const QString& file) {
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")})
        QFile::remove(file + suffix);
}

ReferenceError failure(const QString& message) { return ReferenceError{message, false}; }

// A cluster of this computer (launcher local): `ranks` probe ranks, one node each, in
// network namespaces shaped to `netnsRate` when it is given; marked as the reference's.
Expected<qint64, store::StoreError> addLocalCluster(store::ProjectStore& project, const QString& name, int ranks,
                                                    const QString& netnsRate, const QJsonObject& marker) {
    remote::LocalClusterSpec spec;
    spec.ranks = ranks;
    spec.netnsRate = netnsRate;
    store::ClusterRow row;
    row.name = name;
    row.facts = spec.facts();
    row.facts.insert(QString::fromLatin1(kMarkerKey), marker);
    QList<store::NodeRow> nodes;
    for (int r = 0; r < ranks; ++r)
        nodes << store::NodeRow{0, 0, remote::LocalClusterSpec::nodeName(r), 0, {}};
    return project.addCluster(row, nodes);
}

} // namespace

QString findReferenceDir(QString* why) {
    QStringList tried;
    const QString env = qEnvironmentVariable("MOEWB_REFERENCE_DIR");
    if (!env.isEmpty()) {
        if (hasScript(env))
            return QDir(env).absolutePath();
        if (why)
            *why = Reference::tr("MOEWB_REFERENCE_DIR=%1 holds no reference_train.py").arg(env);
        return {};
    }
    const QString appDir = QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
    if (!appDir.isEmpty()) {
        const QString installed = QDir::cleanPath(appDir + QStringLiteral("/../share/moe-workbench/reference"));
        if (hasScript(installed))
            return installed;
        tried << installed;
    }
#ifdef MOEWB_SOURCE_REFERENCE_DIR
    {
        const QString source = QStringLiteral(MOEWB_SOURCE_REFERENCE_DIR);
        if (hasScript(source))
            return source;
        tried << source;
    }
#endif
    if (why)
        *why = Reference::tr("reference_train.py not found (looked in %1); set MOEWB_REFERENCE_DIR")
                   .arg(tried.join(QStringLiteral(", ")));
    return {};
}

QString dataDirFor(const QString& projectPath) {
    QString base = QFileInfo(projectPath).absoluteFilePath();
    if (base.endsWith(QLatin1String(".moewb")))
        base.chop(6);
    return base + QStringLiteral(".reference-data");
}

struct ReferenceEvaluation::Impl {
    ReferenceOptions options;
    Progress progress;
    Log log;
    std::atomic_bool cancelFlag{false};
    QMutex sweepMutex;
    remote::StageOneSweep* sweep = nullptr; // the running sweep, for cancel()

    double f0 = 0.0, f1 = 1.0; // the current step's share of the whole
    void say(double within, const QString& what) {
        if (progress)
            progress(f0 + (f1 - f0) * std::clamp(within, 0.0, 1.0), what);
    }
    void line(const QString& text) {
        if (log)
            log(text);
    }

    std::optional<ReferenceError> runTraining(const QString& python, const QString& referenceDir,
                                              const QString& variant, const QString& outDir);
    std::optional<ReferenceError> stageOne(const QString& projectPath, const QString& cluster,
                                           const QString& recordName, const QString& prefix, QStringList* saved);
};

ReferenceEvaluation::ReferenceEvaluation(ReferenceOptions options, Progress progress, Log log)
    : d(std::make_unique<Impl>()) {
    d->options = std::move(options);
    d->progress = std::move(progress);
    d->log = std::move(log);
}

ReferenceEvaluation::~ReferenceEvaluation() = default;

void ReferenceEvaluation::cancel() {
    d->cancelFlag.store(true);
    QMutexLocker lock(&d->sweepMutex);
    if (d->sweep)
        d->sweep->cancel();
}

bool ReferenceEvaluation::cancelled() const { return d->cancelFlag.load(); }

namespace {

// Ends a process group: SIGTERM, then SIGKILL after `graceMs`.
void endGroup(QProcess& p, int graceMs) {
    const qint64 pid = p.processId();
    if (pid <= 0)
        return;
    ::kill(-pid_t(pid), SIGTERM);
    if (!p.waitForFinished(graceMs)) {
        ::kill(-pid_t(pid), SIGKILL);
        p.waitForFinished(5000);
    }
    // Whatever of the group still lives (a child that ignored SIGTERM) goes too.
    ::kill(-pid_t(pid), SIGKILL);
}

} // namespace

std::optional<ReferenceError> ReferenceEvaluation::Impl::runTraining(const QString& python,
                                                                     const QString& referenceDir,
                                                                     const QString& variant, const QString& outDir) {
    QStringList args{referenceDir + QStringLiteral("/reference_train.py"),
                     QStringLiteral("--out"),
                     outDir,
                     QStringLiteral("--variant"),
                     variant,
                     QStringLiteral("--world"),
                     QString::number(options.world),
                     QStringLiteral("--seed"),
                     QString::number(options.seed),
                     QStringLiteral("--collect-path"),
                     QDir::cleanPath(referenceDir + QStringLiteral("/../collect"))};
    if (options.quick)
        args << QStringLiteral("--quick");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    env.insert(QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1"));
    p.setProcessEnvironment(env);
    // Its own process group: cancel ends the trainer and every rank it spawned.
    p.setChildProcessModifier([] { ::setpgid(0, 0); });
    p.start(python, args);
    if (!p.waitForStarted(30000))
        return failure(Reference::tr("cannot start %1: %2").arg(python, p.errorString()));
    line(QStringLiteral("$ %1 %2").arg(python, args.join(QLatin1Char(' '))));
    QStringList stderrTail;
    QByteArray outBuf, errBuf;
    const auto drain = [&] {
        outBuf += p.readAllStandardOutput();
        errBuf += p.readAllStandardError();
        for (QByteArray* buf : {&outBuf, &errBuf}) {
            qsizetype nl;
            while ((nl = buf->indexOf('\n')) >= 0) {
                const QString text = QString::fromUtf8(buf->left(nl)).trimmed();
                buf->remove(0, nl + 1);
                if (text.isEmpty())
                    continue;
                if (buf == &outBuf && text.startsWith(QLatin1String("progress "))) {
                    const QString rest = text.mid(9);
                    const qsizetype space = rest.indexOf(QLatin1Char(' '));
                    bool ok = false;
                    const double f = rest.left(space < 0 ? rest.size() : space).toDouble(&ok);
                    if (ok)
                        say(f, Reference::tr("training %1: %2").arg(variant, space < 0 ? QString() : rest.mid(space + 1)));
                    continue;
                }
                line(QStringLiteral("[%1] %2").arg(variant, text));
                if (buf == &errBuf) {
                    stderrTail << text;
                    if (stderrTail.size() > 8)
                        stderrTail.removeFirst();
                }
            }
        }
    };
    while (!p.waitForFinished(100)) {
        drain();
        if (cancelFlag.load()) {
            endGroup(p, 3000);
            return ReferenceError{Reference::tr("cancelled"), true};
        }
        if (p.state() == QProcess::NotRunning)
            break;
    }
    drain();
    // Any rank the trainer left behind goes with its group.
    if (p.processId() > 0)
        ::kill(-pid_t(p.processId()), SIGKILL);
    if (cancelFlag.load())
        return ReferenceError{Reference::tr("cancelled"), true};
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return failure(Reference::tr("the %1 training failed (exit %2): %3")
                           .arg(variant)
                           .arg(p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1)
                           .arg(stderrTail.isEmpty() ? p.errorString() : stderrTail.join(QLatin1Char('\n'))));
    return std::nullopt;
}

std::optional<ReferenceError> ReferenceEvaluation::Impl::stageOne(const QString& projectPath, const QString& cluster,
                                                                  const QString& recordName, const QString& prefix,
                                                                  QStringList* saved) {
    remote::StageOneRequest req;
    req.projectPath = projectPath;
    req.clusterName = cluster;
    req.recordName = recordName;
    req.runNamePrefix = prefix;
    req.launcher = remote::Launcher::Local;
    req.nodeCounts = {options.world};
    // Sizes suited to loopback and to a shaped 100 Mbit/s link: the largest takes
    // about a quarter of a second there.
    if (options.quick) {
        req.messageSizes = {64u << 10, 1u << 20, 4u << 20};
        req.repeats = 3;
        req.iterations = 5;
        req.warmup = 2;
    } else {
        req.messageSizes = {64u << 10, 256u << 10, 1u << 20, 4u << 20, 16u << 20};
        req.repeats = 5;
        req.iterations = 10;
        req.warmup = 3;
    }
    req.probeBundleDir = options.probeBundleDir;
    req.commandTimeoutMs = 300000;
    remote::StageOneEvents events;
    events.progress = [this, cluster](const QString& node, double fraction, const QString& what) {
        say(fraction, Reference::tr("stage 1 on %1: %2").arg(cluster, node.isEmpty() ? what : node + QStringLiteral(": ") + what));
    };
    events.log = [this, cluster](const QString& node, remote::LogStream, const QString& text) {
        line(QStringLiteral("[%1%2] %3").arg(cluster, node.isEmpty() ? QString() : QStringLiteral(" ") + node, text));
    };
    remote::StageOneSweep running(req, events);
    {
        QMutexLocker lock(&sweepMutex);
        sweep = &running;
        if (cancelFlag.load())
            running.cancel();
    }
    auto result = running.run();
    {
        QMutexLocker lock(&sweepMutex);
        this->sweep = nullptr;
    }
    if (!result) {
        if (result.error().cancelled || cancelFlag.load())
            return ReferenceError{Reference::tr("cancelled"), true};
        return failure(Reference::tr("stage 1 on cluster %1 failed: %2").arg(cluster, result.error().summary()));
    }
    *saved << result.value();
    return std::nullopt;
}

Expected<ReferenceResult, ReferenceError> ReferenceEvaluation::run() {
    QElapsedTimer clock;
    clock.start();
    const ReferenceOptions& o = d->options;
    ReferenceResult result;

    // --- Checks before anything is made.
    if (o.projectPath.trimmed().isEmpty())
        return unexpected(failure(Reference::tr("no project file given")));
    const QFileInfo target(o.projectPath);
    const QString file = target.absoluteFilePath();
    if (target.isDir())
        return unexpected(failure(Reference::tr("%1 is a folder, not a project file").arg(file)));
    if (target.exists() && !o.overwrite)
        return unexpected(failure(Reference::tr("%1 already exists; not replaced (--force replaces it)").arg(file)));
    const QString dataDir = dataDirFor(file);
    if (QFileInfo::exists(dataDir) && !o.overwrite)
        return unexpected(
            failure(Reference::tr("%1 already exists; not replaced (--force replaces it)").arg(dataDir)));
    QString why;
    const QString referenceDir = o.referenceDir.isEmpty() ? findReferenceDir(&why) : o.referenceDir;
    if (referenceDir.isEmpty())
        return unexpected(failure(why));
    if (!hasScript(referenceDir))
        return unexpected(failure(Reference::tr("%1 holds no reference_train.py").arg(referenceDir)));
    QString python = o.python;
    if (python.isEmpty())
        python = qEnvironmentVariable("MOEWB_PYTHON", QStringLiteral("/usr/bin/python3"));
    if (!QFileInfo(python).isExecutable())
        return unexpected(failure(
            Reference::tr("%1 not found or not executable: the trainings need a Python with torch (Debian: apt install "
                          "python3-torch; or set MOEWB_PYTHON)")
                .arg(python)));
    if (o.world < 2)
        return unexpected(failure(Reference::tr("the reference needs at least 2 ranks")));

    // Stage 4 needs cluster B: network namespaces (root, ip, tc).
    ReferenceInfo info;
    info.quick = o.quick;
    if (o.skipClusterB) {
        info.stageFourMeasured = false;
        info.stageFourWhyNot = Reference::tr("cluster B was left out (--no-cluster-b).");
    } else {
        const QString unavailable = remote::NetnsCluster::unavailableReason();
        info.stageFourMeasured = unavailable.isEmpty();
        if (!info.stageFourMeasured)
            info.stageFourWhyNot =
                Reference::tr("a second cluster on this computer needs network namespaces joined by shaped links, "
                              "and %1")
                    .arg(unavailable);
        else
            info.clusterBRate = o.clusterBRate;
    }
    result.stageFourMeasured = info.stageFourMeasured;
    result.stageFourWhyNot = info.stageFourWhyNot;

    if (!QDir().mkpath(target.absolutePath()))
        return unexpected(failure(Reference::tr("cannot create the folder %1").arg(target.absolutePath())));
    if (o.overwrite && QFileInfo::exists(dataDir) && !QDir(dataDir).removeRecursively())
        return unexpected(failure(Reference::tr("cannot remove the old measurement folder %1").arg(dataDir)));
    if (!QDir().mkpath(dataDir))
        return unexpected(failure(Reference::tr("cannot create the folder %1").arg(dataDir)));

    // The temporary project beside the target (mode as any new file).
    QString temp;
    for (int attempt = 0;; ++attempt) {
        temp = target.absolutePath() + QStringLiteral("/.") + target.fileName() + QLatin1Char('.') +
               QString::number(QRandomGenerator::global()->generate() & 0xffffffu, 16) + QStringLiteral(".tmp");
        const int fd = ::open(QFile::encodeName(temp).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            break;
        }
        if (errno != EEXIST || attempt >= 100) {
            QDir(dataDir).removeRecursively();
            return unexpected(failure(Reference::tr("cannot create a temporary file beside %1: %2")
                                          .arg(file, QString::fromLocal8Bit(std::strerror(errno)))));
        }
    }
    // On any failure or cancel: nothing half-made stays.
    bool finished = false;
    struct Cleanup {
        bool& finished;
        QString temp, dataDir;
        ~Cleanup() {
            if (finished)
                return;
            removeDatabaseFiles(temp);
            QDir(dataDir).removeRecursively();
        }
    } cleanup{finished, temp, dataDir};

    auto opened = store::ProjectStore::open(temp);
    if (!opened)
        return unexpected(failure(opened.error().text()));
    std::unique_ptr<store::ProjectStore> project = std::move(opened.value());
    const auto storeFailure = [](const store::StoreError& e) { return unexpected(failure(e.text())); };

    // --- 1. The four trainings, each imported as one run.
    const double trainingShare = 0.8;
    QJsonObject moeRecordJson;
    QString moeRecordName;
    for (int i = 0; i < kVariants.size(); ++i) {
        const QString variant = kVariants[i];
        d->f0 = trainingShare * i / kVariants.size();
        d->f1 = trainingShare * (i + 1) / kVariants.size();
        d->say(0.0, Reference::tr("training %1").arg(variant));
        const QString outDir = dataDir + QLatin1Char('/') + variant;
        if (auto failed = d->runTraining(python, referenceDir, variant, outDir))
            return unexpected(*failed);

        // Its config record.
        const QString recordPath = outDir + QStringLiteral("/record.json");
        QFile recordFile(recordPath);
        if (!recordFile.open(QIODevice::ReadOnly))
            return unexpected(failure(Reference::tr("cannot read %1: %2").arg(recordPath, recordFile.errorString())));
        const QByteArray bytes = recordFile.readAll();
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject())
            return unexpected(failure(Reference::tr("%1: not a JSON object: %2").arg(recordPath, parseError.errorString())));
        const QJsonObject json = doc.object();
        const QList<record::FieldIssue> issues = record::validateJson(json);
        if (!issues.isEmpty()) {
            QStringList lines;
            for (const record::FieldIssue& issue : issues)
                lines << QStringLiteral("%1: %2").arg(recordPath, issue.message);
            return unexpected(failure(lines.join(QLatin1Char('\n'))));
        }
        QString recordName = json.value(QStringLiteral("name")).toString();
        if (recordName.isEmpty())
            recordName = QStringLiteral("reference-") + variant;
        if (auto added = project->addConfigRecord(recordName, json, true); !added)
            return storeFailure(added.error());
        if (variant == QLatin1String("moe-cf1.0")) {
            moeRecordJson = json;
            moeRecordName = recordName;
        }

        // The training's folder as ONE run (the path of `moewb import DIR`).
        d->say(1.0, Reference::tr("importing %1").arg(variant));
        runimport::ImportOptions importOptions;
        auto collected = runimport::collectImportFiles({outDir}, importOptions);
        if (!collected)
            return unexpected(failure(collected.error().text()));
        const record::ConfigRecord rec = record::ConfigRecord::fromJson(json, nullptr);
        auto plan = runimport::planImport(collected.value(), rec, importOptions);
        if (!plan) {
            QStringList lines;
            for (const importers::ImportError& e : plan.error())
                lines << e.text();
            return unexpected(failure(lines.join(QLatin1Char('\n'))));
        }
        store::RunData run = runimport::toRunData(std::move(plan.value()), recordName, recordName);
        run.kind = store::RunKind::Training;
        run.environment.insert(QString::fromLatin1(kMarkerKey), markerJson(info));
        if (auto saved = project->saveRun(run); !saved)
            return storeFailure(saved.error());
        result.trainingRuns << recordName;
    }
    if (moeRecordName.isEmpty())
        return unexpected(failure(Reference::tr("no MoE config record came out of the trainings")));

    // --- 2. Stage 1 on cluster A (loopback) and, as root, cluster B (shaped namespaces).
    const QString clusterA = QStringLiteral("A-loopback");
    const QString clusterB = QStringLiteral("B-netns-") + o.clusterBRate;
    if (auto added = addLocalCluster(*project, clusterA, o.world, {}, markerJson(info)); !added)
        return storeFailure(added.error());
    QString recordB;
    if (info.stageFourMeasured) {
        if (auto added = addLocalCluster(*project, clusterB, o.world, o.clusterBRate, markerJson(info)); !added)
            return storeFailure(added.error());
        // Cluster B's record: the MoE training's, on B's network (stage 4 states the conditions).
        QJsonObject json = moeRecordJson;
        recordB = moeRecordName + QStringLiteral("-on-B");
        json.insert(QStringLiteral("name"), recordB);
        QJsonObject cluster = json.value(QStringLiteral("cluster")).toObject();
        cluster.insert(QStringLiteral("network_type"),
                       QStringLiteral("veth pairs shaped with tc tbf at %1").arg(o.clusterBRate));
        QJsonObject topology = cluster.value(QStringLiteral("topology")).toObject();
        topology.insert(QStringLiteral("description"),
                        QStringLiteral("%1 network namespaces on this computer, each joined to a bridge by a veth "
                                       "pair shaped with tc tbf at %2")
                            .arg(o.world)
                            .arg(o.clusterBRate));
        cluster.insert(QStringLiteral("topology"), topology);
        json.insert(QStringLiteral("cluster"), cluster);
        json.insert(QStringLiteral("notes"),
                    QStringLiteral("The MoE training's record on cluster B (the reference evaluation's target "
                                   "cluster for stage 4)."));
        if (auto added = project->addConfigRecord(recordB, json, record::validateJson(json).isEmpty()); !added)
            return storeFailure(added.error());
    }
    // The sweep opens its own store on the file: this one lets go of nothing, SQLite's WAL
    // lets both write in turn.
    const double stageOneShare = info.stageFourMeasured ? 0.08 : 0.16;
    d->f0 = trainingShare;
    d->f1 = trainingShare + stageOneShare;
    if (auto failed = d->stageOne(temp, clusterA, moeRecordName, QStringLiteral("stage1-A"), &result.stageOneRuns))
        return unexpected(*failed);
    if (info.stageFourMeasured) {
        d->f0 = d->f1;
        d->f1 = d->f0 + stageOneShare;
        if (auto failed = d->stageOne(temp, clusterB, recordB, QStringLiteral("stage1-B"), &result.stageOneRuns))
            return unexpected(*failed);
    }
    if (d->cancelFlag.load())
        return unexpected(ReferenceError{Reference::tr("cancelled"), true});

    // --- 3. Stages 1–4 on what was measured.
    d->f0 = 0.96;
    d->f1 = 1.0;
    const QString justification =
        Reference::tr("Reference evaluation on this computer: it goes on past this stop so that every stage is shown "
                      "on measured data. In a real evaluation, act on the stop before going on.");
    for (int stage = 1; stage <= 4; ++stage) {
        d->say((stage - 1) / 4.0, Reference::tr("evaluating stage %1").arg(stage));
        StageOutcome outcome;
        outcome.stage = stage;
        if (stage == 4 && !info.stageFourMeasured) {
            store::VerdictRow v;
            v.stage = 4;
            v.status = QStringLiteral("not_ready");
            const QStringList reasons{Reference::tr("Stage 4 was not measured: %1").arg(info.stageFourWhyNot),
                                      secondClusterHowTo()};
            for (const QString& r : reasons)
                v.reasons.append(r);
            if (!stages::lockReason(*project, 4).isEmpty()) {
                outcome.status = QStringLiteral("locked");
                outcome.reasons << stages::lockReason(*project, 4);
            } else {
                if (auto saved = project->saveVerdict(v); !saved)
                    return storeFailure(saved.error());
                outcome.status = v.status;
                outcome.reasons = reasons;
            }
            result.stages << outcome;
            continue;
        }
        auto evaluated = stages::evaluateStage(*project, stage);
        if (!evaluated)
            return unexpected(failure(evaluated.error().message));
        const stages::StageEvaluation& e = evaluated.value();
        if (e.locked()) {
            outcome.status = QStringLiteral("locked");
            outcome.reasons << e.lockReason;
            result.stages << outcome;
            continue;
        }
        if (auto saved = stages::saveStageVerdict(*project, e); !saved)
            return storeFailure(saved.error());
        outcome.status = stages::statusToken(e.verdict.status);
        outcome.reasons = e.verdict.reasons;
        outcome.nextStep = e.verdict.nextStep;
        if (e.verdict.status == stages::Verdict::Status::Stop) {
            if (auto o2 = stages::overrideStage(*project, stage, justification, QStringLiteral("moewb reference")); !o2)
                return unexpected(failure(o2.error().message));
            outcome.overridden = true;
        }
        result.stages << outcome;
    }
    if (d->cancelFlag.load())
        return unexpected(ReferenceError{Reference::tr("cancelled"), true});

    // --- Into place.
    project.reset(); // SQLite folds the -wal file in
    for (const QString& suffix : {QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")})
        QFile::remove(file + suffix);
    if (std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(file).constData()) != 0)
        return unexpected(failure(Reference::tr("cannot move the finished project into place: %1")
                                      .arg(QString::fromLocal8Bit(std::strerror(errno)))));
    finished = true;
    d->f0 = 0.0;
    d->f1 = 1.0;
    d->say(1.0, Reference::tr("done"));
    result.projectPath = file;
    result.dataDir = dataDir;
    result.seconds = clock.elapsed() / 1000.0;
    return result;
}

} // namespace moewb::reference
