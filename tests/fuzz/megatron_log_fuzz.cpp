// libFuzzer target for MegatronLogImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/MegatronLogImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(MegatronLogImporter)
