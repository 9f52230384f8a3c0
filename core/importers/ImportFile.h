#pragma once
// How every import opens a file (docs/formats.md, "Memory").
#include "importers/ImportError.h"

#include <QFile>
#include <QString>

#include <optional>

namespace moewb::importers {

// Opens `path` for reading into `file`: a regular file only (checked on the opened
// descriptor with fstat, so a FIFO, a device such as /dev/zero or /dev/urandom, a socket,
// or one of them swapped in for a planned file is refused), opened with O_NONBLOCK so
// that open() of a FIFO never waits for a writer. Nothing when it is open; else the
// error (unreadable = true) naming `shown` (default: path). The QFile is opened on the
// descriptor: its fileName() is empty (keep `path`). readWholeFile opens with it and
// reads at most the import limit and one byte.
std::optional<ImportError> openImportFile(QFile& file, const QString& path, const QString& shown = {});

} // namespace moewb::importers
