#include "placement/ExpertPlacement.h"

#include "placement/PlacementTr.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace moewb::placement {

std::vector<int> ExpertPlacement::replicaCounts() const {
    std::vector<int> counts(static_cast<std::size_t>(std::max(experts, 0)), 0);
    for (const int e : slotExpert)
        if (e >= 0 && e < experts)
            ++counts[std::size_t(e)];
    return counts;
}

Expected<ExpertPlacement, QString> ExpertPlacement::contiguous(int experts, int ranks) {
    if (experts < 1 || ranks < 1)
        return unexpected(Placement::tr("experts (%1) and expert-parallel ranks (%2) must be positive")
                              .arg(experts)
                              .arg(ranks));
    if (experts % ranks != 0)
        return unexpected(Placement::tr("%1 experts do not divide evenly over %2 expert-parallel ranks")
                              .arg(experts)
                              .arg(ranks));
    std::vector<int> slotList(static_cast<std::size_t>(experts));
    std::iota(slotList.begin(), slotList.end(), 0);
    return ExpertPlacement{experts, ranks, std::move(slotList)};
}

Expected<ExpertPlacement, QString> ExpertPlacement::fromSlots(std::vector<int> slotExpert, int experts,
                                                              int ranks) {
    if (experts < 1 || ranks < 1)
        return unexpected(Placement::tr("experts (%1) and expert-parallel ranks (%2) must be positive")
                              .arg(experts)
                              .arg(ranks));
    if (slotExpert.empty() || slotExpert.size() % std::size_t(ranks) != 0)
        return unexpected(Placement::tr("%1 expert slots do not divide evenly over %2 ranks")
                              .arg(slotExpert.size())
                              .arg(ranks));
    std::vector<int> counts(std::size_t(experts), 0);
    for (const int e : slotExpert) {
        if (e < 0 || e >= experts)
            return unexpected(Placement::tr("slot expert %1 is outside 0..%2").arg(e).arg(experts - 1));
        ++counts[std::size_t(e)];
    }
    for (int e = 0; e < experts; ++e)
        if (counts[std::size_t(e)] == 0)
            return unexpected(Placement::tr("expert %1 has no slot").arg(e));
    return ExpertPlacement{experts, ranks, std::move(slotExpert)};
}

std::vector<double> rankLoads(std::span<const double> load, const ExpertPlacement& placement) {
    const std::vector<int> counts = placement.replicaCounts();
    std::vector<double> ranks(std::size_t(placement.ranks), 0.0);
    for (std::size_t slot = 0; slot < placement.slotExpert.size(); ++slot) {
        const int e = placement.slotExpert[slot];
        ranks[std::size_t(placement.rankOfSlot(int(slot)))] += load[std::size_t(e)] / counts[std::size_t(e)];
    }
    return ranks;
}

double busiestRankShare(std::span<const double> load, const ExpertPlacement& placement) {
    const std::vector<double> ranks = rankLoads(load, placement);
    const double total = std::accumulate(ranks.begin(), ranks.end(), 0.0);
    if (!(total > 0))
        return std::numeric_limits<double>::quiet_NaN();
    return *std::max_element(ranks.begin(), ranks.end()) / total;
}

const ExpertPlacement* PlacementFile::forLayer(int layer) const {
    if (!layers.isEmpty()) {
        const qsizetype i = layers.indexOf(layer);
        return i >= 0 ? &rows[std::size_t(i)] : nullptr;
    }
    return rows.size() == 1 ? &rows.front() : nullptr;
}

Expected<PlacementFile, QString> parsePlacementFile(const QByteArray& bytes, const QString& file,
                                                    int experts) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return unexpected(Placement::tr("%1: not a JSON object (%2 at byte %3)")
                              .arg(file, pe.errorString())
                              .arg(pe.offset));
    const QJsonObject o = doc.object();
    PlacementFile out;
    const QJsonValue gpus = o.value(QStringLiteral("num_gpus"));
    if (!gpus.isDouble() || gpus.toDouble() != std::floor(gpus.toDouble()) || gpus.toDouble() < 1 ||
        gpus.toDouble() > 1 << 20)
        return unexpected(Placement::tr("%1: field \"num_gpus\" must be a positive integer").arg(file));
    out.gpus = gpus.toInt();
    const QJsonValue rows = o.value(QStringLiteral("phy2log"));
    if (!rows.isArray() || rows.toArray().isEmpty())
        return unexpected(Placement::tr("%1: field \"phy2log\" must be a non-empty array of rows").arg(file));
    constexpr qsizetype kMaxSlots = 1 << 20;
    for (qsizetype r = 0; r < rows.toArray().size(); ++r) {
        const QJsonValue row = rows.toArray().at(r);
        if (!row.isArray() || row.toArray().size() > kMaxSlots)
            return unexpected(
                Placement::tr("%1: phy2log[%2] must be an array of expert numbers").arg(file).arg(r));
        std::vector<int> slotList;
        for (const QJsonValue& v : row.toArray()) {
            if (!v.isDouble() || v.toDouble() != std::floor(v.toDouble()) || std::abs(v.toDouble()) > 1 << 24)
                return unexpected(Placement::tr("%1: phy2log[%2] holds a value that is not an expert number")
                                      .arg(file)
                                      .arg(r));
            slotList.push_back(v.toInt());
        }
        auto p = ExpertPlacement::fromSlots(std::move(slotList), experts, out.gpus);
        if (!p)
            return unexpected(Placement::tr("%1: phy2log[%2]: %3").arg(file).arg(r).arg(p.error()));
        out.rows.push_back(std::move(*p));
    }
    if (o.contains(QStringLiteral("layers"))) {
        const QJsonValue layers = o.value(QStringLiteral("layers"));
        if (!layers.isArray() || layers.toArray().size() != qsizetype(out.rows.size()))
            return unexpected(
                Placement::tr("%1: field \"layers\" must list one layer number per phy2log row").arg(file));
        for (const QJsonValue& v : layers.toArray()) {
            if (!v.isDouble() || v.toDouble() != std::floor(v.toDouble()) || v.toDouble() < 0 ||
                v.toDouble() > 1e6)
                return unexpected(
                    Placement::tr("%1: field \"layers\" holds a value that is not a layer number").arg(file));
            out.layers << v.toInt();
        }
    }
    return out;
}

Expected<PlacementFile, QString> readPlacementFile(const QString& path, int experts) {
    QFile f(path);
    constexpr qint64 kMaxBytes = 256ll << 20;
    if (!f.open(QIODevice::ReadOnly))
        return unexpected(Placement::tr("%1: cannot be read: %2").arg(path, f.errorString()));
    if (f.size() > kMaxBytes)
        return unexpected(Placement::tr("%1: larger than 256 MiB").arg(path));
    return parsePlacementFile(f.readAll(), path, experts);
}

} // namespace moewb::placement
