#include "stages/OverloadFactorLoad.h"

#include "common/Units.h"

#include "stages/StagesTr.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

namespace moewb::stages {

namespace {

const QLatin1String kLayerPrefix("max_overload_factor_layer_");

// The layer of "max_overload_factor_layer_<i>", -1 for any other name or a layer past the bound.
int overloadLayer(const QString& name) {
    if (!name.startsWith(kLayerPrefix) || name.size() == kLayerPrefix.size() || name.size() > kLayerPrefix.size() + 4)
        return -1;
    int layer = 0;
    for (qsizetype i = kLayerPrefix.size(); i < name.size(); ++i) {
        if (!name[i].isDigit())
            return -1;
        layer = layer * 10 + name[i].digitValue();
    }
    return layer < kMaxOverloadLayers ? layer : -1;
}

struct LayerValue {
    qint64 step;
    int layer;
    double ratio;
};

} // namespace

EpRankLoad epRankLoadFromOverload(const QVector<store::StepMetric>& metrics, qint64 window, double ratioMax) {
    EpRankLoad out;
    std::vector<LayerValue> values;
    for (const store::StepMetric& m : metrics) {
        const int layer = overloadLayer(m.name);
        if (layer >= 0 && std::isfinite(m.value) && m.value >= 0)
            values.push_back({m.step, layer, m.value});
    }
    if (values.empty())
        return out;
    std::sort(values.begin(), values.end(),
              [](const LayerValue& a, const LayerValue& b) { return std::tie(a.step, a.layer) < std::tie(b.step, b.layer); });

    std::vector<qint64> steps;
    for (const LayerValue& v : values) {
        if (steps.empty() || steps.back() != v.step)
            steps.push_back(v.step);
        out.layers = std::max(out.layers, v.layer + 1);
    }
    out.stepsWithLoad = qint64(steps.size());
    const std::size_t from = steps.size() > std::size_t(window) ? steps.size() - std::size_t(window) : 0;
    out.windowFirstStep = steps[from];
    out.windowLastStep = steps.back();
    out.windowSteps = qint64(steps.size() - from);

    std::vector<qint64> above(std::size_t(out.layers), 0), inWindow(std::size_t(out.layers), 0);
    double windowSum = 0.0;
    qint64 windowCount = 0;
    for (std::size_t i = 0; i < values.size();) {
        LoadRatioPoint point{values[i].step, 0.0, 0.0};
        double sum = 0.0;
        int count = 0;
        for (; i < values.size() && values[i].step == point.step; ++i) {
            const LayerValue& v = values[i];
            point.maxRatio = std::max(point.maxRatio, v.ratio);
            sum += v.ratio;
            ++count;
            if (v.step < out.windowFirstStep)
                continue;
            ++inWindow[std::size_t(v.layer)];
            above[std::size_t(v.layer)] += v.ratio > ratioMax ? 1 : 0;
            windowSum += v.ratio;
            ++windowCount;
            out.windowMaxRatio = std::max(out.windowMaxRatio, v.ratio);
        }
        point.meanRatio = sum / count;
        out.ratioOverSteps.append(point);
    }
    out.windowMeanRatio = windowCount > 0 ? windowSum / double(windowCount) : 0.0;
    std::tie(out.worstLayer, out.worstLayerFractionAbove) = worstLayerAbove(above, inWindow);
    return out;
}

std::pair<int, double> worstLayerAbove(const std::vector<qint64>& above, const std::vector<qint64>& inWindow) {
    std::pair<int, double> worst{-1, 0.0};
    for (std::size_t l = 0; l < inWindow.size() && l < above.size(); ++l) {
        if (inWindow[l] == 0)
            continue;
        const double f = double(above[l]) / double(inWindow[l]);
        if (worst.first < 0 || f > worst.second)
            worst = {int(l), f};
    }
    return worst;
}

std::optional<double> meanMaxOverload(const QVector<store::StepMetric>& metrics, qint64 first, qint64 last,
                                      qint64 window) {
    const QLatin1String name("max_overload_factor");
    if (first > last) {
        std::vector<qint64> steps;
        for (const store::StepMetric& m : metrics)
            if (m.name == name && std::isfinite(m.value))
                steps.push_back(m.step);
        if (steps.empty())
            return std::nullopt;
        std::sort(steps.begin(), steps.end());
        steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
        first = steps[steps.size() > std::size_t(window) ? steps.size() - std::size_t(window) : 0];
        last = steps.back();
    }
    double sum = 0.0;
    qint64 n = 0;
    for (const store::StepMetric& m : metrics)
        if (m.name == name && m.step >= first && m.step <= last && std::isfinite(m.value)) {
            sum += m.value;
            ++n;
        }
    return n > 0 ? std::optional<double>(sum / double(n)) : std::nullopt;
}

bool hasOverloadFactor(const QStringList& metricNames) {
    return std::any_of(metricNames.cbegin(), metricNames.cend(), [](const QString& n) {
        return n == QLatin1String("max_overload_factor") || overloadLayer(n) >= 0;
    });
}

QString epRankRatioStopText(const QString& runName, const QString& layerText, const QString& limitText,
                            const QString& fractionAboveText, const QString& windowText,
                            const QString& fractionLimitText) {
    return Stages::tr("run %1, %2: EP-rank load ratio above %3 in %4 of %5, more than the limit %6 — measured "
                      "(overload factor): the busiest EP rank's tokens / the balanced count, a lower bound of the "
                      "per-expert max/mean, so the experts are at least this unbalanced.")
        .arg(runName, layerText, limitText, fractionAboveText, windowText, fractionLimitText);
}

QString epRankRatioPassText(const QString& runName, const QString& layerText, const QString& limitText,
                            const QString& fractionAboveText, const QString& windowText,
                            const QString& fractionLimitText, double windowMax, double windowMean) {
    return Stages::tr("run %1, worst %2: EP-rank load ratio above %3 in %4 of %5, within the limit %6; at most %7, "
                      "mean %8 — measured (overload factor): the busiest EP rank's tokens / the balanced count, a "
                      "lower bound of the per-expert max/mean; one expert may still be busier (import tokens per "
                      "expert to judge the experts themselves).")
        .arg(runName, layerText, limitText, fractionAboveText, windowText, fractionLimitText,
             units::formatRatio(windowMax), units::formatRatio(windowMean));
}

QString overloadShareNote(const QString& runName, const StageThreeRunSummary& s) {
    return Stages::tr("run %1: busiest-device share %2 — measured (overload factor): Megatron-Core's max overload "
                      "factor %3, the most loaded EP rank's tokens / the balanced count, ÷ EP %4; even load = %5.")
        .arg(runName, units::formatPercent(s.busiestDeviceShare.value_or(0.0)),
             units::formatRatio(s.maxOverloadFactor.value_or(0.0), 3))
        .arg(s.expertParallel)
        .arg(units::formatPercent(1.0 / std::max(1, s.expertParallel)));
}

QString overloadWithoutLayersText(const QString& runName) {
    return Stages::tr("run %1 has no expert load: only Megatron-Core's overload factor over all layers "
                      "(max_overload_factor). Log it per layer (--log-moe-overload-factor with --moe-per-layer-logging "
                      "writes moe/max_overload_factor_layer_<i> to TensorBoard or W&B) or import tokens per expert.")
        .arg(runName);
}

} // namespace moewb::stages
