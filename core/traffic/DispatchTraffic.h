#pragma once
// Dispatch traffic of one MoE layer for one micro-batch: bytes[source][destination]
// over the expert-parallel ranks. A token goes to a destination rank ONCE even when
// several of its top-k experts live there (Megatron-Core's alltoall token dispatcher
// and DeepEP send one copy per destination rank and let that rank fan it out); the
// copy a rank sends to itself is kept on the diagonal, as all-to-all counts it.
// Combine sends the same tokens back: its matrix is the transpose.
//
// Two models (docs/traffic.md):
//  - exact: every token's top-k experts are known (routing traces), so the set of
//    ranks each token reaches is counted, not estimated;
//  - independent experts: from per-expert counts only, a token is taken to pick
//    expert e with probability q_e = count_e / tokens, independently of its other
//    choices, so it reaches rank d with probability 1 − Π_{e on d} (1 − q_e). An
//    approximation: real top-k choices are distinct and correlated.
// In both, every source rank holds the same number of tokens with the same routing
// distribution (a record carries no per-source routing).
#include "common/Expected.h"
#include "placement/ExpertPlacement.h"

#include <QString>
#include <span>
#include <vector>

namespace moewb::traffic {

enum class DedupModel { Exact, IndependentExperts };

struct DispatchShape {
    qint64 tokensPerRank = 0; // tokens one EP rank routes in one micro-batch
    int topK = 0;
    qint64 hiddenSize = 0;
    int bytesPerElement = 2; // bf16
    qint64 bytesPerToken() const { return hiddenSize * bytesPerElement; }
};

struct TrafficMatrix {
    int ranks = 0;
    std::vector<double> bytes; // ranks × ranks, row = source, column = destination
    DedupModel model = DedupModel::IndependentExperts;
    // Per destination rank: tokens it receives per source token, with and without
    // the de-duplication (the second is the plain assignment share · top-k).
    std::vector<double> reachPerToken;
    std::vector<double> assignmentsPerToken;
    // Independent experts: experts whose count exceeds the tokens (count / tokens > 1,
    // impossible for one layer's top-k routing; the probability is capped at 1).
    int expertsAboveTokens = 0;

    double at(int s, int d) const { return bytes[std::size_t(s) * ranks + d]; }
    double sent(int s) const;
    double received(int d) const;
    // max over ranks of max(sent, received)
    double busiestRankBytes() const;
    int busiestRank() const;
    TrafficMatrix transposed() const;                      // combine
    TrafficMatrix& operator+=(const TrafficMatrix& other); // layers summed
};

// From per-expert assignment counts (any window; only their proportions matter): the
// independent-experts model. Errors name the problem (counts shape, top-k larger than
// the experts, no load).
Expected<TrafficMatrix, QString> dispatchFromCounts(std::span<const double> countsPerExpert,
                                                    const placement::ExpertPlacement& placement,
                                                    const DispatchShape& shape);
// From every token's top-k experts (tokens × topK, row-major): exact de-duplication.
// A token routed to a replicated expert uses replica (token index mod replicas).
Expected<TrafficMatrix, QString> dispatchFromTokens(std::span<const int> topkExperts,
                                                    const placement::ExpertPlacement& placement,
                                                    const DispatchShape& shape);
// Uniform routing under the same model: every expert gets the same count.
Expected<TrafficMatrix, QString> uniformDispatch(const placement::ExpertPlacement& placement,
                                                 const DispatchShape& shape);

// The probe's `--pattern matrix:FILE` text: one row per source rank, whole bytes,
// '#' comment lines first (each line of header).
QByteArray matrixFileText(const TrafficMatrix& matrix, const QStringList& header);

} // namespace moewb::traffic
