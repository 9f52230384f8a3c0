#pragma once
// What every importer fuzz target checks beyond "no crash, no sanitizer report": an
// accepted input yields only finite, in-range data, and a rejected one names the file.
#include "importers/ImportSupport.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace moewb::fuzz {

inline QByteArray bytesOf(const uint8_t* data, size_t size) {
    // A copy (not fromRawData): parsers may rely on QByteArray's terminating NUL.
    return QByteArray(reinterpret_cast<const char*>(data), qsizetype(size));
}

inline void check(const importers::ImportResult& r) {
    if (!r.hasValue()) {
        if (r.error().file != QLatin1String("fuzz-input") || r.error().message.isEmpty() || r.error().line < 0)
            abort();
        return;
    }
    const importers::ImportedData& d = r.value();
    if (d.rows <= 0 || d.format.isEmpty())
        abort();
    for (const auto& s : d.commSamples)
        if (!std::isfinite(s.timeUs) || s.timeUs < 0 || s.repeat < 0 || s.iteration < 0)
            abort();
    for (const auto& m : d.stepMetrics)
        if (!std::isfinite(m.value) || m.name.isEmpty() || m.step < 0)
            abort();
    for (const auto& b : d.expertLoad)
        if (b.tokensPerExpert.isEmpty() || b.step < 0 || b.layer < 0)
            abort();
}

} // namespace moewb::fuzz

// One target per importer: MOEWB_IMPORTER_FUZZ_TARGET(ProbeJsonImporter)
#define MOEWB_IMPORTER_FUZZ_TARGET(Importer)                                                                 \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                                \
        moewb::fuzz::check(moewb::importers::Importer::parse(moewb::fuzz::bytesOf(data, size),                \
                                                             QStringLiteral("fuzz-input")));                  \
        return 0;                                                                                            \
    }
