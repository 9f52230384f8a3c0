// libFuzzer target for MoewbCollectImporter (tests/fuzz/run-fuzzers.sh): beyond the shared
// checks, an accepted sidecar's per-step figures keep the format's invariants, its steps
// strictly increasing (the merge of ranks walks them side by side) and each within the
// header's MoE layers — also after a resumed run's rows replaced the earlier ones.
#include "FuzzImportedData.h"
#include "importers/MoewbCollectImporter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto r = moewb::importers::MoewbCollectImporter::parse(moewb::fuzz::bytesOf(data, size),
                                                                 QStringLiteral("fuzz-input"));
    moewb::fuzz::check(r);
    if (!r.hasValue())
        return 0;
    const qint64 moeLayers = r.value().environment.value(QLatin1String("moe_layers")).toInteger();
    qint64 last = -1;
    for (const auto& s : r.value().collectorSteps) {
        if (s.droppedTokens > s.tokens || s.droppedAssignments > s.assignments || s.step <= last ||
            s.layers > moeLayers)
            abort();
        last = s.step;
        if (s.timed && (!std::isfinite(s.stepS) || s.stepS < 0 || s.a2aS < -1 || s.computeS < -1))
            abort();
    }
    for (const auto& m : r.value().stepMetrics)
        if ((m.name.endsWith(QLatin1String("rate")) || m.name == QLatin1String("busiest_device_share")) &&
            (m.value < 0 || m.value > 1))
            abort();
    return 0;
}
