#include "anatomy/digest/TraceJson.h"


#include <charconv>
#include <cmath>
#include <cstring>

namespace moewb::anatomy::digest {

namespace {

struct CharTables {
    bool stringStop[256] = {}; // '"', '\\' and control characters (NUL included)
    bool scalar[256] = {};     // what numbers and true/false/null are written with
    CharTables() {
        for (int c = 0; c < 0x20; ++c)
            stringStop[c] = true;
        stringStop[int('"')] = stringStop[int('\\')] = true;
        for (const char* s = "0123456789+-.eEabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"; *s; ++s)
            scalar[std::uint8_t(*s)] = true;
    }
};
const CharTables kChars;

inline bool isDigit(char c) { return std::uint8_t(c - '0') < 10; }

constexpr int kMaxDepth = 256;
// The largest µs value whose ns fit a std::int64_t (9e15 µs: about year 2255 as a Unix time).
constexpr std::int64_t kMaxMicros = 9'000'000'000'000'000LL;

void appendUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

int hexValue(char c) {
    if (isDigit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool keyIs(std::string_view key, const char* literal) { return std::memcmp(key.data(), literal, key.size()) == 0; }

} // namespace

TraceJson::Status TraceJson::fail(const char* at, const char*, const std::string& message) {
    m_error = message;
    m_errorAt = at;
    m_errorField.clear();
    if (!m_field.empty())
        m_errorField = (m_inArgs ? std::string("args.") : std::string()) + std::string(m_field);
    return Status::Error;
}

TraceJson::Status TraceJson::needOrFail(const char* at, const char* end, const char* source) {
    if (at >= end)
        return Status::NeedMore;
    if (*at == '\0')
        return fail(at, end, m_texts(QT_TRANSLATE_NOOP("Anatomy", "a NUL byte in the JSON text")));
    return fail(at, end, source ? m_texts(source) : std::string());
}

TraceJson::Status TraceJson::readString(const char* p, const char* end, std::string_view& text, const char*& after,
                                        int slot) {
    const char* q = p + 1;
    while (!kChars.stringStop[std::uint8_t(*q)])
        ++q;
    if (*q == '"') {
        text = std::string_view(p + 1, size_t(q - p - 1));
        after = q + 1;
        return Status::Ok;
    }
    if (*q == '\\')
        return decodeString(p, end, text, after, slot);
    return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a control character inside a string (JSON error)"));
}

TraceJson::Status TraceJson::decodeString(const char* p, const char* end, std::string_view& text, const char*& after,
                                          int slot) {
    std::string& out = m_scratch[size_t(slot)];
    out.clear();
    const char* q = p + 1;
    for (;;) {
        const char* run = q;
        while (!kChars.stringStop[std::uint8_t(*q)])
            ++q;
        out.append(run, size_t(q - run));
        if (*q == '"') {
            text = out;
            after = q + 1;
            return Status::Ok;
        }
        if (*q != '\\')
            return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a control character inside a string (JSON error)"));
        const char e = q[1];
        if (e == '\0' && q + 1 >= end)
            return Status::NeedMore;
        q += 2;
        switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
            auto hex4 = [&](const char* h, std::uint32_t& v) -> int { // 1 ok, 0 need more, -1 bad
                v = 0;
                for (int i = 0; i < 4; ++i) {
                    if (h + i >= end)
                        return 0;
                    const int d = hexValue(h[i]);
                    if (d < 0)
                        return -1;
                    v = v * 16 + std::uint32_t(d);
                }
                return 1;
            };
            std::uint32_t cp = 0;
            const int r = hex4(q, cp);
            if (r == 0)
                return Status::NeedMore;
            if (r < 0)
                return fail(q, end, m_texts(QT_TRANSLATE_NOOP("Anatomy", "a bad \\u escape (JSON error)")));
            q += 4;
            if (cp >= 0xD800 && cp < 0xDC00) {
                if (q + 1 >= end)
                    return Status::NeedMore;
                std::uint32_t low = 0;
                if (q[0] == '\\' && q[1] == 'u') {
                    const int r2 = hex4(q + 2, low);
                    if (r2 == 0)
                        return Status::NeedMore;
                    if (r2 > 0 && low >= 0xDC00 && low < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        q += 6;
                    } else {
                        cp = 0xFFFD;
                    }
                } else {
                    cp = 0xFFFD;
                }
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            appendUtf8(out, cp);
            break;
        }
        default:
            return fail(q - 2, end, m_texts(QT_TRANSLATE_NOOP("Anatomy", "a bad escape in a string (JSON error)")));
        }
    }
}

TraceJson::Status TraceJson::skipValue(const char* p, const char* end, const char*& after) {
    const char* q = skipSpace(p);
    const char c = *q;
    if (c == '"') {
        ++q;
        for (;;) {
            while (!kChars.stringStop[std::uint8_t(*q)])
                ++q;
            if (*q == '"')
                break;
            if (*q != '\\')
                return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a control character inside a string (JSON error)"));
            if (q + 1 >= end)
                return Status::NeedMore;
            q += 2;
        }
        after = q + 1;
        return Status::Ok;
    }
    if (c == '{' || c == '[') {
        char closers[kMaxDepth];
        int depth = 0;
        for (;;) {
            const char d = *q;
            if (d == '"') {
                // Strings inside skipped values: only their end matters.
                ++q;
                for (;;) {
                    while (!kChars.stringStop[std::uint8_t(*q)])
                        ++q;
                    if (*q == '"')
                        break;
                    if (*q != '\\')
                        return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a control character inside a string (JSON error)"));
                    if (q + 1 >= end)
                        return Status::NeedMore;
                    q += 2;
                }
                ++q;
            } else if (d == '{' || d == '[') {
                if (depth == kMaxDepth)
                    return fail(q, end, m_texts(QT_TRANSLATE_NOOP("Anatomy", "nested deeper than %1 levels"), {number(kMaxDepth)}));
                closers[depth++] = d == '{' ? '}' : ']';
                ++q;
            } else if (d == '}' || d == ']') {
                if (closers[depth - 1] != d)
                    return fail(q, end, m_texts(QT_TRANSLATE_NOOP("Anatomy", "'%1' was expected (JSON error)"),
                                                {std::string_view(&closers[depth - 1], 1)}));
                ++q;
                if (--depth == 0)
                    break;
            } else if (d == '\0') {
                return needOrFail(q, end, nullptr);
            } else {
                ++q;
            }
        }
        after = q;
        return Status::Ok;
    }
    const char* s = q;
    while (kChars.scalar[std::uint8_t(*q)])
        ++q;
    if (q == s)
        return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a value was expected (JSON error)"));
    if (q >= end)
        return Status::NeedMore; // the number may go on in the next block
    after = q;
    return Status::Ok;
}

TraceJson::Status TraceJson::readMicrosAsNs(const char* p, const char* end, std::int64_t& ns, const char*& after) {
    const char* q = p;
    const bool negative = *q == '-';
    if (negative)
        ++q;
    if (!isDigit(*q))
        return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a number was expected"));
    std::int64_t whole = 0;
    int digits = 0;
    while (isDigit(*q)) {
        if (++digits <= 17)
            whole = whole * 10 + (*q - '0');
        ++q;
    }
    std::int64_t fraction = 0;
    int fractionDigits = 0;
    bool roundUp = false;
    if (*q == '.') {
        ++q;
        if (!isDigit(*q))
            return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a digit was expected after '.'"));
        while (isDigit(*q)) {
            if (fractionDigits < 3)
                fraction = fraction * 10 + (*q - '0');
            else if (fractionDigits == 3)
                roundUp = *q >= '5';
            ++fractionDigits;
            ++q;
        }
        for (int i = fractionDigits; i < 3; ++i)
            fraction *= 10;
    }
    if (*q == 'e' || *q == 'E') {
        ++q;
        if (*q == '+' || *q == '-')
            ++q;
        while (isDigit(*q))
            ++q;
        if (q >= end)
            return Status::NeedMore;
        double v = 0;
        const auto r = std::from_chars(p, q, v);
        if (r.ec != std::errc() || r.ptr != q || !std::isfinite(v) || std::fabs(v) > double(kMaxMicros))
            return fail(p, end, m_texts(QT_TRANSLATE_NOOP("Anatomy", "the number %1 is out of range"), {std::string_view(p, size_t(q - p))}));
        ns = std::int64_t(std::llround(v * 1000.0));
        after = q;
        return Status::Ok;
    }
    if (q >= end)
        return Status::NeedMore;
    if (digits > 16 || whole > kMaxMicros)
        return fail(p, end, m_texts(QT_TRANSLATE_NOOP("Anatomy", "the number %1 is out of range"), {std::string_view(p, size_t(q - p))}));
    ns = whole * 1000 + fraction + (roundUp ? 1 : 0);
    if (negative)
        ns = -ns;
    after = q;
    return Status::Ok;
}

TraceJson::Status TraceJson::readInteger(const char* p, const char* end, std::int64_t& value, const char*& after) {
    const char* q = p;
    const bool negative = *q == '-';
    if (negative)
        ++q;
    if (!isDigit(*q))
        return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a number was expected"));
    std::uint64_t v = 0;
    int digits = 0;
    while (isDigit(*q)) {
        v = v * 10 + std::uint64_t(*q - '0');
        ++digits;
        ++q;
    }
    bool plain = true;
    if (*q == '.' || *q == 'e' || *q == 'E') {
        plain = false;
        while (kChars.scalar[std::uint8_t(*q)])
            ++q;
    }
    if (q >= end)
        return Status::NeedMore;
    if (plain && digits <= 18) {
        value = negative ? -std::int64_t(v) : std::int64_t(v);
    } else {
        double d = 0;
        const auto r = std::from_chars(p, q, d);
        if (r.ec != std::errc() || !std::isfinite(d) || std::fabs(d) > 9.2e18)
            return fail(p, end, m_texts(QT_TRANSLATE_NOOP("Anatomy", "the number %1 is out of range"), {std::string_view(p, size_t(q - p))}));
        value = std::int64_t(std::llround(d));
    }
    after = q;
    return Status::Ok;
}

TraceJson::Status TraceJson::readArgInteger(const char* p, const char* end, std::int64_t& value, const char*& after) {
    if (*p == '"') { // some writers quote numbers
        std::string_view text;
        const Status s = readString(p, end, text, after, SlotNumber);
        if (s != Status::Ok)
            return s;
        std::int64_t v = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
        if (r.ec == std::errc() && r.ptr == text.data() + text.size())
            value = v;
        return Status::Ok;
    }
    if (*p == '-' || isDigit(*p))
        return readInteger(p, end, value, after);
    return skipValue(p, end, after); // null and the like: unknown
}

TraceJson::Status TraceJson::readArgText(const char* p, const char* end, std::string_view& text, const char*& after,
                                         int slot) {
    if (*p == '"')
        return readString(p, end, text, after, slot);
    const Status s = skipValue(p, end, after);
    if (s == Status::Ok)
        text = std::string_view(p, size_t(after - p));
    return s;
}

TraceJson::Status TraceJson::readArgs(const char* p, const char* end, TraceEvent& event, const char*& after) {
    if (*p != '{')
        return skipValue(p, end, after);
    m_inArgs = true;
    const char* q = skipSpace(p + 1);
    if (*q == '}') {
        after = q + 1;
        m_inArgs = false;
        return Status::Ok;
    }
    for (;;) {
        if (*q != '"')
            return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a key (a string) was expected (JSON error)"));
        std::string_view key;
        Status s = readString(q, end, key, q, SlotKey);
        if (s != Status::Ok)
            return s;
        m_field = key;
        q = skipSpace(q);
        if (*q != ':')
            return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "':' was expected after the key (JSON error)"));
        q = skipSpace(q + 1);
        std::int64_t number = 0;
        switch (key.size()) {
        case 3:
            s = keyIs(key, "Seq") ? readArgInteger(q, end, event.seq, q) : skipValue(q, end, q);
            break;
        case 5:
            s = keyIs(key, "dtype") ? readArgText(q, end, event.dtype, q, SlotDtype) : skipValue(q, end, q);
            break;
        case 10:
            s = keyIs(key, "Group size") ? readArgInteger(q, end, event.groupSize, q) : skipValue(q, end, q);
            break;
        case 11:
            if (keyIs(key, "correlation")) {
                number = -1;
                s = readArgInteger(q, end, number, q);
                if (s == Status::Ok && number >= 0) {
                    event.hasCorrelation = true;
                    event.correlation = std::uint64_t(number);
                }
            } else if (keyIs(key, "External id")) {
                number = -1;
                s = readArgInteger(q, end, number, q);
                if (s == Status::Ok && number >= 0) {
                    event.hasExternalId = true;
                    event.externalId = number;
                }
            } else {
                s = skipValue(q, end, q);
            }
            break;
        case 13:
            if (keyIs(key, "In msg nelems"))
                s = readArgInteger(q, end, event.inNelems, q);
            else if (keyIs(key, "In split size"))
                s = readArgText(q, end, event.inSplit, q, SlotSplit);
            else
                s = skipValue(q, end, q);
            break;
        case 14:
            s = keyIs(key, "Out msg nelems") ? readArgInteger(q, end, event.outNelems, q) : skipValue(q, end, q);
            break;
        case 15:
            s = keyIs(key, "Collective name") ? readArgText(q, end, event.collective, q, SlotCollective)
                                               : skipValue(q, end, q);
            break;
        case 18:
            s = keyIs(key, "Process Group Name") ? readArgText(q, end, event.pgName, q, SlotPgName)
                                                  : skipValue(q, end, q);
            break;
        case 19:
            s = keyIs(key, "Process Group Ranks") ? readArgText(q, end, event.pgRanks, q, SlotPgRanks)
                                                   : skipValue(q, end, q);
            break;
        case 25:
            s = keyIs(key, "Process Group Description") ? readArgText(q, end, event.pgDesc, q, SlotPgDesc)
                                                         : skipValue(q, end, q);
            break;
        default:
            s = skipValue(q, end, q);
        }
        if (s != Status::Ok)
            return s;
        q = skipSpace(q);
        if (*q == ',') {
            q = skipSpace(q + 1);
            continue;
        }
        if (*q == '}') {
            after = q + 1;
            m_inArgs = false;
            m_field = "args";
            return Status::Ok;
        }
        return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "',' or '}' was expected (JSON error)"));
    }
}

TraceJson::Status TraceJson::parseEvent(const char* p, const char* end, TraceEvent& event, const char*& after) {
    event = TraceEvent{};
    m_field = {};
    m_inArgs = false;
    if (*p != '{')
        return needOrFail(p, end, QT_TRANSLATE_NOOP("Anatomy", "an event (a JSON object) was expected"));
    const char* q = skipSpace(p + 1);
    if (*q == '}') {
        after = q + 1;
        return Status::Ok;
    }
    for (;;) {
        if (*q != '"')
            return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "a key (a string) was expected (JSON error)"));
        std::string_view key;
        Status s = readString(q, end, key, q, SlotKey);
        if (s != Status::Ok)
            return s;
        m_field = key;
        q = skipSpace(q);
        if (*q != ':')
            return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "':' was expected after the key (JSON error)"));
        q = skipSpace(q + 1);
        const bool isString = *q == '"';
        switch (key.size()) {
        case 2:
            if (keyIs(key, "ph") && isString) {
                s = readString(q, end, event.ph, q, SlotPh);
            } else if (keyIs(key, "ts") && !isString) {
                s = readMicrosAsNs(q, end, event.ts, q);
                event.hasTs = s == Status::Ok;
            } else {
                s = skipValue(q, end, q);
            }
            break;
        case 3:
            if (keyIs(key, "cat") && isString) {
                s = readString(q, end, event.cat, q, SlotCat);
            } else if (keyIs(key, "dur") && !isString) {
                s = readMicrosAsNs(q, end, event.dur, q);
                event.hasDur = s == Status::Ok;
            } else if (keyIs(key, "tid")) {
                const char* from = q;
                s = isString ? readString(q, end, event.tid, q, SlotTid) : skipValue(q, end, q);
                if (s == Status::Ok && !isString)
                    event.tid = std::string_view(from, size_t(q - from));
            } else {
                s = skipValue(q, end, q);
            }
            break;
        case 4:
            if (keyIs(key, "name") && isString)
                s = readString(q, end, event.name, q, SlotName);
            else if (keyIs(key, "args"))
                s = readArgs(q, end, event, q);
            else
                s = skipValue(q, end, q);
            break;
        default:
            s = skipValue(q, end, q);
        }
        if (s != Status::Ok)
            return s;
        q = skipSpace(q);
        if (*q == ',') {
            q = skipSpace(q + 1);
            continue;
        }
        if (*q == '}') {
            after = q + 1;
            m_field = {};
            return Status::Ok;
        }
        return needOrFail(q, end, QT_TRANSLATE_NOOP("Anatomy", "',' or '}' was expected (JSON error)"));
    }
}

} // namespace moewb::anatomy::digest
