// libFuzzer target for TorchtitanLogImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/TorchtitanLogImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(TorchtitanLogImporter)
