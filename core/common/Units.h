#pragma once
// Units are formatted in one place, shared by the GUI, the CLI and the report:
// bytes as B/KiB/MiB/GiB (powers of 2), bandwidth in GB/s (10^9 bytes/s, as
// nccl-tests), times in µs/ms/s.
#include <QString>
#include <cstdint>
#include <optional>

namespace moewb::units {

// "512 B", "64 KiB", "1.5 MiB", "8 GiB": exact powers print without decimals.
QString formatBytes(double bytes);
// "123.45 GB/s" from bytes per second.
QString formatBandwidth(double bytesPerSecond, int decimals = 2);
// From microseconds: "850 µs", "12.3 ms", "4.20 s".
QString formatDuration(double microseconds);
// "1.2 B" / "340 M" / "12 K" for parameter counts and token counts.
QString formatCount(double count);
// The one way a share, rate, fraction or relative difference is written, in the
// window, the CLI and the report alike: a percentage. By default (kReadable) three
// significant digits, at most two decimals, no trailing zeros: 0.1433 -> "14.3 %",
// 0.0136 -> "1.36 %", 1 -> "100 %", 0.125 -> "12.5 %"; a value that is not zero but
// rounds to it reads "< 0.01 %". decimals >= 0: fixed decimals ("1.23 %");
// decimals < 0: as few as needed up to -decimals.
inline constexpr int kReadable = -1000;
QString formatPercent(double fraction, int decimals = kReadable);
// A ratio of two like quantities (max/mean, P99/median, target/source): "1.6×",
// "2.41×", "1×" (at most `decimals` decimals, no trailing zeros).
QString formatRatio(double ratio, int decimals = 2);
// A measured value beside the limit it is compared with: as formatPercent /
// formatRatio, with more digits when the readable text would equal the limit's while
// the values differ ("10.0001 % > 10 %", never "10 % > 10 %").
QString formatPercentAgainst(double fraction, double limit);
QString formatRatioAgainst(double ratio, double limit);
// A whole number with thousands grouped: 99808 -> "99,808", -1234567 -> "-1,234,567".
QString formatInteger(double value);
// Parses "8", "64K", "1M", "2G", "1.5KiB", "4096B" (K/M/G are powers of 2, as nccl-tests).
std::optional<std::uint64_t> parseBytes(const QString& text);

} // namespace moewb::units
