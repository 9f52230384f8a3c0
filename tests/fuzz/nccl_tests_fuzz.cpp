// libFuzzer target for NcclTestsTextImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/NcclTestsTextImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(NcclTestsTextImporter)
