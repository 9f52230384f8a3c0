// libFuzzer target for format detection followed by the chosen importer (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/Importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes = moewb::fuzz::bytesOf(data, size);
    moewb::fuzz::check(moewb::importers::importBytes(bytes, QStringLiteral("fuzz-input")));
    return 0;
}
