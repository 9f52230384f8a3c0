#pragma once
// alltoallv_perf's own figures in its text output (nccl-tests >= 2.19, src/alltoallv.cu;
// docs/formats.md "alltoallv_perf"): the per-rank summary that
// NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1 prints, and what a traffic-matrix run's rows mean.
//
// The summary is printed by AlltoAllvGetBw, which runs between a row's preamble and each
// half of its body (common.cu BenchTime), so it splits every data row:
//   "   SIZE  0  float  none  -1# NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY: mode=matrix nranks=N
//        matrix_dim=D scale=%.3f time_usec=%.2f"
//   "#   rank=r send_bytes=S recv_bytes=R alg_bw=%.2f bus_bw=%.2f"      (N lines)
//   "  TIME ALGBW BUSBW WRONG# NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY: …"   (in-place's)
//   "#   rank=r …"                                                       (N lines)
//   "  TIME ALGBW BUSBW N/A"                                             (the row ends)
// 3 + 2N lines per row (mode=generated prints total_bytes= and spread= instead of
// matrix_dim= and scale=). The importer joins the row's pieces and checks the summary
// against it: the row's size is the busiest rank's max(send, recv) bytes.
//
// In matrix mode alltoallv_perf prints count 0 and size = the busiest rank's bytes; the
// bytes per rank (the probe's and alltoall_perf's size: what a rank sends, on average)
// are the matrix's mean row sum, which only the summary or the matrix file gives.
#include "importers/ImportError.h"
#include "importers/NcclTestsMatrixFile.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <string_view>
#include <vector>

namespace moewb::importers::nccltests {

struct Table;
struct TableFacts;

// "# NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY:" — where a row is split.
inline constexpr std::string_view kSummaryMark = "# NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY:";
// The summary's first line without its '#' (a line that starts with it).
inline constexpr std::string_view kSummaryWord = "NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY:";

struct AlltoallvSummary {
    qint64 line = 0;    // its "NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY:" line
    QString mode;       // "matrix" or "generated"
    int ranks = 0;      // nranks=
    int matrixDim = 0;  // matrix_dim= (matrix)
    double scale = 1;   // scale= (matrix; printed with 3 decimals)
    qint64 totalBytes = 0; // total_bytes= (generated)
    double spread = 0;  // spread= (generated)
    std::vector<quint64> sent, received; // rank=r send_bytes= recv_bytes=, in rank order
    bool complete() const { return qint64(sent.size()) == ranks; }
};

// The text after "NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY:"; the error names the field.
std::optional<ImportError> parseSummaryHeader(std::string_view text, qint64 line, const QString& file,
                                              AlltoallvSummary& into);
// A "rank=r send_bytes=… recv_bytes=… alg_bw=… bus_bw=…" line (without its '#').
std::optional<ImportError> parseSummaryRank(std::string_view text, qint64 line, const QString& file,
                                            AlltoallvSummary& into);

// The summaries printed inside one row (out-of-place, in-place), checked: complete,
// alike, and the row's printed size the busiest rank's bytes. The first is kept on the
// table (the later rows' must show the same matrix); the row's bytes per rank (the
// mean of send_bytes, rounded to a byte) returned.
struct RowSummaryCheck {
    std::optional<ImportError> error;
    quint64 bytesPerRank = 0;
};
RowSummaryCheck takeRowSummaries(Table& table, std::vector<AlltoallvSummary>& summaries, qint64 size,
                                 qint64 rowLine, const QString& file);

// After the table's ranks are known (resolveTable): an alltoallv table's summary against
// its ranks, the matrix file given (--alltoallv-matrix) against the summary, and the bytes
// per rank of matrix-mode rows printed without a summary, from the matrix (the rows'
// sizes are rewritten). A matrix-mode row with neither is refused: its size is the
// busiest rank's, not the bytes per rank.
std::optional<ImportError> resolveAlltoallv(Table& table, const TableFacts& facts, const QString& file,
                                            const TrafficMatrixFile* matrix);

// environment.alltoallv (and `pattern`, `pattern_origin` for a matrix) of the table
// imported, when it printed a summary or a matrix was given.
void noteAlltoallv(const Table& table, const TableFacts& facts, const TrafficMatrixFile* matrix, QJsonObject& env);

} // namespace moewb::importers::nccltests
