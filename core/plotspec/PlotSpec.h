#pragma once
// A plot as plain data: what the workbench window draws with QCustomPlot
// (app/plots/PlotView) and what the PDF report draws as vectors (app/plots
// renderPlot). One spec, two renderers, so the report shows exactly what the
// window shows. QtCore only: specs are built and tested without a display.
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace moewb::plots {

// How an axis maps and labels its values.
enum class AxisScale {
    Linear,
    Log2Bytes, // message sizes: log2 ticks labelled B/KiB/MiB/GiB
    Log10,
};

// The unit of an axis's values; renderers label ticks and tooltips with it.
enum class AxisUnit {
    None,
    Bytes,        // values in bytes
    BytesPerSec,  // values in bytes/s; shown as GB/s (10^9, as nccl-tests)
    Microseconds, // values in µs; shown as µs or ms
    Steps,
    Tokens,       // shown with K/M/B suffixes
    Ratio,        // "× mean", plain numbers
    Fraction,     // values in [0,1]; shown as %
    Loss,
    TokensPerSec, // tokens/s; shown with K/M/B suffixes
};

struct Axis {
    QString label; // without the unit; renderers append it ("Bandwidth (GB/s)")
    AxisScale scale = AxisScale::Linear;
    AxisUnit unit = AxisUnit::None;
    QString key;   // the English label: CSV column names stay the same in every language
};

enum class SeriesStyle {
    Line,       // solid
    DashedLine, // same colour as its partner (P99 beside the median)
    FaintLine,  // raw curve under a smoothed one
    Scatter,    // one marker per point, labelled by pointLabels
    Bars,       // one bar per x (categories: x = 0,1,2… with categoryLabels)
    StackedBars, // a segment of a stacked bar per x (categories as Bars): each StackedBars
                 // series sits on the ones before it in the spec (plotspec/Stacking.h); in
                 // the legend, bottom segment first
};

struct Series {
    QString name;          // legend entry
    QString run;           // the run the points came from (hover); may be empty
    QVector<double> x;
    QVector<double> y;
    SeriesStyle style = SeriesStyle::Line;
    int colour = 0;        // index into the Okabe–Ito palette (plots::paletteColour)
    QStringList pointLabels; // Scatter: one label per point (run names); else empty
    // Scatter coloured by a value (e.g. capacity factor): one value per point.
    QVector<double> colourValues;
    QString colourLabel;     // what colourValues are ("capacity factor"): the colour scale's title
};

// A matrix drawn as a colour map (layer × expert, expert × step).
struct Heatmap {
    int columns = 0;         // x cells
    int rows = 0;            // y cells
    QVector<double> values;  // row-major: values[row * columns + column]
    double xFirst = 0.0;     // centre of the first column in axis units
    double xLast = 0.0;      // centre of the last column
    double yFirst = 0.0;
    double yLast = 0.0;
    QString colourLabel;     // "tokens" or "× mean"
};

struct PlotSpec {
    QString id;    // stable, file-name safe: "stage1-bandwidth"
    QString title; // "Effective bandwidth vs message size"
    Axis x;
    Axis y;
    QList<Series> series;
    QStringList categoryLabels;     // Bars: the x labels
    std::optional<Heatmap> heatmap; // when set, series are drawn over it (may be empty)
    QString note;                   // one line under the plot ("smoothing 0.6, debiased EMA")
    // A zoomed panel: only the last tailFraction (0 < f < 1) of the data's x span is
    // shown, y fitted to the curves there (plotspec/TailView.h); 0 shows everything.
    // Both renderers open the plot at that view.
    double tailFraction = 0.0;
};

} // namespace moewb::plots
