#include "importers/JsonlMetricsImporter.h"

#include "importers/JsonCursor.h"
#include "importers/JsonFields.h"
#include "importers/MetricNames.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

namespace moewb::importers {

ImportResult JsonlMetricsImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    QSet<QString> names;
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
            data.stepMetrics.append(store::StepMetric{step, key, v});
            names.insert(key);
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
