#include "importers/NemoLogImporter.h"

#include "importers/DamagedLines.h"
#include "importers/MetricNames.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <optional>
#include <vector>

namespace moewb::importers {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

struct Head {
    std::string_view epoch, iteration, total;
    size_t fieldsStart = 0; // at the first " | " (or the end of the line)
};

// "Training epoch <E>, iteration <N>/<T>" at the start of the line or after a prefix
// ending in a space, ':' or ']' (torchrun's "[rank0]:", srun's "0: ").
bool findHead(std::string_view line, Head& head) {
    static constexpr std::string_view word = "Training epoch ";
    size_t from = 0;
    while (true) {
        const size_t at = line.find(word, from);
        if (at == std::string_view::npos)
            return false;
        from = at + 1;
        if (at > 0 && line[at - 1] != ' ' && line[at - 1] != ':' && line[at - 1] != ']')
            continue;
        size_t i = at + word.size();
        const size_t e = i;
        while (i < line.size() && isDigit(line[i]))
            ++i;
        if (i == e)
            continue;
        head.epoch = line.substr(e, i - e);
        static constexpr std::string_view it = ", iteration ";
        if (line.substr(i, it.size()) != it)
            continue;
        i += it.size();
        const size_t s = i;
        while (i < line.size() && isDigit(line[i]))
            ++i;
        if (i == s || i >= line.size() || line[i] != '/')
            continue;
        head.iteration = line.substr(s, i - s);
        const size_t t = ++i;
        while (i < line.size() && line[i] != ' ' && line[i] != '|')
            ++i;
        head.total = line.substr(t, i - t);
        head.fieldsStart = i;
        return true;
    }
}

} // namespace

bool NemoLogImporter::looksLikeNemoLog(const QByteArray& head) {
    TextLines lines(head);
    std::string_view line;
    Head h;
    while (lines.next(line))
        if (findHead(line, h) && line.find(" | ", h.fieldsStart) != std::string_view::npos)
            return true;
    return false;
}

ImportResult NemoLogImporter::parseWith(const QByteArray& bytes, const QString& file, bool strict) {
    DamagedLines damaged;
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    qint64 trainingLines = 0, otherLines = 0, validationProgress = 0, stepDiffers = 0, lastTotal = -1;
    QSet<qint64> epochs;
    QStringList metricOrder, keys;
    QSet<QString> metricSeen;
    TextLines lines(bytes);
    std::string_view line;
    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        Head head;
        if (!findHead(line, head)) {
            if (line.find("Validation: iteration ") != std::string_view::npos)
                ++validationProgress;
            else
                ++otherLines;
            continue;
        }
        QString why;
        qint64 epoch = 0, iteration = 0, total = -1;
        std::optional<ImportError> headError;
        if (!parseIntegral(head.epoch, 0, kMaxStep, epoch, why))
            headError = ImportError{file, n, QStringLiteral("epoch"), why};
        else if (!parseIntegral(head.iteration, 0, kMaxStep, iteration, why))
            headError = ImportError{file, n, QStringLiteral("iteration"), why};
        // The printer prints max_steps - 1 (or the batches in an epoch - 1; "inf" for an
        // endless loader).
        else if (head.total != "inf") {
            if (!parseIntegral(head.total, -1, kMaxStep, total, why))
                headError = ImportError{file, n, QStringLiteral("iteration"), why};
            else if (iteration > total)
                headError =
                    ImportError{file, n, QStringLiteral("iteration"),
                                ImportTr::tr("is absurd: iteration %1 of %2").arg(iteration).arg(total)};
        }
        if (headError) {
            if (strict)
                return unexpected(*headError);
            damaged.add(*headError, 0); // no step to put its fields at: the line is left out
            continue;
        }
        // A damaged field is left out (strict: refuses the file); the line's other fields stay.
        std::optional<ImportError> firstFieldError;
        qint64 fieldErrors = 0;
        auto fieldError = [&](const QString& field, const QString& message) {
            ++fieldErrors;
            if (!firstFieldError)
                firstFieldError = ImportError{file, n, clipped(field), clipped(message, kMaxMessageChars)};
        };
        // The fields: " | key: value" each; keys may hold spaces ("train_step_timing in s").
        struct Value {
            QString key, name;
            double value;
            double scale;
        };
        std::vector<Value> values;
        std::optional<qint64> globalStep;
        const std::string_view rest = line.substr(head.fieldsStart);
        const bool cutLine = !lines.lastHadNewline(); // print() always ends its line
        size_t pos = 0;
        while (pos < rest.size()) {
            size_t bar = rest.find('|', pos);
            if (bar == std::string_view::npos)
                bar = rest.size();
            const std::string_view segment = trimmed(rest.substr(pos, bar - pos));
            const bool lastSegment = bar == rest.size();
            pos = bar + 1;
            if (segment.empty()) {
                if (lastSegment && bar != 0 && rest[bar - 1] == '|') {
                    fieldError(QString(), ImportTr::tr("the line ends after \"|\" (truncated)"));
                    continue;
                }
                continue;
            }
            const size_t colon =
                segment.rfind(": ") != std::string_view::npos ? segment.rfind(": ") : segment.rfind(':');
            if (colon == std::string_view::npos) {
                fieldError(toQString(segment).left(40),
                           lastSegment
                               ? ImportTr::tr("the line ends inside a field (truncated)")
                               : ImportTr::tr("a field without a value (\"key: value\" was expected)"));
                continue;
            }
            const QString key = toQString(trimmed(segment.substr(0, colon)));
            const std::string_view text = trimmed(segment.substr(colon + 1));
            double scale = 1.0;
            const QString name = key == QLatin1String("global_step") ? key : loggedMetricName(key, scale);
            if (name.isEmpty()) {
                fieldError(key, ImportTr::tr("a field without a name"));
                continue;
            }
            if (text.empty()) {
                fieldError(name, ImportTr::tr("the line ends after \"%1:\" (truncated)").arg(key));
                continue;
            }
            if (lastSegment && cutLine) {
                fieldError(name, ImportTr::tr(
                                     "the file ends inside this field, without a newline (truncated): \"%1\"")
                                     .arg(excerpt(segment)));
                continue;
            }
            if (name == QLatin1String("global_step")) {
                qint64 g = 0;
                if (!parseIntegral(text, 0, kMaxStep, g, why)) {
                    fieldError(name, why);
                    continue;
                }
                globalStep = g;
                continue;
            }
            double v = 0;
            if (!parseFiniteDouble(text, v, why)) {
                fieldError(name, why);
                continue;
            }
            v *= scale;
            const MetricRange range = metricRange(name);
            if (v < range.min || v > range.max) {
                fieldError(name, ImportTr::tr("is absurd: %1 (expected between %2 and %3)")
                                     .arg(toQString(text))
                                     .arg(range.min, 0, 'g', 6)
                                     .arg(range.max, 0, 'g', 6));
                continue;
            }
            const auto twice = std::find_if(values.cbegin(), values.cend(),
                                            [&](const Value& seen) { return seen.name == name; });
            if (twice != values.cend()) {
                fieldError(
                    name, ImportTr::tr("appears twice on the line (\"%1\" and \"%2\")").arg(twice->key, key));
                continue;
            }
            values.push_back({key, name, v, scale});
        }
        if (firstFieldError) {
            if (strict)
                return unexpected(*firstFieldError);
            const qint64 kept = qint64(values.size()) + (globalStep ? 1 : 0);
            damaged.add(*firstFieldError, kept, fieldErrors);
            if (kept == 0)
                continue; // nothing of it kept: not a step of the run
        }
        if (values.empty() && !globalStep) {
            const ImportError e{file, n, {}, ImportTr::tr("a training line without fields (truncated?)")};
            if (strict)
                return unexpected(e);
            damaged.add(e, 0);
            continue;
        }
        // The step: Lightning's global_step when printed (it keeps counting across epochs,
        // where the printer's iteration restarts at 0, and is the step NeMo's TensorBoard and
        // W&B loggers use), else the iteration.
        const qint64 step = globalStep.value_or(iteration);
        if (globalStep && *globalStep != iteration)
            ++stepDiffers;
        for (const Value& v : values) {
            // Every value of a metric shares one copy of its name, not a string per line.
            auto seen = metricSeen.constFind(v.name);
            const bool first = seen == metricSeen.constEnd();
            if (first)
                seen = metricSeen.insert(v.name);
            data.stepMetrics.append(store::StepMetric{step, *seen, v.value});
            if (first) {
                metricOrder << v.name;
                keys << v.key + QStringLiteral(" -> ") + v.name;
            }
        }
        epochs.insert(epoch);
        lastTotal = total;
        ++trainingLines;
        ++data.rows;
    }
    if (trainingLines == 0 && !damaged.empty())
        return unexpected(*damaged.refusal()); // nothing usable: the first damaged line says why
    if (trainingLines == 0)
        return importError(
            file, 0, {},
            ImportTr::tr("no NeMo progress lines (\"Training epoch E, iteration N/T | key: value\") found"));
    QJsonObject& env = data.environment;
    damaged.note(env);
    env.insert(QStringLiteral("framework"), QStringLiteral("NeMo"));
    env.insert(QStringLiteral("training_lines"), trainingLines);
    env.insert(QStringLiteral("epochs"), qint64(epochs.size()));
    env.insert(QStringLiteral("last_iteration_total"), lastTotal);
    env.insert(QStringLiteral("step_source"), QStringLiteral("global_step, else iteration"));
    env.insert(QStringLiteral("global_step_differs_from_iteration"), stepDiffers);
    env.insert(QStringLiteral("validation_progress_lines"), validationProgress);
    env.insert(QStringLiteral("other_lines_skipped"), otherLines);
    env.insert(QStringLiteral("keys"), QJsonArray::fromStringList(keys));
    env.insert(QStringLiteral("metrics"), QJsonArray::fromStringList(metricOrder));
    return data;
}

} // namespace moewb::importers
