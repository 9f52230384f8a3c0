#include "traffic/PlacementWhatIf.h"

#include "placement/ExpertPlacement.h"
#include "placement/PlacementTr.h"

#include <QJsonArray>

namespace moewb::traffic {

using placement::EplbInput;
using placement::ExpertPlacement;
using placement::Placement;

Expected<PlacementWhatIf, PlacementWhatIfError> placementWhatIf(const LayerLoads& loads,
                                                                const PlacementWhatIfOptions& options) {
    if (options.gpus < 1 || options.nodes < 1 || options.groups < 1 || options.redundant < 0)
        return unexpected(PlacementWhatIfError{
            Placement::tr("GPUs, nodes and groups must be positive and redundant slots not negative"), true});
    if (loads.perLayer.isEmpty())
        return unexpected(PlacementWhatIfError{Placement::tr("no expert load to place"), false});
    auto today = ExpertPlacement::contiguous(loads.experts, options.gpus);
    if (!today)
        return unexpected(PlacementWhatIfError{today.error(), false});
    EplbInput in;
    in.layers = int(loads.perLayer.size());
    in.experts = loads.experts;
    in.weight = loads.matrix();
    in.replicas = loads.experts + options.redundant * options.gpus;
    in.groups = options.groups;
    in.nodes = options.nodes;
    in.gpus = options.gpus;
    auto p = placement::rebalanceExperts(in);
    if (!p)
        return unexpected(PlacementWhatIfError{p.error(), true});

    PlacementWhatIf out;
    out.options = options;
    out.placement = std::move(*p);
    double sumToday = 0.0, sumAfter = 0.0;
    int row = 0;
    for (auto it = loads.perLayer.cbegin(); it != loads.perLayer.cend(); ++it, ++row) {
        const auto& phy = out.placement.phy2log;
        std::vector<int> rowSlots(phy.begin() + std::ptrdiff_t(row) * in.replicas,
                               phy.begin() + std::ptrdiff_t(row + 1) * in.replicas);
        auto after = ExpertPlacement::fromSlots(std::move(rowSlots), loads.experts, options.gpus);
        if (!after)
            return unexpected(PlacementWhatIfError{after.error(), false});
        const LayerShare s{it.key(), placement::busiestRankShare(it.value(), *today),
                           placement::busiestRankShare(it.value(), *after)};
        if (out.shares.isEmpty() || s.today > out.shares[out.worstIndex].today)
            out.worstIndex = int(out.shares.size());
        out.shares << s;
        sumToday += s.today;
        sumAfter += s.after;
    }
    out.meanToday = sumToday / out.shares.size();
    out.meanAfter = sumAfter / out.shares.size();
    return out;
}

int expertParallelNodes(const record::ConfigRecord& record) {
    const qint64 ep = record.parallelism.epOrDefault();
    const qint64 span = ep * record.parallelism.etpOrDefault();
    const std::optional<qint64> perNode = record.cluster.acceleratorsPerNode;
    if (!perNode || *perNode < 1 || span <= *perNode || span % *perNode != 0)
        return 1;
    const qint64 nodes = span / *perNode;
    if (ep % nodes != 0 || (record.cluster.nodes && nodes > *record.cluster.nodes))
        return 1;
    return int(nodes);
}

namespace {
QJsonArray rowsJson(const std::vector<int>& values, int rows, int columns) {
    QJsonArray out;
    for (int r = 0; r < rows; ++r) {
        QJsonArray row;
        for (int c = 0; c < columns; ++c)
            row.append(values[std::size_t(r) * columns + c]);
        out.append(row);
    }
    return out;
}
} // namespace

QJsonObject eplbJson(const placement::EplbPlacement& p) {
    QJsonArray log2phy;
    for (int l = 0; l < p.layers; ++l) {
        QJsonArray layer;
        for (int e = 0; e < p.experts; ++e) {
            QJsonArray replicas;
            for (int k = 0; k < p.maxLogCount; ++k)
                replicas.append(p.log2phy[(std::size_t(l) * p.experts + e) * p.maxLogCount + k]);
            layer.append(replicas);
        }
        log2phy.append(layer);
    }
    return {{QStringLiteral("phy2log"), rowsJson(p.phy2log, p.layers, p.replicas)},
            {QStringLiteral("log2phy"), log2phy},
            {QStringLiteral("logcnt"), rowsJson(p.logCount, p.layers, p.experts)}};
}

QJsonObject placementFileJson(const PlacementWhatIf& w, const LayerLoads& loads, const QString& runName) {
    QJsonObject file = eplbJson(w.placement);
    QJsonArray layers, weight;
    for (auto it = loads.perLayer.cbegin(); it != loads.perLayer.cend(); ++it) {
        layers.append(it.key());
        QJsonArray row;
        for (const double v : it.value())
            row.append(v);
        weight.append(row);
    }
    file.insert(QStringLiteral("format"), QStringLiteral("moewb-placement/1"));
    file.insert(QStringLiteral("run"), runName);
    file.insert(QStringLiteral("first_step"), loads.firstStep);
    file.insert(QStringLiteral("last_step"), loads.lastStep);
    file.insert(QStringLiteral("layers"), layers);
    file.insert(QStringLiteral("weight"), weight);
    file.insert(QStringLiteral("num_replicas"), w.placement.replicas);
    file.insert(QStringLiteral("num_groups"), w.options.groups);
    file.insert(QStringLiteral("num_nodes"), w.options.nodes);
    file.insert(QStringLiteral("num_gpus"), w.options.gpus);
    file.insert(QStringLiteral("policy"),
                w.placement.hierarchical ? QStringLiteral("hierarchical") : QStringLiteral("global"));
    return file;
}

} // namespace moewb::traffic
