#include "importers/JsonCursor.h"

#include "importers/ImportSupport.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace moewb::importers {

qint64 JsonCursor::column() const {
    const char* start = m_lineStart ? m_lineStart : m_begin;
    return qint64(m_pos - start) + 1;
}

bool JsonCursor::fail(const QString& message, bool saysEnd) {
    if (m_error.isEmpty()) {
        m_error = message;
        // Decided by the caller, not by reading the message: translated text says it in other words.
        if (!saysEnd && (m_pos >= m_end || (m_stopAtNewline && *m_pos == '\n')))
            m_error += ImportTr::tr(", but the input ends here (truncated)");
    }
    return false;
}

namespace {

void appendUtf8(std::string& out, quint32 cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

bool JsonCursor::readString(std::string_view& raw, std::string& decoded) {
    if (!consume('"'))
        return fail(ImportTr::tr("a string was expected"));
    const char* start = m_pos;
    // Fast path: no escapes.
    while (m_pos < m_end && *m_pos != '"' && *m_pos != '\\' && static_cast<unsigned char>(*m_pos) >= 0x20)
        ++m_pos;
    if (m_pos < m_end && *m_pos == '"') {
        raw = std::string_view(start, size_t(m_pos - start));
        ++m_pos;
        return true;
    }
    decoded.assign(start, size_t(m_pos - start));
    while (m_pos < m_end) {
        const char c = *m_pos;
        if (c == '"') {
            ++m_pos;
            raw = decoded;
            return true;
        }
        if (static_cast<unsigned char>(c) < 0x20)
            return fail(c == '\n' ? ImportTr::tr("the string is not closed before the end of the line")
                                  : ImportTr::tr("a control character inside a string"));
        if (c != '\\') {
            decoded += c;
            ++m_pos;
            continue;
        }
        if (m_end - m_pos < 2)
            break;
        const char e = m_pos[1];
        m_pos += 2;
        switch (e) {
        case '"': decoded += '"'; break;
        case '\\': decoded += '\\'; break;
        case '/': decoded += '/'; break;
        case 'b': decoded += '\b'; break;
        case 'f': decoded += '\f'; break;
        case 'n': decoded += '\n'; break;
        case 'r': decoded += '\r'; break;
        case 't': decoded += '\t'; break;
        case 'u': {
            auto hex4 = [this](quint32& cp) {
                if (m_end - m_pos < 4)
                    return false;
                cp = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = hexValue(m_pos[i]);
                    if (h < 0)
                        return false;
                    cp = cp * 16 + quint32(h);
                }
                m_pos += 4;
                return true;
            };
            quint32 cp = 0;
            if (!hex4(cp))
                return fail(ImportTr::tr("a bad \\u escape in a string"));
            if (cp >= 0xD800 && cp < 0xDC00) {
                quint32 low = 0;
                if (m_end - m_pos >= 2 && m_pos[0] == '\\' && m_pos[1] == 'u') {
                    m_pos += 2;
                    if (!hex4(low) || low < 0xDC00 || low > 0xDFFF)
                        return fail(ImportTr::tr("a bad surrogate pair in a string"));
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else {
                    return fail(ImportTr::tr("a bad surrogate pair in a string"));
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return fail(ImportTr::tr("a bad surrogate pair in a string"));
            }
            appendUtf8(decoded, cp);
            break;
        }
        default:
            return fail(ImportTr::tr("an unknown escape \\%1 in a string").arg(QLatin1Char(e)));
        }
    }
    return fail(ImportTr::tr("the string is not closed (the file ends inside it)"), true);
}

bool JsonCursor::readNumber(JsonNumber& number) {
    const char first = peek();
    const char* start = m_pos;
    const char* p = m_pos;
    if (p < m_end && *p == '-')
        ++p;
    if (p < m_end && (*p == 'N' || *p == 'I' || *p == 'n' || *p == 'i')) {
        const char* word = p;
        while (word < m_end && ((*word >= 'a' && *word <= 'z') || (*word >= 'A' && *word <= 'Z')))
            ++word;
        return fail(ImportTr::tr("is not finite (%1): NaN and infinity are refused")
                        .arg(excerpt(std::string_view(start, size_t(word - start)))));
    }
    if (p >= m_end || *p < '0' || *p > '9')
        return fail(first ? ImportTr::tr("a value was expected, found \"%1\"")
                                .arg(excerpt(std::string_view(start, size_t(std::min<qint64>(m_end - start, 12)))))
                          : ImportTr::tr("a value was expected, found the end of the input"),
                !first);
    if (*p == '0' && p + 1 < m_end && p[1] >= '0' && p[1] <= '9')
        return fail(ImportTr::tr("a number may not start with 0"));
    while (p < m_end && *p >= '0' && *p <= '9')
        ++p;
    bool integral = true;
    if (p < m_end && *p == '.') {
        integral = false;
        ++p;
        if (p >= m_end || *p < '0' || *p > '9')
            return fail(ImportTr::tr("digits must follow the decimal point"));
        while (p < m_end && *p >= '0' && *p <= '9')
            ++p;
    }
    if (p < m_end && (*p == 'e' || *p == 'E')) {
        integral = false;
        ++p;
        if (p < m_end && (*p == '+' || *p == '-'))
            ++p;
        if (p >= m_end || *p < '0' || *p > '9')
            return fail(ImportTr::tr("digits must follow the exponent"));
        while (p < m_end && *p >= '0' && *p <= '9')
            ++p;
    }
    number.integral = false;
    if (integral) {
        qint64 v = 0;
        const auto r = std::from_chars(start, p, v);
        if (r.ec == std::errc() && r.ptr == p) {
            number.integral = true;
            number.integer = v;
            number.value = double(v);
            m_pos = p;
            return true;
        }
    }
    double d = 0;
    const auto r = std::from_chars(start, p, d);
    if (r.ec == std::errc::result_out_of_range || (r.ec == std::errc() && !std::isfinite(d)))
        return fail(ImportTr::tr("is out of range (not finite): %1")
                        .arg(excerpt(std::string_view(start, size_t(p - start)))));
    if (r.ec != std::errc() || r.ptr != p)
        return fail(ImportTr::tr("is not a number: \"%1\"").arg(excerpt(std::string_view(start, size_t(p - start)))));
    number.value = d;
    m_pos = p;
    return true;
}

bool JsonCursor::readUnsigned(quint64& value) {
    peek();
    const char* p = m_pos;
    quint64 v = 0;
    int digits = 0;
    while (p < m_end && *p >= '0' && *p <= '9' && digits < 19) {
        v = v * 10 + quint64(*p - '0');
        ++p;
        ++digits;
    }
    if (digits > 0 && !(digits > 1 && *m_pos == '0') &&
        (p >= m_end || (*p != '.' && *p != 'e' && *p != 'E' && (*p < '0' || *p > '9')))) {
        value = v;
        m_pos = p;
        return true;
    }
    switch (p < m_end ? *p : 0) {
    case '"': return fail(ImportTr::tr("must be a non-negative integer, got a string"));
    case '[': return fail(ImportTr::tr("must be a non-negative integer, got an array"));
    case '{': return fail(ImportTr::tr("must be a non-negative integer, got an object"));
    case 't':
    case 'f': return fail(ImportTr::tr("must be a non-negative integer, got a boolean"));
    default: break;
    }
    if (m_end - p >= 4 && memcmp(p, "null", 4) == 0)
        return fail(ImportTr::tr("must be a non-negative integer, got null"));
    JsonNumber n;
    if (!readNumber(n))
        return false;
    return fail(n.value < 0 ? ImportTr::tr("must be a non-negative integer, got %1").arg(n.value)
                            : ImportTr::tr("must be an integer, got %1").arg(n.value));
}

bool JsonCursor::readLiteral(const char* word) {
    peek();
    const size_t n = strlen(word);
    if (size_t(m_end - m_pos) >= n && memcmp(m_pos, word, n) == 0) {
        m_pos += n;
        return true;
    }
    return fail(ImportTr::tr("%1 was expected").arg(QLatin1String(word)));
}

bool JsonCursor::skipValue(int depth) {
    if (depth > kMaxDepth)
        return fail(ImportTr::tr("nested deeper than %1 levels").arg(kMaxDepth));
    std::string_view raw;
    std::string scratch;
    switch (peek()) {
    case '"':
        return readString(raw, scratch);
    case 't':
        return readLiteral("true");
    case 'f':
        return readLiteral("false");
    case 'n':
        return readLiteral("null");
    case '[':
        ++m_pos;
        if (consume(']'))
            return true;
        do {
            if (!skipValue(depth + 1))
                return false;
        } while (consume(','));
        return consume(']') || fail(ImportTr::tr("',' or ']' was expected"));
    case '{':
        ++m_pos;
        if (consume('}'))
            return true;
        do {
            if (!readString(raw, scratch))
                return false;
            if (!consume(':'))
                return fail(ImportTr::tr("':' was expected after a key"));
            if (!skipValue(depth + 1))
                return false;
        } while (consume(','));
        return consume('}') || fail(ImportTr::tr("',' or '}' was expected"));
    default: {
        JsonNumber n;
        return readNumber(n);
    }
    }
}

} // namespace moewb::importers
