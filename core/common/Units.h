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
// A share or rate as a percentage: 0.0123 -> "1.23 %", 1 -> "100.00 %" (fixed
// decimals, the same in tables, warnings and the report). decimals < 0: as few as
// needed up to -decimals ("100 %", "12.5 %").
QString formatPercent(double fraction, int decimals = 2);
// Parses "8", "64K", "1M", "2G", "1.5KiB", "4096B" (K/M/G are powers of 2, as nccl-tests).
std::optional<std::uint64_t> parseBytes(const QString& text);

} // namespace moewb::units
