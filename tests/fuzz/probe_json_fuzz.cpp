// libFuzzer target for ProbeJsonImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/ProbeJsonImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(ProbeJsonImporter)
