#pragma once
// docs/formats.md, "moewb collector sidecar (moewb-collect-jsonl)": the per-rank JSONL
// that remote/collect (moewb_collect, format "moewb-collect/1", docs/collect.md) writes
// as out_dir/moewb_collect/rank{N}.jsonl — a header line, then per written step one
// "drops" line per MoE layer and one "time" line. A pure per-file parser: one file
// gives that rank's per-step figures (ImportedData::collectorSteps) and its own drop
// metrics; the ranks of one training are merged in core/runimport (CollectMerge).
#include "importers/ImportSupport.h"

namespace moewb::importers {

class MoewbCollectImporter {
public:
    static constexpr const char* kFormat = "moewb-collect-jsonl";
    static constexpr const char* kHeaderFormat = "moewb-collect/1";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

// A step's time line may exceed its step time by this much (clock error between the
// timers of the blocks and the step): a2a_s + compute_s <= step_s × (1 + rel) + abs.
inline constexpr double kCollectClockSlackRel = 0.01;
inline constexpr double kCollectClockSlackAbsS = 0.001;
// The largest step time (and block time) read: one day.
inline constexpr double kCollectMaxSeconds = 86400.0;
// The largest token count of one (step, layer) line of one rank: 2^40.
inline constexpr quint64 kCollectMaxTokens = quint64(1) << 40;

} // namespace moewb::importers
