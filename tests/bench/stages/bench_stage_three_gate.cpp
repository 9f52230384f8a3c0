// Times the stage 3 gate (summarizeStageThreeRun) over 10,000 steps × 32 layers ×
// 64 experts held in memory, as the store returns them, against a named baseline
// measured in the same run: "sum-only", one plain pass that only adds every count
// (the least any gate over all counts must do). Prints both and the ratio.
// Options: --steps N --layers L --experts E --repeats R; --through-store FILE also
// saves the run to a new project FILE and times `moewb stage 3`'s path: reading the
// blocks back (ProjectStore::expertLoad) plus the gate.
#include "record/RecordJson.h"
#include "stages/StageInputs.h"
#include "stages/StageThreeGate.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <cstdio>
#include <random>

using namespace moewb;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int steps = 10000, layers = 32, experts = 64, repeats = 5;
    QString storePath;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        const int v = args[i + 1].toInt();
        if (args[i] == QLatin1String("--through-store"))
            storePath = args[i + 1];
        else if (args[i] == QLatin1String("--steps"))
            steps = v;
        else if (args[i] == QLatin1String("--layers"))
            layers = v;
        else if (args[i] == QLatin1String("--experts"))
            experts = v;
        else if (args[i] == QLatin1String("--repeats"))
            repeats = v;
    }
    QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
    if (!f.open(QIODevice::ReadOnly))
        return 3;
    stages::ExpertLoadRunInput run{QStringLiteral("bench"), record::parseRecord(f.readAll()).record, {}, {},
                                   {}};
    run.record.moe.experts = experts;

    std::mt19937 rng(42);
    std::uniform_int_distribution<quint32> count(0, 4096);
    run.blocks.reserve(qsizetype(steps) * layers);
    for (int s = 1; s <= steps; ++s)
        for (int l = 0; l < layers; ++l) {
            QVector<quint32> c(experts);
            for (quint32& x : c)
                x = count(rng);
            run.blocks.append({s, l, std::move(c)});
        }

    const stages::ThresholdSet thresholds;
    double bestGate = 1e300, bestBase = 1e300;
    quint64 sink = 0;
    for (int r = 0; r < repeats; ++r) {
        QElapsedTimer t;
        t.start();
        quint64 sum = 0;
        for (const store::ExpertLoadBlock& b : std::as_const(run.blocks))
            for (quint32 c : b.tokensPerExpert)
                sum += c;
        bestBase = std::min(bestBase, t.nsecsElapsed() / 1e9);
        sink += sum;
        t.restart();
        const stages::StageThreeRunSummary s = stages::summarizeStageThreeRun(run, thresholds);
        bestGate = std::min(bestGate, t.nsecsElapsed() / 1e9);
        sink += quint64(s.windowSteps);
    }
    std::printf("expert load: %d steps x %d layers x %d experts = %lld counts\n", steps, layers, experts,
                qint64(steps) * layers * experts);
    std::printf("stage 3 gate (summarizeStageThreeRun): %.3f s (best of %d)\n", bestGate, repeats);
    std::printf("baseline sum-only:                     %.3f s (best of %d)\n", bestBase, repeats);
    std::printf("gate vs baseline: %.2fx the time of one plain pass  [%llu]\n", bestGate / bestBase,
                static_cast<unsigned long long>(sink % 10));
    if (!storePath.isEmpty()) {
        auto opened = store::ProjectStore::open(storePath);
        if (!opened) {
            std::fprintf(stderr, "%s\n", qPrintable(opened.error().text()));
            return 3;
        }
        auto& project = *opened.value();
        store::RunData data;
        data.name = QStringLiteral("bench");
        data.recordName = QStringLiteral("moe");
        data.expertLoad = run.blocks;
        if (!project.addConfigRecord(QStringLiteral("moe"), run.record.toJson(), true) ||
            !project.saveRun(data)) {
            std::fprintf(stderr, "cannot save the run (use a new file)\n");
            return 3;
        }
        QElapsedTimer t;
        t.start();
        auto in = stages::loadStageThreeInputs(project, {QStringLiteral("bench")});
        const double load = t.nsecsElapsed() / 1e9;
        t.restart();
        const stages::StageThreeResult r = stages::evaluateStageThree(*in, thresholds);
        const double gate = t.nsecsElapsed() / 1e9;
        std::printf("through the store: read %.3f s + gate %.3f s = %.3f s (%s)\n", load, gate, load + gate,
                    qPrintable(stages::statusToken(r.verdict.status)));
    }
    return bestGate < 1.0 ? 0 : 1;
}
