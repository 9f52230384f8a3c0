#include "importers/MegatronTimerLines.h"

#include "importers/ImportLimits.h"
#include "importers/ImportSupport.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <algorithm>

namespace moewb::importers {

namespace {

constexpr double kMaxTimerMs = 8.64e7; // a day per iteration

std::string_view trimmedView(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// "forward-backward ........: " → "forward-backward" (timers.py pads with ljust(48, '.')).
QString paddedName(std::string_view s) {
    s = trimmedView(s);
    while (!s.empty() && (s.back() == '.' || s.back() == ' '))
        s.remove_suffix(1);
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

std::optional<MegatronTimerBlock::Option> MegatronTimerBlock::headerOption(std::string_view line) {
    const std::string_view t = trimmedView(line);
    const auto endsWith = [&t](std::string_view tail) {
        return t.size() >= tail.size() && t.substr(t.size() - tail.size()) == tail;
    };
    if (endsWith("times across ranks (ms):"))
        return Option::AllRanks;
    if (endsWith("(min, max) time across ranks (ms):"))
        return Option::MinMax;
    if (endsWith("max time across ranks (ms):"))
        return Option::Max;
    return std::nullopt;
}

bool MegatronTimerBlock::read(std::string_view line, const QString& file, qint64 n,
                              std::optional<ImportError>* error) {
    const std::string_view t = trimmedView(line);
    if (t.empty())
        return false;
    QString why;
    double value = 0;
    const auto checkedValue = [&](std::string_view text, const QString& field) {
        if (!parseFiniteDouble(trimmedView(text), value, why)) {
            *error = ImportError{file, n, field, why};
            return false;
        }
        if (value < 0 || value > kMaxTimerMs) {
            *error = ImportError{
                file, n, field,
                ImportTr::tr("is absurd: %1 ms (expected between 0 and %2)").arg(value).arg(kMaxTimerMs)};
            return false;
        }
        return true;
    };
    if (m_option == Option::AllRanks) {
        if (t.substr(0, 5) == "rank ") {
            const size_t colon = t.find(':');
            if (colon == std::string_view::npos)
                return false;
            if (m_current.isEmpty()) {
                *error = ImportError{file, n, QStringLiteral("rank"),
                                     ImportTr::tr("a rank's time before any timer name (truncated block?)")};
                return true;
            }
            qint64 rank = 0;
            if (!parseIntegral(trimmedView(t.substr(5, colon - 5)), 0, kMaxRanks - 1, rank, why)) {
                *error = ImportError{file, n, QStringLiteral("rank"), why};
                return true;
            }
            if (!checkedValue(t.substr(colon + 1), m_current))
                return true;
            Timer& timer = m_timers[m_current];
            if (timer.perRankMs.isEmpty() || value < timer.minMs)
                timer.minMs = value;
            if (timer.perRankMs.isEmpty() || value > timer.maxMs)
                timer.maxMs = value;
            timer.perRankMs.insert(int(rank), value);
            return true;
        }
        // "  <timer>:": a name with nothing after its colon.
        if (t.back() == ':' && t.find(':') == t.size() - 1 && t.find('|') == std::string_view::npos) {
            m_current = QString::fromUtf8(t.data(), qsizetype(t.size() - 1));
            return true;
        }
        return false;
    }
    // minmax / max: "<timer> ....: (<min>, <max>)" or "<timer> ....: <max>".
    const size_t colon = t.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || t.find('|') != std::string_view::npos)
        return false;
    // timers.py pads "<timer> " with dots to 48 characters: a line without the dots is
    // not a timer line (e.g. "datetime: …" after the block).
    const std::string_view padded = trimmedView(t.substr(0, colon));
    if (padded.empty() || (padded.back() != '.' && padded.size() < 47))
        return false;
    const QString name = paddedName(padded);
    std::string_view rest = trimmedView(t.substr(colon + 1));
    if (name.isEmpty() || rest.empty())
        return false;
    Timer timer;
    if (m_option == Option::MinMax) {
        if (rest.front() != '(' || rest.back() != ')' || rest.find(',') == std::string_view::npos)
            return false;
        rest = rest.substr(1, rest.size() - 2);
        const size_t comma = rest.find(',');
        if (!checkedValue(rest.substr(0, comma), name))
            return true;
        timer.minMs = value;
        if (!checkedValue(rest.substr(comma + 1), name))
            return true;
        timer.maxMs = value;
    } else {
        if (!checkedValue(rest, name))
            return true;
        timer.minMs = timer.maxMs = value;
    }
    m_timers.insert(name, timer);
    return true;
}

QString timerMetricStem(const QString& timer) {
    QString stem;
    for (const QChar c : timer.toLower())
        stem += (c.isLetterOrNumber() && c.unicode() < 128) ? c : QLatin1Char('_');
    while (stem.contains(QLatin1String("__")))
        stem.replace(QLatin1String("__"), QLatin1String("_"));
    while (stem.startsWith(QLatin1Char('_')))
        stem.remove(0, 1);
    while (stem.endsWith(QLatin1Char('_')))
        stem.chop(1);
    return stem;
}

namespace {

// "3453.08ms/8" after `key` ("MnRtt/Rnk:"): the milliseconds and the rank.
bool readValueWithRank(std::string_view line, std::string_view key, double& ms, int& rank, QString& why) {
    const size_t at = line.find(key);
    if (at == std::string_view::npos) {
        why = ImportTr::tr("no %1 field").arg(QString::fromLatin1(key.data(), qsizetype(key.size())));
        return false;
    }
    std::string_view rest = line.substr(at + key.size());
    const size_t bar = rest.find('|');
    rest = trimmedView(rest.substr(0, bar));
    const size_t slash = rest.rfind('/');
    if (slash == std::string_view::npos) {
        why = ImportTr::tr("\"%1\" is not a time and a rank (\"3453.08ms/8\")")
                  .arg(QString::fromUtf8(rest.data(), qsizetype(std::min<size_t>(rest.size(), 40))));
        return false;
    }
    std::string_view number = trimmedView(rest.substr(0, slash));
    if (number.size() >= 2 && number.substr(number.size() - 2) == "ms")
        number.remove_suffix(2);
    qint64 r = 0;
    if (!parseFiniteDouble(number, ms, why) || !parseIntegral(trimmedView(rest.substr(slash + 1)), 0, 1 << 20, r, why))
        return false;
    if (ms < 0 || ms > kMaxTimerMs) {
        why = ImportTr::tr("is absurd: %1 ms").arg(ms);
        return false;
    }
    rank = int(r);
    return true;
}

} // namespace

std::optional<StragglerReport> readStragglerLine(std::string_view line, const QString& file, qint64 lineNumber,
                                                 std::optional<ImportError>* error) {
    if (line.find("MnRtt/Rnk:") == std::string_view::npos)
        return std::nullopt;
    StragglerReport r;
    QString why;
    if (!readValueWithRank(line, "MnRtt/Rnk:", r.minRttMs, r.minRttRank, why) ||
        !readValueWithRank(line, "MxRtt/Rnk:", r.maxRttMs, r.maxRttRank, why)) {
        *error = ImportError{file, lineNumber, QStringLiteral("straggler"), why};
        return r;
    }
    if (r.minRttMs > r.maxRttMs) {
        *error = ImportError{file, lineNumber, QStringLiteral("straggler"),
                             ImportTr::tr("is absurd: the least round-trip time %1 ms is above the most, %2 ms")
                                 .arg(r.minRttMs)
                                 .arg(r.maxRttMs)};
        return r;
    }
    return r;
}

} // namespace moewb::importers
