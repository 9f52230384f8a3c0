#include "importers/TorchtitanLogImporter.h"

#include "importers/MetricNames.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace moewb::importers {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The line without ANSI CSI sequences ("\x1b[31m", "\x1b[38;2;180;60;0m").
std::string_view withoutAnsi(std::string_view line, std::string& storage) {
    if (line.find('\x1b') == std::string_view::npos)
        return line;
    storage.clear();
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            size_t j = i + 2;
            while (j < line.size() && !(line[j] >= 0x40 && line[j] <= 0x7e))
                ++j;
            i = j; // skips the final byte too
            continue;
        }
        storage.push_back(line[i]);
    }
    return storage;
}

// torchrun's "[rank3]:" (or older "[default3]:") prefix; -1 when there is none.
int rankPrefix(std::string_view& line) {
    for (const std::string_view word : {std::string_view("[rank"), std::string_view("[default")}) {
        if (line.substr(0, word.size()) != word)
            continue;
        size_t i = word.size();
        int rank = 0;
        const size_t start = i;
        while (i < line.size() && isDigit(line[i]) && i - start < 8)
            rank = rank * 10 + (line[i++] - '0');
        if (i == start || i + 1 >= line.size() || line[i] != ']' || line[i + 1] != ':')
            return -1;
        line.remove_prefix(i + 2);
        return rank;
    }
    return -1;
}

enum class LineKind { Other, Train, Validate };

// The logger message: the text after " - INFO - " when the "[titan] time - name - LEVEL - "
// header is there, else the line itself.
LineKind messageOf(std::string_view line, std::string_view& fields) {
    const size_t info = line.find(" - INFO - ");
    std::string_view msg = trimmed(info == std::string_view::npos ? line : line.substr(info + 10));
    static constexpr std::string_view train = "step:";
    static constexpr std::string_view validate = "validate step:";
    if (msg.substr(0, train.size()) == train) {
        fields = msg;
        return LineKind::Train;
    }
    if (msg.substr(0, validate.size()) == validate) {
        fields = msg.substr(9); // from "step:"
        return LineKind::Validate;
    }
    return LineKind::Other;
}

struct Field {
    std::string_view key;
    std::string_view value; // empty: the line ends after "key:"
};

// "step:  2  loss:  6.09081  memory:  4.26GiB(2.39%)" -> (step, 2), (loss, 6.09081), ...
// False when a key has no colon (a word that is not "key: value").
bool splitFields(std::string_view text, std::vector<Field>& out, std::string_view& bad) {
    out.clear();
    size_t i = 0;
    while (true) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
            ++i;
        if (i >= text.size())
            return true;
        const size_t keyStart = i;
        while (i < text.size() && text[i] != ':' && text[i] != ' ' && text[i] != '\t')
            ++i;
        if (i >= text.size() || text[i] != ':') {
            bad = text.substr(keyStart, i - keyStart);
            return false;
        }
        Field f;
        f.key = text.substr(keyStart, i - keyStart);
        ++i;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
            ++i;
        const size_t valueStart = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t')
            ++i;
        f.value = text.substr(valueStart, i - valueStart);
        out.push_back(f);
    }
}

// A number as Python's "{:,}" prints it: "72,915", "1,234.56", "39.59".
bool parseGrouped(std::string_view text, double& value, QString& why) {
    if (text.find(',') == std::string_view::npos)
        return parseFiniteDouble(text, value, why);
    std::string plain;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == ',') {
            const bool ok = i > 0 && isDigit(text[i - 1]) && i + 3 < text.size() && isDigit(text[i + 1]) &&
                            isDigit(text[i + 2]) && isDigit(text[i + 3]) &&
                            (i + 4 >= text.size() || !isDigit(text[i + 4]));
            if (!ok) {
                why = ImportTr::tr("is not a number: \"%1\"").arg(excerpt(text));
                return false;
            }
            continue;
        }
        plain.push_back(text[i]);
    }
    return parseFiniteDouble(plain, value, why);
}

struct Metric {
    QString name;
    double value;
};

struct StepLine {
    int rank = -1;
    qint64 line = 0;
    std::vector<Metric> metrics; // without the loss
};

struct LossValue {
    int rank = -1;
    double value = 0;
};

QString nameOfKey(std::string_view key, bool validation) {
    if (key == "loss")
        return validation ? QStringLiteral("val_loss") : QStringLiteral("lm_loss");
    if (key == "grad_norm")
        return QStringLiteral("grad_norm");
    if (key == "memory")
        return QStringLiteral("memory_max_reserved_gib");
    if (key == "tps" || key == "wps") // tokens per second per device (metrics.py); "wps" before 2025
        return QStringLiteral("tokens_per_s_per_gpu");
    if (key == "tflops")
        return QStringLiteral("tflops_per_gpu");
    if (key == "mfu")
        return QStringLiteral("mfu_percent");
    return snakeCase(toQString(key));
}

} // namespace

bool TorchtitanLogImporter::looksLikeTorchtitanLog(const QByteArray& head) {
    TextLines lines(head);
    std::string_view raw;
    std::string storage;
    while (lines.next(raw)) {
        std::string_view line = withoutAnsi(raw, storage);
        if (line.find("[titan]") == std::string_view::npos)
            continue;
        rankPrefix(line);
        std::string_view fields;
        if (messageOf(line, fields) != LineKind::Other && fields.find("loss:") != std::string_view::npos)
            return true;
    }
    return false;
}

ImportResult TorchtitanLogImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    std::map<qint64, StepLine> train, validation;
    std::map<qint64, LossValue> loss, validationLoss;
    qint64 trainLines = 0, validationLines = 0, otherLines = 0, otherRankLines = 0, repeatedSteps = 0,
           lossPlaceholders = 0, mfuNotAvailable = 0;
    QSet<int> ranks;
    QStringList metricOrder;
    QSet<QString> metricSeen;
    auto noteName = [&](const QString& name) {
        if (!metricSeen.contains(name)) {
            metricSeen.insert(name);
            metricOrder << name;
        }
    };

    TextLines lines(bytes);
    std::string_view raw;
    std::string storage;
    std::vector<Field> fields;
    while (lines.next(raw)) {
        const qint64 n = lines.lineNumber();
        std::string_view line = withoutAnsi(raw, storage);
        const int rankOrNone = rankPrefix(line);
        std::string_view text;
        const LineKind kind = messageOf(line, text);
        if (kind == LineKind::Other) {
            ++otherLines;
            continue;
        }
        const bool isValidation = kind == LineKind::Validate;
        std::string_view bad;
        if (!splitFields(text, fields, bad))
            return importError(file, n, toQString(bad).left(40),
                               ImportTr::tr("a word without a value (\"key: value\" was expected)"));
        // fields[0] is "step".
        QString why;
        qint64 step = 0;
        if (fields[0].value.empty())
            return importError(file, n, QStringLiteral("step"), ImportTr::tr("the line ends after \"step:\" (truncated)"));
        if (!parseIntegral(fields[0].value, 0, kMaxStep, step, why))
            return importError(file, n, QStringLiteral("step"), why);
        // The last field torchtitan prints: mfu (training), tps (validation). A line
        // without it was cut; the field named is the last one that survived.
        const std::string_view lastKey = isValidation ? "tps" : "mfu";
        bool hasLast = false, hasLoss = false;
        for (const Field& f : fields) {
            hasLast = hasLast || f.key == lastKey;
            hasLoss = hasLoss || f.key == "loss";
        }
        const int rank = rankOrNone < 0 ? 0 : rankOrNone;
        ranks.insert(rank);
        std::vector<Metric> metrics;
        std::optional<double> lossValue;
        for (size_t i = 1; i < fields.size(); ++i) {
            const Field& f = fields[i];
            const QString name = nameOfKey(f.key, isValidation);
            if (name.isEmpty())
                return importError(file, n, toQString(f.key), ImportTr::tr("a field without a name"));
            if (f.value.empty())
                return importError(file, n, name,
                                   ImportTr::tr("the line ends after \"%1:\" (truncated)").arg(toQString(f.key)));
            auto check = [&](const QString& metric, double v, std::string_view shown) -> std::optional<ImportError> {
                const MetricRange range = metricRange(metric);
                if (v < range.min || v > range.max)
                    return ImportError{file, n, metric,
                                       ImportTr::tr("is absurd: %1 (expected between %2 and %3)")
                                           .arg(toQString(shown))
                                           .arg(range.min, 0, 'g', 6)
                                           .arg(range.max, 0, 'g', 6)};
                return std::nullopt;
            };
            double v = 0;
            if (f.key == "memory") {
                // "4.26GiB(2.39%)": peak reserved memory in GiB and as a share of the device.
                const size_t gib = f.value.find("GiB");
                if (gib == std::string_view::npos)
                    return importError(file, n, name,
                                       ImportTr::tr("is not \"<GiB>GiB(<percent>%)\": \"%1\"").arg(excerpt(f.value)));
                if (!parseFiniteDouble(f.value.substr(0, gib), v, why))
                    return importError(file, n, name, why);
                if (auto e = check(name, v, f.value.substr(0, gib)))
                    return unexpected(*e);
                const std::string_view rest = f.value.substr(gib + 3);
                const QString pctName = QStringLiteral("memory_max_reserved_percent");
                if (rest.size() < 3 || rest.front() != '(' || rest.substr(rest.size() - 2) != "%)")
                    return importError(file, n, pctName,
                                       ImportTr::tr("is not \"(<percent>%)\" after the GiB (truncated?): \"%1\"")
                                           .arg(excerpt(f.value)));
                double pct = 0;
                const std::string_view pctText = rest.substr(1, rest.size() - 3);
                if (!parseFiniteDouble(pctText, pct, why))
                    return importError(file, n, pctName, why);
                if (auto e = check(pctName, pct, pctText))
                    return unexpected(*e);
                if (!isValidation) {
                    metrics.push_back({name, v});
                    metrics.push_back({pctName, pct});
                }
                continue;
            }
            std::string_view number = f.value;
            if (f.key == "mfu" && number == "N/A") { // MFU is not computed with FP8/MX quantization
                if (!isValidation)
                    ++mfuNotAvailable;
                continue;
            }
            if (!number.empty() && number.back() == '%')
                number.remove_suffix(1);
            if (!parseGrouped(number, v, why))
                return importError(file, n, name, why);
            if (f.key == "loss" && v < 0) {
                // Ranks without the last pipeline stage print -1 (summed over DP) as a placeholder.
                ++lossPlaceholders;
                continue;
            }
            if (auto e = check(name, v, number))
                return unexpected(*e);
            if (f.key == "loss")
                lossValue = v;
            else if (!isValidation)
                metrics.push_back({name, v});
        }
        if (!hasLast) {
            const Field& last = fields.back();
            const QString field = fields.size() > 1 ? nameOfKey(last.key, isValidation) : QStringLiteral("step");
            return importError(file, n, field,
                               ImportTr::tr("the line ends after \"%1: %2\" without its \"%3:\" field (truncated)")
                                   .arg(toQString(last.key), excerpt(last.value), toQString(lastKey)));
        }
        if (!hasLoss)
            return importError(file, n, isValidation ? QStringLiteral("val_loss") : QStringLiteral("lm_loss"),
                               ImportTr::tr("the step line has no \"loss:\" field"));
        if (isValidation) {
            ++validationLines;
            StepLine& slot = validation[step];
            if (slot.rank >= 0)
                rank < slot.rank ? ++otherRankLines : (rank == slot.rank ? ++repeatedSteps : ++otherRankLines);
            if (slot.rank < 0 || rank <= slot.rank) {
                slot.rank = rank;
                slot.line = n;
            }
            if (lossValue) {
                LossValue& l = validationLoss[step];
                if (l.rank < 0 || rank <= l.rank)
                    l = LossValue{rank, *lossValue};
            }
            continue;
        }
        ++trainLines;
        StepLine& slot = train[step];
        if (slot.rank < 0 || rank <= slot.rank) {
            if (slot.rank >= 0)
                rank < slot.rank ? ++otherRankLines : ++repeatedSteps;
            slot.rank = rank;
            slot.line = n;
            metrics.shrink_to_fit(); // held until every line is read: no spare capacity per step
            slot.metrics = std::move(metrics);
        } else {
            ++otherRankLines;
        }
        if (lossValue) {
            LossValue& l = loss[step];
            if (l.rank < 0 || rank <= l.rank)
                l = LossValue{rank, *lossValue};
        }
    }
    if (trainLines == 0 && validationLines == 0)
        return importError(file, 0, {},
                           ImportTr::tr("no torchtitan step lines (\"step: N  loss: X  …  mfu: …\") found"));
    // The values' vector is sized once, not doubled as it fills.
    qsizetype values = qsizetype(loss.size() + validationLoss.size());
    for (const auto& [step, slot] : train)
        values += qsizetype(slot.metrics.size());
    data.stepMetrics.reserve(values);
    for (const auto& [step, slot] : train) {
        const auto l = loss.find(step);
        if (l != loss.end()) {
            data.stepMetrics.append(store::StepMetric{step, QStringLiteral("lm_loss"), l->second.value});
            noteName(QStringLiteral("lm_loss"));
        }
        for (const Metric& m : slot.metrics) {
            data.stepMetrics.append(store::StepMetric{step, m.name, m.value});
            noteName(m.name);
        }
        ++data.rows;
    }
    for (const auto& [step, slot] : validation) {
        Q_UNUSED(slot);
        const auto l = validationLoss.find(step);
        if (l != validationLoss.end()) {
            data.stepMetrics.append(store::StepMetric{step, QStringLiteral("val_loss"), l->second.value});
            noteName(QStringLiteral("val_loss"));
        }
        ++data.rows;
    }
    QJsonObject& env = data.environment;
    env.insert(QStringLiteral("framework"), QStringLiteral("torchtitan"));
    env.insert(QStringLiteral("step_lines"), trainLines);
    env.insert(QStringLiteral("validation_lines"), validationLines);
    env.insert(QStringLiteral("steps"), qint64(train.size()));
    env.insert(QStringLiteral("validation_steps"), qint64(validation.size()));
    QList<int> rankList = ranks.values();
    std::sort(rankList.begin(), rankList.end());
    QJsonArray rankArray;
    for (int r : rankList)
        rankArray.append(r);
    env.insert(QStringLiteral("ranks_seen"), rankArray);
    env.insert(QStringLiteral("other_rank_lines_skipped"), otherRankLines);
    env.insert(QStringLiteral("repeated_steps"), repeatedSteps);
    env.insert(QStringLiteral("loss_placeholders_skipped"), lossPlaceholders);
    env.insert(QStringLiteral("mfu_not_available"), mfuNotAvailable);
    env.insert(QStringLiteral("other_lines_skipped"), otherLines);
    env.insert(QStringLiteral("metrics"), QJsonArray::fromStringList(metricOrder));
    return data;
}

} // namespace moewb::importers
