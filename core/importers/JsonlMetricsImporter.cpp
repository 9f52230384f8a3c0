#include "importers/JsonlMetricsImporter.h"

#include "importers/JsonCursor.h"
#include "importers/JsonFields.h"
#include "importers/MetricNames.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>

namespace moewb::importers {

ImportResult JsonlMetricsImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    QSet<QString> names;
    // The values' vector is sized once, not doubled as it fills: every value is a
    // "key": value pair, one colon, besides each line's step. A valid pair takes at
    // least 6 bytes ("a":1,), which bounds what a file of stray colons can reserve.
    const qsizetype colons = qsizetype(std::count(bytes.cbegin(), bytes.cend(), ':'));
    const qsizetype newlines = qsizetype(std::count(bytes.cbegin(), bytes.cend(), '\n'));
    data.stepMetrics.reserve(std::clamp<qsizetype>(colons - newlines, 0, bytes.size() / 6));
    TextLines lines(bytes);
    std::string_view line;
    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        JsonCursor c(line.data(), line.data() + line.size(), n);
        if (c.atEnd())
            continue;
        JsonNode node;
        if (!parseJsonValue(c, node) || (!c.atEnd() && !c.fail(ImportTr::tr("unexpected text after the object"))))
            return importError(file, n, c.errorPath(),
                               ImportTr::tr("not valid JSON: column %1: %2").arg(c.column()).arg(c.error()));
        JsonFields j(file);
        const JsonField root = JsonFields::root(node);
        if (!j.expectObject(root))
            return unexpected(j.error());
        qint64 step = 0;
        if (!j.integer(j.member(root, QStringLiteral("step")), 0, kMaxStep, step))
            return unexpected(j.error());
        for (size_t i = 0; i < node.keys.size(); ++i) {
            const QString& key = node.keys[i];
            if (key == QLatin1String("step"))
                continue;
            const JsonField f = j.member(root, key);
            if (!isValidMetricName(key)) {
                j.fail(f, ImportTr::tr("is not a metric name (lower-case letters, digits and _; starting with a letter)"));
                return unexpected(j.error());
            }
            if (f.node->isNull())
                continue;
            const MetricRange r = metricRange(key);
            double v = 0;
            if (!j.number(f, r.min, r.max, v))
                return unexpected(j.error());
            // Every value of a metric shares one copy of its name, not a string per line.
            data.stepMetrics.append(store::StepMetric{step, *names.insert(key), v});
        }
        ++data.rows;
    }
    if (data.rows == 0)
        return importError(file, 0, {}, ImportTr::tr("no metric lines found (the file is empty)"));
    QStringList sorted(names.begin(), names.end());
    sorted.sort();
    data.environment.insert(QStringLiteral("metrics"), QJsonArray::fromStringList(sorted));
    return data;
}

} // namespace moewb::importers
