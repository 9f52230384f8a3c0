#include "importers/TorchtitanLogImporter.h"

#include "importers/DamagedLines.h"

#include "importers/MetricNames.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <cstring>
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

// One step line as the scan keeps it until every line is read: where it is, not what it
// holds (24 bytes; its values are read again from the file for the lines that are kept).
struct StepEntry {
    qint64 step = 0;
    qint64 offset = 0; // where its line starts in the file
    qint32 rank = 0;
    quint32 metricCount : 22; // values besides the loss (training lines)
    quint32 hasLoss : 1;
    quint32 keepMetrics : 1; // chosen: the step's values come from this line
    quint32 keepLoss : 1;    // chosen: the step's loss comes from this line
};
constexpr quint32 kMaxLineMetrics = (1u << 22) - 1;

struct LineCounts {
    qint64 lossPlaceholders = 0;
    qint64 mfuNotAvailable = 0;
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

// The message of a step line (`text`, from messageOf): its step, its loss (none for the
// placeholder -1) and, for a training line, the values it gives besides the loss.
std::optional<ImportError> readStepLine(std::string_view text, bool isValidation, const QString& file, qint64 n,
                                        std::vector<Field>& fields, qint64& step, std::optional<double>& lossValue,
                                        std::vector<Metric>& metrics, LineCounts* counts) {
    auto error = [&](const QString& field, const QString& message) { return ImportError{file, n, field, message}; };
    metrics.clear();
    lossValue.reset();
    std::string_view bad;
    if (!splitFields(text, fields, bad))
        return error(toQString(bad).left(40), ImportTr::tr("a word without a value (\"key: value\" was expected)"));
    // fields[0] is "step".
    QString why;
    if (fields[0].value.empty())
        return error(QStringLiteral("step"), ImportTr::tr("the line ends after \"step:\" (truncated)"));
    if (!parseIntegral(fields[0].value, 0, kMaxStep, step, why))
        return error(QStringLiteral("step"), why);
    // The last field torchtitan prints: mfu (training), tps (validation). A line
    // without it was cut; the field named is the last one that survived.
    const std::string_view lastKey = isValidation ? "tps" : "mfu";
    bool hasLast = false, hasLoss = false;
    for (const Field& f : fields) {
        hasLast = hasLast || f.key == lastKey;
        hasLoss = hasLoss || f.key == "loss";
    }
    for (size_t i = 1; i < fields.size(); ++i) {
        const Field& f = fields[i];
        const QString name = nameOfKey(f.key, isValidation);
        if (name.isEmpty())
            return error(toQString(f.key), ImportTr::tr("a field without a name"));
        if (f.value.empty())
            return error(name, ImportTr::tr("the line ends after \"%1:\" (truncated)").arg(toQString(f.key)));
        auto check = [&](const QString& metric, double v, std::string_view shown) -> std::optional<ImportError> {
            const MetricRange range = metricRange(metric);
            if (v < range.min || v > range.max)
                return error(metric, ImportTr::tr("is absurd: %1 (expected between %2 and %3)")
                                         .arg(toQString(shown))
                                         .arg(range.min, 0, 'g', 6)
                                         .arg(range.max, 0, 'g', 6));
            return std::nullopt;
        };
        double v = 0;
        if (f.key == "memory") {
            // "4.26GiB(2.39%)": peak reserved memory in GiB and as a share of the device.
            const size_t gib = f.value.find("GiB");
            if (gib == std::string_view::npos)
                return error(name, ImportTr::tr("is not \"<GiB>GiB(<percent>%)\": \"%1\"").arg(excerpt(f.value)));
            if (!parseFiniteDouble(f.value.substr(0, gib), v, why))
                return error(name, why);
            if (auto e = check(name, v, f.value.substr(0, gib)))
                return e;
            const std::string_view rest = f.value.substr(gib + 3);
            const QString pctName = QStringLiteral("memory_max_reserved_percent");
            if (rest.size() < 3 || rest.front() != '(' || rest.substr(rest.size() - 2) != "%)")
                return error(pctName, ImportTr::tr("is not \"(<percent>%)\" after the GiB (truncated?): \"%1\"")
                                          .arg(excerpt(f.value)));
            double pct = 0;
            const std::string_view pctText = rest.substr(1, rest.size() - 3);
            if (!parseFiniteDouble(pctText, pct, why))
                return error(pctName, why);
            if (auto e = check(pctName, pct, pctText))
                return e;
            if (!isValidation) {
                metrics.push_back({name, v});
                metrics.push_back({pctName, pct});
            }
            continue;
        }
        std::string_view number = f.value;
        if (f.key == "mfu" && number == "N/A") { // MFU is not computed with FP8/MX quantization
            if (!isValidation && counts)
                ++counts->mfuNotAvailable;
            continue;
        }
        if (!number.empty() && number.back() == '%')
            number.remove_suffix(1);
        if (!parseGrouped(number, v, why))
            return error(name, why);
        if (f.key == "loss" && v < 0) {
            // Ranks without the last pipeline stage print -1 (summed over DP) as a placeholder.
            if (counts)
                ++counts->lossPlaceholders;
            continue;
        }
        if (auto e = check(name, v, number))
            return e;
        if (f.key == "loss")
            lossValue = v;
        else if (!isValidation)
            metrics.push_back({name, v});
    }
    if (!hasLast) {
        const Field& last = fields.back();
        const QString field = fields.size() > 1 ? nameOfKey(last.key, isValidation) : QStringLiteral("step");
        return error(field, ImportTr::tr("the line ends after \"%1: %2\" without its \"%3:\" field (truncated)")
                                .arg(toQString(last.key), excerpt(last.value), toQString(lastKey)));
    }
    if (!hasLoss)
        return error(isValidation ? QStringLiteral("val_loss") : QStringLiteral("lm_loss"),
                     ImportTr::tr("the step line has no \"loss:\" field"));
    return std::nullopt;
}

// The steps' lines in step order (file order within a step), and which line each step
// keeps: the lowest rank's (the last of its lines), for the values and for the loss
// apart (a rank may print the loss placeholder). Counts the lines not kept.
qsizetype chooseLines(std::vector<StepEntry>& entries, qint64& otherRankLines, qint64& repeatedSteps,
                      qint64& steps) {
    std::sort(entries.begin(), entries.end(), [](const StepEntry& a, const StepEntry& b) {
        return a.step != b.step ? a.step < b.step : a.offset < b.offset;
    });
    qsizetype values = 0;
    for (size_t i = 0; i < entries.size();) {
        size_t j = i;
        qint32 slotRank = -1, lossRank = -1;
        size_t slot = 0, lossLine = 0;
        for (; j < entries.size() && entries[j].step == entries[i].step; ++j) {
            const StepEntry& e = entries[j];
            if (slotRank < 0 || e.rank <= slotRank) {
                if (slotRank >= 0)
                    e.rank < slotRank ? ++otherRankLines : ++repeatedSteps;
                slotRank = e.rank;
                slot = j;
            } else {
                ++otherRankLines;
            }
            if (e.hasLoss && (lossRank < 0 || e.rank <= lossRank)) {
                lossRank = e.rank;
                lossLine = j;
            }
        }
        entries[slot].keepMetrics = 1;
        values += qsizetype(entries[slot].metricCount);
        if (lossRank >= 0) {
            entries[lossLine].keepLoss = 1;
            ++values;
        }
        ++steps;
        i = j;
    }
    return values;
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

ImportResult TorchtitanLogImporter::parseWith(const QByteArray& bytes, const QString& file, bool strict) {
    ImportedData data;
    DamagedLines damaged; // step lines left out whole (strict: the first refuses the file)
    data.format = QString::fromLatin1(kFormat);
    // Step lines are held as where they are (StepEntry), not as their values, until
    // every line is read: a later line of a lower rank may replace a step's.
    std::vector<StepEntry> train, validation;
    qint64 trainLines = 0, validationLines = 0, otherLines = 0, otherRankLines = 0, repeatedSteps = 0;
    LineCounts counts;
    QSet<int> ranks;
    QStringList metricOrder;
    QSet<QString> metricSeen;
    // Each name is held once: every value shares it.
    auto interned = [&](const QString& name) -> QString {
        auto it = metricSeen.constFind(name);
        if (it == metricSeen.cend()) {
            it = metricSeen.insert(name);
            metricOrder << name;
        }
        return *it;
    };

    TextLines lines(bytes);
    std::string_view raw;
    std::string storage;
    std::vector<Field> fields;
    std::vector<Metric> metrics;
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
        qint64 step = 0;
        std::optional<double> lossValue;
        std::optional<ImportError> e = readStepLine(text, isValidation, file, n, fields, step, lossValue, metrics, &counts);
        if (!e && metrics.size() > kMaxLineMetrics)
            e = ImportError{file, n, {}, ImportTr::tr("has more than %1 values").arg(kMaxLineMetrics)};
        if (e) {
            if (strict)
                return unexpected(*e);
            damaged.add(*e, 0);
            continue;
        }
        const int rank = rankOrNone < 0 ? 0 : rankOrNone;
        ranks.insert(rank);
        StepEntry entry;
        entry.step = step;
        entry.offset = qint64(raw.data() - bytes.constData());
        entry.rank = rank;
        entry.metricCount = quint32(metrics.size());
        entry.hasLoss = lossValue ? 1 : 0;
        entry.keepMetrics = entry.keepLoss = 0;
        if (isValidation) {
            ++validationLines;
            validation.push_back(entry);
        } else {
            ++trainLines;
            train.push_back(entry);
        }
    }
    if (trainLines == 0 && validationLines == 0 && !damaged.empty())
        return unexpected(*damaged.refusal()); // nothing usable: the first damaged line says why
    if (trainLines == 0 && validationLines == 0)
        return importError(file, 0, {},
                           ImportTr::tr("no torchtitan step lines (\"step: N  loss: X  …  mfu: …\") found"));
    qint64 trainSteps = 0, validationSteps = 0;
    const qsizetype trainValues = chooseLines(train, otherRankLines, repeatedSteps, trainSteps);
    const qsizetype validationValues = chooseLines(validation, otherRankLines, repeatedSteps, validationSteps);
    // The values' vector is sized once, not doubled as it fills.
    data.stepMetrics.reserve(trainValues + validationValues);

    // The kept lines, read again from the file (they were read without error before).
    const char* const end = bytes.constData() + bytes.size();
    auto reread = [&](const StepEntry& e, bool isValidation, std::optional<double>& lossValue) {
        const char* at = bytes.constData() + e.offset;
        const char* nl = static_cast<const char*>(memchr(at, '\n', size_t(end - at)));
        std::string_view raw(at, size_t((nl ? nl : end) - at));
        if (!raw.empty() && raw.back() == '\r')
            raw.remove_suffix(1);
        std::string_view line = withoutAnsi(raw, storage);
        rankPrefix(line);
        std::string_view text;
        messageOf(line, text);
        qint64 step = 0;
        readStepLine(text, isValidation, file, 0, fields, step, lossValue, metrics, nullptr);
    };
    auto storeSteps = [&](const std::vector<StepEntry>& entries, bool isValidation) {
        const QString lossName = isValidation ? QStringLiteral("val_loss") : QStringLiteral("lm_loss");
        for (size_t i = 0; i < entries.size();) {
            size_t j = i;
            const StepEntry* slot = nullptr;
            const StepEntry* lossLine = nullptr;
            for (; j < entries.size() && entries[j].step == entries[i].step; ++j) {
                if (entries[j].keepMetrics)
                    slot = &entries[j];
                if (entries[j].keepLoss)
                    lossLine = &entries[j];
            }
            const qint64 step = entries[i].step;
            std::optional<double> lossValue;
            if (lossLine) {
                reread(*lossLine, isValidation, lossValue);
                if (lossValue)
                    data.stepMetrics.append(store::StepMetric{step, interned(lossName), *lossValue});
            }
            if (!isValidation && slot && slot->metricCount > 0) {
                reread(*slot, isValidation, lossValue);
                for (const Metric& m : metrics)
                    data.stepMetrics.append(store::StepMetric{step, interned(m.name), m.value});
            }
            ++data.rows;
            i = j;
        }
    };
    storeSteps(train, false);
    storeSteps(validation, true);
    const qint64 lossPlaceholders = counts.lossPlaceholders, mfuNotAvailable = counts.mfuNotAvailable;
    QJsonObject& env = data.environment;
    damaged.note(env);
    env.insert(QStringLiteral("framework"), QStringLiteral("torchtitan"));
    env.insert(QStringLiteral("step_lines"), trainLines);
    env.insert(QStringLiteral("validation_lines"), validationLines);
    env.insert(QStringLiteral("steps"), trainSteps);
    env.insert(QStringLiteral("validation_steps"), validationSteps);
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
