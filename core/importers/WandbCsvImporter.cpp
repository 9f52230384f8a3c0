#include "importers/WandbCsvImporter.h"

#include "importers/CsvLine.h"
#include "importers/MetricNames.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

#include <optional>
#include <vector>

namespace moewb::importers {

namespace {

struct Column {
    QString text;   // the header cell
    QString run;    // before the first " - "
    QString metric; // after it, without __MIN/__MAX
    bool minMax = false;
};

struct Header {
    qint64 line = 0;
    QString xAxis;
    std::vector<Column> columns; // columns[0] is the x axis
    QStringList runs;
};

// The x axes that are a step; a chart plotted against time or another metric is not.
bool isStepAxis(const QString& name) {
    const QString l = name.toLower();
    return l == QLatin1String("step") || l == QLatin1String("_step") || l == QLatin1String("global_step") ||
           l == QLatin1String("trainer/global_step");
}

// Reads the header (the first non-blank line); `lines` is left just after it.
std::optional<ImportError> readHeader(TextLines& lines, const QString& file, Header& header) {
    std::string_view line;
    std::vector<std::string_view> fields;
    std::vector<std::string> storage;
    while (lines.next(line)) {
        const std::string_view t = trimmed(line);
        if (t.empty())
            continue;
        header.line = lines.lineNumber();
        QString why;
        if (!splitCsvLine(t, fields, storage, why))
            return ImportError{file, header.line, {}, why};
        header.xAxis = toQString(trimmed(fields[0]));
        if (!isStepAxis(header.xAxis))
            return ImportError{file, header.line, header.xAxis,
                               ImportTr::tr("the first column must be the chart's \"Step\" axis (a chart exported "
                                            "against time or another metric has no steps)")};
        header.columns.push_back(Column{header.xAxis, {}, {}, false});
        for (size_t i = 1; i < fields.size(); ++i) {
            Column c;
            c.text = toQString(trimmed(fields[i]));
            const qsizetype dash = c.text.indexOf(QLatin1String(" - "));
            if (dash <= 0 || dash + 3 >= c.text.size())
                return ImportError{file, header.line, c.text,
                                   ImportTr::tr("is not a \"<run> - <metric>\" column of a W&B chart export")};
            c.run = c.text.left(dash);
            c.metric = c.text.mid(dash + 3);
            if (c.metric.endsWith(QLatin1String("__MIN")) || c.metric.endsWith(QLatin1String("__MAX"))) {
                c.minMax = true;
                c.metric.chop(5);
            }
            if (!header.runs.contains(c.run))
                header.runs << c.run;
            header.columns.push_back(c);
        }
        if (header.runs.isEmpty())
            return ImportError{file, header.line, {}, ImportTr::tr("the header names no \"<run> - <metric>\" column")};
        return std::nullopt;
    }
    return ImportError{file, 0, {}, ImportTr::tr("the file is empty (no header)")};
}

ImportResult parseOne(const QByteArray& bytes, const QString& file, const QString& wanted) {
    TextLines lines(bytes);
    Header header;
    if (auto e = readHeader(lines, file, header))
        return unexpected(*e);
    QString run = wanted;
    if (run.isEmpty()) {
        if (header.runs.size() > 1)
            return importError(file, header.line, {},
                               ImportTr::tr("holds %1 runs (%2); pick one with --wandb-run NAME")
                                   .arg(header.runs.size())
                                   .arg(clipped(header.runs.join(QStringLiteral(", ")))));
        run = header.runs.first();
    } else if (!header.runs.contains(run)) {
        return importError(file, header.line, {},
                           ImportTr::tr("has no run \"%1\"; its runs: %2")
                               .arg(clipped(run), clipped(header.runs.join(QStringLiteral(", ")))));
    }

    struct Target {
        size_t index;
        QString name;
        double scale;
    };
    std::vector<Target> targets;
    QSet<QString> names;
    QStringList mapping;
    qint64 minMaxSkipped = 0, otherRunColumns = 0, vsSkipped = 0;
    for (size_t i = 1; i < header.columns.size(); ++i) {
        const Column& c = header.columns[i];
        if (c.run != run) {
            ++otherRunColumns;
            continue;
        }
        if (c.minMax) {
            ++minMaxSkipped;
            continue;
        }
        // Megatron's "… vs samples" / "… vs tokens" are plotted against samples or tokens.
        if (c.metric.contains(QLatin1String(" vs "))) {
            ++vsSkipped;
            continue;
        }
        double scale = 1.0;
        const QString name = loggedMetricName(c.metric, scale);
        if (!isValidMetricName(name))
            return importError(file, header.line, c.text,
                               ImportTr::tr("gives no usable metric name (\"%1\")").arg(clipped(name)));
        if (names.contains(name))
            return importError(file, header.line, c.text,
                               ImportTr::tr("is a second column for the metric %1").arg(clipped(name)));
        names.insert(name);
        targets.push_back(Target{i, name, scale});
        mapping << c.metric + QStringLiteral(" -> ") + name;
    }
    if (targets.empty())
        return importError(file, header.line, {}, ImportTr::tr("run \"%1\" has no metric column").arg(run));

    ImportedData data;
    data.format = QString::fromLatin1(WandbCsvImporter::kFormat);
    QSet<qint64> steps;
    qint64 dataLines = 0, emptyRows = 0;
    std::string_view line;
    std::vector<std::string_view> fields;
    std::vector<std::string> storage;
    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        const std::string_view t = trimmed(line);
        if (t.empty())
            continue;
        QString why;
        if (!splitCsvLine(t, fields, storage, why))
            return importError(file, n, {}, why);
        if (fields.size() != header.columns.size())
            return importError(file, n, {},
                               ImportTr::tr("has %1 fields, the header (line %2) has %3 (truncated or malformed)")
                                   .arg(fields.size())
                                   .arg(header.line)
                                   .arg(header.columns.size()));
        ++dataLines;
        qint64 step = 0;
        if (!parseIntegral(fields[0], 0, kMaxStep, step, why))
            return importError(file, n, header.xAxis, why);
        if (steps.contains(step))
            return importError(file, n, header.xAxis, ImportTr::tr("step %1 appears twice").arg(step));
        steps.insert(step);
        bool any = false;
        for (const Target& target : targets) {
            const std::string_view cell = trimmed(fields[target.index]);
            if (cell.empty())
                continue;
            double v = 0;
            if (!parseFiniteDouble(cell, v, why))
                return importError(file, n, target.name, why);
            v *= target.scale;
            const MetricRange range = metricRange(target.name);
            if (v < range.min || v > range.max)
                return importError(file, n, target.name,
                                   ImportTr::tr("is absurd: %1 (expected between %2 and %3)")
                                       .arg(toQString(cell))
                                       .arg(range.min, 0, 'g', 6)
                                       .arg(range.max, 0, 'g', 6));
            data.stepMetrics.append(store::StepMetric{step, target.name, v});
            any = true;
        }
        if (any)
            ++data.rows;
        else
            ++emptyRows;
    }
    if (data.stepMetrics.isEmpty())
        return importError(file, 0, {}, ImportTr::tr("run \"%1\" has no values (%2 data rows)").arg(run).arg(dataLines));
    QJsonObject& env = data.environment;
    env.insert(QStringLiteral("run"), run);
    env.insert(QStringLiteral("runs"), QJsonArray::fromStringList(header.runs));
    env.insert(QStringLiteral("x_axis"), header.xAxis);
    env.insert(QStringLiteral("data_rows"), dataLines);
    env.insert(QStringLiteral("rows_without_values"), emptyRows);
    env.insert(QStringLiteral("min_max_columns_skipped"), minMaxSkipped);
    env.insert(QStringLiteral("other_run_columns_skipped"), otherRunColumns);
    env.insert(QStringLiteral("vs_samples_or_tokens_columns_skipped"), vsSkipped);
    env.insert(QStringLiteral("metrics"), QJsonArray::fromStringList(mapping));
    return data;
}

} // namespace

ImportResult WandbCsvImporter::parse(const QByteArray& bytes, const QString& file) { return parseOne(bytes, file, {}); }

ImportResult WandbCsvImporter::parseRun(const QByteArray& bytes, const QString& file, const QString& runName) {
    if (runName.isEmpty())
        return importError(file, 0, {}, ImportTr::tr("no run name given"));
    return parseOne(bytes, file, runName);
}

Expected<QStringList, ImportError> WandbCsvImporter::runNames(const QByteArray& bytes, const QString& file) {
    TextLines lines(bytes);
    Header header;
    if (auto e = readHeader(lines, file, header))
        return unexpected(*e);
    return header.runs;
}

bool WandbCsvImporter::looksLikeWandbCsv(const QByteArray& head) {
    TextLines lines(head);
    std::string_view line;
    std::vector<std::string_view> fields;
    std::vector<std::string> storage;
    while (lines.next(line)) {
        const std::string_view t = trimmed(line);
        if (t.empty())
            continue;
        QString why;
        if (!splitCsvLine(t, fields, storage, why) || fields.size() < 2 || !isStepAxis(toQString(trimmed(fields[0]))))
            return false;
        for (size_t i = 1; i < fields.size(); ++i)
            if (fields[i].find(" - ") == std::string_view::npos)
                return false;
        return true;
    }
    return false;
}

} // namespace moewb::importers
