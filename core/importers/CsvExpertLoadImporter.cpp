#include "importers/CsvExpertLoadImporter.h"

#include "importers/CsvLine.h"
#include "importers/MetricNames.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QHash>

#include <limits>

namespace moewb::importers {

ImportResult CsvExpertLoadImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    TextLines lines(bytes);
    std::string_view line;
    std::vector<std::string_view> fields;
    std::vector<std::string> storage;
    QStringList columns;
    qint64 headerLine = 0;
    QHash<qint64, qint64> seen;
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
            if (columns.value(0) != QLatin1String("step") || columns.value(1) != QLatin1String("layer"))
                return importError(file, n, columns.value(0),
                                   ImportTr::tr("the header must start with step,layer (got %1)")
                                       .arg(clipped(columns.mid(0, 3).join(QLatin1Char(',')))));
            if (columns.size() < 3)
                return importError(file, n, {}, ImportTr::tr("the header names no expert column"));
            if (columns.size() - 2 > kMaxExperts)
                return importError(file, n, {}, ImportTr::tr("more than %1 expert columns").arg(kMaxExperts));
            continue;
        }
        if (qsizetype(fields.size()) != columns.size())
            return importError(file, n, {},
                               ImportTr::tr("has %1 fields, the header (line %2) has %3 (truncated or malformed)")
                                   .arg(fields.size())
                                   .arg(headerLine)
                                   .arg(columns.size()));
        qint64 step = 0, layer = 0;
        if (!parseIntegral(fields[0], 0, kMaxStep, step, why))
            return importError(file, n, QStringLiteral("step"), why);
        if (!parseIntegral(fields[1], 0, kMaxLayer, layer, why))
            return importError(file, n, QStringLiteral("layer"), why);
        store::ExpertLoadBlock block{step, int(layer), QVector<quint32>(columns.size() - 2)};
        for (qsizetype i = 2; i < columns.size(); ++i) {
            qint64 v = 0;
            if (!parseIntegral(fields[size_t(i)], 0, std::numeric_limits<quint32>::max(), v, why))
                return importError(file, n, columns[i], why);
            block.tokensPerExpert[i - 2] = quint32(v);
        }
        const auto previous = seen.constFind(step * 16384 + layer);
        if (previous != seen.constEnd())
            return importError(file, n, QStringLiteral("step"),
                               ImportTr::tr("step %1, layer %2 appears again (first on line %3)")
                                   .arg(step)
                                   .arg(layer)
                                   .arg(*previous));
        seen.insert(step * 16384 + layer, n);
        data.expertLoad.append(std::move(block));
        ++data.rows;
    }
    if (!headerLine)
        return importError(file, 0, {}, ImportTr::tr("the file is empty (a header \"step,layer,...\" was expected)"));
    if (data.rows == 0)
        return importError(file, headerLine, {}, ImportTr::tr("a header but no data rows"));
    data.environment.insert(QStringLiteral("experts"), columns.size() - 2);
    return data;
}

} // namespace moewb::importers
