// libFuzzer target for MegatronRoutingTraceImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/MegatronRoutingTraceImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(MegatronRoutingTraceImporter)
