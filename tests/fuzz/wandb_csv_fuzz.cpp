// libFuzzer target for WandbCsvImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/WandbCsvImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(WandbCsvImporter)
