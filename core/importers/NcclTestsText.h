#pragma once
// What the nccl-tests text and JSON importers share: collective names, data type
// sizes, and the alltoall layout check for files that do not name their test.
#include <QString>

#include <string_view>
#include <vector>

namespace moewb::importers::nccltests {

// "alltoall_perf" -> "alltoall", "./build/all_reduce_perf" -> "all_reduce".
QString collectiveFromProgram(QString program);
bool isAllToAll(const QString& collective); // alltoall, alltoallv

// The tokens of a line between spaces and tabs (views into it).
std::vector<std::string_view> splitWhitespace(std::string_view s);
bool isReductionOp(const QString& redop);   // sum, prod, min, max, avg, ...
int typeSize(const QString& type);          // bytes of one element; 0 when unknown

// An alltoall row: nccl-tests prints size = nranks x count x type size (count: the
// elements each rank sends to each peer; src/alltoall.cu AlltoAllGetCollByteCount and
// common.cu's writeBenchmarkLinePreamble). The ranks a row stands for, or 0 when the
// row cannot tell (count 0, unknown type size) or does not divide evenly (-1).
qint64 allToAllRanks(qint64 size, qint64 count, int typeSize);

// The column header nccl-tests printed for rows of this shape, for rows pasted without
// it (src/util.cu: preamble "size count type redop root", then per half "time algbw
// busbw #wrong", -I adding "i_min i_max i_p99 i_cv%", -T a two-token timestamp):
//   11 values: size count type time algbw busbw error ×2 (old layout, empty redop)
//   12 values: size count type redop time ... (old layout with a redop)
//   13 values: size count type redop root time algbw busbw #wrong ×2 (2.13 and later)
//   15 values: the same with a timestamp; 21 values: the same with -I
// The names are the header's (the first "time" may have been "cputime" under -C: the
// same position). Empty when the shape is none of these; *why then says what was seen.
QStringList columnsForRow(const QStringList& tokens, QString* why);

} // namespace moewb::importers::nccltests
