// libFuzzer target for MegatronTpeJsonlImporter (tests/fuzz/run-fuzzers.sh): beyond the
// shared checks, an accepted file's blocks are in iteration order with no (iter, block,
// mtp_idx, layer) twice — what is left once a resumed run's lines replaced the earlier ones;
// and the streamed import's Scan and Stream passes agree with it (ExpertLoadPasses.h).
#include "ExpertLoadPasses.h"
#include "FuzzImportedData.h"
#include "importers/ExpertLoadJsonl.h"
#include "importers/MegatronTpeJsonlImporter.h"

#include <set>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes = moewb::fuzz::bytesOf(data, size);
    const auto r = moewb::importers::MegatronTpeJsonlImporter::parse(bytes, QStringLiteral("fuzz-input"));
    moewb::fuzz::check(r);
    moewb::fuzz::checkExpertLoadPasses(
        bytes, {moewb::importers::MegatronTpeJsonlImporter::kFormat, "iter", "tpe", true, true}, r);
    if (!r.hasValue())
        return 0;
    std::set<qint64> keys;
    qint64 last = -1;
    for (const auto& b : r.value().expertLoad) {
        if (b.step < last || !keys.insert(moewb::importers::expertLoadBlockKey(b.step, b.mtpIndex, b.layer)).second)
            abort();
        last = b.step;
    }
    return 0;
}
