#include "routing/RoutingLab.h"

#include "routing/ExpertChoiceRouter.h"
#include "routing/TopKRouter.h"

#include <QCoreApplication>
#include <chrono>
#include <cmath>

namespace moewb::routing {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("moewb::routing", text);
}
double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

QStringList validateSetup(const RoutingSetup& s) {
    QStringList problems;
    if (s.experts < 1 || s.experts > 65536)
        problems << tr("the number of experts must be between 1 and 65536");
    if (s.tokens <= 0 || s.tokens > (std::int64_t(1) << 31) - 1)
        problems << tr("the number of tokens must be between 1 and 2147483647");
    if (s.topK < 1)
        problems << tr("top-k must be at least 1");
    else if (s.topK > s.experts)
        problems << tr("top-k cannot exceed the number of experts");
    if (!(s.capacityFactor > 0.0) || !std::isfinite(s.capacityFactor))
        problems << tr("the capacity factor must be a positive number");
    if (!(s.bias.updateRate > 0.0) || !std::isfinite(s.bias.updateRate))
        problems << tr("the bias update rate must be a positive number");
    if (s.bias.batches < 1 || s.bias.iterations < 1)
        problems << tr("the bias batches and iterations must be at least 1");
    if (s.routers.isEmpty())
        problems << tr("choose at least one router");
    if (problems.isEmpty() && double(s.tokens) * double(s.experts) > 1.0e9)
        problems << tr("tokens × experts must stay under 10^9 scores (4 GB)");
    return problems;
}

RoutingRun runRouting(const RoutingSetup& s) {
    RoutingRun run;
    run.experts = s.experts;
    run.capacity = expertCapacity(s.tokens, s.topK, s.experts, s.capacityFactor);
    const std::vector<float> scores = generateScores(s.tokens, s.experts, s.scores, s.seed);
    for (RouterKind kind : s.routers) {
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
            const LearnedBias learned = learnSigmoidBias(scores.data(), s.tokens, s.experts, s.topK, s.bias);
            const auto start = std::chrono::steady_clock::now();
            r = routeSigmoidBias(scores.data(), s.tokens, s.experts, s.topK, learned.bias);
            r.routingMs = msSince(start);
            r.maxVioPerIteration = learned.maxVioPerIteration;
        }
        run.results.append(r);
    }
    return run;
}

QList<RoutingRun> sweepExperts(const RoutingSetup& setup) {
    QList<RoutingRun> runs;
    for (int e = 4; e <= 256; e *= 2) {
        if (e < setup.topK)
            continue;
        RoutingSetup s = setup;
        s.experts = e;
        runs.append(runRouting(s));
    }
    return runs;
}

} // namespace moewb::routing
