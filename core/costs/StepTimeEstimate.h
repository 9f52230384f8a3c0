#pragma once
// A step-time estimate from this cluster's stage 1 all-to-all curve (docs/costs.md):
// all-to-all time = calls per step × the curve's median time at one call's bytes per rank;
// compute time = 6 · activated parameters · tokens / world / achieved FLOP/s (optional).
#include "costs/CostModel.h"

#include <QList>
#include <QString>
#include <cstdint>
#include <optional>

namespace moewb::store {
class ProjectStore;
}

namespace moewb::costs {

struct CurvePoint {
    double bytesPerRank = 0;
    double medianUs = 0;
};

struct CommCurve {
    QString runName; // the stage 1 run it came from
    // Non-empty when that probe run measured a training's own routing (its
    // environment's pattern_origin, "from-run:RUN:LAYER (…)", docs/traffic.md).
    QString routingOrigin;
    QList<CurvePoint> points; // ascending size
};

struct CurveLookup {
    double timeUs = 0;
    bool extrapolated = false; // outside the measured sizes
};
// The curve of a project's stage 1 runs, as `moewb costs` and the Learn cost explorer use
// it: the run named; else, among the runs whose all-to-all concurrency is the EP size
// (EP groups of that size, or a world of it), the first at the record's node count
// (`nodes`, when given: the network the training's all-to-all crosses) that measured a
// training's own routing (from-run:), else the first at that node count, else the first
// with its own routing, else the first of them; else the first run with communication
// samples.
// One point per message size (bytes per rank and the median time of
// stages::stageOneTable).
struct ProjectCurve {
    std::optional<CommCurve> curve; // curve->runName: the run used
    bool worldMatchesEp = false;    // that run's all-to-alls ran over the EP size asked for
    // Why there is no curve: empty when the project has no stage 1 run with samples
    // (or the run has none); else why the stage 1 inputs could not be read (names the run).
    QString error;
};
ProjectCurve commCurveFromProject(const store::ProjectStore& project, std::int64_t ep,
                                  const QString& runName = {}, std::optional<std::int64_t> nodes = {});

// Linear interpolation between the measured sizes; below the smallest, the smallest's
// time (latency floor); above the largest, the largest's bandwidth.
std::optional<CurveLookup> timeAt(const CommCurve& curve, double bytesPerRank);

struct StepTimeEstimate {
    std::optional<double> callTimeUs;
    bool extrapolated = false;
    std::optional<double> allToAllUs;  // per step, per device
    std::optional<double> computeUs;   // with achieved TFLOP/s only
    std::optional<double> totalUs;     // compute + all-to-all, no overlap (an upper bound)
    std::optional<double> flopsPerDevice;
};

// achievedTflops: per device, as the cluster reaches (nullopt: no compute estimate).
StepTimeEstimate estimateStepTime(const CostInputs& in, const ParameterCounts& params,
                                  const AllToAllVolume& volume, const std::optional<CommCurve>& curve,
                                  std::optional<double> achievedTflops);

} // namespace moewb::costs
