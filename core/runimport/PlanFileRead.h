#pragma once
// Reading one file for planImport (RunImport.cpp) and the save (RunSave.cpp): the
// options that change how (a W&B run, nccl-tests facts, --strict), and expert-load
// JSONL files read in blocks, never whole (docs/formats.md, "Memory").
#include "importers/ExpertLoadJsonl.h"
#include "importers/Importer.h"
#include "runimport/RunImport.h"

#include <optional>

namespace moewb::runimport::plansupport {

// The layout of an expert-load JSONL format (the importers' own), or nothing.
std::optional<importers::ExpertLoadJsonlLayout> expertLoadLayout(const QString& format);
// Whether `path` is an expert-load JSONL file that can be read in blocks.
bool isExpertLoadJsonl(const QString& path, const QString& givenFormat);
// One file, with the W&B run chosen when the file is a W&B export and one was named.
// scan: an expert-load JSONL file is only scanned (ExpertLoadJsonlPass::Mode::Scan, the
// pass filled), its counts read at save.
importers::ImportResult readOne(const QString& path, const ImportOptions& options,
                                importers::ExpertLoadJsonlPass* scan = nullptr);

} // namespace moewb::runimport::plansupport
