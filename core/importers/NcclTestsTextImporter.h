#pragma once
// nccl-tests text output of alltoall_perf / alltoallv_perf (docs/formats.md): the
// header is read, not assumed (old `error` vs new `#wrong`, with or without `root`,
// -I per-iteration columns, exponent-form numbers); one CommSample per data row. A log
// of several tests (NcclTestsTextSections.h) imports its first all-to-all test and lists
// the others in environment.skipped_sections; NCCL_DEBUG lines are skipped anywhere.
// alltoallv_perf's rows split by its per-rank summary are joined, and a traffic
// matrix's rows get the matrix's bytes per rank (NcclTestsAlltoallv.h).
#include "importers/ImportSupport.h"
#include "importers/NcclTestsMatrixFile.h"

#include <memory>

namespace moewb::importers {

// Facts a pasted fragment may lack, given by the user (moewb import --ranks N
// --collective NAME); checked against the text when it shows them too.
struct NcclTestsTextOptions {
    int ranks = 0;      // the test's ranks; 0: from the text (rank list, header, or derived)
    QString collective; // "alltoall" or "alltoallv"; empty: from the text
    // The traffic matrix an alltoallv_perf run read (moewb import --alltoallv-matrix FILE
    // [--alltoallv-scale S]), read by alltoallv_perf's rules (NcclTestsMatrixFile.h): the
    // bytes per rank of its rows when they were printed without the per-rank summary,
    // checked against the summary when they were (NcclTestsAlltoallv.h).
    std::shared_ptr<const nccltests::TrafficMatrixFile> alltoallvMatrix;
};

// Pasted fragments (docs/formats.md): a table whose "# nThread" header, rank list,
// version lines or summary were not pasted — even rows without their column header —
// imports when the missing facts can be derived from the rows (an alltoall prints
// size = count x type size x ranks, so ranks = size / (count x type size)); what was
// derived is stated in environment.derived. Otherwise the error asks for exactly the
// missing fact (--collective alltoall, --ranks N): rows alone cannot tell alltoall from
// all_gather, which prints the same size/count.
class NcclTestsTextImporter {
public:
    static constexpr const char* kFormat = "nccl-tests";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult parseWith(const QByteArray& bytes, const QString& fileName,
                                  const NcclTestsTextOptions& options);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
    static ImportResult importFile(const QString& path, const NcclTestsTextOptions& options) {
        return importWith(path,
                          [&](const QByteArray& b, const QString& f) { return parseWith(b, f, options); });
    }
};

} // namespace moewb::importers
