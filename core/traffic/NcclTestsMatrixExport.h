#pragma once
// A dispatch matrix written for nccl-tests' alltoallv_perf (nccl-tests >= 2.19,
// NCCL_TESTS_ALLTOALLV_MATRIX_FILE; src/alltoallv.cu, docs/traffic.md): numbers only (no
// comment: alltoallv_perf refuses any text that is not a number), one row per source
// rank, whole bytes. alltoallv_perf rounds every value down to 16 bytes, so each value
// written is a multiple of 16 already: the file is sent exactly as written. The matrix
// is scaled so that its mean row sum — the bytes per rank, the probe's and alltoall_perf's
// `size` — is a chosen size exactly (the 16-byte units apportioned by largest remainder),
// so the routed run and a uniform alltoall_perf run share their size and `moewb traffic
// compare` puts them side by side.
#include "common/Expected.h"
#include "traffic/DispatchTraffic.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace moewb::traffic {

struct NcclTestsMatrix {
    // ranks x ranks, row = source; each a whole multiple of 16 bytes (exact in a double:
    // far below 2^53), so its sums and busiest rank are TrafficMatrix's, exactly.
    TrafficMatrix matrix;
    quint64 bytesPerRank = 0; // the mean row sum, exactly
    int ranks() const { return matrix.ranks; }
    quint64 at(int s, int d) const { return quint64(matrix.at(s, d)); }
    // The largest of every rank's sent and received bytes: alltoallv_perf's least -e
    // (AlltoAllvGetBuffSize) and the `size` it prints on every row.
    quint64 busiestBytes() const { return quint64(matrix.busiestRankBytes()); }
    int busiestRank() const { return matrix.busiestRank(); }
    // The file: "v v v\n" per row, single spaces.
    QByteArray text() const;
};

// The alignment alltoallv_perf applies to each value (alltoallv.cu line 308).
constexpr quint64 kNcclTestsAlignment = 16;

// `bytesPerRank`: a positive multiple of 16 (else the error says so). Errors: a matrix
// that moves no bytes.
Expected<NcclTestsMatrix, QString> ncclTestsMatrix(const TrafficMatrix& matrix, quint64 bytesPerRank);

// The routing's own bytes per rank (the matrix's mean row sum: one micro-batch) rounded to
// the nearest multiple of 16 x ranks, at least 16 x ranks: alltoall_perf prints such a
// size unchanged (it rounds each peer's share down to 16 bytes), so its uniform run and
// the routed one share their size.
quint64 defaultNcclTestsBytesPerRank(const TrafficMatrix& matrix);

// The command lines that measure the file (Open MPI's mpirun, one GPU per rank):
// alltoallv_perf with the matrix and its per-rank summary, -b = -e = the busiest rank's
// bytes; and alltoall_perf at the same bytes per rank, the uniform baseline. `matrixPath`
// as every rank will see it.
QString alltoallvCommand(const NcclTestsMatrix& m, const QString& matrixPath);
QString alltoallCommand(const NcclTestsMatrix& m);

} // namespace moewb::traffic
