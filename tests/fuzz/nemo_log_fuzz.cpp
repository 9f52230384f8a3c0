// libFuzzer target for NemoLogImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/NemoLogImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(NemoLogImporter)
