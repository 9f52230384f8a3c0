#pragma once
// Sigmoid gating with aux-loss-free bias (DeepSeek's Loss-Free Balancing, Wang et al. 2024;
// docs/routing.md). Affinity a = sigmoid(score); each token takes the K experts with the
// highest a + b_e (discrete assignments; the bias only selects, it never weights). After
// each batch: b_e += u · sign(mean load − load_e). Dropless: no capacity.
#include "routing/RoutingMetrics.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace moewb::routing {

struct SigmoidBiasOptions {
    double updateRate = 0.001; // u, as DeepSeek-V3
    int batches = 16;         // the T tokens are cut into this many consecutive batches
    int iterations = 512;     // bias updates; iteration i routes batch i mod batches
};

struct LearnedBias {
    std::vector<double> bias;              // b_e after the last update
    std::vector<double> maxVioPerIteration; // MaxVio of each batch, routed before its update
};

// Learns the bias over the batches, starting from zero. afterIteration, when given, is called
// with the number of iterations done after each one; returning false stops the learning
// (the result then holds the iterations done so far).
LearnedBias learnSigmoidBias(const float* scores, std::int64_t tokens, int experts, int topK,
                             const SigmoidBiasOptions& options,
                             const std::function<bool(int done)>& afterIteration = {});

// One routing pass over all T tokens with a fixed bias. assignments, when given,
// receives T×K expert indices, best first.
RouterResult routeSigmoidBias(const float* scores, std::int64_t tokens, int experts, int topK,
                              const std::vector<double>& bias, std::vector<int>* assignments = nullptr);

} // namespace moewb::routing
