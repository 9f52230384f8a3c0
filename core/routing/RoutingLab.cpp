#include "routing/RoutingLab.h"

#include "routing/ExpertChoiceRouter.h"
#include "routing/TopKRouter.h"

#include <QCoreApplication>
#include <algorithm>
#include <chrono>
#include <cmath>

namespace moewb::routing {

namespace {
// Translation context of this module's messages: RoutingTr::tr("...").
class RoutingTr {
    Q_DECLARE_TR_FUNCTIONS(Routing)
};
double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

QStringList validateSetup(const RoutingSetup& s) {
    QStringList problems;
    if (s.experts < 1 || s.experts > 65536)
        problems << RoutingTr::tr("the number of experts must be between 1 and 65536");
    if (s.tokens <= 0 || s.tokens > (std::int64_t(1) << 31) - 1)
        problems << RoutingTr::tr("the number of tokens must be between 1 and 2147483647");
    if (s.topK < 1)
        problems << RoutingTr::tr("top-k must be at least 1");
    else if (s.topK > s.experts)
        problems << RoutingTr::tr("top-k cannot exceed the number of experts");
    if (!(s.capacityFactor > 0.0) || !std::isfinite(s.capacityFactor))
        problems << RoutingTr::tr("the capacity factor must be a positive number");
    if (!(s.bias.updateRate > 0.0) || !std::isfinite(s.bias.updateRate))
        problems << RoutingTr::tr("the bias update rate must be a positive number");
    if (s.bias.batches < 1 || s.bias.iterations < 1)
        problems << RoutingTr::tr("the bias batches and iterations must be at least 1");
    if (s.routers.isEmpty())
        problems << RoutingTr::tr("choose at least one router");
    if (problems.isEmpty() && double(s.tokens) * double(s.experts) > 1.0e9)
        problems << RoutingTr::tr("tokens × experts must stay under 10^9 scores (4 GB)");
    return problems;
}

namespace {

// Rough shares of one run's time, for the progress bar: the bias learning dominates.
double stepWeight(RouterKind kind) {
    switch (kind) {
    case RouterKind::TopK:
        return 0.02;
    case RouterKind::ExpertChoice:
        return 0.15;
    case RouterKind::SigmoidBias:
        return 0.75;
    }
    return 0.1;
}
constexpr double kScoresWeight = 0.08;

// One run; progress is reported as base + span × (this run's fraction).
std::optional<RoutingRun> runOne(const RoutingSetup& s, const RunControl* control, double base, double span) {
    const auto cancelled = [&] { return control && control->cancelled && control->cancelled(); };
    double total = kScoresWeight;
    for (RouterKind kind : s.routers)
        total += stepWeight(kind);
    double done = 0.0;
    const auto report = [&](double d) {
        if (control && control->progress)
            control->progress(base + span * std::min(1.0, d / total));
    };
    RoutingRun run;
    run.experts = s.experts;
    run.capacity = expertCapacity(s.tokens, s.topK, s.experts, s.capacityFactor);
    const std::vector<float> scores = generateScores(s.tokens, s.experts, s.scores, s.seed);
    done += kScoresWeight;
    report(done);
    for (RouterKind kind : s.routers) {
        if (cancelled())
            return std::nullopt;
        RouterResult r;
        if (kind == RouterKind::TopK) {
            const auto start = std::chrono::steady_clock::now();
            r = routeTopK(scores.data(), s.tokens, s.experts, s.topK, run.capacity);
            r.routingMs = msSince(start);
        } else if (kind == RouterKind::ExpertChoice) {
            const auto start = std::chrono::steady_clock::now();
            r = routeExpertChoice(scores.data(), s.tokens, s.experts, run.capacity);
            r.routingMs = msSince(start);
        } else {
            bool stopped = false;
            const double learnShare = stepWeight(kind) * 0.9;
            const auto each = [&](int it) {
                if ((it & 7) == 0 || it == s.bias.iterations) {
                    report(done + learnShare * double(it) / double(std::max(1, s.bias.iterations)));
                    if (cancelled()) {
                        stopped = true;
                        return false;
                    }
                }
                return true;
            };
            const LearnedBias learned =
                control ? learnSigmoidBias(scores.data(), s.tokens, s.experts, s.topK, s.bias, each)
                        : learnSigmoidBias(scores.data(), s.tokens, s.experts, s.topK, s.bias);
            if (stopped)
                return std::nullopt;
            const auto start = std::chrono::steady_clock::now();
            r = routeSigmoidBias(scores.data(), s.tokens, s.experts, s.topK, learned.bias);
            r.routingMs = msSince(start);
            r.maxVioPerIteration = learned.maxVioPerIteration;
        }
        run.results.append(r);
        done += stepWeight(kind);
        report(done);
    }
    return run;
}

QList<int> sweepCounts(const RoutingSetup& setup) {
    QList<int> counts;
    for (int e = 4; e <= 256; e *= 2)
        if (e >= setup.topK)
            counts.append(e);
    return counts;
}

} // namespace

RoutingRun runRouting(const RoutingSetup& s) {
    return *runOne(s, nullptr, 0.0, 1.0);
}

std::optional<RoutingRun> runRouting(const RoutingSetup& s, const RunControl& control) {
    return runOne(s, &control, 0.0, 1.0);
}

QList<RoutingRun> sweepExperts(const RoutingSetup& setup) {
    QList<RoutingRun> runs;
    for (int e : sweepCounts(setup)) {
        RoutingSetup s = setup;
        s.experts = e;
        runs.append(*runOne(s, nullptr, 0.0, 1.0));
    }
    return runs;
}

std::optional<QList<RoutingRun>> sweepExperts(const RoutingSetup& setup, const RunControl& control) {
    // Work grows about linearly with E: weight each point by its expert count.
    const QList<int> counts = sweepCounts(setup);
    double total = 0.0;
    for (int e : counts)
        total += double(e);
    QList<RoutingRun> runs;
    double base = 0.0;
    for (int e : counts) {
        RoutingSetup s = setup;
        s.experts = e;
        const double span = double(e) / total;
        auto run = runOne(s, &control, base, span);
        if (!run)
            return std::nullopt;
        runs.append(*run);
        base += span;
    }
    return runs;
}

} // namespace moewb::routing
