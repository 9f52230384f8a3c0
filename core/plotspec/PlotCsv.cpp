#include "plotspec/PlotCsv.h"

#include <QStringList>

#include <charconv>
#include <cmath>

namespace moewb::plots {

namespace {

QString snake(const QString& source)
{
    QString text = source;
    text.replace(QChar(0x00D7), QLatin1Char('x')); // "× mean" -> "x_mean"
    QString out;
    bool pendingUnderscore = false;
    for (QChar c : text) {
        if (c.isLetterOrNumber()) { // any script: an axis without a key keeps its UI words
            if (pendingUnderscore && !out.isEmpty())
                out += QLatin1Char('_');
            pendingUnderscore = false;
            out += c.toLower();
        } else {
            pendingUnderscore = true;
        }
    }
    return out;
}

QString unitSuffix(AxisUnit unit)
{
    switch (unit) {
    case AxisUnit::Bytes: return QStringLiteral("bytes");
    case AxisUnit::BytesPerSec: return QStringLiteral("bytes_per_s");
    case AxisUnit::Microseconds: return QStringLiteral("us");
    case AxisUnit::Tokens: return QStringLiteral("tokens");
    case AxisUnit::TokensPerSec: return QStringLiteral("tokens_per_s");
    case AxisUnit::Ratio: return QStringLiteral("ratio");
    case AxisUnit::Fraction: return QStringLiteral("fraction");
    case AxisUnit::Steps: return QStringLiteral("step");
    case AxisUnit::Loss: return QStringLiteral("loss");
    case AxisUnit::None: break;
    }
    return {};
}

void appendRow(QString& out, const QStringList& fields)
{
    out += fields.join(QLatin1Char(','));
    out += QLatin1String("\r\n");
}

} // namespace

QString csvColumnName(const Axis& axis)
{
    QString name = snake(axis.key.isEmpty() ? axis.label : axis.key);
    const QString suffix = unitSuffix(axis.unit);
    if (!suffix.isEmpty() && !name.endsWith(suffix) && !name.startsWith(suffix))
        name = name.isEmpty() ? suffix : name + QLatin1Char('_') + suffix;
    return name.isEmpty() ? QStringLiteral("value") : name;
}

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvNumber(double value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value); // shortest round-trip form
    return QString::fromLatin1(buf, int(r.ptr - buf));
}

QString toCsv(const PlotSpec& spec)
{
    QString out;
    if (spec.heatmap) {
        const Heatmap& h = *spec.heatmap;
        Axis colour;
        colour.label = h.colourLabel;
        appendRow(out, {QStringLiteral("row"), QStringLiteral("column"), csvField(csvColumnName(spec.y)),
                        csvField(csvColumnName(spec.x)), csvField(csvColumnName(colour))});
        const double dx = h.columns > 1 ? (h.xLast - h.xFirst) / (h.columns - 1) : 0.0;
        const double dy = h.rows > 1 ? (h.yLast - h.yFirst) / (h.rows - 1) : 0.0;
        for (int r = 0; r < h.rows; ++r)
            for (int c = 0; c < h.columns; ++c) {
                const qsizetype i = qsizetype(r) * h.columns + c;
                if (i >= h.values.size())
                    break;
                appendRow(out, {QString::number(r), QString::number(c), csvNumber(h.yFirst + dy * r),
                                csvNumber(h.xFirst + dx * c), csvNumber(h.values[i])});
            }
        if (spec.series.isEmpty())
            return out;
        out += QLatin1String("\r\n"); // series over a heatmap follow as a second table
    }

    bool anyScatter = false;
    for (const Series& s : spec.series)
        anyScatter = anyScatter || !s.pointLabels.isEmpty() || !s.colourValues.isEmpty();
    const bool categories = !spec.categoryLabels.isEmpty();

    QStringList header{QStringLiteral("series"), QStringLiteral("run")};
    if (categories)
        header << QStringLiteral("category");
    if (!categories) // bars: the category names the x position
        header << csvField(csvColumnName(spec.x));
    header << csvField(csvColumnName(spec.y));
    if (anyScatter)
        header << QStringLiteral("label") << QStringLiteral("colour_value");
    appendRow(out, header);

    for (const Series& s : spec.series) {
        const qsizetype n = std::min(s.x.size(), s.y.size());
        for (qsizetype i = 0; i < n; ++i) {
            QStringList row{csvField(s.name), csvField(s.run)};
            if (categories) {
                const double xi = s.x[i];
                const qsizetype c = qsizetype(std::llround(xi));
                row << csvField(c >= 0 && c < spec.categoryLabels.size() && double(c) == xi
                                    ? spec.categoryLabels[c]
                                    : QString());
            }
            if (!categories)
                row << csvNumber(s.x[i]);
            row << csvNumber(s.y[i]);
            if (anyScatter) {
                row << csvField(i < s.pointLabels.size() ? s.pointLabels[i] : QString());
                row << (i < s.colourValues.size() ? csvNumber(s.colourValues[i]) : QString());
            }
            appendRow(out, row);
        }
    }
    return out;
}

} // namespace moewb::plots
