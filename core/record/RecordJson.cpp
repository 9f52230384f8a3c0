#include "record/RecordJson.h"

#include "record/DuplicateKeys.h"
#include "record/JsonValueText.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace moewb::record {

TextPosition textPositionAt(const QByteArray& utf8, qsizetype byteOffset) {
    TextPosition pos;
    const qsizetype end = std::clamp<qsizetype>(byteOffset, 0, utf8.size());
    for (qsizetype i = 0; i < end; ++i) {
        const auto byte = static_cast<unsigned char>(utf8[i]);
        if (byte == '\n') {
            ++pos.line;
            pos.column = 1;
        } else if ((byte & 0xC0) != 0x80) { // count characters, not UTF-8 continuation bytes
            ++pos.column;
        }
    }
    return pos;
}

ParsedRecord parseRecord(const QByteArray& bytes) {
    ParsedRecord parsed;
    if (bytes.trimmed().isEmpty()) {
        parsed.issues.append(
            {QString(), QCoreApplication::translate("RecordJson", "line 1, column 1: the file is "
                                                                  "empty; a config record is a "
                                                                  "JSON object")});
        return parsed;
    }
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        // Qt reports the offset just past the character it stopped at, except for
        // trailing garbage, where it points at the garbage itself.
        qsizetype offset = error.offset;
        if (error.error != QJsonParseError::GarbageAtEnd && offset > 0)
            --offset;
        const TextPosition pos = textPositionAt(bytes, offset);
        parsed.issues.append({QString(), QCoreApplication::translate("RecordJson", "line %1, column %2: %3")
                                             .arg(pos.line)
                                             .arg(pos.column)
                                             .arg(error.errorString())});
        return parsed;
    }
    if (!doc.isObject()) {
        const QJsonValue top = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue();
        parsed.issues.append({QString(), QCoreApplication::translate(
                                             "RecordJson", "a config record must be a JSON object, got %1")
                                             .arg(describeJsonValue(top))});
        return parsed;
    }
    // QJsonDocument keeps the last of two equal keys; a record refuses them.
    parsed.issues = duplicateKeyIssues(bytes);
    if (!parsed.issues.isEmpty())
        return parsed;
    parsed.record = ConfigRecord::fromJson(doc.object(), &parsed.issues);
    return parsed;
}

QByteArray recordToBytes(const ConfigRecord& record) {
    return QJsonDocument(record.toJson()).toJson(QJsonDocument::Indented);
}

} // namespace moewb::record
