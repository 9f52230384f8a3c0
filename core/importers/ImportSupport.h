#pragma once
// What every importer shares: the result type, located errors, reading a file,
// and the translation context for messages.
#include "common/Expected.h"
#include "importers/ImportError.h"
#include "importers/ImportedData.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include <new>
#include <optional>

namespace moewb::importers {

using ImportResult = Expected<ImportedData, ImportError>;

class ImportTr {
    Q_DECLARE_TR_FUNCTIONS(Importers)
};

// Messages quote at most this many characters of the input (a 100 MB CSV field is
// not echoed whole).
inline constexpr int kMaxQuotedChars = 200;
// A message as a whole is cut here: enough for any quote plus the words around it.
inline constexpr int kMaxMessageChars = 1000;

// `text` cut to maxChars characters, with "…" when cut.
QString clipped(const QString& text, int maxChars = kMaxQuotedChars);

inline Unexpected<ImportError> importError(const QString& file, qint64 line, const QString& field,
                                           const QString& message) {
    return {ImportError{file, line, clipped(field), clipped(message, kMaxMessageChars)}};
}

// The largest file an import reads, in bytes: what setMaxImportBytes gave (`moewb import
// --max-bytes`), else MOEWB_IMPORT_MAX_BYTES when set (a number, optionally followed by
// K, M, G or T, powers of 1024), else kDefaultMaxImportBytes.
// A bigger file is refused before it is read (docs/formats.md, "Memory").
inline constexpr qint64 kDefaultMaxImportBytes = 4LL << 30;
qint64 maxImportBytes();
// A size as MOEWB_IMPORT_MAX_BYTES and `moewb import --max-bytes` take it: bytes, or a
// number followed by K, M, G or T (powers of 1024). Nothing when it is malformed, not
// positive or over 2^62.
std::optional<qint64> parseByteSize(const QByteArray& text);
// The limit for this process, over MOEWB_IMPORT_MAX_BYTES (`moewb import --max-bytes`);
// 0 goes back to the variable.
void setMaxImportBytes(qint64 bytes);

// The whole file, or an error naming it (unreadable = true). A file over
// maxImportBytes() is refused with a message naming its size, the limit and how to
// raise it; running out of memory while reading is an error, not an abort.
Expected<QByteArray, ImportError> readWholeFile(const QString& path);

// "ran out of memory importing it" for a file of `bytes` bytes (unreadable = true:
// nothing is wrong with the content).
ImportError outOfMemory(const QString& file, qint64 bytes);

// parse(), with running out of memory turned into an error naming the file.
template <typename Parse>
ImportResult parseWithinMemory(const QByteArray& bytes, const QString& file, Parse&& parse) {
    try {
        return parse(bytes, file);
    } catch (const std::bad_alloc&) {
        return Unexpected<ImportError>{outOfMemory(file, bytes.size())};
    }
}

// readWholeFile + parse, the shape of every importer's importFile().
template <typename Parse>
ImportResult importWith(const QString& path, Parse parse) {
    auto bytes = readWholeFile(path);
    if (!bytes)
        return unexpected(bytes.error());
    return parseWithinMemory(bytes.value(), path, parse);
}

// A short, printable excerpt of a value for messages ("…" when cut).
QString excerpt(std::string_view text, int maxChars = 40);

} // namespace moewb::importers
