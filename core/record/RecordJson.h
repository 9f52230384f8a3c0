#pragma once
// Reading a config record from bytes: syntax errors located by line and column.
#include "record/ConfigRecord.h"

#include <QByteArray>

namespace moewb::record {

struct ParsedRecord {
    ConfigRecord record;
    QList<FieldIssue> issues; // syntax + type errors (not range/cross-field: see validate())
};

// Malformed JSON gives one issue with field "" and message "line 3, column 7: ...";
// a document that is not an object gives one issue with field "".
ParsedRecord parseRecord(const QByteArray& bytes);

// Line and column (both 1-based, column counted in characters) of a byte offset
// into UTF-8 text. Exposed for the importers, which locate errors the same way.
struct TextPosition {
    int line = 1;
    int column = 1;
};
TextPosition textPositionAt(const QByteArray& utf8, qsizetype byteOffset);

// Indented JSON text of a record, as written by "record export" and the fixtures.
QByteArray recordToBytes(const ConfigRecord& record);

} // namespace moewb::record
