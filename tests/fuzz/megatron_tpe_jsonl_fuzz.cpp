// libFuzzer target for MegatronTpeJsonlImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/MegatronTpeJsonlImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(MegatronTpeJsonlImporter)
