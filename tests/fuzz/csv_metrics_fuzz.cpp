// libFuzzer target for CsvMetricsImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/CsvMetricsImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(CsvMetricsImporter)
