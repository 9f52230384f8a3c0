#include "traffic/DispatchTraffic.h"

#include "placement/PlacementTr.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace moewb::traffic {

using placement::ExpertPlacement;
using placement::Placement;

namespace {

Expected<Ok, QString> checkShape(const ExpertPlacement& placement, const DispatchShape& shape) {
    if (placement.ranks < 1 || placement.slotExpert.empty())
        return unexpected(Placement::tr("the placement has no ranks or no expert slots"));
    if (shape.tokensPerRank < 1 || shape.hiddenSize < 1 || shape.bytesPerElement < 1 || shape.topK < 1)
        return unexpected(
            Placement::tr("tokens per rank, hidden size, bytes per element and top-k must be positive"));
    if (shape.topK > placement.experts)
        return unexpected(
            Placement::tr("top-k %1 is larger than the %2 experts").arg(shape.topK).arg(placement.experts));
    return Ok{};
}

// Every source rank sends tokensPerRank · reach[d] tokens of bytesPerToken to rank d.
TrafficMatrix matrixFromReach(std::vector<double> reach, std::vector<double> assignments, DedupModel model,
                              const DispatchShape& shape) {
    TrafficMatrix m;
    m.ranks = int(reach.size());
    m.model = model;
    m.bytes.resize(std::size_t(m.ranks) * m.ranks);
    const double perToken = double(shape.tokensPerRank) * double(shape.bytesPerToken());
    for (int s = 0; s < m.ranks; ++s)
        for (int d = 0; d < m.ranks; ++d)
            m.bytes[std::size_t(s) * m.ranks + d] = perToken * reach[std::size_t(d)];
    m.reachPerToken = std::move(reach);
    m.assignmentsPerToken = std::move(assignments);
    return m;
}

} // namespace

double TrafficMatrix::sent(int s) const {
    double sum = 0;
    for (int d = 0; d < ranks; ++d)
        sum += at(s, d);
    return sum;
}

double TrafficMatrix::received(int d) const {
    double sum = 0;
    for (int s = 0; s < ranks; ++s)
        sum += at(s, d);
    return sum;
}

int TrafficMatrix::busiestRank() const {
    int best = 0;
    double bestBytes = -1;
    for (int r = 0; r < ranks; ++r) {
        const double b = std::max(sent(r), received(r));
        if (b > bestBytes) {
            best = r;
            bestBytes = b;
        }
    }
    return best;
}

double TrafficMatrix::busiestRankBytes() const {
    if (ranks < 1)
        return 0;
    const int r = busiestRank();
    return std::max(sent(r), received(r));
}

TrafficMatrix TrafficMatrix::transposed() const {
    TrafficMatrix t = *this;
    for (int s = 0; s < ranks; ++s)
        for (int d = 0; d < ranks; ++d)
            t.bytes[std::size_t(d) * ranks + s] = at(s, d);
    return t;
}

TrafficMatrix& TrafficMatrix::operator+=(const TrafficMatrix& other) {
    if (ranks == 0) {
        *this = other;
        return *this;
    }
    for (std::size_t i = 0; i < bytes.size() && i < other.bytes.size(); ++i)
        bytes[i] += other.bytes[i];
    for (std::size_t i = 0; i < reachPerToken.size() && i < other.reachPerToken.size(); ++i) {
        reachPerToken[i] += other.reachPerToken[i];
        assignmentsPerToken[i] += other.assignmentsPerToken[i];
    }
    expertsAboveTokens += other.expertsAboveTokens;
    return *this;
}

Expected<TrafficMatrix, QString> dispatchFromCounts(std::span<const double> counts,
                                                    const ExpertPlacement& placement,
                                                    const DispatchShape& shape) {
    if (auto ok = checkShape(placement, shape); !ok)
        return unexpected(ok.error());
    if (counts.size() != std::size_t(placement.experts))
        return unexpected(Placement::tr("%1 expert counts for a placement of %2 experts")
                              .arg(counts.size())
                              .arg(placement.experts));
    double assignments = 0;
    for (const double c : counts) {
        if (!std::isfinite(c) || c < 0)
            return unexpected(Placement::tr("an expert count is negative or not finite"));
        assignments += c;
    }
    if (!(assignments > 0))
        return unexpected(Placement::tr("the expert counts are all zero: no routing to model"));
    const double tokens = assignments / shape.topK;
    const std::vector<int> replicas = placement.replicaCounts();
    std::vector<double> miss(std::size_t(placement.ranks), 1.0); // Π (1 − q) per rank
    std::vector<double> expected(std::size_t(placement.ranks), 0.0);
    for (std::size_t slot = 0; slot < placement.slotExpert.size(); ++slot) {
        const int e = placement.slotExpert[slot];
        // A token picks expert e with probability count_e / tokens (at most 1), and
        // one of its replicas with an equal share of that.
        const double q = std::min(1.0, counts[std::size_t(e)] / tokens) / replicas[std::size_t(e)];
        const int r = placement.rankOfSlot(int(slot));
        miss[std::size_t(r)] *= 1.0 - q;
        expected[std::size_t(r)] += q;
    }
    std::vector<double> reach(miss.size());
    std::transform(miss.begin(), miss.end(), reach.begin(), [](double m) { return 1.0 - m; });
    TrafficMatrix m =
        matrixFromReach(std::move(reach), std::move(expected), DedupModel::IndependentExperts, shape);
    m.expertsAboveTokens =
        int(std::count_if(counts.begin(), counts.end(), [tokens](double c) { return c > tokens; }));
    return m;
}

Expected<TrafficMatrix, QString>
dispatchFromTokens(std::span<const int> topk, const ExpertPlacement& placement, const DispatchShape& shape) {
    if (auto ok = checkShape(placement, shape); !ok)
        return unexpected(ok.error());
    if (topk.empty() || topk.size() % std::size_t(shape.topK) != 0)
        return unexpected(Placement::tr("%1 expert choices are not whole tokens of top-k %2")
                              .arg(topk.size())
                              .arg(shape.topK));
    const std::size_t tokens = topk.size() / std::size_t(shape.topK);
    // The slots of each expert, in slot order.
    std::vector<std::vector<int>> slotsOf(static_cast<std::size_t>(placement.experts));
    for (std::size_t slot = 0; slot < placement.slotExpert.size(); ++slot)
        slotsOf[std::size_t(placement.slotExpert[slot])].push_back(int(slot));
    std::vector<double> reached(std::size_t(placement.ranks), 0.0);
    std::vector<double> assigned(std::size_t(placement.ranks), 0.0);
    std::vector<char> hit(static_cast<std::size_t>(placement.ranks));
    for (std::size_t t = 0; t < tokens; ++t) {
        std::fill(hit.begin(), hit.end(), 0);
        for (int k = 0; k < shape.topK; ++k) {
            const int e = topk[t * std::size_t(shape.topK) + std::size_t(k)];
            if (e < 0 || e >= placement.experts)
                return unexpected(Placement::tr("token %1 chooses expert %2, outside 0..%3")
                                      .arg(t)
                                      .arg(e)
                                      .arg(placement.experts - 1));
            const std::vector<int>& slotList = slotsOf[std::size_t(e)];
            const int r = placement.rankOfSlot(slotList[t % slotList.size()]);
            assigned[std::size_t(r)] += 1;
            hit[std::size_t(r)] = 1;
        }
        for (int r = 0; r < placement.ranks; ++r)
            reached[std::size_t(r)] += hit[std::size_t(r)];
    }
    for (int r = 0; r < placement.ranks; ++r) {
        reached[std::size_t(r)] /= double(tokens);
        assigned[std::size_t(r)] /= double(tokens);
    }
    return matrixFromReach(std::move(reached), std::move(assigned), DedupModel::Exact, shape);
}

Expected<TrafficMatrix, QString> uniformDispatch(const ExpertPlacement& placement,
                                                 const DispatchShape& shape) {
    const std::vector<double> even(static_cast<std::size_t>(std::max(placement.experts, 0)), 1.0);
    return dispatchFromCounts(even, placement, shape);
}

QByteArray matrixFileText(const TrafficMatrix& matrix, const QStringList& header) {
    QByteArray text;
    for (const QString& line : header)
        text += "# " + line.toUtf8() + '\n';
    for (int s = 0; s < matrix.ranks; ++s) {
        for (int d = 0; d < matrix.ranks; ++d) {
            if (d > 0)
                text += ' ';
            text += QByteArray::number(qint64(std::llround(matrix.at(s, d))));
        }
        text += '\n';
    }
    return text;
}

} // namespace moewb::traffic
