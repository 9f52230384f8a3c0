#pragma once
// Whether a file's first bytes look like a PyTorch profiler trace (either format,
// plain or gzip): what picks traces out of an import's files, locally (the importers'
// format detection) and on a cluster's node (moe-digest --list). By content only:
// traces come as .json, .json.gz, .pt.trace.json, ...
#include <string>
#include <string_view>

namespace moewb::anatomy::digest {

// The bytes worth reading for the decision.
inline constexpr size_t kTraceHeadBytes = 64 * 1024;

// gzip magic followed by a trace, '{' with "traceEvents" or "schemaVersion" among the
// first keys, '[' then {"name": ..., "ph": ...}.
bool looksLikeTrace(std::string_view head);

// The same for a file: its first kTraceHeadBytes read (false when unreadable).
bool fileLooksLikeTrace(const std::string& path);

} // namespace moewb::anatomy::digest
