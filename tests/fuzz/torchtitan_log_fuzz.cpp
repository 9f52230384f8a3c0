// libFuzzer target for TorchtitanLogImporter (tests/fuzz/run-fuzzers.sh): the default reading and --strict, checked against each other.
#include "FuzzImportedData.h"
#include "importers/TorchtitanLogImporter.h"

MOEWB_CONSOLE_LOG_FUZZ_TARGET(TorchtitanLogImporter)
