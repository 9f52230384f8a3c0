#pragma once
// nccl-tests' alltoallv traffic-matrix file (NCCL_TESTS_ALLTOALLV_MATRIX_FILE), read by
// alltoallv_perf's own rules: nccl-tests 2.19.6 (commit a0b82b2) src/alltoallv.cu,
// AlltoAllvReadTrafficMatrix (lines 173-328), AlltoAllvParseEnv for the scale (lines
// 163-170), AlltoAllvInit for a matrix smaller than the ranks (lines 344-349) and
// AlltoAllvPrintRankBandwidths for the per-rank bytes (lines 473-483):
//   - the file holds numbers only (strtod in the C locale), separated by any C-locale
//     whitespace; a '\n' ends a row when the row has a value (blank lines are nothing);
//     a value must be followed by whitespace or the end, be >= 0, not overflow (ERANGE)
//     and value x scale must fit a size_t; a NUL byte ends the text (it is a C string);
//   - every row has as many values as the first, and rows == columns;
//   - each value becomes (size_t)(value x scale) rounded down to a multiple of 16 bytes;
//   - with N ranks the first N rows and columns are used; N > dim is refused.
// The messages are the ones alltoallv_perf prints, word for word, with the file name as
// given. One deliberate difference: "nan" (which strtod accepts and alltoallv_perf then
// converts with undefined behaviour) is refused here.
#include "common/Expected.h"
#include "importers/ImportError.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace moewb::importers::nccltests {

struct TrafficMatrixFile {
    QString file;   // as given
    int dim = 0;    // rows == columns
    double scale = 1.0;
    std::vector<quint64> bytes; // dim x dim, row = source: what alltoallv_perf sends
    quint64 at(int source, int destination) const {
        return bytes[std::size_t(source) * std::size_t(dim) + std::size_t(destination)];
    }
    // Over the first `ranks` rows and columns, as alltoallv_perf sums them for its
    // summary (send_bytes = the row, recv_bytes = the column).
    quint64 sent(int rank, int ranks) const;
    quint64 received(int rank, int ranks) const;
};

// ImportError.line: the file's line (1-based) where alltoallv_perf stops, 0 for the
// whole file; ImportError.message: what alltoallv_perf prints there.
Expected<TrafficMatrixFile, ImportError> readTrafficMatrix(const QByteArray& bytes, const QString& file,
                                                           double scale = 1.0);

// NCCL_TESTS_ALLTOALLV_MATRIX_SCALE as alltoallv_perf takes it: the whole text a number
// (strtod, C locale, no ERANGE); a negative one becomes 0. nullopt where alltoallv_perf
// would ignore the text and keep 1.0.
std::optional<double> parseMatrixScale(const QByteArray& text);

// alltoallv_perf's refusal of a matrix smaller than the ranks (AlltoAllvInit).
QString matrixTooSmall(const TrafficMatrixFile& m, int ranks);

} // namespace moewb::importers::nccltests
