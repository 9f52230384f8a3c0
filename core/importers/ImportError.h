#pragma once
// Where an import went wrong: the file, the line (0 = the whole file; for binary
// files the record number), the field, and what is wrong with it.
#include <QString>

namespace moewb::importers {

struct ImportError {
    QString file;
    qint64 line = 0; // 0 = whole file
    QString field;   // the column, key or JSON path; empty when no single field is at fault
    QString message;
    bool unreadable = false; // the file could not be read at all (I/O), not bad content

    // "file:line: field: message"; the line is left out when 0, the field when empty.
    QString text() const;
};

} // namespace moewb::importers
