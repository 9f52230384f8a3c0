#pragma once
// Megatron-Core's rank layout (megatron/core/parallel_state.py, RankGenerator): a
// global rank is a mixed-radix number whose digits are the parallel coordinates, in
// the order given by --order-style strings such as "tp-cp-ep-dp-pp" — the FIRST name
// varies fastest. Names left out of the order must have size 1 (they are appended,
// as RankGenerator does). Megatron builds two such grids over the same ranks:
//   decoder: tp, cp, ep = 1, dp, pp               (attention and dense layers)
//   expert:  tp = etp, cp = 1, ep, dp = edp, pp   (MoE layers; edp = world / (etp·ep·pp))
#include "common/Expected.h"
#include "record/ConfigRecord.h"

#include <QString>
#include <array>

namespace moewb::record {

// The five names of a rank order, in the fixed index order used below.
enum class ParallelAxis { Tp = 0, Cp = 1, Ep = 2, Dp = 3, Pp = 4 };

// Empty when `order` is a valid rank order ('-'-joined distinct names out of tp, cp,
// ep, dp, pp); else the reason, a phrase to follow the field name ("must be ...").
QString parallelismOrderProblem(const QString& order);

class RankGrid {
public:
    // sizes indexed by ParallelAxis. Errors: a bad order, a size < 1, a name left out
    // of the order whose size is not 1.
    static Expected<RankGrid, QString> make(const std::array<qint64, 5>& sizes, const QString& order);
    // The expert grid of a record: etp (default tp), ep, edp = world / (etp·ep·pp), pp.
    // world = dp·tp·pp·cp. Errors name the fields that are missing or do not divide.
    static Expected<RankGrid, QString> expertGrid(const ParallelismRecord& p);
    // The decoder grid of a record: tp, cp, dp, pp.
    static Expected<RankGrid, QString> decoderGrid(const ParallelismRecord& p);

    qint64 world() const { return m_world; }
    qint64 size(ParallelAxis axis) const { return m_sizes[std::size_t(axis)]; }
    // The coordinate of `rank` (0 ≤ rank < world) along `axis`.
    qint64 coordinate(qint64 rank, ParallelAxis axis) const;

private:
    std::array<qint64, 5> m_sizes{1, 1, 1, 1, 1};
    std::array<ParallelAxis, 5> m_order{};
    qint64 m_world = 1;
};

} // namespace moewb::record
