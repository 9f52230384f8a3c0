#include "routing/SigmoidBiasRouter.h"

#include "routing/TopKRouter.h"

#include <algorithm>
#include <cmath>

namespace moewb::routing {

namespace {

// Routes tokens [begin, end) and adds each expert's assignments to loads.
void routeRange(const float* scores, std::int64_t begin, std::int64_t end, int experts, int topK,
                const std::vector<double>& bias, std::vector<std::int64_t>& loads, std::vector<int>* assignments) {
    std::vector<float> biased(static_cast<std::size_t>(experts));
    std::vector<int> idx(static_cast<std::size_t>(topK));
    std::vector<float> best(static_cast<std::size_t>(topK));
    for (std::int64_t t = begin; t < end; ++t) {
        const float* row = scores + t * experts;
        for (int e = 0; e < experts; ++e)
            biased[std::size_t(e)] = 1.0f / (1.0f + std::exp(-row[e])) + float(bias[std::size_t(e)]);
        topKOfRow(biased.data(), experts, topK, idx.data(), best.data());
        for (int k = 0; k < topK; ++k) {
            ++loads[std::size_t(idx[std::size_t(k)])];
            if (assignments)
                (*assignments)[std::size_t(t * topK + k)] = idx[std::size_t(k)];
        }
    }
}

} // namespace

LearnedBias learnSigmoidBias(const float* scores, std::int64_t tokens, int experts, int topK,
                             const SigmoidBiasOptions& options,
                             const std::function<bool(int done)>& afterIteration) {
    LearnedBias learned;
    learned.bias.assign(std::size_t(experts), 0.0);
    const int batches = std::max(1, options.batches);
    const std::int64_t batchSize = (tokens + batches - 1) / batches;
    std::vector<std::int64_t> loads(static_cast<std::size_t>(experts));
    for (int it = 0; it < options.iterations; ++it) {
        const std::int64_t begin = std::min(tokens, std::int64_t(it % batches) * batchSize);
        const std::int64_t end = std::min(tokens, begin + batchSize);
        std::fill(loads.begin(), loads.end(), 0);
        routeRange(scores, begin, end, experts, topK, learned.bias, loads, nullptr);
        learned.maxVioPerIteration.push_back(maxViolation(loads));
        const double mean = double(topK) * double(end - begin) / double(experts);
        for (int e = 0; e < experts; ++e) {
            const double gap = mean - double(loads[std::size_t(e)]);
            learned.bias[std::size_t(e)] += options.updateRate * double((gap > 0.0) - (gap < 0.0));
        }
        if (afterIteration && !afterIteration(it + 1))
            break;
    }
    return learned;
}

RouterResult routeSigmoidBias(const float* scores, std::int64_t tokens, int experts, int topK,
                              const std::vector<double>& bias, std::vector<int>* assignments) {
    RouterResult r;
    r.router = RouterKind::SigmoidBias;
    r.loads.assign(std::size_t(experts), 0);
    if (assignments)
        assignments->assign(std::size_t(tokens) * std::size_t(topK), -1);
    routeRange(scores, 0, tokens, experts, topK, bias, r.loads, assignments);
    r.bias = bias;
    finishMetrics(r);
    return r;
}

} // namespace moewb::routing
