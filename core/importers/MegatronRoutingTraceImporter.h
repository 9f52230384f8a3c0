#pragma once
// Megatron-Core router traces (docs/formats.md, "megatron-routing-trace"), as
// --moe-routing-trace-path DIR writes DIR/router_trace_rank{r}.jsonl
// (megatron/core/transformer/moe/router_trace.py, core_v0.19+): one object per router
// call, {"step": S, "stage": "pre_dispatch", "block": "decoder"|"mtp", ["mtp_idx": M,]
// "layer": L, "rank": R, "num_tokens": T, "topk": K, "top_indices": [[e, ...], ...]}.
// The top-k assignments each expert index received are counted per (step, block,
// mtp_idx, layer); records with the same key (micro-batches, recomputation) are summed.
// A pure per-file parser: the per-rank files are merged elsewhere (core/runimport).
#include "importers/ImportSupport.h"

namespace moewb::importers {

class MegatronRoutingTraceImporter {
public:
    static constexpr const char* kFormat = "megatron-routing-trace";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
