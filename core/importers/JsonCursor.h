#pragma once
// A strict, allocation-free JSON reader over a byte range that keeps the line
// number: the fast JSONL importers pull values straight into their output, and
// JsonTree builds located documents on top of it. NaN and Infinity (not JSON) are
// reported as non-finite numbers rather than as bare syntax errors.
#include "importers/ImportSupport.h"

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

    // JSONL: a newline ends the input (it is not consumed); the reader then moves on
    // to the next line itself. Cheaper than finding each line's end first.
    void setStopAtNewline(bool stop) { m_stopAtNewline = stop; }

    // Skips white space; the next byte, or 0 at the end.
    char peek() {
        skipSpace();
        return m_pos < m_end && !(m_stopAtNewline && *m_pos == '\n') ? *m_pos : 0;
    }
    bool consume(char c) {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    bool atEnd() { return peek() == 0 && (m_pos >= m_end || (m_stopAtNewline && *m_pos == '\n')); }

    // A string. `raw` views the source when there are no escapes (then `decoded` is
    // untouched), else `decoded` holds the UTF-8 text and `raw` views it.
    bool readString(std::string_view& raw, std::string& decoded);
    bool readNumber(JsonNumber& number);
    // A non-negative integer written as plain digits (fast path); other numbers
    // are refused with a message naming what was found.
    bool readUnsigned(quint64& value);
    bool readLiteral(const char* word); // true, false, null
    // The rest of an array of non-negative integers, its '[' already consumed, up to and
    // including ']': sink(index, value) per element (false from sink stops, with the
    // sink's fail() message). Plain digits on one line take a tight loop; anything else
    // (white space across lines, fractions, errors) goes through readUnsigned.
    template <typename Sink>
    bool readUnsignedArrayRest(Sink&& sink);
    bool skipValue(int depth = 0);
    // One JSONL line's object, the cursor at its start: '{', per member its key, ':' and
    // member(key) reading the value (or skipValue()), '}', then nothing else on the line.
    // `field` views the key being read (empty outside a member) for messages. False on
    // error, error() saying why; a member gives its own message with fail(message, true).
    template <typename Member>
    bool readLineObject(std::string& keyScratch, std::string_view& field, Member&& member);

    qint64 line() const { return m_line; }
    qint64 column() const;
    const QString& error() const { return m_error; }
    // The JSON path of the value being read when the error happened ("results[2].time_us").
    const QString& errorPath() const { return m_errorPath; }
    void prependErrorPath(const QString& step) {
        if (m_errorPath.isEmpty() || m_errorPath.startsWith(QLatin1Char('[')))
            m_errorPath.prepend(step);
        else
            m_errorPath.prepend(step + QLatin1Char('.'));
    }
    bool failed() const { return !m_error.isEmpty(); }
    // Records the first error at the current position. When the input ends there, ", but
    // the input ends here (truncated)" is added unless saysEnd (the message says so itself).
    bool fail(const QString& message, bool saysEnd = false);
    const char* position() const { return m_pos; }
    std::string_view rest() const { return std::string_view(m_pos, size_t(m_end - m_pos)); }

    static constexpr int kMaxDepth = 256;

    // Where the cursor is, to come back to after a look-ahead that found no error
    // (restore() also clears any error the look-ahead recorded).
    struct State {
        const char* pos;
        const char* lineStart;
        qint64 line;
    };
    State state() const { return {m_pos, m_lineStart, m_line}; }
    void restore(const State& s) {
        m_pos = s.pos;
        m_lineStart = s.lineStart;
        m_line = s.line;
        m_error.clear();
        m_errorPath.clear();
    }

private:
    void skipSpace() {
        while (m_pos < m_end) {
            const char c = *m_pos;
            if (c == '\n') {
                if (m_stopAtNewline)
                    break;
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
    QString m_errorPath;
    bool m_stopAtNewline = false;
};

template <typename Member>
bool JsonCursor::readLineObject(std::string& keyScratch, std::string_view& field, Member&& member) {
    field = {};
    if (!consume('{'))
        return fail(ImportTr::tr("a JSON object was expected at the start of the line"), true);
    if (peek() != '}') {
        do {
            field = {};
            if (peek() != '"')
                return fail(ImportTr::tr("a key (a string) was expected"), true);
            std::string_view key;
            if (!readString(key, keyScratch))
                return false;
            field = key;
            if (!consume(':'))
                return fail(ImportTr::tr("':' was expected after the key"), true);
            if (!member(key))
                return false;
        } while (consume(','));
    }
    field = {};
    if (!consume('}'))
        return fail(peek() ? ImportTr::tr("',' or '}' was expected")
                           : ImportTr::tr("the line ends inside the object (truncated)"),
                    true);
    if (!atEnd())
        return fail(ImportTr::tr("unexpected text after the object"), true);
    return true;
}

template <typename Sink>
bool JsonCursor::readUnsignedArrayRest(Sink&& sink) {
    qint64 index = 0;
    const char* p = m_pos;
    const char* const end = m_end;
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (p < end && blank(*p))
        ++p;
    if (p < end && *p == ']') {
        m_pos = p + 1;
        return true;
    }
    // Fast loop: "123, 45, 6]".
    bool atElement = true; // where the fast loop stopped: before an element, or after one
    while (p < end) {
        const char* start = p;
        const char* const digitsEnd = end - p > 18 ? p + 18 : end; // at most 18 digits: no overflow
        quint64 v = 0;
        while (p < digitsEnd && quint8(*p - '0') < 10)
            v = v * 10 + quint64(*p++ - '0');
        if (p == start || (p < end && (quint8(*p - '0') < 10 || *p == '.' || *p == 'e' || *p == 'E')) ||
            (*start == '0' && p - start > 1)) {
            p = start; // not a plain small integer: the general path reads it or says why not
            break;
        }
        if (!sink(index++, v)) {
            m_pos = p;
            return false;
        }
        while (p < end && blank(*p))
            ++p;
        if (p < end && *p == ',') {
            ++p;
            while (p < end && blank(*p))
                ++p;
            continue;
        }
        if (p < end && *p == ']') {
            m_pos = p + 1;
            return true;
        }
        atElement = false; // newline, end of input or a stray character
        break;
    }
    m_pos = p;
    // General path (line counting, error messages).
    if (!atElement) {
        if (consume(']'))
            return true;
        if (!consume(','))
            return fail(ImportTr::tr("',' or ']' was expected"));
    } else if (index == 0 && consume(']')) {
        return true;
    }
    do {
        quint64 v = 0;
        if (!readUnsigned(v))
            return false;
        if (!sink(index++, v))
            return false;
    } while (consume(','));
    return consume(']') || fail(ImportTr::tr("',' or ']' was expected"));
}

} // namespace moewb::importers
