#pragma once
// Stage results computed by the real gates from synthetic measurements, shared by
// the plot spec tests and the plot view GUI test.
#include "StageFixtures.h" // tests/unit/stages
#include "stages/StageFourGate.h"
#include "stages/StageOneGate.h"
#include "stages/StageThreeGate.h"
#include "stages/StageTwoGate.h"

namespace moewb::plots::test {

using namespace moewb::stages;
using namespace moewb::stages::test;

// Two runs: "a2" on 2 nodes (world 16) and "b4" on 4 nodes (world unknown: algbw),
// sizes 1 KiB … 64 MiB (powers of four), median time 10 µs + bytes / 20 GB/s.
inline StageOneResult stageOneResult()
{
    QList<StageOneRunInput> runs;
    StageOneRunInput a = stageOneRun(QStringLiteral("a2"), QStringLiteral("c1"), 16, 2);
    StageOneRunInput b = stageOneRun(QStringLiteral("b4"), QStringLiteral("c1"), std::nullopt, 4);
    for (quint64 bytes = 1024; bytes <= 64ull << 20; bytes *= 4) {
        const double t = 10.0 + double(bytes) / 20e9 * 1e6;
        addSize(a.samples, bytes, {{t, t * 1.01, t * 1.2}, {t, t * 1.02, t * 0.99}});
        addSize(b.samples, bytes, {{t * 1.5, t * 1.6}, {t * 1.5, t * 1.55}});
    }
    runs << a << b;
    return evaluateStageOne(runs, teamThresholds({{QStringLiteral("stage1.cv_max"), 0.5},
                                                  {QStringLiteral("stage1.p99_over_median_max"), 3.0}}));
}

// Two training runs with lm_loss every step 1…200, val_loss every 50 steps,
// tokens_per_s_per_gpu every step.
inline QList<TrainingRunInput> trainingRuns()
{
    QList<TrainingRunInput> runs;
    for (int r = 0; r < 2; ++r) {
        TrainingRunInput run{r == 0 ? QStringLiteral("moe") : QStringLiteral("dense"),
                             r == 0 ? moeRecord() : denseRecord(), {}};
        for (qint64 s = 1; s <= 200; ++s) {
            run.metrics.append({s, QStringLiteral("lm_loss"), 4.0 - 0.005 * s + 0.1 * ((s * 7) % 5) / 5.0 + r * 0.1});
            run.metrics.append({s, QStringLiteral("tokens_per_s_per_gpu"), 1000.0 * (r + 1) + (s % 3)});
            if (s % 50 == 0)
                run.metrics.append({s, QStringLiteral("val_loss"), 3.9 - 0.004 * s + r * 0.1});
        }
        runs << run;
    }
    return runs;
}

// `steps` steps × 2 layers × 4 experts; layer 1's expert 3 is hot at `hotStep`.
inline ExpertLoadRunInput expertRun(const QString& name, int steps, qint64 hotStep,
                                    moewb::record::ConfigRecord rec = moeRecord())
{
    ExpertLoadRunInput run{name, rec, {}, {}, {}};
    run.blocks.reserve(steps * 2);
    for (qint64 s = 1; s <= steps; ++s) {
        run.blocks.append({s, 0, {100, 100, 100, 100}});
        run.blocks.append({s, 1, s == hotStep ? QVector<quint32>{50, 50, 50, 250} : QVector<quint32>{90, 100, 110, 100}});
        run.metrics.append({s, QStringLiteral("lm_loss"), 3.0 - s * 1e-4});
        run.metrics.append({s, QStringLiteral("drop_rate"), 0.02});
        run.metrics.append({s, QStringLiteral("busiest_device_share"), 0.2});
    }
    return run;
}

inline ClusterBaselineInput baseline(const QString& name, double scale)
{
    ClusterBaselineInput in{stageOneRun(name, name, 32, 4), moeRecord()};
    for (quint64 bytes = 1 << 20; bytes <= 16u << 20; bytes *= 2) {
        const double t = (20.0 + double(bytes) / 20e9 * 1e6) * scale;
        addSize(in.run.samples, bytes, {repeated(t, 3), repeated(t, 3)});
    }
    return in;
}

} // namespace moewb::plots::test
