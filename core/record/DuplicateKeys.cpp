#include "record/DuplicateKeys.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

namespace moewb::record {
namespace {

struct Frame {
    bool object = false;
    bool expectKey = false;     // object: the next string is a key
    QString path;               // this container's path
    QString currentKey;         // object: the key whose value is being read
    int index = 0;              // array: the element being read
    QHash<QString, int> keyLines; // object: key -> line of its first occurrence
};

// The raw string token at `i` (opening quote) decoded; `i` ends past the closing quote.
QString readString(const QByteArray& text, qsizetype& i, int& line) {
    const qsizetype start = i++;
    bool escaped = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n')
            ++line; // cannot occur in valid JSON; kept for safety
        if (escaped) {
            escaped = false;
        } else if (c == '\\') {
            escaped = true;
        } else if (c == '"') {
            ++i;
            break;
        }
    }
    const QByteArray raw = text.mid(start, i - start);
    if (!raw.contains('\\'))
        return QString::fromUtf8(raw.mid(1, raw.size() - 2));
    const QJsonDocument doc = QJsonDocument::fromJson('[' + raw + ']');
    return doc.array().at(0).toString();
}

QString childPath(const Frame& parent) {
    if (parent.object)
        return parent.path.isEmpty() ? parent.currentKey : parent.path + QLatin1Char('.') + parent.currentKey;
    return parent.path + QStringLiteral("[%1]").arg(parent.index);
}

} // namespace

QList<FieldIssue> duplicateKeyIssues(const QByteArray& utf8) {
    QList<FieldIssue> issues;
    QList<Frame> stack;
    int line = 1;
    for (qsizetype i = 0; i < utf8.size();) {
        const char c = utf8[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (c == '{' || c == '[') {
            Frame f;
            f.object = c == '{';
            f.expectKey = f.object;
            f.path = stack.isEmpty() ? QString() : childPath(stack.last());
            stack.append(f);
            ++i;
        } else if (c == '}' || c == ']') {
            if (!stack.isEmpty())
                stack.removeLast();
            ++i;
        } else if (c == ',') {
            if (!stack.isEmpty()) {
                if (stack.last().object)
                    stack.last().expectKey = true;
                else
                    ++stack.last().index;
            }
            ++i;
        } else if (c == '"') {
            const int keyLine = line;
            const QString s = readString(utf8, i, line);
            if (!stack.isEmpty() && stack.last().object && stack.last().expectKey) {
                Frame& f = stack.last();
                f.expectKey = false;
                f.currentKey = s;
                const auto first = f.keyLines.constFind(s);
                if (first != f.keyLines.constEnd()) {
                    const QString owner = f.path.isEmpty()
                                              ? QCoreApplication::translate("RecordJson", "the record")
                                              : f.path;
                    issues.append({childPath(f), QCoreApplication::translate(
                                                     "RecordJson",
                                                     "line %1: key \"%2\" of %3 appears again (first on line %4); "
                                                     "a key may appear only once")
                                                     .arg(keyLine)
                                                     .arg(s, owner)
                                                     .arg(*first)});
                } else {
                    f.keyLines.insert(s, keyLine);
                }
            }
        } else {
            ++i;
        }
    }
    return issues;
}

} // namespace moewb::record
