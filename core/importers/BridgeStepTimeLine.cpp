#include "importers/BridgeStepTimeLine.h"

#include "importers/ImportSupport.h"
#include "importers/MetricNames.h"
#include "importers/NumberText.h"

namespace moewb::importers {

std::optional<BridgeStepTime> readBridgeStepTimeLine(std::string_view line, const QString& file, qint64 lineNumber,
                                                     std::optional<ImportError>* error) {
    constexpr std::string_view kHead = "Step Time :";
    constexpr std::string_view kUtil = "GPU utilization:";
    constexpr std::string_view kUnit = "MODEL_TFLOP/s/GPU";
    const size_t head = line.find(kHead);
    if (head == std::string_view::npos)
        return std::nullopt;
    const size_t unit = line.find(kUnit, head);
    if (unit == std::string_view::npos)
        return std::nullopt;
    const size_t util = line.find(kUtil, head);
    BridgeStepTime out;
    QString why;
    auto fail = [&](const QString& field, const QString& message) -> std::optional<BridgeStepTime> {
        *error = ImportError{file, lineNumber, field, message};
        return BridgeStepTime{};
    };
    if (util == std::string_view::npos || util > unit)
        return fail(QStringLiteral("GPU utilization"),
                    ImportTr::tr("a Step Time line without \"GPU utilization:\" before its MODEL_TFLOP/s/GPU"));
    std::string_view seconds = trimmed(line.substr(head + kHead.size(), util - head - kHead.size()));
    if (!seconds.empty() && seconds.back() == 's')
        seconds.remove_suffix(1);
    if (!parseFiniteDouble(seconds, out.seconds, why))
        return fail(QStringLiteral("Step Time"), why);
    if (!parseFiniteDouble(line.substr(util + kUtil.size(), unit - util - kUtil.size()), out.tflopsPerGpu, why))
        return fail(QStringLiteral("MODEL_TFLOP/s/GPU"), why);
    const MetricRange ms = metricRange(QStringLiteral("elapsed_ms_per_iter"));
    if (out.seconds * 1000.0 < ms.min || out.seconds * 1000.0 > ms.max)
        return fail(QStringLiteral("Step Time"),
                    ImportTr::tr("is absurd: %1 s (expected between 0 and %2 s)").arg(out.seconds).arg(ms.max / 1000.0));
    const MetricRange tf = metricRange(QStringLiteral("tflops_per_gpu"));
    if (out.tflopsPerGpu < tf.min || out.tflopsPerGpu > tf.max)
        return fail(QStringLiteral("MODEL_TFLOP/s/GPU"),
                    ImportTr::tr("is absurd: %1 (expected between %2 and %3)").arg(out.tflopsPerGpu).arg(tf.min).arg(tf.max));
    return out;
}

} // namespace moewb::importers
