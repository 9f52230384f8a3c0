#pragma once
// Several nccl-tests files of the same test on the same ranks (alltoall_perf run three
// times, or on three days) are repeats of ONE baseline, as the seed wants repeats:
// imported together into one run (moewb import --run NAME a.txt b.txt c.txt), each
// file's rows become the repeats after the previous files' (docs/formats.md).
#include "importers/ImportedData.h"
#include "store/CommSampleList.h"

namespace moewb::runimport {

// Both nccl-tests (text or JSON) of the same collective on the same world.
bool sameNcclTest(const importers::ImportedData& first, const importers::ImportedData& other);

// other's samples appended to into, each size's repeats numbered after the largest
// repeat into already holds for that size.
void appendAsRepeats(store::CommSampleList& into, const store::CommSampleList& other);

} // namespace moewb::runimport
