#pragma once
// Typed, located access to a JsonTree: every accessor that fails records one
// ImportError with the file, the value's line and its JSON path.
#include "importers/ImportError.h"
#include "importers/JsonTree.h"

#include <QString>

#include <functional>
#include <optional>

namespace moewb::importers {

struct JsonField {
    const JsonNode* node = nullptr; // null: absent
    QString path;                   // "results[2].repeats[0].time_us"
    qint64 line = 0;                // the value's line, or its parent's when absent
    explicit operator bool() const { return node != nullptr; }
};

class JsonFields {
public:
    explicit JsonFields(QString file, qint64 lineOffset = 0) : m_file(std::move(file)), m_lineOffset(lineOffset) {}

    static JsonField root(const JsonNode& node, const QString& path = {}) { return {&node, path, node.line}; }

    // A member; when absent and required, records "is missing".
    JsonField member(const JsonField& parent, const QString& key, bool required = true);
    JsonField item(const JsonField& array, qsizetype index);

    bool expectObject(const JsonField& f);
    bool expectArray(const JsonField& f, qsizetype minItems = 0);
    bool number(const JsonField& f, double min, double max, double& out);
    bool integer(const JsonField& f, qint64 min, qint64 max, qint64& out);
    bool string(const JsonField& f, QString& out, bool allowEmpty = true);
    // Every item of the array `f` (already checked to be one) as a finite number in
    // [min, max], in order: check(index, value) returns an empty string to go on or
    // the problem with that item (recorded with its path and line). A packed array is
    // read straight from its text (JsonTree.h): no node per item is built.
    bool numbers(const JsonField& f, double min, double max,
                 const std::function<QString(qsizetype, double)>& check);

    bool fail(const JsonField& f, const QString& message);
    bool failed() const { return m_error.has_value(); }
    const ImportError& error() const { return *m_error; }

private:
    QString m_file;
    qint64 m_lineOffset;
    std::optional<ImportError> m_error;
};

} // namespace moewb::importers
