// libFuzzer target for JsonlExpertLoadImporter (tests/fuzz/run-fuzzers.sh).
#include "FuzzImportedData.h"
#include "importers/JsonlExpertLoadImporter.h"

MOEWB_IMPORTER_FUZZ_TARGET(JsonlExpertLoadImporter)
