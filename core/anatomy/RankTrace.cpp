#include "anatomy/RankTrace.h"

#include "anatomy/AnatomyTr.h"
#include "anatomy/TraceDigest.h"
#include "anatomy/TraceInput.h"
#include "anatomy/TraceJson.h"
#include "importers/ImportSupport.h"
#include "importers/JsonCursor.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <zlib.h>

#include <cstring>
#include <new>
#include <optional>
#include <type_traits>

namespace moewb::anatomy {

using importers::ImportError;
using Status = TraceJson::Status;

namespace {

constexpr std::string_view kKinetoFormat = "kineto-json";
constexpr std::string_view kLegacyFormat = "torch-legacy-json";

// The rank a file's name gives: "rank-3.json", "rank3_trace.json", "rank_3.pt.trace.json",
// "rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz" (torch's tensorboard_trace_handler
// names files after the worker, which launchers often set to the rank). The legacy
// format has no rank inside; for Kineto traces without distributedInfo it is the only
// clue. -1 when the name has none.
int rankFromFileName(const QString& path) {
    static const QRegularExpression re(QStringLiteral("(?:^|[^A-Za-z])rank[-_]?(\\d+)"),
                                       QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(QFileInfo(path).fileName());
    if (!m.hasMatch())
        return -1;
    bool ok = false;
    const int rank = m.captured(1).toInt(&ok);
    return ok ? rank : -1;
}

// A number, or a string holding one ("rank": "3" from some writers), as an integer.
bool readLooseInteger(importers::JsonCursor& cur, qint64& value) {
    if (cur.peek() == '"') {
        std::string_view raw;
        std::string decoded;
        if (!cur.readString(raw, decoded))
            return false;
        bool ok = false;
        const qint64 v = QByteArray(raw.data(), qsizetype(raw.size())).toLongLong(&ok);
        if (ok)
            value = v;
        return true;
    }
    if (cur.peek() == 'n')
        return cur.readLiteral("null");
    importers::JsonNumber n;
    if (!cur.readNumber(n))
        return false;
    if (n.integral)
        value = n.integer;
    return true;
}

bool readLooseText(importers::JsonCursor& cur, QString& text) {
    if (cur.peek() == '"') {
        std::string_view raw;
        std::string decoded;
        if (!cur.readString(raw, decoded))
            return false;
        text = QString::fromUtf8(raw.data(), qsizetype(raw.size()));
        return true;
    }
    qint64 v = 0;
    const bool numeric = cur.peek() == '-' || (cur.peek() >= '0' && cur.peek() <= '9');
    if (!numeric)
        return cur.skipValue();
    if (!readLooseInteger(cur, v))
        return false;
    text = QString::number(v);
    return true;
}

// One pg_config entry: {"pg_name", "pg_desc", "backend_config", "pg_size"/"group_size", "ranks"}.
bool readGroupConfig(importers::JsonCursor& cur, GroupTable& groups) {
    if (!cur.consume('{'))
        return cur.skipValue();
    QString name, description;
    QVector<int> ranks;
    if (!cur.consume('}')) {
        do {
            std::string_view key;
            std::string scratch;
            if (!cur.readString(key, scratch) || !cur.consume(':'))
                return cur.failed() || cur.fail(importers::ImportTr::tr("':' was expected after the key"));
            bool ok = true;
            if (key == "pg_name") {
                ok = readLooseText(cur, name);
            } else if (key == "pg_desc") {
                ok = readLooseText(cur, description);
            } else if (key == "ranks") {
                if (cur.peek() == '[') {
                    cur.consume('[');
                    ok = cur.readUnsignedArrayRest([&](qint64, quint64 v) {
                        ranks.push_back(int(v));
                        return true;
                    });
                } else if (cur.peek() == '"') {
                    std::string_view raw;
                    std::string decoded;
                    ok = cur.readString(raw, decoded);
                    ranks = parseRankList(raw);
                } else {
                    ok = cur.skipValue();
                }
            } else {
                ok = cur.skipValue();
            }
            if (!ok)
                return false;
        } while (cur.consume(','));
        if (!cur.consume('}'))
            return cur.fail(importers::ImportTr::tr("',' or '}' was expected"));
    }
    if (!name.isEmpty())
        groups.add(name, description, ranks);
    return true;
}

// distributedInfo: {"backend", "rank", "world_size", "pg_count", "pg_config": [...], "nccl_version"}.
bool readDistributedInfo(importers::JsonCursor& cur, RankTrace& out, GroupTable& groups) {
    if (!cur.consume('{'))
        return cur.skipValue();
    if (cur.consume('}'))
        return true;
    do {
        std::string_view key;
        std::string scratch;
        if (!cur.readString(key, scratch) || !cur.consume(':'))
            return cur.failed() || cur.fail(importers::ImportTr::tr("':' was expected after the key"));
        bool ok = true;
        qint64 v = -1;
        if (key == "rank") {
            ok = readLooseInteger(cur, v);
            out.rank = int(v);
        } else if (key == "world_size") {
            ok = readLooseInteger(cur, v);
            out.worldSize = int(v);
        } else if (key == "pg_config" && cur.peek() == '[') {
            cur.consume('[');
            if (!cur.consume(']')) {
                do {
                    if (!readGroupConfig(cur, groups))
                        return false;
                } while (cur.consume(','));
                ok = cur.consume(']') || cur.fail(importers::ImportTr::tr("',' or ']' was expected"));
            }
        } else {
            ok = cur.skipValue();
        }
        if (!ok)
            return false;
    } while (cur.consume(','));
    return cur.consume('}') || cur.fail(importers::ImportTr::tr("',' or '}' was expected"));
}

class TraceReader {
public:
    TraceReader(const QString& path, const QString& shown, const TraceReadOptions& options)
        : m_path(path), m_options(options) {
        m_out.shown = shown;
    }

    Expected<RankTrace, ImportError> read();

private:
    bool next(char& c);
    // `field` names the unit in messages: a QString, or a callable making one (only
    // called on error: naming each of millions of events up front would cost).
    template <typename Parse, typename Field>
    bool parseUnit(Parse&& parse, const char*& after, Field&& field);
    bool readObjectTrace();
    bool readEventArray(const QString& arrayField);
    bool failAt(const char* at, const QString& field, const QString& message);
    bool failInput() {
        m_error = m_in.error();
        return false;
    }

    QString m_path;
    TraceReadOptions m_options;
    TraceInput m_in;
    TraceJson m_json;
    const char* m_p = nullptr;
    RankTrace m_out;
    GroupTable m_groups;
    std::optional<KinetoDigest> m_kineto;
    std::optional<LegacyDigest> m_legacy;
    ImportError m_error;
};

bool TraceReader::failAt(const char* at, const QString& field, const QString& message) {
    m_error = ImportError{m_out.shown, at ? m_in.lineAt(at) : 0, importers::clipped(field),
                          importers::clipped(message, importers::kMaxMessageChars)};
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
        QString field;
        if constexpr (std::is_invocable_v<Field>)
            field = fieldOf();
        else
            field = fieldOf;
        if (s == Status::Error) {
            const QString f = m_json.errorField().isEmpty() ? field
                              : field.isEmpty()             ? m_json.errorField()
                                                            : field + QLatin1Char('.') + m_json.errorField();
            return failAt(m_json.errorAt(), f, m_json.error());
        }
        switch (m_in.refill(m_p)) {
        case TraceInput::Fill::More:
            m_p = m_in.begin();
            continue;
        case TraceInput::Fill::End:
            return failAt(m_in.end(), field, AnatomyTr::tr("the file ends inside this value (truncated)"));
        case TraceInput::Fill::Failed:
            if (m_in.tooLarge())
                return failAt(m_p, field, m_in.error().message);
            return failInput();
        }
    }
}

bool TraceReader::readEventArray(const QString& arrayField) {
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
    for (qint64 index = 0;; ++index) {
        auto field = [&] { return arrayField + QStringLiteral("[%1]").arg(index); };
        if (!next(c))
            return false;
        if (c != '{')
            return failAt(m_p, field(),
                          c == 0 && m_p >= m_in.end() ? AnatomyTr::tr("the file ends before this event (truncated)")
                                                      : AnatomyTr::tr("an event (a JSON object) was expected"));
        const char* after = nullptr;
        if (!parseUnit([&](const char* p, const char* end, const char*& a) { return m_json.parseEvent(p, end, event, a); },
                       after, field))
            return false;
        const bool taken = m_kineto ? m_kineto->add(event, index, refused) : m_legacy->add(event, index, refused);
        if (!taken)
            return failAt(m_p, refused.field.isEmpty() ? field() : field() + QLatin1Char('.') + refused.field,
                          AnatomyTr::tr("event %1: %2").arg(index).arg(refused.message));
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
                      c == 0 && m_p >= m_in.end() ? AnatomyTr::tr("the file ends after this event (truncated)")
                                                  : AnatomyTr::tr("',' or ']' was expected after the event (JSON error)"));
    }
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
                return failAt(m_p, QString(),
                              c == 0 ? AnatomyTr::tr("the file ends inside the trace (truncated)")
                                     : AnatomyTr::tr("a key (a string) was expected (JSON error)"));
            std::string_view keyView;
            const char* after = nullptr;
            if (!parseUnit([&](const char* p, const char* end, const char*& a) { return m_json.readString(p, end, keyView, a); },
                           after, QString()))
                return false;
            const std::string key(keyView);
            const QString field = QString::fromStdString(key);
            m_p = after;
            if (!next(c))
                return false;
            if (c != ':')
                return failAt(m_p, field, AnatomyTr::tr("':' was expected after the key (JSON error)"));
            ++m_p;
            if (!next(c))
                return false;
            if (key == "traceEvents" && c == '[') {
                sawEvents = true;
                if (!readEventArray(QStringLiteral("traceEvents")))
                    return false;
                after = m_p;
            } else if (key == "baseTimeNanoseconds" && c != '"') {
                if (!parseUnit([&](const char* p, const char* end, const char*& a) {
                        return m_json.readInteger(p, end, m_out.baseTimeNs, a);
                    }, after, field))
                    return false;
            } else {
                if (!parseUnit([&](const char* p, const char* end, const char*& a) { return m_json.skipValue(p, end, a); },
                               after, field))
                    return false;
                if (key == "distributedInfo") {
                    importers::JsonCursor cur(m_p, after, m_in.lineAt(m_p));
                    if (!readDistributedInfo(cur, m_out, m_groups)) {
                        m_error = ImportError{m_out.shown, cur.line(), field, cur.error()};
                        return false;
                    }
                }
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
            return failAt(m_p, field,
                          c == 0 ? AnatomyTr::tr("the file ends inside the trace (truncated)")
                                 : AnatomyTr::tr("',' or '}' was expected (JSON error)"));
        }
    }
    ++m_p;
    if (!sawEvents)
        return failAt(nullptr, QString(), AnatomyTr::tr("not a PyTorch profiler trace: the JSON object has no \"traceEvents\" array"));
    return true;
}

Expected<RankTrace, ImportError> TraceReader::read() {
    m_in.setProgress(m_options.progress);
    if (!m_in.open(m_path, m_out.shown))
        return unexpected(m_in.error());
    m_p = m_in.begin();
    if (m_in.end() - m_p >= 3 && std::memcmp(m_p, "\xEF\xBB\xBF", 3) == 0)
        m_p += 3;
    char c = 0;
    if (!next(c))
        return unexpected(m_error);
    const qint64 maxHeld = std::max<qint64>(m_options.maxKernels, 1);
    bool ok = false;
    if (c == '{') {
        m_out.format = QString::fromLatin1(kKinetoFormat.data(), qsizetype(kKinetoFormat.size()));
        m_kineto.emplace(maxHeld, m_groups);
        ok = readObjectTrace();
    } else if (c == '[') {
        m_out.format = QString::fromLatin1(kLegacyFormat.data(), qsizetype(kLegacyFormat.size()));
        m_legacy.emplace(maxHeld);
        ok = readEventArray(QString());
    } else {
        failAt(m_p, QString(),
               m_in.gzip() ? AnatomyTr::tr("not a PyTorch profiler trace: the gzip stream does not hold JSON")
                           : AnatomyTr::tr("not a PyTorch profiler trace: it starts with neither '{' nor '['"));
    }
    if (!ok)
        return unexpected(m_error);
    m_out.bytesRead = m_in.bytesRead();
    QString refused;
    if (!(m_kineto ? m_kineto->finish(m_out, refused) : m_legacy->finish(m_out, refused)))
        return unexpected(ImportError{m_out.shown, 0, QString(), refused});
    m_out.groups = m_groups.groups;
    if (m_out.rank < 0)
        m_out.rank = rankFromFileName(m_path);
    return std::move(m_out);
}

// The first bytes of a gzip stream, inflated as far as `head` allows.
QByteArray inflateHead(const QByteArray& head) {
    QByteArray out(64 * 1024, Qt::Uninitialized);
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return {};
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(head.constData()));
    z.avail_in = uInt(head.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    inflate(&z, Z_SYNC_FLUSH);
    out.truncate(qsizetype(out.size() - z.avail_out));
    inflateEnd(&z);
    return out;
}

} // namespace

bool looksLikeTrace(const QByteArray& head, const QString& fileName) {
    Q_UNUSED(fileName) // by content only: traces come as .json, .json.gz, .pt.trace.json, ...
    QByteArray bytes = head;
    if (bytes.size() >= 2 && quint8(bytes[0]) == 0x1f && quint8(bytes[1]) == 0x8b)
        bytes = inflateHead(head);
    qsizetype i = bytes.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    auto skipSpace = [&] {
        while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t'))
            ++i;
    };
    skipSpace();
    if (i >= bytes.size())
        return false;
    if (bytes[i] == '{') {
        const QByteArray rest = bytes.mid(i);
        return rest.contains("\"traceEvents\"") || rest.contains("\"schemaVersion\"") ||
               QRegularExpression(QStringLiteral("^\\{\\s*\"(distributedInfo|deviceProperties|baseTimeNanoseconds)\""))
                   .match(QString::fromUtf8(rest.left(200)))
                   .hasMatch();
    }
    if (bytes[i] == '[') {
        ++i;
        skipSpace();
        if (i >= bytes.size() || bytes[i] != '{')
            return false;
        qsizetype close = bytes.indexOf('}', i);
        const QByteArray first = bytes.mid(i, close < 0 ? 4096 : close - i);
        return first.contains("\"ph\"") && first.contains("\"name\"");
    }
    return false;
}

Expected<RankTrace, ImportError> readRankTrace(const QString& path, const QString& shown, const TraceReadOptions& options) {
    try {
        TraceReader reader(path, shown, options);
        return reader.read();
    } catch (const std::bad_alloc&) {
        return unexpected(importers::outOfMemory(shown, QFileInfo(path).size()));
    }
}

} // namespace moewb::anatomy
