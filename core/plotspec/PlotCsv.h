#pragma once
// A plot's data as CSV (RFC 4180: comma separated, CRLF line ends, fields with
// comma, quote or line break quoted, quotes doubled). Long format, one row per
// point, the header naming the units:
//   series,run,size_bytes,bandwidth_bytes_per_s
// Bars have a category column instead of x; scatters add label and colour value columns;
// heatmaps are row,column,<row axis>,<column axis>,value. Numbers are written
// with full precision (round-trip exact).
#include "plotspec/PlotSpec.h"

#include <QString>

namespace moewb::plots {

QString toCsv(const PlotSpec& spec);

// The column name of an axis: its label in snake case plus the unit
// ("Message size" + Bytes -> "message_size_bytes").
QString csvColumnName(const Axis& axis);
// One RFC 4180 field (quoted when needed).
QString csvField(const QString& text);
// Round-trip exact text of a number ("1e+30", "0.1", "nan", "inf").
QString csvNumber(double value);

} // namespace moewb::plots
