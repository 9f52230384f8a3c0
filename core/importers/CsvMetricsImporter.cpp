#include "importers/CsvMetricsImporter.h"

#include "importers/CsvLine.h"
#include "importers/MetricNames.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <optional>

namespace moewb::importers {

ImportResult CsvMetricsImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    TextLines lines(bytes);
    std::string_view line;
    std::vector<std::string_view> fields;
    std::vector<std::string> storage;
    QStringList columns;
    bool longForm = false;
    qint64 headerLine = 0;
    QSet<QString> names;
    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        const std::string_view t = trimmed(line);
        if (t.empty() || t.front() == '#')
            continue;
        QString why;
        if (!splitCsvLine(t, fields, storage, why))
            return importError(file, n, {}, why);
        if (!headerLine) {
            headerLine = n;
            for (const auto& f : fields)
                columns << toQString(f).trimmed();
            if (columns.value(0) != QLatin1String("step"))
                return importError(file, n, columns.value(0),
                                   ImportTr::tr("the first column must be \"step\" (header: %1)").arg(clipped(columns.join(QLatin1Char(',')))));
            if (columns.size() < 2)
                return importError(file, n, {}, ImportTr::tr("the header names no metric column"));
            longForm = columns == QStringList{QStringLiteral("step"), QStringLiteral("metric"), QStringLiteral("value")};
            // Room for every value at once (a vector that doubles would hold up to twice
            // that): one per line in the long form, one per metric column and line in the
            // wide form, never more than one per two bytes (a digit and a separator).
            const qint64 rest = std::count(line.data() + line.size(), bytes.constData() + bytes.size(), '\n') + 1;
            const qint64 perLine = longForm ? 1 : qint64(columns.size() - 1);
            data.stepMetrics.reserve(qsizetype(std::min(rest * perLine, qint64(bytes.size()) / 2 + 1)));
            if (!longForm) {
                QSet<QString> seen;
                for (int i = 1; i < columns.size(); ++i) {
                    if (!isValidMetricName(columns[i]))
                        return importError(file, n, columns[i],
                                           ImportTr::tr("is not a metric name (lower-case letters, digits and _; "
                                                        "starting with a letter)"));
                    if (seen.contains(columns[i]))
                        return importError(file, n, columns[i], ImportTr::tr("appears twice in the header"));
                    seen.insert(columns[i]);
                }
            }
            continue;
        }
        if (qsizetype(fields.size()) != columns.size())
            return importError(file, n, {},
                               ImportTr::tr("has %1 fields, the header (line %2) has %3 (truncated or malformed)")
                                   .arg(fields.size())
                                   .arg(headerLine)
                                   .arg(columns.size()));
        qint64 step = 0;
        if (!parseIntegral(fields[0], 0, kMaxStep, step, why))
            return importError(file, n, QStringLiteral("step"), why);
        auto addValue = [&](const QString& name, std::string_view text) -> std::optional<ImportError> {
            double v = 0;
            QString problem;
            if (!parseFiniteDouble(text, v, problem))
                return ImportError{file, n, name, problem};
            const MetricRange r = metricRange(name);
            if (v < r.min || v > r.max)
                return ImportError{file, n, name,
                                   ImportTr::tr("is absurd: %1 (expected between %2 and %3)")
                                       .arg(toQString(trimmed(text)))
                                       .arg(r.min, 0, 'g', 6)
                                       .arg(r.max, 0, 'g', 6)};
            data.stepMetrics.append(store::StepMetric{step, name, v});
            names.insert(name);
            return std::nullopt;
        };
        if (longForm) {
            // One shared string per metric name, not one per row.
            QString name = toQString(trimmed(fields[1]));
            if (const auto known = names.constFind(name); known != names.constEnd())
                name = *known;
            else if (!isValidMetricName(name))
                return importError(file, n, QStringLiteral("metric"),
                                   ImportTr::tr("\"%1\" is not a metric name (lower-case letters, digits and _)")
                                       .arg(clipped(name)));
            if (auto e = addValue(name, fields[2]))
                return unexpected(*e);
        } else {
            for (int i = 1; i < columns.size(); ++i) {
                if (trimmed(fields[size_t(i)]).empty())
                    continue;
                if (auto e = addValue(columns[i], fields[size_t(i)]))
                    return unexpected(*e);
            }
        }
        ++data.rows;
    }
    if (!headerLine)
        return importError(file, 0, {}, ImportTr::tr("the file is empty (a header \"step,...\" was expected)"));
    if (data.rows == 0)
        return importError(file, headerLine, {}, ImportTr::tr("a header but no data rows"));
    QStringList sorted(names.begin(), names.end());
    sorted.sort();
    data.environment.insert(QStringLiteral("metrics"), QJsonArray::fromStringList(sorted));
    data.environment.insert(QStringLiteral("layout"), longForm ? QStringLiteral("long") : QStringLiteral("wide"));
    return data;
}

} // namespace moewb::importers
