#pragma once
// What every importer shares: the result type, located errors, reading a file,
// and the translation context for messages.
#include "common/Expected.h"
#include "importers/ImportError.h"
#include "importers/ImportedData.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

namespace moewb::importers {

using ImportResult = Expected<ImportedData, ImportError>;

class ImportTr {
    Q_DECLARE_TR_FUNCTIONS(Importers)
};

inline Unexpected<ImportError> importError(const QString& file, qint64 line, const QString& field,
                                           const QString& message) {
    return {ImportError{file, line, field, message}};
}

// The whole file, or an error naming it (unreadable = true).
Expected<QByteArray, ImportError> readWholeFile(const QString& path);

// readWholeFile + parse, the shape of every importer's importFile().
template <typename Parse>
ImportResult importWith(const QString& path, Parse parse) {
    auto bytes = readWholeFile(path);
    if (!bytes)
        return unexpected(bytes.error());
    return parse(bytes.value(), path);
}

// A short, printable excerpt of a value for messages ("…" when cut).
QString excerpt(std::string_view text, int maxChars = 40);

} // namespace moewb::importers
