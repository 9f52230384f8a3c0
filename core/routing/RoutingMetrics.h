#pragma once
// Load metrics of the routing lab (docs/routing.md): MaxVio, load entropy, and what one
// router reports.
#include <QString>
#include <cstdint>
#include <vector>

namespace moewb::routing {

// MaxVio = (max load − mean load) / mean load over the experts (Loss-Free Balancing).
// 0 when every expert has the same load; 0 when there is no load at all.
double maxViolation(const std::vector<std::int64_t>& loads);
// Shannon entropy, in bits, of the load distribution p_e = load_e / Σ load:
// −Σ p_e·log2 p_e (0·log 0 = 0). log2(E) when perfectly balanced, 0 when one expert takes all.
double loadEntropyBits(const std::vector<std::int64_t>& loads);

// capacity = floor(factor × K × T / E): assignments one expert accepts per batch.
std::int64_t expertCapacity(std::int64_t tokens, int topK, int experts, double factor);

enum class RouterKind { TopK, ExpertChoice, SigmoidBias };
QString routerToken(RouterKind kind); // "topk", "expert-choice", "sigmoid-bias"

struct RouterResult {
    RouterKind router = RouterKind::TopK;
    std::vector<std::int64_t> loads; // assignments each expert processes
    std::int64_t capacity = 0;       // per expert; 0 = none (dropless)
    std::int64_t droppedAssignments = 0;
    std::int64_t tokensWithoutExpert = 0;
    double maxVio = 0.0;
    double entropyBits = 0.0;
    double routingMs = 0.0; // one whole routing pass, single thread
    // Top-K: the loads before capacity (what the router asked for).
    std::vector<std::int64_t> demandLoads;
    // Expert-Choice: the most experts any one token got.
    int maxExpertsPerToken = 0;
    // Sigmoid-bias: MaxVio of each batch routed while the bias was learned, and the final bias.
    std::vector<double> maxVioPerIteration;
    std::vector<double> bias;
};

// Fills maxVio and entropyBits from loads.
void finishMetrics(RouterResult& result);

} // namespace moewb::routing
