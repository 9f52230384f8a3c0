#include "routing/RoutingMetrics.h"

#include <algorithm>
#include <cmath>

namespace moewb::routing {

double maxViolation(const std::vector<std::int64_t>& loads) {
    if (loads.empty())
        return 0.0;
    double sum = 0.0;
    std::int64_t maxLoad = loads.front();
    for (std::int64_t l : loads) {
        sum += double(l);
        maxLoad = std::max(maxLoad, l);
    }
    const double mean = sum / double(loads.size());
    return mean > 0.0 ? (double(maxLoad) - mean) / mean : 0.0;
}

double loadEntropyBits(const std::vector<std::int64_t>& loads) {
    double sum = 0.0;
    for (std::int64_t l : loads)
        sum += double(l);
    if (sum <= 0.0)
        return 0.0;
    double h = 0.0;
    for (std::int64_t l : loads) {
        if (l > 0) {
            const double p = double(l) / sum;
            h -= p * std::log2(p);
        }
    }
    return h;
}

std::int64_t expertCapacity(std::int64_t tokens, int topK, int experts, double factor) {
    if (experts <= 0)
        return 0;
    // A small epsilon so that 1.12 × 65536 = 73400.32 is not lost to 73400.3199… rounding.
    return std::int64_t(std::floor(factor * double(topK) * double(tokens) / double(experts) + 1e-9));
}

QString routerToken(RouterKind kind) {
    switch (kind) {
    case RouterKind::TopK:
        return QStringLiteral("topk");
    case RouterKind::ExpertChoice:
        return QStringLiteral("expert-choice");
    case RouterKind::SigmoidBias:
        return QStringLiteral("sigmoid-bias");
    }
    return {};
}

void finishMetrics(RouterResult& result) {
    result.maxVio = maxViolation(result.loads);
    result.entropyBits = loadEntropyBits(result.loads);
}

} // namespace moewb::routing
