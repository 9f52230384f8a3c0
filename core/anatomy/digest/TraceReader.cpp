#include "anatomy/digest/TraceReader.h"

#include "anatomy/digest/TraceDigest.h"
#include "anatomy/digest/TraceInput.h"
#include "anatomy/digest/TraceJson.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <new>
#include <limits>
#include <optional>
#include <type_traits>

namespace moewb::anatomy::digest {

using Status = TraceJson::Status;

namespace {

// Messages and fields are bounded (a key of a hostile file could be megabytes long),
// cut on a UTF-8 character boundary.
std::string clippedText(std::string text, size_t maxBytes) {
    if (text.size() <= maxBytes)
        return text;
    size_t cut = maxBytes;
    while (cut > 0 && (std::uint8_t(text[cut]) & 0xC0) == 0x80)
        --cut;
    text.resize(cut);
    text += "...";
    return text;
}
constexpr size_t kMaxFieldBytes = 400;
constexpr size_t kMaxMessageBytes = 2000;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

} // namespace

int rankFromFileName(const std::string& path) {
    // (?:^|[^A-Za-z])rank[-_]?(\d+), case-insensitive, on the name after the last '/'.
    const size_t slash = path.rfind('/');
    const std::string_view name = slash == std::string::npos ? std::string_view(path)
                                                             : std::string_view(path).substr(slash + 1);
    auto isAlpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    for (size_t i = 0; i + 4 <= name.size(); ++i) {
        if (i > 0 && isAlpha(name[i - 1]))
            continue;
        bool word = true;
        for (size_t k = 0; k < 4; ++k)
            word = word && char(name[i + k] | 0x20) == "rank"[k];
        if (!word)
            continue;
        size_t j = i + 4;
        if (j < name.size() && (name[j] == '-' || name[j] == '_') && j + 1 < name.size() && isDigit(name[j + 1]))
            ++j;
        size_t k = j;
        while (k < name.size() && isDigit(name[k]))
            ++k;
        if (k == j)
            continue;
        int rank = -1;
        const auto r = std::from_chars(name.data() + j, name.data() + k, rank);
        return r.ec == std::errc() ? rank : -1;
    }
    return -1;
}

namespace {

class TraceReader {
public:
    TraceReader(const std::string& path, const std::string& shown, const DigestOptions& options)
        : m_path(path), m_options(options), m_texts(options.texts) {
        m_out.shown = shown;
        m_json.setTexts(m_texts);
    }

    Expected<RankDigest, DigestFailure> read();

private:
    bool next(char& c);
    // `field` names the unit in messages: a string, or a callable making one (only
    // called on error: naming each of millions of events up front would cost).
    template <typename Parse, typename Field>
    bool parseUnit(Parse&& parse, const char*& after, Field&& field);
    bool readObjectTrace();
    bool readEventArray(const std::string& arrayField);
    template <typename Member>
    bool readMembers(const char*& q, const std::string& field, Member&& member);
    bool skipMember(const char*& q, const std::string& field);
    bool readDistributedInfo(const char* p, const std::string& field);
    bool readGroupConfig(const char*& q, const std::string& field);
    bool readLooseInteger(const char*& q, std::int64_t& value);
    bool readLooseText(const char*& q, std::string& text);
    bool expect(const char*& q, char c, const char* source, const std::string& field);
    bool failAt(const char* at, const std::string& field, const std::string& message);
    bool failJson(const std::string& field) {
        return failAt(m_json.errorAt(), field.empty() ? m_json.errorField() : field + '.' + m_json.errorField(),
                      m_json.error());
    }
    bool failInput() {
        m_error = m_in.error();
        return false;
    }

    std::string m_path;
    DigestOptions m_options;
    Texts m_texts;
    TraceInput m_in;
    TraceJson m_json;
    const char* m_p = nullptr;
    RankDigest m_out;
    GroupTable m_groups;
    std::optional<KinetoDigest> m_kineto;
    std::optional<LegacyDigest> m_legacy;
    DigestFailure m_error;
};

bool TraceReader::failAt(const char* at, const std::string& field, const std::string& message) {
    m_error = DigestFailure{m_out.shown, at ? m_in.lineAt(at) : 0, clippedText(field, kMaxFieldBytes),
                            clippedText(message, kMaxMessageBytes)};
    return false;
}

// Skips white space, reading on as needed: c is the next byte, 0 at the end of the file.
bool TraceReader::next(char& c) {
    for (;;) {
        m_p = TraceJson::skipSpace(m_p);
        if (m_p < m_in.end()) {
            c = *m_p;
            return true;
        }
        switch (m_in.refill(m_p)) {
        case TraceInput::Fill::More:
            m_p = m_in.begin();
            continue;
        case TraceInput::Fill::End:
            m_p = m_in.end();
            c = 0;
            return true;
        case TraceInput::Fill::Failed:
            return failInput();
        }
    }
}

// Runs parse(from, end, after) on the unit at m_p; when the unit runs past the window,
// the window moves to start at it, grows or reads on, and the unit is parsed again.
template <typename Parse, typename Field>
bool TraceReader::parseUnit(Parse&& parse, const char*& after, Field&& fieldOf) {
    for (;;) {
        const Status s = parse(m_p, m_in.end(), after);
        if (s == Status::Ok)
            return true;
        std::string field;
        if constexpr (std::is_invocable_v<Field>)
            field = fieldOf();
        else
            field = fieldOf;
        if (s == Status::Error) {
            const std::string f = m_json.errorField().empty() ? field
                                  : field.empty()             ? m_json.errorField()
                                                              : field + '.' + m_json.errorField();
            return failAt(m_json.errorAt(), f, m_json.error());
        }
        switch (m_in.refill(m_p)) {
        case TraceInput::Fill::More:
            m_p = m_in.begin();
            continue;
        case TraceInput::Fill::End:
            return failAt(m_in.end(), field,
                          m_texts(QT_TRANSLATE_NOOP("Anatomy", "the file ends inside this value (truncated)")));
        case TraceInput::Fill::Failed:
            if (m_in.tooLarge())
                return failAt(m_p, field, m_in.error().message);
            return failInput();
        }
    }
}

bool TraceReader::readEventArray(const std::string& arrayField) {
    ++m_p; // '['
    char c = 0;
    if (!next(c))
        return false;
    if (c == ']') {
        ++m_p;
        return true;
    }
    TraceEvent event;
    DigestError refused;
    for (std::int64_t index = 0;; ++index) {
        auto field = [&] { return arrayField + '[' + number(index) + ']'; };
        if (!next(c))
            return false;
        if (c != '{')
            return failAt(m_p, field(),
                          c == 0 && m_p >= m_in.end()
                              ? m_texts(QT_TRANSLATE_NOOP("Anatomy", "the file ends before this event (truncated)"))
                              : m_texts(QT_TRANSLATE_NOOP("Anatomy", "an event (a JSON object) was expected")));
        const char* after = nullptr;
        if (!parseUnit([&](const char* p, const char* end, const char*& a) { return m_json.parseEvent(p, end, event, a); },
                       after, field))
            return false;
        const bool taken = m_kineto ? m_kineto->add(event, index, refused) : m_legacy->add(event, index, refused);
        if (!taken)
            return failAt(m_p, refused.field.empty() ? field() : field() + '.' + refused.field,
                          m_texts(QT_TRANSLATE_NOOP("Anatomy", "event %1: %2"), {number(index), refused.message}));
        ++m_out.events;
        m_p = after;
        if (!next(c))
            return false;
        if (c == ',') {
            ++m_p;
            continue;
        }
        if (c == ']') {
            ++m_p;
            return true;
        }
        return failAt(m_p, field(),
                      c == 0 && m_p >= m_in.end()
                          ? m_texts(QT_TRANSLATE_NOOP("Anatomy", "the file ends after this event (truncated)"))
                          : m_texts(QT_TRANSLATE_NOOP("Anatomy", "',' or ']' was expected after the event (JSON error)")));
    }
}

bool TraceReader::expect(const char*& q, char c, const char* source, const std::string& field) {
    q = TraceJson::skipSpace(q);
    if (*q != c)
        return failAt(q, field, m_texts(source));
    q = TraceJson::skipSpace(q + 1);
    return true;
}

// A number, or a string holding one ("rank": "3" from some writers), as an integer;
// null or a fraction leaves value as it was.
bool TraceReader::readLooseInteger(const char*& q, std::int64_t& value) {
    const char* after = nullptr;
    if (*q == '"') {
        std::string_view text;
        if (m_json.readString(q, m_in.end(), text, after) != Status::Ok)
            return failJson(std::string());
        std::int64_t v = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
        if (r.ec == std::errc() && r.ptr == text.data() + text.size() && !text.empty())
            value = v;
    } else if (*q == '-' || isDigit(*q)) {
        std::int64_t v = 0;
        if (m_json.readInteger(q, m_in.end(), v, after) != Status::Ok)
            return failJson(std::string());
        if (std::find_if(q, after, [](char c) { return c == '.' || c == 'e' || c == 'E'; }) == after)
            value = v;
    } else if (m_json.skipValue(q, m_in.end(), after) != Status::Ok) {
        return failJson(std::string());
    }
    q = after;
    return true;
}

bool TraceReader::readLooseText(const char*& q, std::string& text) {
    if (*q == '"') {
        std::string_view view;
        const char* after = nullptr;
        if (m_json.readString(q, m_in.end(), view, after) != Status::Ok)
            return failJson(std::string());
        text = std::string(view);
        q = after;
        return true;
    }
    std::int64_t v = std::numeric_limits<std::int64_t>::min();
    if (!readLooseInteger(q, v))
        return false;
    if (v != std::numeric_limits<std::int64_t>::min())
        text = number(v);
    return true;
}

// The members of the object at q (already whole in the window), each value read by
// member(key, q), which leaves q past it; q ends past the '}'.
template <typename Member>
bool TraceReader::readMembers(const char*& q, const std::string& field, Member&& member) {
    q = TraceJson::skipSpace(q + 1);
    while (*q != '}') {
        std::string_view keyView;
        const char* after = nullptr;
        if (*q != '"' || m_json.readString(q, m_in.end(), keyView, after) != Status::Ok)
            return failAt(q, field, m_texts(QT_TRANSLATE_NOOP("Anatomy", "a key (a string) was expected (JSON error)")));
        const std::string key(keyView);
        q = after;
        if (!expect(q, ':', QT_TRANSLATE_NOOP("Anatomy", "':' was expected after the key (JSON error)"), field + '.' + key) ||
            !member(key, q))
            return false;
        q = TraceJson::skipSpace(q);
        if (*q == ',')
            q = TraceJson::skipSpace(q + 1);
        else if (*q != '}')
            return failAt(q, field, m_texts(QT_TRANSLATE_NOOP("Anatomy", "',' or '}' was expected (JSON error)")));
    }
    ++q;
    return true;
}

bool TraceReader::skipMember(const char*& q, const std::string& field) {
    const char* after = nullptr;
    if (m_json.skipValue(q, m_in.end(), after) != Status::Ok)
        return failJson(field);
    q = after;
    return true;
}

// One pg_config entry: {"pg_name", "pg_desc", "backend_config", "pg_size"/"group_size", "ranks"}.
bool TraceReader::readGroupConfig(const char*& q, const std::string& field) {
    if (*q != '{')
        return skipMember(q, field);
    std::string name, description;
    std::vector<int> ranks;
    const bool ok = readMembers(q, field, [&](const std::string& key, const char*& v) {
        if (key == "pg_name")
            return readLooseText(v, name);
        if (key == "pg_desc")
            return readLooseText(v, description);
        if (key == "ranks" && (*v == '[' || *v == '"')) {
            std::string_view text;
            const char* after = nullptr;
            const Status s = *v == '"' ? m_json.readString(v, m_in.end(), text, after) : m_json.skipValue(v, m_in.end(), after);
            if (s != Status::Ok)
                return failJson(field + ".ranks");
            ranks = parseRankList(*v == '"' ? text : std::string_view(v, size_t(after - v)));
            v = after;
            return true;
        }
        return skipMember(v, field + '.' + key);
    });
    if (ok && !name.empty())
        m_groups.add(name, description, std::move(ranks));
    return ok;
}

// distributedInfo: {"backend", "rank", "world_size", "pg_count", "pg_config": [...],
// "nccl_version"}, already whole in the window from p on (skipValue has passed it).
bool TraceReader::readDistributedInfo(const char* q, const std::string& field) {
    if (*q != '{')
        return true;
    return readMembers(q, field, [&](const std::string& key, const char*& v) {
        if (key == "rank" || key == "world_size") {
            std::int64_t n = -1;
            if (!readLooseInteger(v, n))
                return false;
            (key == "rank" ? m_out.rank : m_out.worldSize) = n >= -1 && n <= std::numeric_limits<int>::max() ? int(n) : -1;
            return true;
        }
        if (key != "pg_config" || *v != '[')
            return skipMember(v, field + '.' + key);
        v = TraceJson::skipSpace(v + 1);
        for (int i = 0; *v != ']'; ++i) {
            if (!readGroupConfig(v, field + ".pg_config[" + number(i) + ']'))
                return false;
            v = TraceJson::skipSpace(v);
            if (*v == ',')
                v = TraceJson::skipSpace(v + 1);
            else if (*v != ']')
                return failAt(v, field, m_texts(QT_TRANSLATE_NOOP("Anatomy", "',' or ']' was expected (JSON error)")));
        }
        ++v;
        return true;
    });
}

bool TraceReader::readObjectTrace() {
    ++m_p; // '{'
    bool sawEvents = false;
    char c = 0;
    if (!next(c))
        return false;
    if (c != '}') {
        for (;;) {
            if (!next(c))
                return false;
            if (c != '"')
                return failAt(m_p, std::string(),
                              c == 0 ? m_texts(QT_TRANSLATE_NOOP("Anatomy", "the file ends inside the trace (truncated)"))
                                     : m_texts(QT_TRANSLATE_NOOP("Anatomy", "a key (a string) was expected (JSON error)")));
            std::string_view keyView;
            const char* after = nullptr;
            if (!parseUnit([&](const char* p, const char* end, const char*& a) { return m_json.readString(p, end, keyView, a); },
                           after, std::string()))
                return false;
            const std::string key(keyView);
            m_p = after;
            if (!next(c))
                return false;
            if (c != ':')
                return failAt(m_p, key, m_texts(QT_TRANSLATE_NOOP("Anatomy", "':' was expected after the key (JSON error)")));
            ++m_p;
            if (!next(c))
                return false;
            if (key == "traceEvents" && c == '[') {
                sawEvents = true;
                if (!readEventArray("traceEvents"))
                    return false;
                after = m_p;
            } else if (key == "baseTimeNanoseconds" && c != '"') {
                if (!parseUnit([&](const char* p, const char* end, const char*& a) {
                        return m_json.readInteger(p, end, m_out.baseTimeNs, a);
                    }, after, key))
                    return false;
            } else {
                if (!parseUnit([&](const char* p, const char* end, const char*& a) { return m_json.skipValue(p, end, a); },
                               after, key))
                    return false;
                if (key == "distributedInfo" && !readDistributedInfo(m_p, key))
                    return false;
            }
            m_p = after;
            if (!next(c))
                return false;
            if (c == ',') {
                ++m_p;
                continue;
            }
            if (c == '}')
                break;
            return failAt(m_p, key,
                          c == 0 ? m_texts(QT_TRANSLATE_NOOP("Anatomy", "the file ends inside the trace (truncated)"))
                                 : m_texts(QT_TRANSLATE_NOOP("Anatomy", "',' or '}' was expected (JSON error)")));
        }
    }
    ++m_p;
    if (!sawEvents)
        return failAt(nullptr, std::string(),
                      m_texts(QT_TRANSLATE_NOOP("Anatomy",
                                                "not a PyTorch profiler trace: the JSON object has no \"traceEvents\" array")));
    return true;
}

Expected<RankDigest, DigestFailure> TraceReader::read() {
    m_in.setProgress(m_options.progress);
    if (!m_in.open(m_path, m_out.shown, m_texts))
        return unexpected(m_in.error());
    m_p = m_in.begin();
    if (m_in.end() - m_p >= 3 && std::memcmp(m_p, "\xEF\xBB\xBF", 3) == 0)
        m_p += 3;
    char c = 0;
    if (!next(c))
        return unexpected(m_error);
    const std::int64_t maxHeld = std::max<std::int64_t>(m_options.maxKernels, 1);
    bool ok = false;
    if (c == '{') {
        m_out.format = kKinetoFormat;
        m_kineto.emplace(maxHeld, m_groups, m_texts);
        ok = readObjectTrace();
    } else if (c == '[') {
        m_out.format = kLegacyFormat;
        m_legacy.emplace(maxHeld, m_texts);
        ok = readEventArray(std::string());
    } else {
        failAt(m_p, std::string(),
               m_in.gzip()
                   ? m_texts(QT_TRANSLATE_NOOP("Anatomy", "not a PyTorch profiler trace: the gzip stream does not hold JSON"))
                   : m_texts(QT_TRANSLATE_NOOP("Anatomy", "not a PyTorch profiler trace: it starts with neither '{' nor '['")));
    }
    if (!ok)
        return unexpected(m_error);
    m_out.bytesRead = m_in.bytesRead();
    std::string refused;
    if (!(m_kineto ? m_kineto->finish(m_out, refused) : m_legacy->finish(m_out, refused)))
        return unexpected(DigestFailure{m_out.shown, 0, std::string(), clippedText(refused, kMaxMessageBytes)});
    m_out.groups = m_groups.groups;
    if (m_out.rank < 0)
        m_out.rank = rankFromFileName(m_path);
    return std::move(m_out);
}

} // namespace

Expected<RankDigest, DigestFailure> readRankDigest(const std::string& path, const std::string& shown,
                                                   const DigestOptions& options) {
    TraceReader reader(path, shown, options);
    return reader.read();
}

} // namespace moewb::anatomy::digest
