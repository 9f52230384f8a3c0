#include "costs/StepTimeEstimate.h"

#include "stages/StageInputs.h"
#include "stages/StageOneGate.h"
#include "store/ProjectStore.h"

#include <QHash>

namespace moewb::costs {

std::optional<CurveLookup> timeAt(const CommCurve& curve, double bytes) {
    const auto& pts = curve.points;
    if (pts.isEmpty())
        return std::nullopt;
    if (bytes <= pts.front().bytesPerRank)
        return CurveLookup{pts.front().medianUs, bytes < pts.front().bytesPerRank};
    if (bytes >= pts.back().bytesPerRank) {
        const CurvePoint& last = pts.back();
        return CurveLookup{last.bytesPerRank > 0 ? last.medianUs * bytes / last.bytesPerRank : last.medianUs,
                           bytes > last.bytesPerRank};
    }
    for (qsizetype i = 1; i < pts.size(); ++i) {
        const CurvePoint& a = pts[i - 1];
        const CurvePoint& b = pts[i];
        if (bytes <= b.bytesPerRank) {
            const double w = (bytes - a.bytesPerRank) / (b.bytesPerRank - a.bytesPerRank);
            return CurveLookup{a.medianUs + w * (b.medianUs - a.medianUs), false};
        }
    }
    return CurveLookup{pts.back().medianUs, true};
}

ProjectCurve commCurveFromProject(const store::ProjectStore& project, std::int64_t ep, const QString& runName,
                                  std::optional<std::int64_t> nodes) {
    ProjectCurve result;
    const auto in = stages::loadStageOneInputs(project, runName.isEmpty() ? QStringList() : QStringList{runName});
    if (!in) {
        result.error = in.error().message;
        return result;
    }
    if (in->isEmpty())
        return result;
    // What the probe ran, by run name: the training's measured routing (from-run:) or not.
    QHash<QString, QString> origins;
    for (const store::RunRow& row : project.runs()) {
        const QString origin = row.environment.value(QStringLiteral("pattern_origin")).toString();
        if (origin.startsWith(QLatin1String("from-run:")))
            origins.insert(row.name, origin);
    }
    auto concurrencyIsEp = [ep](const stages::StageOneRunInput& r) {
        return r.epSize ? *r.epSize == ep : (r.world && *r.world == ep);
    };
    auto atNodes = [nodes](const stages::StageOneRunInput& r) {
        return nodes && r.nodesMeasured && *r.nodesMeasured == *nodes;
    };
    const stages::StageOneRunInput* chosen = &in->first();
    // The best run at EP: the record's node count counts first, its own routing second.
    const stages::StageOneRunInput* atEp = nullptr;
    int best = -1;
    for (const auto& r : *in) {
        if (!concurrencyIsEp(r))
            continue;
        const int score = (atNodes(r) ? 2 : 0) + (origins.contains(r.runName) ? 1 : 0);
        if (score > best) {
            best = score;
            atEp = &r;
        }
    }
    if (atEp && runName.isEmpty())
        chosen = atEp;
    result.worldMatchesEp = concurrencyIsEp(*chosen);
    const stages::StageOneTable table = stages::stageOneTable(*chosen);
    CommCurve curve;
    curve.runName = table.runName;
    curve.routingOrigin = origins.value(chosen->runName);
    for (const auto& row : table.rows)
        curve.points.append({double(row.bytesPerRank), row.medianUs});
    if (!curve.points.isEmpty())
        result.curve = std::move(curve);
    return result;
}

StepTimeEstimate estimateStepTime(const CostInputs& in, const ParameterCounts& params,
                                  const AllToAllVolume& volume, const std::optional<CommCurve>& curve,
                                  std::optional<double> achievedTflops) {
    StepTimeEstimate e;
    if (in.dense || in.ep <= 1) {
        e.allToAllUs = 0.0; // nothing crosses devices
    } else if (curve && volume.bytesPerRankPerCall && volume.callsPerStep) {
        if (const auto lookup = timeAt(*curve, *volume.bytesPerRankPerCall)) {
            e.callTimeUs = lookup->timeUs;
            e.extrapolated = lookup->extrapolated;
            e.allToAllUs = *volume.callsPerStep * lookup->timeUs;
        }
    }
    const double world = double(in.dp * in.tp * in.pp * in.cp);
    if (in.globalBatchTokens)
        e.flopsPerDevice = 6.0 * params.activatedUsed * double(*in.globalBatchTokens) / world;
    if (achievedTflops && *achievedTflops > 0.0 && e.flopsPerDevice)
        e.computeUs = *e.flopsPerDevice / (*achievedTflops * 1e12) * 1e6;
    if (e.allToAllUs && e.computeUs)
        e.totalUs = *e.allToAllUs + *e.computeUs;
    return e;
}

} // namespace moewb::costs
