// libFuzzer target for NcclTestsJsonImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/NcclTestsJsonImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(NcclTestsJsonImporter)
