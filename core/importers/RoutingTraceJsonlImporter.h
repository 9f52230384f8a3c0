#pragma once
// Routing traces (docs/formats.md, "routing-trace-jsonl"): one JSON object per line,
// {"iter": N, "layer": L, "num_experts": E, "topk": [[e, ...], ...], "dropped": [[0|1, ...], ...]}:
// every token's chosen experts. Counted into expert load per (iter, layer); lines for
// the same (iter, layer) (micro-batches, ranks) are summed. "dropped" adds the
// dropped_tokens and drop_rate metrics per iteration.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class RoutingTraceJsonlImporter {
public:
    static constexpr const char* kFormat = "routing-trace-jsonl";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
