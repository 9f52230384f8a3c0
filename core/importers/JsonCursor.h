#pragma once
// A strict, allocation-free JSON reader over a byte range that keeps the line
// number: the fast JSONL importers pull values straight into their output, and
// JsonTree builds located documents on top of it. NaN and Infinity (not JSON) are
// reported as non-finite numbers rather than as bare syntax errors.
#include <QString>

#include <string>
#include <string_view>

namespace moewb::importers {

struct JsonNumber {
    double value = 0;
    bool integral = false; // written without fraction or exponent and fits in qint64
    qint64 integer = 0;
};

class JsonCursor {
public:
    JsonCursor(const char* begin, const char* end, qint64 line = 1) : m_begin(begin), m_pos(begin), m_end(end), m_line(line) {}

    // Skips white space; the next byte, or 0 at the end.
    char peek() {
        skipSpace();
        return m_pos < m_end ? *m_pos : 0;
    }
    bool consume(char c) {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    bool atEnd() { return peek() == 0 && m_pos >= m_end; }

    // A string. `raw` views the source when there are no escapes (then `decoded` is
    // untouched), else `decoded` holds the UTF-8 text and `raw` views it.
    bool readString(std::string_view& raw, std::string& decoded);
    bool readNumber(JsonNumber& number);
    // A non-negative integer written as plain digits (fast path); other numbers
    // are refused with a message naming what was found.
    bool readUnsigned(quint64& value);
    bool readLiteral(const char* word); // true, false, null
    bool skipValue(int depth = 0);

    qint64 line() const { return m_line; }
    qint64 column() const;
    const QString& error() const { return m_error; }
    bool failed() const { return !m_error.isEmpty(); }
    // Records the first error at the current position.
    bool fail(const QString& message);
    const char* position() const { return m_pos; }
    std::string_view rest() const { return std::string_view(m_pos, size_t(m_end - m_pos)); }

    static constexpr int kMaxDepth = 256;

private:
    void skipSpace() {
        while (m_pos < m_end) {
            const char c = *m_pos;
            if (c == '\n') {
                ++m_line;
                m_lineStart = m_pos + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                break;
            }
            ++m_pos;
        }
    }

    const char* m_begin;
    const char* m_pos;
    const char* m_end;
    const char* m_lineStart = nullptr;
    qint64 m_line;
    QString m_error;
};

} // namespace moewb::importers
