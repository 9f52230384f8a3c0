// moewb reference [-o FILE] [--quick] [--report FILE.pdf]: the four-stage method run on
// measurements taken on this computer (app/reference, docs/reference.md). Progress on
// stderr; the project's path and the four verdicts at the end; Ctrl-C cancels and leaves
// nothing running and no half project.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "ReferenceEvaluation.h"
#include "ReferenceMarker.h"
#include "launch/LocalRanks.h"
#include "stages/StageInputs.h"
#include "store/ProjectStore.h"
#ifdef MOEWB_WITH_REPORT
#include "report/ReportWriter.h"
#include <QApplication>
#endif

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QMutex>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <thread>

namespace moewb::cli {

namespace {

std::atomic_bool g_referenceInterrupted{false};
extern "C" void onReferenceInterrupt(int) { g_referenceInterrupted.store(true); }

QString defaultReferencePath() {
    return QFileInfo(store::ProjectStore::defaultProjectPath()).absolutePath() + QStringLiteral("/reference.moewb");
}

int runReference(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption outOption(QStringList{QStringLiteral("o"), QStringLiteral("output")},
                                       Cli::tr("the project to write (default: reference.moewb beside the default "
                                               "project); its measurements go to FILE without .moewb + "
                                               ".reference-data/"),
                                       QStringLiteral("FILE"));
    const QCommandLineOption quickOption(QStringLiteral("quick"),
                                         Cli::tr("fewer steps and sizes: minutes instead of a quarter of an hour"));
    const QCommandLineOption forceOption(QStringLiteral("force"), Cli::tr("replace an existing project and its measurements"));
    const QCommandLineOption reportOption(QStringLiteral("report"), Cli::tr("also write the PDF report"),
                                          QStringLiteral("FILE.pdf"));
    const QCommandLineOption noClusterB(QStringLiteral("no-cluster-b"),
                                        Cli::tr("measure cluster A only, also as root (stage 4 is then not measured)"));
    const QCommandLineOption rateOption(QStringLiteral("cluster-b-rate"),
                                        Cli::tr("cluster B's link rate, as tc tbf reads it (default 100mbit)"),
                                        QStringLiteral("RATE"));
    const QCommandLineOption verboseOption(QStringLiteral("verbose"),
                                           Cli::tr("print the trainings' and probes' output on stderr"));
    parser.addOptions({outOption, quickOption, forceOption, reportOption, noClusterB, rateOption, verboseOption});
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments besides its options"), QStringLiteral("reference"));
    if (!ctx.projectOption.isEmpty() || !ctx.demoPath.isEmpty())
        return ctx.usageError(Cli::tr("writes its own project: give it with -o FILE, not --project or --demo"),
                              QStringLiteral("reference"));

    reference::ReferenceOptions options;
    options.projectPath = parser.isSet(outOption) ? parser.value(outOption) : defaultReferencePath();
    if (options.projectPath.trimmed().isEmpty())
        return ctx.usageError(Cli::tr("-o needs a file name"), QStringLiteral("reference"));
    options.quick = parser.isSet(quickOption);
    options.overwrite = parser.isSet(forceOption);
    options.skipClusterB = parser.isSet(noClusterB);
    if (parser.isSet(rateOption)) {
        const QString rate = parser.value(rateOption);
        if (const QString problem = remote::LocalClusterSpec::rateProblem(rate); !problem.isEmpty())
            return ctx.usageError(Cli::tr("--cluster-b-rate: %1").arg(problem), QStringLiteral("reference"));
        options.clusterBRate = rate;
    }
    const QString reportPath = parser.value(reportOption);
#ifdef MOEWB_WITH_REPORT
    if (parser.isSet(reportOption) && reportPath.trimmed().isEmpty())
        return ctx.usageError(Cli::tr("--report needs a file name"), QStringLiteral("reference"));
#else
    if (parser.isSet(reportOption))
        return ctx.usageError(Cli::tr("--report: this moewb was built without the report (MOEWB_WITH_GUI=OFF)"),
                              QStringLiteral("reference"));
#endif
    const bool verbose = parser.isSet(verboseOption);

    // Progress on stderr: a line when the step's text changes or every 10 %.
    QMutex mutex;
    QString lastWhat;
    int lastTenth = -1;
    int lastFiftieth = -1;
    const auto errLine = [&](const QString& text) {
        const QByteArray b = text.toLocal8Bit() + '\n';
        std::fwrite(b.constData(), 1, size_t(b.size()), stderr);
        std::fflush(stderr);
    };
    reference::ReferenceEvaluation evaluation(
        options,
        [&](double fraction, const QString& what) {
            QMutexLocker lock(&mutex);
            const int tenth = int(std::floor(fraction * 10));
            if (what == lastWhat && tenth == lastTenth)
                return;
            // The trainings report every step: their text changes each time, so keep one line per 2 %.
            const int fiftieth = int(std::floor(fraction * 50));
            if (what != lastWhat && tenth == lastTenth && fiftieth == lastFiftieth)
                return;
            lastFiftieth = fiftieth;
            lastWhat = what;
            lastTenth = tenth;
            errLine(Cli::tr("reference: %1 % %2").arg(int(std::round(fraction * 100)), 3).arg(what));
        },
        [&](const QString& line) {
            if (!verbose)
                return;
            QMutexLocker lock(&mutex);
            errLine(line);
        });

    // The evaluation runs on a worker; this thread turns SIGINT / SIGTERM into cancel().
    g_referenceInterrupted.store(false);
    struct sigaction sa {};
    struct sigaction oldInt {};
    struct sigaction oldTerm {};
    sa.sa_handler = onReferenceInterrupt;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &oldInt);
    ::sigaction(SIGTERM, &sa, &oldTerm);
    std::atomic_bool finished{false};
    Expected<reference::ReferenceResult, reference::ReferenceError> result = reference::ReferenceResult();
    std::thread worker([&] {
        result = evaluation.run();
        finished.store(true);
    });
    bool announced = false;
    while (!finished.load()) {
        if (g_referenceInterrupted.load() && !announced) {
            announced = true;
            errLine(Cli::tr("interrupted: cancelling (the trainings and probes are being stopped)"));
            evaluation.cancel();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    worker.join();
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGTERM, &oldTerm, nullptr);

    if (!result) {
        if (ctx.json)
            ctx.printJson({{QStringLiteral("ok"), false},
                           {QStringLiteral("cancelled"), result.error().cancelled},
                           {QStringLiteral("error"), result.error().message}});
        if (result.error().cancelled) {
            ctx.err() << Cli::tr("moewb: reference cancelled; nothing was kept") << Qt::endl;
            return 130;
        }
        ctx.err() << Cli::tr("moewb: reference: %1").arg(result.error().message) << Qt::endl;
        return RuntimeFailure;
    }
    const reference::ReferenceResult& r = result.value();

    QString writtenReport;
#ifdef MOEWB_WITH_REPORT
    if (!reportPath.isEmpty()) {
        if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
            return ctx.runtimeError(Cli::tr("report: no QApplication (internal error)"));
        report::ReportOptions reportOptions;
        const auto written = report::writeReport(r.projectPath, reportPath, reportOptions, {});
        if (!written)
            return ctx.runtimeError(written.error().text());
        writtenReport = QFileInfo(reportPath).absoluteFilePath();
    }
#endif

    if (ctx.json) {
        QJsonArray stageArray;
        for (const reference::StageOutcome& s : r.stages)
            stageArray.append(QJsonObject{{QStringLiteral("stage"), s.stage},
                                          {QStringLiteral("verdict"), s.status},
                                          {QStringLiteral("overridden"), s.overridden},
                                          {QStringLiteral("reasons"), QJsonArray::fromStringList(s.reasons)},
                                          {QStringLiteral("next_step"), s.nextStep}});
        QJsonObject o{{QStringLiteral("ok"), true},
                      {QStringLiteral("project"), r.projectPath},
                      {QStringLiteral("data"), r.dataDir},
                      {QStringLiteral("training_runs"), QJsonArray::fromStringList(r.trainingRuns)},
                      {QStringLiteral("stage1_runs"), QJsonArray::fromStringList(r.stageOneRuns)},
                      {QStringLiteral("stage4_measured"), r.stageFourMeasured},
                      {QStringLiteral("seconds"), r.seconds},
                      {QStringLiteral("banner"), reference::bannerText()},
                      {QStringLiteral("stages"), stageArray}};
        if (!r.stageFourMeasured)
            o.insert(QStringLiteral("stage4_why_not"), r.stageFourWhyNot);
        if (!writtenReport.isEmpty())
            o.insert(QStringLiteral("report"), writtenReport);
        ctx.printJson(o);
        return Success;
    }
    ctx.out() << reference::bannerText() << Qt::endl;
    ctx.out() << Cli::tr("Project: %1").arg(QDir::toNativeSeparators(r.projectPath)) << Qt::endl;
    ctx.out() << Cli::tr("Measurements: %1").arg(QDir::toNativeSeparators(r.dataDir)) << Qt::endl;
    for (const reference::StageOutcome& s : r.stages) {
        const QString word = s.status == QLatin1String("locked") ? Cli::tr("locked") : stages::verdictWord(s.status);
        ctx.out() << (s.overridden ? Cli::tr("Stage %1: %2 (overridden to go on; the stop stays on record)")
                                   : Cli::tr("Stage %1: %2"))
                         .arg(s.stage)
                         .arg(word)
                  << Qt::endl;
        for (const QString& reason : s.reasons)
            ctx.out() << QStringLiteral("  - ") << reason << Qt::endl;
    }
    if (!r.stageFourMeasured)
        ctx.out() << Cli::tr("Stage 4 was not measured: %1").arg(r.stageFourWhyNot) << Qt::endl
                  << reference::secondClusterHowTo() << Qt::endl;
    if (!writtenReport.isEmpty())
        ctx.out() << Cli::tr("Report: %1").arg(QDir::toNativeSeparators(writtenReport)) << Qt::endl;
    ctx.out() << Cli::tr("Took %1 s. Open it: moe-workbench %2").arg(qRound(r.seconds)).arg(r.projectPath) << Qt::endl;
    return Success;
}

} // namespace

QList<Command> referenceCommands() {
    Command c;
    c.words = {QStringLiteral("reference")};
    c.synopsis = QStringLiteral("[-o FILE] [--quick] [--report FILE.pdf] [--force]");
    c.summary = Cli::tr("measure the four-stage method on this computer (tiny trainings, local probe ranks)");
    c.run = [c](CliContext& ctx, const QStringList& a) { return runReference(ctx, c, a); };
    return {c};
}

} // namespace moewb::cli
