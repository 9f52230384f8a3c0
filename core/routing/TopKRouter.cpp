#include "routing/TopKRouter.h"

#include <algorithm>
#include <limits>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define MOEWB_TOPK_AVX2 1
#endif

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

#ifdef MOEWB_TOPK_AVX2
// E = 8, K = 2 with AVX2 (chosen at run time, so the binary still runs without it): eight
// tokens at a time, their 8×8 scores transposed in registers to one vector per expert, the
// best two kept with compares and blends (the same strict '>' as topKOfRow, so ties go to
// the lower index exactly as there). An expert e is carried as the one-hot nibble
// 1 << (4·e): each lane counts its tokens' experts in one 32-bit word (a nibble per
// expert), emptied into counts every 15 groups before a nibble could overflow.
// Counts the 2·8·groups assignments into counts[0..7]; capacity is the caller's business.
__attribute__((target("avx2"))) inline void transpose4x4InLanes(const __m256* r, __m256* c) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    c[0] = _mm256_shuffle_ps(t0, t2, 0x44);
    c[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
    c[2] = _mm256_shuffle_ps(t1, t3, 0x44);
    c[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
}

__attribute__((target("avx2"))) void countTopTwoE8Avx2(const float* scores, std::int64_t groups,
                                                       std::int64_t* counts) {
    // nibble[e]: expert e as the one-hot count 1 << (4·e), carried in a float register.
    __m256 nibble[8];
    for (int e = 0; e < 8; ++e)
        nibble[e] = _mm256_castsi256_ps(_mm256_set1_epi32(1 << (4 * e)));
    std::int64_t g = 0;
    while (g < groups) {
        const std::int64_t batch = std::min<std::int64_t>(15, groups - g);
        __m256i acc = _mm256_setzero_si256();
        for (std::int64_t b = 0; b < batch; ++b, ++g) {
            const float* s = scores + g * 64;
            // Row j of q (resp. h): experts 0–3 (resp. 4–7) of token j | of token j + 4; an
            // in-lane 4×4 transpose of each then gives c[e] = expert e for tokens 0–3 | 4–7.
            __m256 q[4], h[4];
            for (int j = 0; j < 4; ++j) {
                q[j] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 8 * j)),
                                            _mm_loadu_ps(s + 8 * (j + 4)), 1);
                h[j] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 8 * j + 4)),
                                            _mm_loadu_ps(s + 8 * (j + 4) + 4), 1);
            }
            __m256 c[8];
            transpose4x4InLanes(q, c);
            transpose4x4InLanes(h, c + 4);
            // Experts 0 and 1 order themselves; then each further expert updates the best two.
            const __m256 m01 = _mm256_cmp_ps(c[1], c[0], _CMP_GT_OQ);
            __m256 b1 = _mm256_max_ps(c[0], c[1]), b2 = _mm256_min_ps(c[0], c[1]);
            __m256 i1 = _mm256_blendv_ps(nibble[0], nibble[1], m01);
            __m256 i2 = _mm256_blendv_ps(nibble[1], nibble[0], m01);
            for (int e = 2; e < 8; ++e) {
                const __m256 v = c[e];
                const __m256 m1 = _mm256_cmp_ps(v, b1, _CMP_GT_OQ);
                const __m256 m2 = _mm256_cmp_ps(v, b2, _CMP_GT_OQ);
                b2 = _mm256_max_ps(b2, _mm256_min_ps(b1, v));
                b1 = _mm256_max_ps(b1, v);
                i2 = _mm256_blendv_ps(_mm256_blendv_ps(i2, nibble[e], m2), i1, m1);
                i1 = _mm256_blendv_ps(i1, nibble[e], m1);
            }
            acc = _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_castps_si256(i1), _mm256_castps_si256(i2)));
        }
        alignas(32) std::uint32_t lanes[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
        for (int e = 0; e < 8; ++e) {
            std::int64_t sum = 0;
            for (std::uint32_t word : lanes)
                sum += (word >> (4 * e)) & 15u;
            counts[e] += sum;
        }
    }
}

bool haveAvx2() {
    static const bool have = __builtin_cpu_supports("avx2");
    return have;
}
#endif

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
        std::int64_t t0 = blockIndex * kBlock;
#ifdef MOEWB_TOPK_AVX2
        // E = 8: count, in one kernel call, as many whole blocks as cannot fill any expert
        // (each token adds at most one assignment per expert).
        if (experts == 8 && haveAvx2() && tokens - t0 >= kBlock) {
            std::int64_t fullest = 0;
            for (int e = 0; e < experts; ++e)
                fullest = std::max(fullest, load[e] + c1[e] + c2[e]);
            const std::int64_t room = cap - fullest;
            const std::int64_t blocks = std::min(room, tokens - t0) / kBlock;
            if (blocks > 0) {
                countTopTwoE8Avx2(scores + t0 * experts, blocks * (kBlock / 8), c1);
                blockIndex += blocks;
                t0 = blockIndex * kBlock;
                bound = fullest + blocks * kBlock;
                if (blockIndex > fullBlocks)
                    break;
            }
        }
#endif
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
