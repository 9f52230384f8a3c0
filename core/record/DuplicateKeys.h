#pragma once
// Duplicate object keys in JSON text. QJsonDocument keeps the last of two equal keys
// silently; a config record refuses them (as the importers do), naming both lines.
#include "record/ConfigRecord.h"

#include <QByteArray>
#include <QList>

namespace moewb::record {

// One issue per repeated key of any object in `utf8` (valid JSON, as QJsonDocument
// accepted it): field = the key's JSON path ("moe.top_k", "layers[2].name"), message
// "line 9: key "top_k" of moe appears again (first on line 4)". Keys are compared
// after unescaping ("a" and "\u0061" are the same key).
QList<FieldIssue> duplicateKeyIssues(const QByteArray& utf8);

} // namespace moewb::record
