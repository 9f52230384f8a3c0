#pragma once
// What the nccl-tests text and JSON importers share: collective names, data type
// sizes, and the alltoall layout check for files that do not name their test.
#include <QString>

namespace moewb::importers::nccltests {

// "alltoall_perf" -> "alltoall", "./build/all_reduce_perf" -> "all_reduce".
QString collectiveFromProgram(QString program);
bool isAllToAll(const QString& collective); // alltoall, alltoallv
bool isReductionOp(const QString& redop);   // sum, prod, min, max, avg, ...
int typeSize(const QString& type);          // bytes of one element; 0 when unknown

} // namespace moewb::importers::nccltests
