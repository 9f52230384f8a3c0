#pragma once
// Expert-Choice routing (Zhou et al. 2022; docs/routing.md): every expert takes the C
// tokens that score highest for it (ties: the lower token index), C = the capacity. Loads
// are equal by construction; the cost is tokens that no expert took.
#include "routing/RoutingMetrics.h"

#include <cstdint>
#include <vector>

namespace moewb::routing {

// scores: T×E row-major; capacity is clamped to [0, T]. expertsPerToken, when given,
// receives how many experts took each token. droppedAssignments stays 0: tokens ask for
// nothing here, so nothing is dropped; tokensWithoutExpert is the cost.
RouterResult routeExpertChoice(const float* scores, std::int64_t tokens, int experts, std::int64_t capacity,
                               std::vector<int>* expertsPerToken = nullptr);

} // namespace moewb::routing
