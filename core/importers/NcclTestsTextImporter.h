#pragma once
// nccl-tests text output of alltoall_perf / alltoallv_perf (docs/formats.md): the
// header is read, not assumed (old `error` vs new `#wrong`, with or without `root`,
// -I per-iteration columns, exponent-form numbers); one CommSample per data row.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class NcclTestsTextImporter {
public:
    static constexpr const char* kFormat = "nccl-tests";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
