// Megatron-LM / Megatron-Core console logs (megatron/training/training.py, training_log:
// " [YYYY-MM-DD HH:MM:SS.ffffff] iteration N/ M | key: value | … |", microseconds since
// core_v0.16.0, seconds before; MoE losses from MoEMetricsTracker.report,
// megatron/core/transformer/moe/moe_logging.py, core_v0.18+, and moe_utils before),
// Megatron-Bridge (src/megatron/bridge/training/utils/train_utils.py, the same line with
// a timestamp in seconds) and Megatron-DeepSpeed. Checked against NVIDIA/Megatron-LM
// d98e8a64 and NVIDIA-NeMo/Megatron-Bridge 067f987d (August 2026). Timer blocks
// (--timing-log-option all/minmax/max, megatron/core/timers.py at 00caa53a) give
// timer_<name>_ms_max/_min, forward-backward per rank and busiest_device_share; the
// StragglerDetector's line (--log-straggler) the slowest and fastest rank's time.
#include "importers/MegatronLogImporter.h"

#include "importers/BridgeStepTimeLine.h"
#include "importers/DamagedLines.h"
#include "importers/MegatronTimerLines.h"
#include "importers/MetricNames.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

#include <climits>
#include <functional>
#include <optional>
#include <utility>

namespace moewb::importers {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

size_t skipSpaces(std::string_view s, size_t i) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
    return i;
}

struct IterationHead {
    std::string_view step;
    std::string_view total;
    size_t fieldsStart = 0; // just after the '|' that ends "iteration N/ M |"
};

// Finds "iteration <digits> / <digits> |" preceded by the start of the line, a space,
// ']' or ':' (timestamps, pdsh "host: " prefixes).
bool findIterationHead(std::string_view line, IterationHead& head) {
    static constexpr std::string_view word = "iteration";
    size_t from = 0;
    while (true) {
        const size_t at = line.find(word, from);
        if (at == std::string_view::npos)
            return false;
        from = at + 1;
        if (at > 0 && line[at - 1] != ' ' && line[at - 1] != '\t' && line[at - 1] != ']' &&
            line[at - 1] != ':')
            continue;
        size_t i = skipSpaces(line, at + word.size());
        const size_t stepStart = i;
        while (i < line.size() && isDigit(line[i]))
            ++i;
        if (i == stepStart || i == at + word.size())
            continue;
        head.step = line.substr(stepStart, i - stepStart);
        i = skipSpaces(line, i);
        if (i >= line.size() || line[i] != '/')
            continue;
        i = skipSpaces(line, i + 1);
        const size_t totalStart = i;
        while (i < line.size() && isDigit(line[i]))
            ++i;
        if (i == totalStart)
            continue;
        head.total = line.substr(totalStart, i - totalStart);
        i = skipSpaces(line, i);
        if (i >= line.size() || line[i] != '|')
            continue;
        head.fieldsStart = i + 1;
        return true;
    }
}

// The log read once. With `counting`, nothing is kept: the values are only counted there
// (the busiest-device share as if it were always given), so that the second reading
// sizes their vector once (`reserve`) instead of doubling it as it fills.
ImportResult parseLog(const QByteArray& bytes, const QString& file, qint64* counting, qint64 reserve,
                      bool strict);

} // namespace

bool MegatronLogImporter::looksLikeMegatronLog(const QByteArray& head) {
    TextLines lines(head);
    std::string_view line;
    IterationHead h;
    while (lines.next(line))
        if (findIterationHead(line, h) || line.find("validation loss at iteration") != std::string_view::npos)
            return true;
    return false;
}

ImportResult MegatronLogImporter::parseWith(const QByteArray& bytes, const QString& file, bool strict) {
    qint64 values = 0;
    if (ImportResult counted = parseLog(bytes, file, &values, 0, strict); !counted)
        return counted;
    return parseLog(bytes, file, nullptr, values, strict);
}

namespace {

ImportResult parseLog(const QByteArray& bytes, const QString& file, qint64* counting, qint64 reserve,
                      bool strict) {
    ImportedData data;
    // Damaged lines (strict: the first refuses the file): what was kept of each.
    DamagedLines damaged;
    qint64 fieldsKept = 0; // of the line being read
    data.format = QString::fromLatin1(MegatronLogImporter::kFormat);
    data.stepMetrics.reserve(qsizetype(reserve));
    qint64 skipped = 0, iterationLines = 0, validationLines = 0, lastTotal = 0;
    bool deepSpeed = false;
    bool bridge = false;
    QStringList metricOrder;
    QSet<QString> metricSeen;
    auto addMetric = [&](qint64 step, const QString& name, double value) {
        if (counting) {
            ++*counting;
            return;
        }
        // Each name is held once: every value shares it.
        auto it = metricSeen.constFind(name);
        if (it == metricSeen.cend()) {
            it = metricSeen.insert(name);
            metricOrder << name;
        }
        data.stepMetrics.append(store::StepMetric{step, *it, value});
    };
    // One "key: value" field; the key becomes the metric name via `nameOf`.
    auto readField = [&](qint64 lineNo, std::string_view segment, qint64 step,
                         const std::function<QString(QStringView)>& nameOf) -> std::optional<ImportError> {
        const size_t colon = segment.find(':');
        if (colon == std::string_view::npos)
            return ImportError{file, lineNo, toQString(trimmed(segment)).left(40),
                               ImportTr::tr("a field without a value (\"key: value\" was expected)")};
        const QString key = toQString(trimmed(segment.substr(0, colon)));
        const QString name = nameOf(key);
        if (name.isEmpty())
            return ImportError{file, lineNo, key, ImportTr::tr("a field without a name")};
        double value = 0;
        QString why;
        if (!parseFiniteDouble(segment.substr(colon + 1), value, why))
            return ImportError{file, lineNo, name, why};
        const MetricRange range = metricRange(name);
        if (value < range.min || value > range.max)
            return ImportError{file, lineNo, name,
                               ImportTr::tr("is absurd: %1 (expected between %2 and %3)")
                                   .arg(toQString(trimmed(segment.substr(colon + 1))))
                                   .arg(range.min, 0, 'g', 6)
                                   .arg(range.max, 0, 'g', 6)};
        addMetric(step, name, value);
        ++fieldsKept;
        return std::nullopt;
    };

    // Timer blocks (MegatronTimerLines.h) belong to the iteration line before them.
    std::optional<MegatronTimerBlock> timerBlock;
    std::optional<qint64> lastStep;
    std::optional<double> lastElapsedMs;
    qint64 timerBlocks = 0, timerBlocksWithoutIteration = 0, sharesAboveOne = 0;
    qint64 stragglerLines = 0, stragglerLinesWithoutIteration = 0;
    BridgeStepTime pendingStepTime;
    bool stepTimePending = false;
    qint64 stepTimeLines = 0, stepTimeLinesWithoutIteration = 0;
    QSet<QString> timerOptions;
    bool timerBlockDamaged = false; // a line of the block left out: its busiest rank may be the one missing
    auto flushTimers = [&] {
        if (!timerBlock)
            return;
        const bool blockDamaged = std::exchange(timerBlockDamaged, false);
        const MegatronTimerBlock block = std::move(*timerBlock);
        timerBlock.reset();
        if (block.timers().isEmpty())
            return;
        if (!lastStep) {
            ++timerBlocksWithoutIteration;
            return;
        }
        ++timerBlocks;
        for (auto it = block.timers().cbegin(); it != block.timers().cend(); ++it) {
            const QString stem = QStringLiteral("timer_") + timerMetricStem(it.key());
            addMetric(*lastStep, stem + QStringLiteral("_ms_max"), it.value().maxMs);
            addMetric(*lastStep, stem + QStringLiteral("_ms_min"), it.value().minMs);
        }
        const auto fb = block.timers().constFind(QStringLiteral("forward-backward"));
        if (fb == block.timers().cend())
            return;
        // Per rank for forward-backward only: the busiest device is found from it.
        for (auto r = fb->perRankMs.cbegin(); r != fb->perRankMs.cend(); ++r)
            addMetric(*lastStep, QStringLiteral("timer_forward_backward_ms_rank_%1").arg(r.key()), r.value());
        if (blockDamaged) {
            return; // no busiest-device share from a block with a rank line left out
        } else if (counting) {
            ++*counting;
        } else if (lastElapsedMs && *lastElapsedMs > 0) {
            const double share = fb->maxMs / *lastElapsedMs;
            if (share <= 1.0)
                addMetric(*lastStep, QStringLiteral("busiest_device_share"), share);
            else
                ++sharesAboveOne;
        }
    };

    TextLines lines(bytes);
    std::string_view line;
    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        if (timerBlock) {
            std::optional<ImportError> timerError;
            if (timerBlock->read(line, file, n, &timerError)) {
                if (timerError) {
                    if (strict)
                        return unexpected(*timerError);
                    damaged.add(*timerError, 0);
                    timerBlockDamaged = true;
                }
                continue;
            }
            flushTimers();
        }
        {
            std::optional<ImportError> stragglerError;
            if (const auto straggler = readStragglerLine(line, file, n, &stragglerError)) {
                if (stragglerError) {
                    if (strict)
                        return unexpected(*stragglerError);
                    damaged.add(*stragglerError, 0);
                } else if (!lastStep) {
                    ++stragglerLinesWithoutIteration;
                } else {
                    // The interval's slowest and fastest rank in the traced work: a straggler
                    // shows as a max well above the min, and names its rank.
                    addMetric(*lastStep, QStringLiteral("straggler_rtt_ms_min"), straggler->minRttMs);
                    addMetric(*lastStep, QStringLiteral("straggler_rtt_ms_max"), straggler->maxRttMs);
                    addMetric(*lastStep, QStringLiteral("straggler_rtt_rank_min"), straggler->minRttRank);
                    addMetric(*lastStep, QStringLiteral("straggler_rtt_rank_max"), straggler->maxRttRank);
                    ++stragglerLines;
                }
                continue;
            }
        }
        if (const auto option = MegatronTimerBlock::headerOption(line)) {
            timerBlock.emplace(*option);
            timerOptions.insert(*option == MegatronTimerBlock::Option::AllRanks ? QStringLiteral("all")
                                : *option == MegatronTimerBlock::Option::MinMax ? QStringLiteral("minmax")
                                                                                : QStringLiteral("max"));
            continue;
        }
        {
            // Megatron-Bridge's "Step Time : …s GPU utilization: …MODEL_TFLOP/s/GPU" belongs
            // to the iteration line after it.
            std::optional<ImportError> stepTimeError;
            if (const auto stepTime = readBridgeStepTimeLine(line, file, n, &stepTimeError)) {
                if (stepTimeError) {
                    if (strict)
                        return unexpected(*stepTimeError);
                    damaged.add(*stepTimeError, 0);
                } else {
                    stepTimeLinesWithoutIteration += stepTimePending ? 1 : 0;
                    pendingStepTime = *stepTime;
                    stepTimePending = true;
                }
                bridge = true;
                continue;
            }
        }
        IterationHead head;
        if (findIterationHead(line, head)) {
            QString why;
            qint64 step = 0, total = 0;
            std::optional<ImportError> headError;
            if (!parseIntegral(head.step, 0, kMaxStep, step, why) ||
                !parseIntegral(head.total, 0, kMaxStep, total, why))
                headError = ImportError{file, n, QStringLiteral("iteration"), why};
            else if (step > total)
                headError = ImportError{file, n, QStringLiteral("iteration"),
                                        ImportTr::tr("is absurd: iteration %1 of %2").arg(step).arg(total)};
            if (headError) {
                if (strict)
                    return unexpected(*headError);
                damaged.add(*headError, 0); // no step to put its fields at: the line is left out
                continue;
            }
            std::string_view rest = trimmed(line.substr(head.fieldsStart));
            std::optional<ImportError> tailError;
            if (!rest.empty() && rest.back() != '|') {
                // The last field was cut, or another print was glued onto the line: name
                // the field when its key survived; the fields before it are whole.
                const size_t lastBar = rest.rfind('|');
                const std::string_view cut =
                    trimmed(rest.substr(lastBar == std::string_view::npos ? 0 : lastBar + 1));
                const size_t colon = cut.find(':');
                const QString field = colon == std::string_view::npos
                                          ? QString()
                                          : megatronMetricName(toQString(cut.substr(0, colon)));
                tailError = ImportError{
                    file, n, field,
                    ImportTr::tr("the iteration line does not end with \"|\": cut inside a field, or another "
                                 "print glued on: \"%1\"")
                        .arg(excerpt(cut))};
                if (strict)
                    return unexpected(*tailError);
                rest = rest.substr(0, lastBar == std::string_view::npos ? 0 : lastBar + 1);
            }
            fieldsKept = 0;
            std::optional<ImportError> firstFieldError;
            qint64 fieldErrors = 0;
            size_t pos = 0;
            while (pos < rest.size()) {
                size_t bar = rest.find('|', pos);
                if (bar == std::string_view::npos)
                    bar = rest.size();
                const std::string_view segment = trimmed(rest.substr(pos, bar - pos));
                pos = bar + 1;
                if (segment.empty())
                    continue;
                if (auto e =
                        readField(n, segment, step, [](QStringView k) { return megatronMetricName(k); })) {
                    if (strict)
                        return unexpected(*e);
                    firstFieldError = firstFieldError ? firstFieldError : e;
                    ++fieldErrors;
                    continue;
                }
                if (segment.substr(0, 8) == "moe loss" || segment.substr(0, 6) == "TFLOPs")
                    deepSpeed = true;
            }
            if (tailError || firstFieldError) {
                damaged.add(firstFieldError ? *firstFieldError : *tailError, fieldsKept,
                            fieldErrors + (tailError ? 1 : 0));
                if (fieldsKept == 0)
                    continue; // nothing of it kept: not an iteration of the run
            }
            lastTotal = total;
            lastStep = step;
            lastElapsedMs.reset();
            for (qsizetype i = data.stepMetrics.size() - 1; i >= 0 && data.stepMetrics[i].step == step; --i)
                if (data.stepMetrics[i].name == QLatin1String("elapsed_ms_per_iter"))
                    lastElapsedMs = data.stepMetrics[i].value;
            if (std::exchange(stepTimePending, false)) {
                bool hasTflops = false;
                for (qsizetype i = data.stepMetrics.size() - 1; i >= 0 && data.stepMetrics[i].step == step; --i)
                    hasTflops = hasTflops || data.stepMetrics[i].name == QLatin1String("tflops_per_gpu");
                // The iteration line's own figures are finer (ms with one decimal): kept when there.
                if (!hasTflops)
                    addMetric(step, QStringLiteral("tflops_per_gpu"), pendingStepTime.tflopsPerGpu);
                if (!lastElapsedMs) {
                    lastElapsedMs = pendingStepTime.seconds * 1000.0;
                    addMetric(step, QStringLiteral("elapsed_ms_per_iter"), *lastElapsedMs);
                }
                ++stepTimeLines;
            }
            ++iterationLines;
            ++data.rows;
            continue;
        }
        const size_t v = line.find("validation loss at iteration");
        if (v != std::string_view::npos) {
            std::string_view rest = line.substr(v + 28);
            size_t i = skipSpaces(rest, 0);
            const size_t start = i;
            while (i < rest.size() && isDigit(rest[i]))
                ++i;
            QString why;
            qint64 step = 0;
            const size_t bar = rest.find('|', i);
            std::optional<ImportError> headError;
            if (!parseIntegral(rest.substr(start, i - start), 0, kMaxStep, step, why))
                headError = ImportError{file, n, QStringLiteral("iteration"), why};
            else if (bar == std::string_view::npos)
                headError =
                    ImportError{file, n, {}, ImportTr::tr("a validation line without fields (truncated?)")};
            if (headError) {
                if (strict)
                    return unexpected(*headError);
                damaged.add(*headError, 0);
                continue;
            }
            rest = trimmed(rest.substr(bar + 1));
            std::optional<ImportError> tailError;
            if (!rest.empty() && rest.back() != '|') {
                tailError = ImportError{
                    file, n, {}, ImportTr::tr("the validation line ends inside a field (truncated)")};
                if (strict)
                    return unexpected(*tailError);
                const size_t lastBar = rest.rfind('|');
                rest = rest.substr(0, lastBar == std::string_view::npos ? 0 : lastBar + 1);
            }
            fieldsKept = 0;
            std::optional<ImportError> firstFieldError;
            qint64 fieldErrors = 0;
            size_t pos = 0;
            while (pos < rest.size()) {
                size_t next = rest.find('|', pos);
                if (next == std::string_view::npos)
                    next = rest.size();
                const std::string_view segment = trimmed(rest.substr(pos, next - pos));
                pos = next + 1;
                if (segment.empty())
                    continue;
                // "lm loss value" -> val_loss, "lm loss PPL" -> val_ppl, "X value" -> val_x, "X PPL" ->
                // val_x_ppl.
                auto nameOf = [](QStringView key) {
                    QString k = key.toString().trimmed();
                    bool ppl = false;
                    if (k.endsWith(QLatin1String(" PPL"), Qt::CaseInsensitive)) {
                        ppl = true;
                        k.chop(4);
                    } else if (k.endsWith(QLatin1String(" value"), Qt::CaseInsensitive)) {
                        k.chop(6);
                    }
                    const QString base = megatronMetricName(k);
                    if (base == QLatin1String("lm_loss"))
                        return ppl ? QStringLiteral("val_ppl") : QStringLiteral("val_loss");
                    return QStringLiteral("val_") + base + (ppl ? QStringLiteral("_ppl") : QString());
                };
                if (auto e = readField(n, segment, step, nameOf)) {
                    if (strict)
                        return unexpected(*e);
                    firstFieldError = firstFieldError ? firstFieldError : e;
                    ++fieldErrors;
                }
            }
            if (tailError || firstFieldError) {
                damaged.add(firstFieldError ? *firstFieldError : *tailError, fieldsKept,
                            fieldErrors + (tailError ? 1 : 0));
                if (fieldsKept == 0)
                    continue;
            }
            ++validationLines;
            ++data.rows;
            continue;
        }
        if (line.find("[INFO] [") != std::string_view::npos)
            deepSpeed = true;
        // Megatron-Bridge's train loop (src/megatron/bridge/training/train.py, since November
        // 2025) prints this once; Megatron-LM prints "training ..." instead.
        if (line.find("Starting training loop at iteration") != std::string_view::npos)
            bridge = true;
        ++skipped;
    }
    flushTimers();
    stepTimeLinesWithoutIteration += stepTimePending ? 1 : 0;
    if (iterationLines == 0 && validationLines == 0) {
        if (const std::optional<ImportError> first = damaged.refusal())
            return unexpected(*first); // nothing usable: the first damaged line says why
        if (stepTimeLinesWithoutIteration > 0)
            return importError(file, 0, {},
                               ImportTr::tr("only Megatron-Bridge \"Step Time\" lines (%n), no iteration line: they "
                                            "carry no iteration number to put their figures at",
                                            "", int(std::min<qint64>(stepTimeLinesWithoutIteration, INT_MAX))));
        return importError(
            file, 0, {},
            ImportTr::tr("no Megatron iteration lines (\"iteration N/ M | key: value |\") found"));
    }
    damaged.note(data.environment);
    QJsonObject& env = data.environment;
    env.insert(QStringLiteral("framework"), bridge      ? QStringLiteral("Megatron-Bridge")
                                            : deepSpeed ? QStringLiteral("Megatron-DeepSpeed")
                                                        : QStringLiteral("Megatron-LM"));
    env.insert(QStringLiteral("train_iters"), lastTotal);
    env.insert(QStringLiteral("iteration_lines"), iterationLines);
    env.insert(QStringLiteral("validation_lines"), validationLines);
    env.insert(QStringLiteral("other_lines_skipped"), skipped);
    env.insert(QStringLiteral("metrics"), QJsonArray::fromStringList(metricOrder));
    if (stepTimeLines > 0)
        env.insert(QStringLiteral("step_time_lines"), stepTimeLines);
    if (stepTimeLinesWithoutIteration > 0)
        env.insert(QStringLiteral("step_time_lines_without_iteration"), stepTimeLinesWithoutIteration);
    if (stragglerLines > 0)
        env.insert(QStringLiteral("straggler_lines"), stragglerLines);
    if (stragglerLinesWithoutIteration > 0)
        env.insert(QStringLiteral("straggler_lines_without_iteration"), stragglerLinesWithoutIteration);
    if (timerBlocks > 0 || timerBlocksWithoutIteration > 0) {
        QStringList options = timerOptions.values();
        options.sort();
        env.insert(QStringLiteral("timer_blocks"), timerBlocks);
        env.insert(QStringLiteral("timer_options"), QJsonArray::fromStringList(options));
        if (timerBlocksWithoutIteration > 0)
            env.insert(QStringLiteral("timer_blocks_without_iteration"), timerBlocksWithoutIteration);
        if (sharesAboveOne > 0)
            env.insert(QStringLiteral("busiest_device_share_above_step_time"), sharesAboveOne);
    }
    return data;
}

} // namespace

} // namespace moewb::importers
