// The axis tickers (PlotSetup.h makeTicker): bytes on log2, GB/s, µs or ms, counts with
// K/M/B, and the axis title with the unit the ticker shows.
#include "PlotSetup.h"

#include "plotspec/StagePlots.h"

#include <qcustomplot.h>

namespace moewb::plots {

namespace {

// Powers of two labelled B/KiB/MiB/GiB (the axis is logarithmic, base 2).
class BytesTicker : public QCPAxisTickerLog {
public:
    BytesTicker() { setLogBase(2.0); setSubTickCount(0); setTickCount(7); }

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return formatBytes(tick); }
};

// Linear ticks, labels divided by a power of ten (GB/s, ms) or in percent.
class ScaledTicker : public QCPAxisTicker {
public:
    explicit ScaledTicker(double divisor) : m_divisor(divisor) {}

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override
    {
        return QCPAxisTicker::getTickLabel(tick / m_divisor, locale, formatChar, precision);
    }
    double m_divisor;
};

// Powers of ten labelled in the axis's unit ("10 µs", "1 ms", "12 GB/s").
class LogUnitTicker : public QCPAxisTickerLog {
public:
    explicit LogUnitTicker(const Axis& axis) : m_axis(axis) { setLogBase(10.0); setSubTickCount(8); }

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return formatValue(tick, m_axis); }
    Axis m_axis;
};

// Counts with K/M/B suffixes (tokens, steps).
class CountTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return formatCount(tick); }
};

double microsecondDivisor(double rangeUpper)
{
    if (rangeUpper >= 1e6)
        return 1e6;
    if (rangeUpper >= 1e3)
        return 1e3;
    return 1.0;
}

} // namespace

QSharedPointer<QCPAxisTicker> makeTicker(const Axis& axis, double rangeUpper)
{
    if (axis.scale == AxisScale::Log2Bytes)
        return QSharedPointer<QCPAxisTicker>(new BytesTicker);
    if (axis.scale == AxisScale::Log10) {
        if (axis.unit != AxisUnit::None && axis.unit != AxisUnit::Loss && axis.unit != AxisUnit::Ratio)
            return QSharedPointer<QCPAxisTicker>(new LogUnitTicker(axis));
        auto t = QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
        t->setLogBase(10);
        return t;
    }
    switch (axis.unit) {
    case AxisUnit::BytesPerSec: return QSharedPointer<QCPAxisTicker>(new ScaledTicker(1e9));
    case AxisUnit::Microseconds:
        return QSharedPointer<QCPAxisTicker>(new ScaledTicker(microsecondDivisor(rangeUpper)));
    case AxisUnit::Fraction: return QSharedPointer<QCPAxisTicker>(new ScaledTicker(0.01));
    case AxisUnit::Tokens:
    case AxisUnit::TokensPerSec:
    case AxisUnit::Steps: return QSharedPointer<QCPAxisTicker>(new CountTicker);
    default: break;
    }
    return QSharedPointer<QCPAxisTicker>(new QCPAxisTicker);
}

QString axisTitleFor(const Axis& axis, double rangeUpper)
{
    if (axis.unit == AxisUnit::Microseconds && axis.scale == AxisScale::Linear) {
        const double d = microsecondDivisor(rangeUpper);
        const QString unit = d >= 1e6 ? QStringLiteral("s") : d >= 1e3 ? QStringLiteral("ms") : QStringLiteral("µs");
        return axis.label.isEmpty() ? unit : QStringLiteral("%1 (%2)").arg(axis.label, unit);
    }
    return axisTitle(axis);
}

} // namespace moewb::plots
