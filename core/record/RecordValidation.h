#pragma once
// Every missing or invalid field of a config record, each with its JSON path.
// The rules are listed in docs/formats.md, "Config record (JSON)".
#include "record/ConfigRecord.h"
#include "record/RecordJson.h"
#include "record/RankGrid.h"

namespace moewb::record {

// Missing + out-of-range + cross-field issues, in a stable order: per-field issues
// in the order of recordFields() (RecordFields.h), then the cross-field rules.
QList<FieldIssue> validate(const ConfigRecord& record);

// fromJson's issues (types, unknown keys) followed by validate()'s, deduplicated:
// a field (or anything under a section) that already has a type issue is not
// reported again as missing.
QList<FieldIssue> validateJson(const QJsonObject& json);

// parseRecord's issues followed by validate()'s, deduplicated as validateJson();
// a syntax error is reported alone.
QList<FieldIssue> validateParsed(const ParsedRecord& parsed);

// Merges structural issues (syntax, types, unknown keys) with validation issues as
// described above.
QList<FieldIssue> mergeIssues(const QList<FieldIssue>& structural, const QList<FieldIssue>& validation);

} // namespace moewb::record
