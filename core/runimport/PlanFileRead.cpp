#include "runimport/PlanFileRead.h"

#include "importers/ImportFile.h"
#include "importers/JsonlExpertLoadImporter.h"
#include "importers/MegatronLogImporter.h"
#include "importers/MegatronTpeJsonlImporter.h"
#include "importers/NcclTestsTextImporter.h"
#include "importers/NemoLogImporter.h"
#include "importers/TorchtitanLogImporter.h"
#include "importers/WandbCsvImporter.h"

#include <QFile>

#include <new>

namespace moewb::runimport::plansupport {

// An expert-load JSONL file (tokens-per-expert or jsonl-expert-load, given or detected
// from its first 64 KiB as importFile would) read in blocks, never whole: its memory is
// the counts (docs/formats.md, "Memory"). Nothing when the file is another format or
// cannot be opened, or is over the import limit: importFile then says so as usual.
// The layout of an expert-load JSONL format (the importers' own), or nothing.
std::optional<importers::ExpertLoadJsonlLayout> expertLoadLayout(const QString& format) {
    if (format == QLatin1String(importers::MegatronTpeJsonlImporter::kFormat))
        return importers::ExpertLoadJsonlLayout{importers::MegatronTpeJsonlImporter::kFormat, "iter", "tpe", true, true};
    if (format == QLatin1String(importers::JsonlExpertLoadImporter::kFormat))
        return importers::ExpertLoadJsonlLayout{importers::JsonlExpertLoadImporter::kFormat, "step", "tokens", false};
    return std::nullopt;
}

// The expert-load JSONL format of an open file (given, or detected from its head as
// importFile would; the file left at its start), or empty.
QString expertLoadFormatOf(QFile& file, const QString& path, const QString& givenFormat) {
    QString format = givenFormat.trimmed();
    if (format.isEmpty()) {
        // One byte past detectFormat's head, so that it knows whether the file goes on.
        const QByteArray head = file.read((1 << 16) + 1);
        auto detected = importers::detectFormat(head, path);
        if (!detected || !file.seek(0))
            return {};
        format = detected.value();
    }
    return expertLoadLayout(format) ? format : QString();
}

// A regular file within the import limit (importers::openImportFile); anything else is
// left to importFile, which says what is wrong with it.
bool openForBlocks(QFile& file, const QString& path) {
    return !importers::openImportFile(file, path) && file.size() <= importers::maxImportBytes() &&
           !file.isSequential();
}

// Whether `path` is an expert-load JSONL file that can be read in blocks.
bool isExpertLoadJsonl(const QString& path, const QString& givenFormat) {
    QFile file;
    return openForBlocks(file, path) && !expertLoadFormatOf(file, path, givenFormat).isEmpty();
}

std::optional<importers::ImportResult> readExpertLoadInBlocks(const QString& path, const QString& givenFormat,
                                                              importers::ExpertLoadJsonlPass* pass = nullptr) {
    QFile file;
    if (!openForBlocks(file, path))
        return std::nullopt;
    const QString format = expertLoadFormatOf(file, path, givenFormat);
    if (format.isEmpty())
        return std::nullopt;
    importers::ExpertLoadJsonlPass keep;
    try {
        return importers::parseExpertLoadJsonl(file, file.size(), path, *expertLoadLayout(format), pass ? *pass : keep);
    } catch (const std::bad_alloc&) {
        return importers::ImportResult(unexpected(importers::outOfMemory(path, file.size())));
    }
}

// One file, with the W&B run chosen when the file is a W&B export and one was named.
// scan: an expert-load JSONL file is only scanned (ExpertLoadJsonlPass::Mode::Scan, the
// pass filled), its counts read at save.
importers::ImportResult readOne(const QString& path, const ImportOptions& options,
                                importers::ExpertLoadJsonlPass* scan) {
    const bool ncclFacts = options.ranks > 0 || !options.collective.isEmpty() || options.alltoallvMatrix;
    if (options.wandbRun.isEmpty() && !ncclFacts && !options.strict) {
        if (auto streamed = readExpertLoadInBlocks(path, options.format, scan))
            return std::move(*streamed);
        return importers::importFile(path, options.format);
    }
    auto bytes = importers::readWholeFile(path);
    if (!bytes)
        return unexpected(bytes.error());
    QString format = options.format;
    if (format.isEmpty()) {
        auto detected = importers::detectFormat(bytes.value(), path);
        if (!detected)
            return unexpected(detected.error());
        format = detected.value();
    }
    if (format == QLatin1String(importers::WandbCsvImporter::kFormat) && !options.wandbRun.isEmpty())
        return importers::parseWithinMemory(bytes.value(), path, [&](const QByteArray& b, const QString& f) {
            return importers::WandbCsvImporter::parseRun(b, f, options.wandbRun);
        });
    if (format == QLatin1String(importers::NcclTestsTextImporter::kFormat) && ncclFacts)
        return importers::parseWithinMemory(bytes.value(), path, [&](const QByteArray& b, const QString& f) {
            return importers::NcclTestsTextImporter::parseWith(
                b, f, {options.ranks, options.collective, options.alltoallvMatrix});
        });
    if (format == QLatin1String(importers::MegatronLogImporter::kFormat) && options.strict)
        return importers::parseWithinMemory(bytes.value(), path, importers::MegatronLogImporter::parseStrict);
    if (format == QLatin1String(importers::NemoLogImporter::kFormat) && options.strict)
        return importers::parseWithinMemory(bytes.value(), path, importers::NemoLogImporter::parseStrict);
    if (format == QLatin1String(importers::TorchtitanLogImporter::kFormat) && options.strict)
        return importers::parseWithinMemory(bytes.value(), path, importers::TorchtitanLogImporter::parseStrict);
    return importers::importBytes(bytes.value(), path, format);
}

} // namespace moewb::runimport::plansupport
