// libFuzzer target for JsonlMetricsImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/JsonlMetricsImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(JsonlMetricsImporter)
