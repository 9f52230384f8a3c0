#pragma once
// A rank's step timeline packed into step_timeline's blob (schema v8, docs/store.md
// "Step timeline"): zstd of "MWT1", u32 label count, each label (u32 length, UTF-8),
// u32 interval count, each interval (i64 start, i64 end, u8 class, u8 call class,
// i32 name, i32 group, i64 bytes, i64 seq), little-endian. The decoder takes the blob
// as hostile input: every count and length is checked against the bounds of
// StepTimelineRows.h and the bytes left before anything is allocated.
#include "store/StepTimelineRows.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace moewb::store {

// The labels and intervals of `t` (its step, rank, span and dropped count are columns).
QByteArray encodeTimeline(const RankStepTimeline& t);
// Fills t.labels and t.intervals; false with *why set when the blob is not a valid one.
bool decodeTimeline(const QByteArray& blob, RankStepTimeline& t, QString* why);

} // namespace moewb::store
