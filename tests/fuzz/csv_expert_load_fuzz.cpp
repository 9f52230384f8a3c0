// libFuzzer target for CsvExpertLoadImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/CsvExpertLoadImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(CsvExpertLoadImporter)
