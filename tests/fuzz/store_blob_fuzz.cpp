// libFuzzer target for the store's blob decoders (tests/fuzz/run-fuzzers.sh): an
// expert-load chunk, a per-step summary, a chunk's totals and a version-4 raw blob,
// each with the shape its row would claim. Whatever the bytes, a decoder returns a
// value that fits the shape asked for, or nothing with a reason; it never allocates
// for a claim it has not checked. store_file_fuzz.cpp feeds the same through real
// project files; this one is the fast path.
#include "StoreFuzzInput.h"
#include "store/ExpertLoadCodec.h"

#include <cstdlib>

using namespace moewb;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::StoreInput in(data, size);
    const std::uint8_t which = in.byte() % 4;
    const std::uint8_t flags = in.byte();
    const int rows = int(in.value().value_or(1 + in.byte()));
    const int experts = int(in.value().value_or(1 + in.byte()));
    const int codec = flags & 4 ? int(in.byte()) : 1;
    const QByteArray blob = fuzz::wrappedBlob(in.rest(), flags, rows, which == 1 ? (flags >> 3) & 3 : experts);
    QString why;
    switch (which) {
    case 0:
        if (const auto c = store::decodeExpertLoadChunk(codec, blob, rows, experts, &why)) {
            if (rows < 1 || rows > store::kChunkSteps || experts < 1 || experts > store::kMaxChunkExperts ||
                c->steps.size() != rows || c->counts.size() != qsizetype(rows) * experts || c->experts != experts)
                abort();
            for (qsizetype i = 1; i < c->steps.size(); ++i)
                if (c->steps[i] <= c->steps[i - 1])
                    abort();
        } else if (why.isEmpty()) {
            abort();
        }
        break;
    case 1:
        if (const auto s = store::decodeLoadSummary(codec, blob, rows, experts, &why)) {
            if (s->size() != rows || rows > store::kChunkSteps)
                abort();
            for (const store::LoadSummaryValues& v : *s)
                if (v.max > v.sum || v.argmax < 0 || v.argmax >= experts ||
                    v.sum > std::uint64_t(UINT32_MAX) * std::uint64_t(experts) ||
                    (v.busiestRankTokens && *v.busiestRankTokens > v.sum) || (v.droppedTokens && *v.droppedTokens < 0))
                    abort();
        } else if (why.isEmpty()) {
            abort();
        }
        break;
    case 2:
        if (const auto t = store::decodeExpertTotals(codec, blob, rows, experts, &why)) {
            if (t->steps.size() != rows || t->totals.size() != std::size_t(experts) || rows > store::kChunkSteps)
                abort();
            for (std::uint64_t v : t->totals)
                if (v > std::uint64_t(UINT32_MAX) * std::uint64_t(rows))
                    abort();
        } else if (why.isEmpty()) {
            abort();
        }
        break;
    default:
        if (const auto raw = store::decodeExpertLoad(codec & 1 ? 0 : codec, in.rest() + blob))
            if (raw->size() > store::kMaxChunkExperts)
                abort();
        break;
    }
    return 0;
}
