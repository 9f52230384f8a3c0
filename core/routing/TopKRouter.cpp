#include "routing/TopKRouter.h"

#include <algorithm>
#include <limits>

namespace moewb::routing {

void topKOfRow(const float* row, int experts, int topK, int* bestIndex, float* bestScore) {
    for (int k = 0; k < topK; ++k) {
        bestIndex[k] = -1;
        bestScore[k] = -std::numeric_limits<float>::infinity();
    }
    for (int e = 0; e < experts; ++e) {
        const float v = row[e];
        if (bestIndex[topK - 1] >= 0 && !(v > bestScore[topK - 1]))
            continue;
        int k = topK - 1;
        while (k > 0 && (bestIndex[k - 1] < 0 || v > bestScore[k - 1])) {
            bestScore[k] = bestScore[k - 1];
            bestIndex[k] = bestIndex[k - 1];
            --k;
        }
        bestScore[k] = v;
        bestIndex[k] = e;
    }
}

namespace {

// K = 2, the common case and the seed's. Tokens go in blocks of kBlock: the block is
// transposed to expert-major order so that the best-two update below runs over kBlock
// tokens at once as straight-line selects, which the compiler turns into SIMD without
// branches (random scores would mispredict any branch half of the time).
constexpr int kBlock = 16;

template <int E> void topTwoBlock(const float* scores, int* best1, int* best2) {
    float col[E][kBlock];
    for (int j = 0; j < kBlock; ++j)
        for (int e = 0; e < E; ++e)
            col[e][j] = scores[j * E + e];
    float b1[kBlock], b2[kBlock];
    int i1[kBlock], i2[kBlock];
    for (int j = 0; j < kBlock; ++j) {
        b1[j] = col[0][j];
        b2[j] = -std::numeric_limits<float>::infinity();
        i1[j] = 0;
        i2[j] = 1;
    }
    for (int e = 1; e < E; ++e) {
        for (int j = 0; j < kBlock; ++j) {
            const float v = col[e][j];
            // All-ones masks instead of branches; min/max keep the two best values.
            const int m1 = -int(v > b1[j]);
            const int m2 = -int(v > b2[j]);
            b2[j] = std::max(b2[j], std::min(b1[j], v));
            b1[j] = std::max(b1[j], v);
            i2[j] = (m1 & i1[j]) | (~m1 & ((m2 & e) | (~m2 & i2[j])));
            i1[j] = (m1 & e) | (~m1 & i1[j]);
        }
    }
    for (int j = 0; j < kBlock; ++j) {
        best1[j] = i1[j];
        best2[j] = i2[j];
    }
}

void topTwoBlockAnyE(const float* scores, int experts, int* best1, int* best2) {
    float best[2];
    int idx[2];
    for (int j = 0; j < kBlock; ++j) {
        topKOfRow(scores + j * experts, experts, 2, idx, best);
        best1[j] = idx[0];
        best2[j] = idx[1];
    }
}

using TopTwoBlockFn = void (*)(const float*, int*, int*);
TopTwoBlockFn topTwoBlockFor(int experts) {
    switch (experts) {
    case 4:
        return &topTwoBlock<4>;
    case 8:
        return &topTwoBlock<8>;
    case 16:
        return &topTwoBlock<16>;
    case 32:
        return &topTwoBlock<32>;
    case 64:
        return &topTwoBlock<64>;
    case 128:
        return &topTwoBlock<128>;
    case 256:
        return &topTwoBlock<256>;
    default:
        return nullptr;
    }
}

// Top-2 with capacity in token order. A block whose tokens cannot fill any expert
// (the fullest expert has room for kBlock more) is counted without per-assignment
// checks; otherwise it is checked assignment by assignment, so the result is exactly
// the token-order rule.
void routeTopTwo(const float* scores, std::int64_t tokens, int experts, std::int64_t cap, RouterResult& r) {
    std::int64_t* load = r.loads.data();
    std::vector<std::int64_t> firstCount(static_cast<std::size_t>(experts), 0);
    std::vector<std::int64_t> secondCount(static_cast<std::size_t>(experts), 0);
    std::int64_t* c1 = firstCount.data();
    std::int64_t* c2 = secondCount.data();
    const TopTwoBlockFn block = topTwoBlockFor(experts);
    std::int64_t dropped = 0, without = 0;
    // An upper bound on the fullest expert's load; recomputed when it nears the capacity.
    std::int64_t bound = 0;
    int b1[kBlock], b2[kBlock];
    const std::int64_t fullBlocks = tokens / kBlock;
    for (std::int64_t blockIndex = 0; blockIndex <= fullBlocks; ++blockIndex) {
        const std::int64_t t0 = blockIndex * kBlock;
        const int n = int(std::min<std::int64_t>(kBlock, tokens - t0));
        if (n <= 0)
            break;
        const float* s = scores + t0 * experts;
        if (n == kBlock && block) {
            block(s, b1, b2);
        } else if (n == kBlock) {
            topTwoBlockAnyE(s, experts, b1, b2);
        } else {
            float best[2];
            int idx[2];
            for (int j = 0; j < n; ++j) {
                topKOfRow(s + j * experts, experts, 2, idx, best);
                b1[j] = idx[0];
                b2[j] = idx[1];
            }
        }
        if (bound + n > cap) {
            bound = 0;
            for (int e = 0; e < experts; ++e)
                bound = std::max(bound, load[e] + c1[e] + c2[e]);
        }
        if (bound + n <= cap) {
            for (int j = 0; j < n; ++j) {
                ++c1[b1[j]];
                ++c2[b2[j]];
            }
            bound += n;
            continue;
        }
        for (int e = 0; e < experts; ++e) {
            load[e] += c1[e] + c2[e];
            r.demandLoads[std::size_t(e)] += c1[e] + c2[e];
            c1[e] = c2[e] = 0;
        }
        for (int j = 0; j < n; ++j) {
            r.demandLoads[std::size_t(b1[j])] += 1;
            r.demandLoads[std::size_t(b2[j])] += 1;
            const bool ok1 = load[b1[j]] < cap;
            load[b1[j]] += ok1;
            const bool ok2 = load[b2[j]] < cap;
            load[b2[j]] += ok2;
            dropped += 2 - int(ok1) - int(ok2);
            without += !(ok1 || ok2);
        }
        bound = 0;
        for (int e = 0; e < experts; ++e)
            bound = std::max(bound, load[e]);
    }
    // Counted blocks accepted every assignment: demand and load grow alike.
    for (int e = 0; e < experts; ++e) {
        load[e] += c1[e] + c2[e];
        r.demandLoads[std::size_t(e)] += c1[e] + c2[e];
    }
    r.droppedAssignments = dropped;
    r.tokensWithoutExpert = without;
}

} // namespace

RouterResult routeTopK(const float* scores, std::int64_t tokens, int experts, int topK, std::int64_t capacity,
                       std::vector<int>* assignments) {
    RouterResult r;
    r.router = RouterKind::TopK;
    r.capacity = capacity > 0 ? capacity : 0;
    r.loads.assign(std::size_t(experts), 0);
    r.demandLoads.assign(std::size_t(experts), 0);
    if (assignments)
        assignments->assign(std::size_t(tokens) * std::size_t(topK), -1);
    const std::int64_t cap = capacity > 0 ? capacity : std::numeric_limits<std::int64_t>::max();
    std::int64_t* load = r.loads.data();
    std::int64_t* demand = r.demandLoads.data();
    std::int64_t dropped = 0;
    std::int64_t without = 0;

    if (topK == 2 && experts >= 2 && !assignments) {
        routeTopTwo(scores, tokens, experts, cap, r);
        finishMetrics(r);
        return r;
    } else {
        std::vector<int> idx(static_cast<std::size_t>(topK));
        std::vector<float> best(static_cast<std::size_t>(topK));
        for (std::int64_t t = 0; t < tokens; ++t) {
            topKOfRow(scores + t * experts, experts, topK, idx.data(), best.data());
            int placed = 0;
            for (int k = 0; k < topK; ++k) {
                const int e = idx[std::size_t(k)];
                ++demand[e];
                if (load[e] < cap) {
                    ++load[e];
                    ++placed;
                    if (assignments)
                        (*assignments)[std::size_t(t * topK + k)] = e;
                }
            }
            dropped += topK - placed;
            without += placed == 0;
        }
    }
    r.droppedAssignments = dropped;
    r.tokensWithoutExpert = without;
    finishMetrics(r);
    return r;
}

} // namespace moewb::routing
