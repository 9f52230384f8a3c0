#pragma once
// nccl-tests -J JSON output (nccl-tests 2.17+): one CommSample per result, or one
// per iteration when the result carries out_of_place_per_iter.times_us (-I).
#include "importers/ImportSupport.h"

namespace moewb::importers {

class NcclTestsJsonImporter {
public:
    static constexpr const char* kFormat = "nccl-tests-json";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
