// libFuzzer target for the alltoallv traffic-matrix reader (importers/NcclTestsMatrixFile.h,
// alltoallv_perf's rules; tests/fuzz/run-fuzzers.sh): no crash, and an accepted file is
// square, its values multiples of 16 summed per rank without overflow of the reader's own.
#include "importers/NcclTestsMatrixFile.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // The first byte picks a scale (alltoallv_perf's NCCL_TESTS_ALLTOALLV_MATRIX_SCALE).
    const double scales[] = {1.0, 0.5, 3.0, 0.0, 1e-3, 1e6};
    const double scale = size > 0 ? scales[data[0] % 6] : 1.0;
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size)); // a copy: NUL-terminated
    const auto m = moewb::importers::nccltests::readTrafficMatrix(bytes, QStringLiteral("fuzz-input"), scale);
    if (!m) {
        if (m.error().file != QLatin1String("fuzz-input") || m.error().message.isEmpty() || m.error().line < 0)
            abort();
        return 0;
    }
    if (m->dim <= 0 || m->bytes.size() != size_t(m->dim) * size_t(m->dim))
        abort();
    for (const quint64 v : m->bytes)
        if (v % 16 != 0)
            abort();
    if (moewb::importers::nccltests::matrixTooSmall(*m, m->dim + 1).isEmpty())
        abort();
    return 0;
}
