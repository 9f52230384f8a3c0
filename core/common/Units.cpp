#include "Units.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace moewb::units {

namespace {
QString trimmedNumber(double v, int decimals) {
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}
} // namespace

QString formatBytes(double bytes) {
    static const char* const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    double v = bytes;
    while (std::fabs(v) >= 1024.0 && i < 4) {
        v /= 1024.0;
        ++i;
    }
    return trimmedNumber(v, i == 0 ? 0 : 2) + QLatin1Char(' ') + QLatin1String(names[i]);
}

QString formatBandwidth(double bytesPerSecond, int decimals) {
    return QString::number(bytesPerSecond / 1e9, 'f', decimals) + QStringLiteral(" GB/s");
}

QString formatDuration(double us) {
    const double a = std::fabs(us);
    if (a < 1000.0)
        return trimmedNumber(us, a < 10 ? 2 : 1) + QStringLiteral(" µs");
    if (a < 1e6)
        return trimmedNumber(us / 1e3, 2) + QStringLiteral(" ms");
    return QString::number(us / 1e6, 'f', 2) + QStringLiteral(" s");
}

QString formatPercent(double fraction, int decimals) {
    if (!std::isfinite(fraction))
        return QStringLiteral("—");
    const double p = fraction * 100.0;
    if (decimals == kReadable) {
        const double a = std::fabs(p);
        if (a > 0 && a < 0.005)
            return (p < 0 ? QStringLiteral("> -0.01 %") : QStringLiteral("< 0.01 %"));
        // Three significant digits, at most two decimals: 14.3, 1.36, 0.32, 100.
        const int places = a >= 100 ? 0 : a >= 10 ? 1 : 2;
        QString s = trimmedNumber(p, places);
        if (s == QLatin1String("-0"))
            s = QStringLiteral("0");
        return s + QStringLiteral(" %");
    }
    return (decimals < 0 ? trimmedNumber(p, -decimals) : QString::number(p, 'f', decimals)) + QStringLiteral(" %");
}

QString formatRatio(double ratio, int decimals) {
    if (!std::isfinite(ratio))
        return QStringLiteral("—");
    return trimmedNumber(ratio, std::max(0, decimals)) + QStringLiteral("×");
}

QString formatPercentAgainst(double fraction, double limit) {
    const QString text = formatPercent(fraction);
    if (fraction == limit || text != formatPercent(limit, -2))
        return text;
    return QString::number(fraction * 100.0, 'g', 8) + QStringLiteral(" %");
}

QString formatRatioAgainst(double ratio, double limit) {
    const QString text = formatRatio(ratio);
    if (ratio == limit || text != formatRatio(limit, 6))
        return text;
    return QString::number(ratio, 'g', 8) + QStringLiteral("×");
}

QString formatInteger(double value) {
    if (!std::isfinite(value))
        return QStringLiteral("—");
    const double r = std::round(value);
    if (std::fabs(r) >= 1e18)
        return QString::number(r, 'g', 6);
    const long long n = static_cast<long long>(r);
    QString digits = QString::number(n < 0 ? -n : n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return n < 0 ? QLatin1Char('-') + digits : digits;
}

QString formatCount(double count) {
    const double a = std::fabs(count);
    if (a >= 1e12)
        return trimmedNumber(count / 1e12, 2) + QStringLiteral(" T");
    if (a >= 1e9)
        return trimmedNumber(count / 1e9, 2) + QStringLiteral(" B");
    if (a >= 1e6)
        return trimmedNumber(count / 1e6, 2) + QStringLiteral(" M");
    if (a >= 1e3)
        return trimmedNumber(count / 1e3, 2) + QStringLiteral(" K");
    return trimmedNumber(count, 2);
}

std::optional<std::uint64_t> parseBytes(const QString& text) {
    static const QRegularExpression re(QStringLiteral("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([KMGT]?)(?:i?B)?\\s*$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const double base = m.captured(1).toDouble();
    const QString unit = m.captured(2).toUpper();
    double mult = 1;
    if (unit == QLatin1String("K"))
        mult = 1024.0;
    else if (unit == QLatin1String("M"))
        mult = 1024.0 * 1024.0;
    else if (unit == QLatin1String("G"))
        mult = 1024.0 * 1024.0 * 1024.0;
    else if (unit == QLatin1String("T"))
        mult = 1024.0 * 1024.0 * 1024.0 * 1024.0;
    const double v = base * mult;
    if (!std::isfinite(v) || v < 0 || v > 1.8e19 || v != std::floor(v))
        return std::nullopt;
    return static_cast<std::uint64_t>(v);
}

} // namespace moewb::units
