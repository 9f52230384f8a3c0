#pragma once
// Top-K routing with a per-expert capacity (docs/routing.md). Each token picks its K
// highest-scoring experts (ties: the lower expert index); assignments are then accepted in
// token order (token 0 first, and within a token its best expert first) until an expert
// is full: a position-based drop, as many implementations do. Single thread.
#include "routing/RoutingMetrics.h"

#include <cstdint>
#include <vector>

namespace moewb::routing {

// scores: T×E row-major. capacity ≤ 0 means no capacity (dropless). assignments, when
// given, receives T×K expert indices (best first), −1 where the assignment was dropped.
// routingMs is left at 0: callers time the pass.
RouterResult routeTopK(const float* scores, std::int64_t tokens, int experts, int topK, std::int64_t capacity,
                       std::vector<int>* assignments = nullptr);

// The K best experts of one token's scores, best first (ties: lower index). Shared with
// the sigmoid-bias router.
void topKOfRow(const float* row, int experts, int topK, int* bestIndex, float* bestScore);

} // namespace moewb::routing
