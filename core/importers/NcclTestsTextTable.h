#pragma once
// One nccl-tests table as the text importer reads it (the "# nThread" header, the
// device list, the column header, the rows, the summary), and what it is: which
// all-to-all, on how many ranks, from the file or the user's options (docs/formats.md).
#include "importers/ImportSupport.h"
#include "importers/NcclTestsAlltoallv.h"
#include "importers/NcclTestsTextImporter.h"

#include <QHash>
#include <QJsonObject>
#include <QStringList>

#include <vector>

namespace moewb::importers::nccltests {

struct RankLine {
    int rank = 0;
    QString host;
    QString model;
};

struct RowCheck {
    qint64 size = 0;
    qint64 count = 0;
    QString type;
    qint64 line = 0;
};

// A data row's figures: its size, out-of-place time and in-place time (NaN: none), and
// with -I (nccl-tests >= 2.19) the out-of-place per-iteration summary: i_min, i_max,
// i_p99 (µs) and i_cv% (NaN: not printed).
struct RowTimes {
    qint64 size = 0;
    double timeUs = 0;
    double inPlaceUs = 0;
    double iterMinUs = 0, iterMaxUs = 0, iterP99Us = 0, iterCvPct = 0;
};

struct Table {
    int section = 0; // the log's test (splitSections) this table belongs to
    qint64 headerLine = 0;
    int headerCount = 0; // "# nThread" lines seen before the table (>1: interleaved jobs)
    qint64 secondHeaderLine = 0;
    QJsonObject options;
    int nThread = 1, nGpus = 1;
    QString collective; // from "# Collective test starting:"
    qint64 collectiveLine = 0;
    std::vector<RankLine> ranks;
    QHash<int, int> rankSeen; // rank -> times listed
    qint64 duplicateRankLine = 0;
    bool rankListCut = false;
    // Columns after the left part (size count type [redop] [root]).
    QStringList rightColumns;
    int leftColumns = 0; // size, count, type, redop, root present in the header
    int rightTokens = 0; // tokens the right part takes in a row
    int oopTime = -1, oopAlgbw = -1, oopBusbw = -1, oopWrong = -1, ipTime = -1;
    int oopIterMin = -1, oopIterMax = -1, oopIterP99 = -1, oopIterCv = -1; // -I columns of the out-of-place half
    qint64 tableLine = 0;
    bool columnsDerived = false; // rows pasted without their column header: layout from the first row
    int derivedValues = 0;       // the values of the row the layout was derived from
    qint64 firstRowLine = 0;
    int lastRowValues = 0;
    qint64 rows = 0;
    qint64 lastRowLine = 0;
    bool footer = false;
    double avgBusbw = -1; // "# Avg bus bandwidth"; -1: not printed
    QString outOfBounds;  // "# Out of bounds values"
    QStringList redops;   // the distinct redop values of the rows, in order of appearance
    QString type;
    std::vector<RowTimes> times;
    std::vector<RowCheck> checks;
    // alltoallv_perf (NcclTestsAlltoallv.h): the first row's per-rank summary, how many
    // rows printed one, the first row that did not; matrix-mode rows (count 0, size > 0)
    // without one, whose bytes per rank only a matrix file can give.
    std::optional<AlltoallvSummary> summary;
    qint64 summaryRows = 0;
    qint64 firstRowWithoutSummary = 0;
    qint64 matrixRowsWithoutSummary = 0;
    qint64 firstMatrixRowWithoutSummary = 0;
    bool bytesFromMatrixFile = false; // sizes rewritten from --alltoallv-matrix
};

// What a table is: the test and its ranks, and how each was known.
struct TableFacts {
    QString collective;
    QString collectiveSource; // "named by the file", "given: --collective", "assumed: ..."
    qint64 world = 0;
    QString worldSource;   // "rank list", "header: nThread x nGpus", "given: --ranks", "derived"
    QJsonObject derived;   // fact -> how it was derived (pasted fragments)
    bool fragment = false; // no "# nThread" header above it
};

// The facts of a table with rows, or why it is not an all-to-all that can be imported
// (the error names its line and field).
Expected<TableFacts, ImportError> resolveTable(const Table& b, const QString& file,
                                               const NcclTestsTextOptions& given);

// The column header (read from the file, or derived from a row pasted without one)
// sets the table's row layout.
std::optional<ImportError> applyColumnHeader(Table& b, const QStringList& cols, const QString& file,
                                             qint64 line);

} // namespace moewb::importers::nccltests
