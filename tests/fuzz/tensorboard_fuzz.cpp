// libFuzzer target for TensorBoardImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/TensorBoardImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(TensorBoardImporter)
