#pragma once
// The routing lab's experiment (SPEC §6): generate scores, run the chosen routers, time
// each routing pass, optionally sweep the expert count. Used by `moewb routing` and the GUI.
#include "routing/RouterScores.h"
#include "routing/RoutingMetrics.h"
#include "routing/SigmoidBiasRouter.h"

#include <QList>
#include <QString>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace moewb::routing {

// Defaults: the seed's setting (seed 001: E=8, T=262144, K=2, factor 1.12).
struct RoutingSetup {
    int experts = 8;
    std::int64_t tokens = 262144;
    int topK = 2;
    double capacityFactor = 1.12;
    ScoreSpec scores;
    std::uint64_t seed = 1;
    SigmoidBiasOptions bias;
    QList<RouterKind> routers{RouterKind::TopK, RouterKind::ExpertChoice, RouterKind::SigmoidBias};
};

// Translated sentences for each invalid field; empty when the setup can run.
QStringList validateSetup(const RoutingSetup& setup);

struct RoutingRun {
    int experts = 0;
    std::int64_t capacity = 0;
    QList<RouterResult> results;
};

// One run at setup.experts. Deterministic apart from routingMs.
RoutingRun runRouting(const RoutingSetup& setup);

// E = 4, 8, …, 256 (powers of two, those with E ≥ K), same T, K, factor and seed.
QList<RoutingRun> sweepExperts(const RoutingSetup& setup);

// For a caller on a worker thread (the GUI's routing lab): progress(fraction in [0, 1]) is
// called between steps and during the bias learning; cancelled() is polled as often (every
// few milliseconds of work). Either may be empty. The results are the same as above.
struct RunControl {
    std::function<void(double fraction)> progress;
    std::function<bool()> cancelled;
};
// std::nullopt when cancelled.
std::optional<RoutingRun> runRouting(const RoutingSetup& setup, const RunControl& control);
std::optional<QList<RoutingRun>> sweepExperts(const RoutingSetup& setup, const RunControl& control);

} // namespace moewb::routing
