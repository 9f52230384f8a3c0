// libFuzzer target for RoutingTraceJsonlImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/RoutingTraceJsonlImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(RoutingTraceJsonlImporter)
