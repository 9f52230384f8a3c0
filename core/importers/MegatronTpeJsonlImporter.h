#pragma once
// docs/formats.md, "megatron-tpe-jsonl": one JSON object per line, as Megatron-LM's
// --save-tokens-per-expert-interval writes {save}/tokens_per_expert/rank{N}.jsonl
// (megatron/training/activation_logging.py, ActivationLogger.save_tpe, core_v0.18+):
// {"iter": N, "block": "decoder"|"mtp", ["mtp_idx": M,] "layer": L, "tpe": [[...], ...]}.
// A pure per-file parser: the per-rank files are merged elsewhere (core/runimport).
#include "importers/ImportSupport.h"

class QIODevice;

namespace moewb::importers {

class MegatronTpeJsonlImporter {
public:
    static constexpr const char* kFormat = "megatron-tpe-jsonl";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    // The same, the file read in blocks (never held whole): `size` only sizes the result.
    static ImportResult parseDevice(QIODevice& device, qint64 size, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
