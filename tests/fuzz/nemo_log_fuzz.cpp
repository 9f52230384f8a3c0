// libFuzzer target for NemoLogImporter (tests/fuzz/run-fuzzers.sh): the default reading and --strict, checked against each other.
#include "FuzzImportedData.h"
#include "importers/NemoLogImporter.h"

MOEWB_CONSOLE_LOG_FUZZ_TARGET(NemoLogImporter)
