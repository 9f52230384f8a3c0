#include "routing/ExpertChoiceRouter.h"

#include <algorithm>

namespace moewb::routing {

RouterResult routeExpertChoice(const float* scores, std::int64_t tokens, int experts, std::int64_t capacity,
                               std::vector<int>* expertsPerToken) {
    RouterResult r;
    r.router = RouterKind::ExpertChoice;
    const std::int64_t c = std::clamp<std::int64_t>(capacity, 0, tokens);
    r.capacity = c;
    r.loads.assign(std::size_t(experts), c);
    std::vector<int> count(std::size_t(tokens), 0);
    struct Candidate {
        float score;
        std::int32_t token;
    };
    std::vector<Candidate> column(static_cast<std::size_t>(tokens));
    const auto better = [](const Candidate& a, const Candidate& b) {
        return a.score > b.score || (a.score == b.score && a.token < b.token);
    };
    for (int e = 0; e < experts && c > 0; ++e) {
        for (std::int64_t t = 0; t < tokens; ++t)
            column[std::size_t(t)] = {scores[t * experts + e], std::int32_t(t)};
        if (c < tokens)
            std::nth_element(column.begin(), column.begin() + (c - 1), column.end(), better);
        for (std::int64_t i = 0; i < c; ++i)
            ++count[std::size_t(column[std::size_t(i)].token)];
    }
    for (int n : count) {
        r.tokensWithoutExpert += n == 0;
        r.maxExpertsPerToken = std::max(r.maxExpertsPerToken, n);
    }
    if (expertsPerToken)
        *expertsPerToken = std::move(count);
    finishMetrics(r);
    return r;
}

} // namespace moewb::routing
