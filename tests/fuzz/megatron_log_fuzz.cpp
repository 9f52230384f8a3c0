// libFuzzer target for MegatronLogImporter (tests/fuzz/run-fuzzers.sh): the default reading and --strict, checked against each other.
#include "FuzzImportedData.h"
#include "importers/MegatronLogImporter.h"

MOEWB_CONSOLE_LOG_FUZZ_TARGET(MegatronLogImporter)
