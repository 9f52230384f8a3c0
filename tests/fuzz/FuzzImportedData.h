#pragma once
// What every importer fuzz target checks beyond "no crash, no sanitizer report": an
// accepted input yields only finite, in-range data, and a rejected one names the file.
#include "importers/ImportSupport.h"

#include <QJsonArray>

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

// A console log read both ways (DamagedLines.h): what --strict accepts, the default reads
// the same with no damaged line; what the default refuses, --strict refuses too; the
// damaged lines listed are bounded and counted.
inline void checkStrictAndLenient(const importers::ImportResult& lenient, const importers::ImportResult& strict) {
    check(lenient);
    check(strict);
    if (strict.hasValue()) {
        if (!lenient.hasValue() || lenient->stepMetrics.size() != strict->stepMetrics.size() ||
            lenient->environment.contains(QLatin1String("damaged_lines")))
            abort();
        for (qsizetype i = 0; i < strict->stepMetrics.size(); ++i)
            if (lenient->stepMetrics[i].step != strict->stepMetrics[i].step ||
                lenient->stepMetrics[i].value != strict->stepMetrics[i].value)
                abort();
    }
    if (!lenient.hasValue() && strict.hasValue())
        abort();
    if (lenient.hasValue()) {
        const qint64 listed = lenient->environment.value(QLatin1String("damaged_lines")).toArray().size();
        const qint64 total = lenient->environment.value(QLatin1String("damaged_lines_total")).toInteger();
        if (listed > 50 || total < listed)
            abort();
    }
}

} // namespace moewb::fuzz

// One target per importer: MOEWB_IMPORTER_FUZZ_TARGET(ProbeJsonImporter)
#define MOEWB_IMPORTER_FUZZ_TARGET(Importer)                                                                 \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                                \
        moewb::fuzz::check(moewb::importers::Importer::parse(moewb::fuzz::bytesOf(data, size),                \
                                                             QStringLiteral("fuzz-input")));                  \
        return 0;                                                                                            \
    }

// A console-log importer with parseStrict: both readings checked against each other.
#define MOEWB_CONSOLE_LOG_FUZZ_TARGET(Importer)                                                              \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                                \
        const QByteArray bytes = moewb::fuzz::bytesOf(data, size);                                           \
        moewb::fuzz::checkStrictAndLenient(moewb::importers::Importer::parse(bytes, QStringLiteral("fuzz-input")), \
                                           moewb::importers::Importer::parseStrict(bytes, QStringLiteral("fuzz-input"))); \
        return 0;                                                                                            \
    }
