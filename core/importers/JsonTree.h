#pragma once
// A JSON document in which every value knows its line, so that an importer can say
// "file:123: results[2].repeats[0].time_us.median: must be > 0". Duplicate keys are
// refused; NaN/Infinity are refused as non-finite numbers.
//
// Memory: an array of plain numbers (a probe's samples_us, nccl-tests' times_us) is
// kept "packed": the node only remembers where its text is, and the numbers are read
// from the text when asked for (JsonFields::numbers streams them; at() builds the
// item nodes on first use). A tree therefore views its source text: keep the text
// alive for as long as the tree is used.
#include "common/Expected.h"

#include <QString>

#include <string_view>
#include <vector>

namespace moewb::importers {

class JsonCursor;

struct JsonNode {
    enum class Type : quint8 { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    bool integral = false; // a number written without fraction/exponent that fits qint64
    double number = 0;
    qint64 integer = 0;
    qint64 line = 0;
    QString string;
    // Array items, or object values (parallel to keys). Empty for a packed array until
    // at() is first called: use size() and at(), not items directly.
    mutable std::vector<JsonNode> items;
    std::vector<QString> keys; // object keys

    // A packed array of numbers: its text between '[' and ']' (parsed and found valid).
    bool packed = false;
    mutable bool unpacked = false;
    qint64 packedLine = 0; // the line at packedBegin
    qsizetype packedCount = 0;
    const char* packedBegin = nullptr;
    const char* packedEnd = nullptr;

    // Items of an array, members of an object.
    qsizetype size() const { return packed ? packedCount : qsizetype(items.size()); }
    // Item i of an array (0 <= i < size()); a packed array builds its item nodes here.
    const JsonNode& at(qsizetype i) const;

    const JsonNode* member(QStringView key) const;
    const JsonNode* member(QLatin1String key) const;
    bool isNumber() const { return type == Type::Number; }
    bool isObject() const { return type == Type::Object; }
    bool isArray() const { return type == Type::Array; }
    bool isString() const { return type == Type::String; }
    bool isNull() const { return type == Type::Null; }
    // "an object", "a string", "the number 3", ... for messages.
    QString describe() const;
};

struct JsonSyntaxError {
    qint64 line = 0;
    qint64 column = 0;
    QString message;
    QString path; // the value being read, e.g. "results[0].time_us.median"; empty at the top
};

// One complete document; anything but white space after it is an error.
Expected<JsonNode, JsonSyntaxError> parseJsonDocument(std::string_view text, qint64 firstLine = 1);
// One value from the cursor (used by JSONL readers that want a located tree per line).
bool parseJsonValue(JsonCursor& cursor, JsonNode& node, int depth = 0);

} // namespace moewb::importers

#include <QJsonValue>
namespace moewb::importers {
// The same value as Qt JSON (for environment objects); integers stay integers.
QJsonValue toQJsonValue(const JsonNode& node);
} // namespace moewb::importers
