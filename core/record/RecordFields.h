#pragma once
// The catalogue of config-record fields: JSON path, value type and a one-line
// explanation. Drives the JSON reader's key checks, the "missing" messages, the
// differing-fields helper and (for the GUI) form labels and tooltips.
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace moewb::record {

enum class FieldType {
    PositiveInteger,    // > 0
    NonNegativeInteger, // >= 0
    PositiveNumber,     // > 0, finite
    CapacityFactor,     // positive number or "none"
    Boolean,
    Text,   // non-empty after trimming
    Choice, // one of choices
};

struct RecordField {
    QString path; // "moe.top_k"
    FieldType type;
    QStringList choices; // JSON tokens, for FieldType::Choice
    bool required;       // for an MoE record; see docs/formats.md for conditional fields
    double maximum;      // largest sensible value for numbers; 0 = no bound
    const char* hint;    // untranslated; use fieldHint()
};

// Every leaf field, in document order (the order validate() reports in).
const QList<RecordField>& recordFields();
// The field with this path, or nullptr.
const RecordField* findRecordField(const QString& path);
// Translated explanation: "how many experts each token is routed to (e.g. 2)".
QString fieldHint(const QString& path);
// Translated description of what a field must hold: "a positive integer",
// "one of drop, reroute, residual, dropless".
QString expectedValueText(const RecordField& field);

// The value at a dotted path of a record's JSON form (ConfigRecord::toJson());
// undefined when the field is not set.
QJsonValue recordFieldValue(const QJsonObject& recordJson, const QString& path);

} // namespace moewb::record
