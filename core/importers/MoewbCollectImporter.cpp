#include "importers/MoewbCollectImporter.h"

#include "importers/ExpertLoadJsonl.h"
#include "importers/ImportLimits.h"
#include "importers/JsonCursor.h"
#include "importers/MetricNames.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>

namespace moewb::importers {

namespace {

// Every key the format knows; others are skipped (a later version may add some).
enum Key : int {
    kFormatKey, kRank, kWorld, kFramework, kExperts, kTopk, kMoeLayers, kEvery, kClock, // header
    kKind, kStep, kLayer, kTokens, kAssignments, kDroppedTokens, kDroppedAssignments,   // drops
    kStepS, kA2aS, kComputeS,                                                          // time
    kKeyCount
};

enum class Type { Unsigned, String, Seconds };

struct KeyInfo {
    const char* name;
    Type type;
};

constexpr std::array<KeyInfo, kKeyCount> kKeys{{
    {"format", Type::String},        {"rank", Type::Unsigned},          {"world", Type::Unsigned},
    {"framework", Type::String},     {"experts", Type::Unsigned},       {"topk", Type::Unsigned},
    {"moe_layers", Type::Unsigned},  {"every", Type::Unsigned},         {"clock", Type::String},
    {"kind", Type::String},          {"step", Type::Unsigned},          {"layer", Type::Unsigned},
    {"tokens", Type::Unsigned},      {"assignments", Type::Unsigned},   {"dropped_tokens", Type::Unsigned},
    {"dropped_assignments", Type::Unsigned},
    {"step_s", Type::Seconds},       {"a2a_s", Type::Seconds},          {"compute_s", Type::Seconds},
}};

int keyIndex(std::string_view key) {
    for (int i = 0; i < kKeyCount; ++i)
        if (key == kKeys[size_t(i)].name)
            return i;
    return -1;
}

QString keyName(int k) { return QString::fromLatin1(kKeys[size_t(k)].name); }

// One line's values.
struct Line {
    std::array<bool, kKeyCount> has{};
    std::array<quint64, kKeyCount> u{};
    std::array<double, kKeyCount> seconds{}; // -1 = null
    std::array<std::string, kKeyCount> text{};
};

const char* const kFrameworks[] = {"generic", "megatron-core", "torchtitan", "deepspeed", "huggingface"};
const char* const kClocks[] = {"cuda-events", "monotonic"};

template <size_t N>
bool oneOf(const std::string& v, const char* const (&set)[N]) {
    for (const char* s : set)
        if (v == s)
            return true;
    return false;
}

template <size_t N>
QString listOf(const char* const (&set)[N]) {
    QStringList out;
    for (const char* s : set)
        out << QStringLiteral("\"%1\"").arg(QLatin1String(s));
    return out.join(QStringLiteral(", "));
}

struct Header {
    qint64 rank = 0, world = 0, experts = 0, topk = 0, moeLayers = 0, every = 1;
    QString framework, clock;
};

} // namespace

ImportResult MoewbCollectImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    const char* pos = bytes.constData();
    const char* const end = pos + bytes.size();
    if (end - pos >= 3 && memcmp(pos, "\xEF\xBB\xBF", 3) == 0)
        pos += 3;
    // remote/collect writes out_dir/moewb_collect/rank{N}.jsonl.
    const qint64 fileRank = rankOfFileName(file, "rank", ".jsonl");

    bool haveHeader = false;
    qint64 headerLine = 0;
    Header h;
    // The layers of the last step read (data.collectorSteps.last()), to tell a resumed
    // training's rows; the resumes found (docs/collect.md, "A resumed training").
    QSet<int> lastStepLayers;
    qint64 resumes = 0, replacedSteps = 0;
    QJsonArray resumedFrom;
    std::string scratch, valueScratch;
    Line v;
    qint64 lineNo = 0;
    qint64 clamped = 0;

    while (pos < end) {
        ++lineNo;
        JsonCursor c(pos, end, lineNo);
        c.setStopAtNewline(true);
        if (c.atEnd()) { // blank line
            pos = c.position() < end ? c.position() + 1 : end;
            continue;
        }
        std::string_view field;
        auto failKey = [&](int k, const QString& message) { return importError(file, lineNo, keyName(k), message); };
        v.has.fill(false);
        const bool read = c.readLineObject(scratch, field, [&](std::string_view key) {
            const int k = keyIndex(key);
            if (k < 0)
                return c.skipValue();
            if (v.has[size_t(k)])
                return c.fail(ImportTr::tr("appears twice"), true);
            v.has[size_t(k)] = true;
            switch (kKeys[size_t(k)].type) {
            case Type::Unsigned:
                if (!c.readUnsigned(v.u[size_t(k)]))
                    return false;
                break;
            case Type::String: {
                std::string_view value;
                if (c.peek() != '"')
                    return c.fail(ImportTr::tr("must be a string"), true);
                if (!c.readString(value, valueScratch))
                    return false;
                v.text[size_t(k)].assign(value.substr(0, 256)); // longer is wrong anyway; quoted cut
                break;
            }
            case Type::Seconds: {
                if (c.peek() == 'n') {
                    if (!c.readLiteral("null"))
                        return false;
                    v.seconds[size_t(k)] = -1.0;
                    break;
                }
                JsonNumber n;
                if (!c.readNumber(n))
                    return false;
                if (n.value < 0)
                    return c.fail(ImportTr::tr("is %1 s: a time cannot be negative").arg(n.value), true);
                if (n.value > kCollectMaxSeconds)
                    return c.fail(ImportTr::tr("is absurd: %1 s (at most %2 s)").arg(n.value).arg(kCollectMaxSeconds), true);
                v.seconds[size_t(k)] = n.value;
                break;
            }
            }
            return true;
        });
        if (!read)
            return importError(file, lineNo, toQString(field), c.error());
        const char* lineStart = pos;
        pos = c.position() < end ? c.position() + 1 : end;

        auto need = [&](std::initializer_list<int> keys, const QString& why) -> std::optional<ImportError> {
            for (int k : keys)
                if (!v.has[size_t(k)])
                    return ImportError{file, lineNo, keyName(k), clipped(ImportTr::tr("is missing (%1)").arg(why), kMaxMessageChars)};
            return std::nullopt;
        };
        auto quoted = [&](int k) { return excerpt(v.text[size_t(k)]); };

        if (!haveHeader) {
            // The header: the first line that is not blank.
            if (!v.has[kFormatKey])
                return failKey(kFormatKey, ImportTr::tr("is missing: the first line of a collector sidecar is its header "
                                                        "{\"format\": \"%1\", \"rank\", \"world\", …}")
                                               .arg(QLatin1String(kHeaderFormat)));
            if (v.text[kFormatKey] != kHeaderFormat)
                return failKey(kFormatKey, ImportTr::tr("is \"%1\"; this version reads \"%2\"")
                                               .arg(quoted(kFormatKey), QLatin1String(kHeaderFormat)));
            if (auto e = need({kRank, kWorld, kFramework, kExperts, kTopk, kMoeLayers, kEvery, kClock},
                              ImportTr::tr("the header names rank, world, framework, experts, topk, moe_layers, "
                                           "every and clock")))
                return unexpected(*e);
            if (v.u[kWorld] < 1 || v.u[kWorld] > quint64(kMaxRanks))
                return failKey(kWorld, ImportTr::tr("is absurd: %1 (1 to %2 ranks)").arg(v.u[kWorld]).arg(kMaxRanks));
            if (v.u[kRank] >= v.u[kWorld])
                return failKey(kRank, ImportTr::tr("is %1, but world = %2 (ranks are 0 to world − 1)")
                                          .arg(v.u[kRank])
                                          .arg(v.u[kWorld]));
            if (fileRank >= 0 && v.u[kRank] != quint64(fileRank))
                return failKey(kRank, ImportTr::tr("is %1 but the file name says rank %2").arg(v.u[kRank]).arg(fileRank));
            if (!oneOf(v.text[kFramework], kFrameworks))
                return failKey(kFramework, ImportTr::tr("is \"%1\"; one of %2 was expected")
                                               .arg(quoted(kFramework), listOf(kFrameworks)));
            if (!oneOf(v.text[kClock], kClocks))
                return failKey(kClock, ImportTr::tr("is \"%1\"; one of %2 was expected").arg(quoted(kClock), listOf(kClocks)));
            if (v.u[kExperts] < 1 || v.u[kExperts] > quint64(kMaxExperts))
                return failKey(kExperts, ImportTr::tr("is absurd: %1 (1 to %2)").arg(v.u[kExperts]).arg(kMaxExperts));
            if (v.u[kTopk] < 1 || v.u[kTopk] > v.u[kExperts])
                return failKey(kTopk, ImportTr::tr("is %1; 1 to experts = %2 was expected").arg(v.u[kTopk]).arg(v.u[kExperts]));
            if (v.u[kMoeLayers] < 1 || v.u[kMoeLayers] > quint64(kMaxLayer) + 1)
                return failKey(kMoeLayers, ImportTr::tr("is absurd: %1 (1 to %2)").arg(v.u[kMoeLayers]).arg(kMaxLayer + 1));
            if (v.u[kEvery] < 1 || v.u[kEvery] > quint64(kMaxStep))
                return failKey(kEvery, ImportTr::tr("is absurd: %1 (1 to %2)").arg(v.u[kEvery]).arg(kMaxStep));
            h.rank = qint64(v.u[kRank]);
            h.world = qint64(v.u[kWorld]);
            h.experts = qint64(v.u[kExperts]);
            h.topk = qint64(v.u[kTopk]);
            h.moeLayers = qint64(v.u[kMoeLayers]);
            h.every = qint64(v.u[kEvery]);
            h.framework = QString::fromStdString(v.text[kFramework]);
            h.clock = QString::fromStdString(v.text[kClock]);
            haveHeader = true;
            headerLine = lineNo;
            // Lines per written step: one per MoE layer and one time line, each at least
            // 60 bytes; reserved once from the file size (not doubled as they fill).
            const qint64 estimate = std::max<qint64>(16, (end - lineStart) / (60 * (h.moeLayers + 1)) + 16);
            data.collectorSteps.reserve(qsizetype(std::min<qint64>(estimate, 1 << 24)));
            continue;
        }

        if (v.has[kFormatKey])
            return failKey(kFormatKey, ImportTr::tr("a second header (the header is line %1; one file per rank)")
                                           .arg(headerLine));
        if (!v.has[kKind])
            return failKey(kKind, ImportTr::tr("is missing (\"drops\" or \"time\")"));
        const bool drops = v.text[kKind] == "drops";
        if (!drops && v.text[kKind] != "time")
            return failKey(kKind, ImportTr::tr("is \"%1\"; \"drops\" or \"time\" was expected").arg(quoted(kKind)));
        if (!v.has[kStep])
            return failKey(kStep, ImportTr::tr("is missing"));
        const quint64 step = v.u[kStep];
        if (step > quint64(kMaxStep))
            return failKey(kStep, ImportTr::tr("is absurd: %1 (at most %2)").arg(step).arg(kMaxStep));
        if (step % quint64(h.every) != 0)
            return failKey(kStep, ImportTr::tr("is %1, not a multiple of the header's every = %2").arg(step).arg(h.every));

        // A resumed training appends to its files: a step before the last one, or the last
        // one again (a layer or its time line a second time), begins the resumed run's rows,
        // which replace the earlier run's from that step on (layer -1: a time line).
        auto resumeIfRepeated = [&](int layer) {
            if (data.collectorSteps.isEmpty())
                return;
            const CollectorStep& last = data.collectorSteps.last();
            if (qint64(step) > last.step ||
                (qint64(step) == last.step && !last.timed && (layer < 0 || !lastStepLayers.contains(layer))))
                return;
            while (!data.collectorSteps.isEmpty() && data.collectorSteps.last().step >= qint64(step)) {
                data.collectorSteps.removeLast();
                ++replacedSteps;
            }
            lastStepLayers.clear();
            if (resumes++ < 16)
                resumedFrom.append(qint64(step));
        };
        // Steps only grow within one run, and a resume cuts the earlier ones back: the
        // step's record is the last one, or a new one.
        auto stepRecord = [&]() -> CollectorStep& {
            if (data.collectorSteps.isEmpty() || data.collectorSteps.last().step != qint64(step)) {
                lastStepLayers.clear();
                CollectorStep s;
                s.step = qint64(step);
                data.collectorSteps.append(s);
            }
            return data.collectorSteps.last();
        };

        if (drops) {
            if (auto e = need({kLayer, kTokens, kAssignments, kDroppedTokens, kDroppedAssignments},
                              ImportTr::tr("a drops line names step, layer, tokens, assignments, dropped_tokens and "
                                           "dropped_assignments")))
                return unexpected(*e);
            const quint64 layer = v.u[kLayer], t = v.u[kTokens], a = v.u[kAssignments], d = v.u[kDroppedTokens],
                          da = v.u[kDroppedAssignments];
            const quint64 k = quint64(h.topk);
            if (layer > quint64(kMaxLayer))
                return failKey(kLayer, ImportTr::tr("is absurd: %1 (at most %2)").arg(layer).arg(kMaxLayer));
            if (t > kCollectMaxTokens)
                return failKey(kTokens, ImportTr::tr("is absurd: %1 (at most %2 tokens of one rank in one layer and step)")
                                            .arg(t)
                                            .arg(kCollectMaxTokens));
            if (a != t * k) // t <= 2^40 and k <= 2^20: no overflow
                return failKey(kAssignments, ImportTr::tr("is %1, but tokens × topk = %2 × %3 = %4")
                                                .arg(a)
                                                .arg(t)
                                                .arg(k)
                                                .arg(t * k));
            if (d > t)
                return failKey(kDroppedTokens, ImportTr::tr("is %1, more than tokens = %2").arg(d).arg(t));
            if (da > a)
                return failKey(kDroppedAssignments, ImportTr::tr("is %1, more than assignments = %2").arg(da).arg(a));
            if (d * k > da)
                return failKey(kDroppedAssignments,
                               ImportTr::tr("is %1, fewer than dropped_tokens × topk = %2 × %3 = %4 (a dropped token "
                                            "lost all its assignments)")
                                   .arg(da)
                                   .arg(d)
                                   .arg(k)
                                   .arg(d * k));
            resumeIfRepeated(int(layer));
            CollectorStep& s = stepRecord();
            lastStepLayers.insert(int(layer));
            if (s.layers >= h.moeLayers)
                return failKey(kLayer, ImportTr::tr("step %1 has more drops lines than the header's moe_layers = %2")
                                           .arg(step)
                                           .arg(h.moeLayers));
            ++s.layers;
            s.tokens += t;
            s.assignments += a;
            s.droppedTokens += d;
            s.droppedAssignments += da;
        } else {
            if (auto e = need({kStepS, kA2aS, kComputeS},
                              ImportTr::tr("a time line names step, step_s, a2a_s and compute_s (null when not measured)")))
                return unexpected(*e);
            const double x = v.seconds[kStepS], y = v.seconds[kA2aS], z = v.seconds[kComputeS];
            if (x < 0)
                return failKey(kStepS, ImportTr::tr("is null; the step's wall time is always measured"));
            const double inside = std::max(0.0, y) + std::max(0.0, z);
            if (inside > x * (1.0 + kCollectClockSlackRel) + kCollectClockSlackAbsS)
                return failKey(kStepS, ImportTr::tr("is %1 s, less than a2a_s + compute_s = %2 s: the blocks cannot "
                                                    "take longer than the step")
                                           .arg(x)
                                           .arg(inside));
            resumeIfRepeated(-1);
            CollectorStep& s = stepRecord();
            s.timed = true;
            s.stepS = x;
            s.a2aS = y;
            s.computeS = z;
        }
        ++data.rows;
    }
    if (!haveHeader)
        return importError(file, 0, {}, ImportTr::tr("no header line (the file is empty)"));
    if (data.rows == 0)
        return importError(file, 0, {}, ImportTr::tr("holds only the header: no step was written"));

    // This rank's own figures. The busiest-device share needs every rank: only a
    // one-rank training has it in one file.
    const QString dropRate = QStringLiteral("drop_rate"), assignmentRate = QStringLiteral("assignment_drop_rate"),
                  droppedTokens = QStringLiteral("dropped_tokens"),
                  droppedAssignments = QStringLiteral("dropped_assignments"),
                  share = QStringLiteral("busiest_device_share");
    data.stepMetrics.reserve(data.collectorSteps.size() * (h.world == 1 ? 5 : 4));
    for (const CollectorStep& s : data.collectorSteps) {
        if (s.layers > 0) {
            data.stepMetrics.append({s.step, droppedTokens, double(s.droppedTokens)});
            data.stepMetrics.append({s.step, droppedAssignments, double(s.droppedAssignments)});
            if (s.tokens > 0) {
                data.stepMetrics.append({s.step, dropRate, double(s.droppedTokens) / double(s.tokens)});
                data.stepMetrics.append({s.step, assignmentRate, double(s.droppedAssignments) / double(s.assignments)});
            }
        }
        // As the interface defines it: steps where compute_s was measured; an all-to-all
        // time that was not (null: no all-to-all timed) counts as 0.
        if (h.world == 1 && s.timed && s.computeS >= 0 && s.stepS > 0) {
            double value = (s.computeS + std::max(0.0, s.a2aS)) / s.stepS;
            if (value > 1.0) { // within the clock slack checked above
                value = 1.0;
                ++clamped;
            }
            data.stepMetrics.append({s.step, share, value});
        }
    }

    QJsonObject& env = data.environment;
    env.insert(QStringLiteral("collect_format"), QLatin1String(kHeaderFormat));
    env.insert(QStringLiteral("rank"), h.rank);
    env.insert(QStringLiteral("world"), h.world);
    env.insert(QStringLiteral("framework"), h.framework);
    env.insert(QStringLiteral("experts"), h.experts);
    env.insert(QStringLiteral("top_k"), h.topk);
    env.insert(QStringLiteral("moe_layers"), h.moeLayers);
    env.insert(QStringLiteral("every"), h.every);
    env.insert(QStringLiteral("clock"), h.clock);
    if (h.world == 1)
        env.insert(QStringLiteral("busiest_device_share_source"), QStringLiteral("moewb-collect"));
    if (clamped > 0)
        env.insert(QStringLiteral("busiest_device_share_clamped"), clamped);
    if (resumes > 0) {
        env.insert(QStringLiteral("resumes"), resumes);
        env.insert(QStringLiteral("resumed_from_steps"), resumedFrom);
        env.insert(QStringLiteral("replaced_steps"), replacedSteps);
    }
    return data;
}

} // namespace moewb::importers
