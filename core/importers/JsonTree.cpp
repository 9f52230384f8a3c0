#include "importers/JsonTree.h"

#include "importers/ImportSupport.h"
#include "importers/JsonCursor.h"

#include <QSet>

namespace moewb::importers {

const JsonNode* JsonNode::member(QStringView key) const {
    if (type != Type::Object)
        return nullptr;
    for (size_t i = 0; i < keys.size(); ++i)
        if (keys[i] == key)
            return &items[i];
    return nullptr;
}

const JsonNode* JsonNode::member(QLatin1String key) const {
    if (type != Type::Object)
        return nullptr;
    for (size_t i = 0; i < keys.size(); ++i)
        if (keys[i] == key)
            return &items[i];
    return nullptr;
}

const JsonNode& JsonNode::at(qsizetype i) const {
    if (packed && !unpacked) {
        // The text was read once already and found to be numbers separated by commas.
        JsonCursor c(packedBegin, packedEnd, packedLine);
        items.clear();
        items.reserve(size_t(packedCount));
        do {
            JsonNode item;
            c.peek();
            item.line = c.line();
            JsonNumber n;
            if (!c.readNumber(n))
                break;
            item.type = Type::Number;
            item.number = n.value;
            item.integral = n.integral;
            item.integer = n.integer;
            items.push_back(std::move(item));
        } while (c.consume(','));
        unpacked = true;
    }
    return items[size_t(i)];
}

QString JsonNode::describe() const {
    switch (type) {
    case Type::Null: return ImportTr::tr("null");
    case Type::Bool: return boolean ? ImportTr::tr("true") : ImportTr::tr("false");
    case Type::Number: return ImportTr::tr("the number %1").arg(number, 0, 'g', 12);
    case Type::String: return ImportTr::tr("the string \"%1\"").arg(clipped(string, 40));
    case Type::Array: return ImportTr::tr("an array");
    case Type::Object: return ImportTr::tr("an object");
    }
    return {};
}

bool parseJsonValue(JsonCursor& c, JsonNode& node, int depth) {
    if (depth > JsonCursor::kMaxDepth)
        return c.fail(ImportTr::tr("nested deeper than %1 levels").arg(JsonCursor::kMaxDepth));
    std::string_view raw;
    std::string scratch;
    const char first = c.peek();
    node.line = c.line();
    switch (first) {
    case '"':
        if (!c.readString(raw, scratch))
            return false;
        node.type = JsonNode::Type::String;
        node.string = QString::fromUtf8(raw.data(), qsizetype(raw.size()));
        return true;
    case 't':
        node.type = JsonNode::Type::Bool;
        node.boolean = true;
        return c.readLiteral("true");
    case 'f':
        node.type = JsonNode::Type::Bool;
        return c.readLiteral("false");
    case 'n': {
        if (c.rest().substr(0, 2) == "nu") {
            node.type = JsonNode::Type::Null;
            return c.readLiteral("null");
        }
        JsonNumber n;
        return c.readNumber(n); // fails with the NaN message
    }
    case '[': {
        c.consume('[');
        node.type = JsonNode::Type::Array;
        if (c.consume(']'))
            return true;
        // Plain numbers to the ']': keep the text, not a node per number.
        const JsonCursor::State start = c.state();
        const char* begin = c.position();
        const char f = c.peek();
        if ((f >= '0' && f <= '9') || f == '-') {
            qsizetype count = 0;
            bool numbers = true;
            do {
                const char n0 = c.peek();
                JsonNumber n;
                if (!((n0 >= '0' && n0 <= '9') || n0 == '-') || !c.readNumber(n)) {
                    numbers = false;
                    break;
                }
                ++count;
            } while (c.consume(','));
            if (numbers && c.peek() == ']') {
                node.packed = true;
                node.packedLine = start.line;
                node.packedCount = count;
                node.packedBegin = begin;
                node.packedEnd = c.position();
                c.consume(']');
                return true;
            }
            c.restore(start); // not only numbers, or an error: read item by item (says where)
        }
        do {
            node.items.emplace_back();
            if (!parseJsonValue(c, node.items.back(), depth + 1)) {
                c.prependErrorPath(QStringLiteral("[%1]").arg(node.items.size() - 1));
                return false;
            }
        } while (c.consume(','));
        return c.consume(']') || c.fail(ImportTr::tr("',' or ']' was expected"));
    }
    case '{': {
        c.consume('{');
        node.type = JsonNode::Type::Object;
        if (c.consume('}'))
            return true;
        QSet<QString> seen;
        do {
            if (c.peek() != '"')
                return c.fail(ImportTr::tr("a key (a string) was expected"));
            if (!c.readString(raw, scratch))
                return false;
            QString key = QString::fromUtf8(raw.data(), qsizetype(raw.size()));
            // A set once the object is large: a linear search would be quadratic.
            bool twice = false;
            if (node.keys.size() < 16) {
                for (const QString& k : node.keys)
                    twice = twice || k == key;
            } else {
                if (seen.isEmpty())
                    for (const QString& k : node.keys)
                        seen.insert(k);
                twice = seen.contains(key);
                seen.insert(key);
            }
            if (twice)
                return c.fail(ImportTr::tr("the key \"%1\" appears twice in one object").arg(clipped(key)));
            if (!c.consume(':'))
                return c.fail(ImportTr::tr("':' was expected after the key \"%1\"").arg(clipped(key)));
            node.keys.push_back(std::move(key));
            node.items.emplace_back();
            if (!parseJsonValue(c, node.items.back(), depth + 1)) {
                c.prependErrorPath(clipped(node.keys.back()));
                return false;
            }
        } while (c.consume(','));
        return c.consume('}') || c.fail(ImportTr::tr("',' or '}' was expected"));
    }
    default: {
        JsonNumber n;
        if (!c.readNumber(n))
            return false;
        node.type = JsonNode::Type::Number;
        node.number = n.value;
        node.integral = n.integral;
        node.integer = n.integer;
        return true;
    }
    }
}

Expected<JsonNode, JsonSyntaxError> parseJsonDocument(std::string_view text, qint64 firstLine) {
    // A UTF-8 byte-order mark is allowed before the document.
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    JsonCursor cursor(text.data(), text.data() + text.size(), firstLine);
    JsonNode root;
    if (cursor.atEnd())
        return unexpected(JsonSyntaxError{cursor.line(), cursor.column(), ImportTr::tr("the file is empty"), QString()});
    if (!parseJsonValue(cursor, root) || (!cursor.atEnd() && cursor.fail(ImportTr::tr("unexpected text after the end of the JSON value"))))
        return unexpected(JsonSyntaxError{cursor.line(), cursor.column(), cursor.error(), cursor.errorPath()});
    return root;
}

} // namespace moewb::importers

#include <QJsonArray>
#include <QJsonObject>
namespace moewb::importers {
QJsonValue toQJsonValue(const JsonNode& node) {
    switch (node.type) {
    case JsonNode::Type::Null: return QJsonValue(QJsonValue::Null);
    case JsonNode::Type::Bool: return node.boolean;
    case JsonNode::Type::Number: return node.integral ? QJsonValue(node.integer) : QJsonValue(node.number);
    case JsonNode::Type::String: return node.string;
    case JsonNode::Type::Array: {
        QJsonArray a;
        for (qsizetype i = 0; i < node.size(); ++i)
            a.append(toQJsonValue(node.at(i)));
        return a;
    }
    case JsonNode::Type::Object: {
        QJsonObject o;
        for (size_t i = 0; i < node.keys.size(); ++i)
            o.insert(node.keys[i], toQJsonValue(node.items[i]));
        return o;
    }
    }
    return {};
}
} // namespace moewb::importers
