#pragma once
// Bounds past which a communication figure is absurd rather than measured.
#include <QtGlobal>

namespace moewb::importers {

inline constexpr qint64 kMaxBytesPerRank = 1LL << 44;  // 16 TiB sent by one rank in one call
inline constexpr double kMaxTimeUs = 1e10;             // 2.8 hours for one collective call
inline constexpr qint64 kMaxRanks = 1LL << 20;
inline constexpr qint64 kMaxIterations = 10000000;
inline constexpr qint64 kMaxRepeats = 100000;

// A CSV line with more fields, or a field longer, is refused before it is held twice
// (docs/formats.md, "Memory"): a metric or expert per column stays far below both.
inline constexpr qsizetype kMaxCsvFields = 100000;
inline constexpr qsizetype kMaxCsvFieldBytes = 1 << 20;

} // namespace moewb::importers
