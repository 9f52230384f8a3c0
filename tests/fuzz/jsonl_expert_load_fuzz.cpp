// libFuzzer target for JsonlExpertLoadImporter (tests/fuzz/run-fuzzers.sh), and the
// streamed import's Scan and Stream passes checked against it (ExpertLoadPasses.h).
#include "ExpertLoadPasses.h"
#include "FuzzImportedData.h"
#include "importers/JsonlExpertLoadImporter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes = moewb::fuzz::bytesOf(data, size);
    const auto r = moewb::importers::JsonlExpertLoadImporter::parse(bytes, QStringLiteral("fuzz-input"));
    moewb::fuzz::check(r);
    moewb::fuzz::checkExpertLoadPasses(
        bytes, {moewb::importers::JsonlExpertLoadImporter::kFormat, "step", "tokens", false}, r);
    return 0;
}
