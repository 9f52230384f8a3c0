#include "anatomy/DigestDocument.h"

#include "anatomy/AnatomyTr.h"
#include "anatomy/digest/CommKind.h"
#include "importers/ImportSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <limits>

namespace moewb::anatomy {

namespace {

constexpr const char* kSchema = "moe-digest/1";
constexpr qint64 kNoInteger = std::numeric_limits<qint64>::min();
constexpr qint64 kMaxRank = 1 << 24;

// A JSON integer (written without fraction) or kNoInteger.
qint64 integer(const QJsonValue& v) { return v.isDouble() ? v.toInteger(kNoInteger) : kNoInteger; }

bool inRange(qint64 v, qint64 lo, qint64 hi) { return v != kNoInteger && v >= lo && v <= hi; }

// Why a rank's line is malformed; empty when it is well formed. Fills `out`.
class RankLine {
public:
    RankLine(const QJsonObject& o, RankTrace& out) : m_o(o), m_out(out) {}
    QString read();

private:
    QString readGroups();
    QString readSteps();
    QString readIntervals(const QJsonValue& v, const StepTrace& step, QVector<Interval>& out, const QString& where);
    QString readCall(const QJsonValue& v, const StepTrace& step, CommCall& call, const QString& where);

    const QJsonObject& m_o;
    RankTrace& m_out;
};

QString RankLine::read() {
    const qint64 rank = integer(m_o.value(QLatin1String("rank")));
    const qint64 world = integer(m_o.value(QLatin1String("world_size")));
    const QString format = m_o.value(QLatin1String("format")).toString();
    const qint64 base = integer(m_o.value(QLatin1String("base_time_ns")));
    const qint64 events = integer(m_o.value(QLatin1String("events")));
    const qint64 unassigned = integer(m_o.value(QLatin1String("unassigned")));
    const qint64 bytes = integer(m_o.value(QLatin1String("bytes_read")));
    if (!inRange(rank, -1, kMaxRank) || !inRange(world, -1, kMaxRank))
        return QStringLiteral("rank/world_size");
    if (format != QLatin1String("kineto-json") && format != QLatin1String("torch-legacy-json"))
        return QStringLiteral("format");
    if (base == kNoInteger || !m_o.value(QLatin1String("gpu")).isBool())
        return QStringLiteral("base_time_ns/gpu");
    if (!inRange(events, 0, std::numeric_limits<qint64>::max()) || !inRange(unassigned, 0, std::numeric_limits<qint64>::max()) ||
        !inRange(bytes, 0, std::numeric_limits<qint64>::max()))
        return QStringLiteral("events/unassigned/bytes_read");
    m_out.rank = int(rank);
    m_out.worldSize = int(world);
    m_out.format = format;
    m_out.baseTimeNs = base;
    m_out.gpu = m_o.value(QLatin1String("gpu")).toBool();
    m_out.events = events;
    m_out.unassigned = unassigned;
    m_out.bytesRead = bytes;
    const QJsonValue names = m_o.value(QLatin1String("names"));
    if (!names.isArray())
        return QStringLiteral("names");
    for (const QJsonValue& n : names.toArray()) {
        if (!n.isString())
            return QStringLiteral("names");
        m_out.names.push_back(n.toString());
    }
    QString bad = readGroups();
    return bad.isEmpty() ? readSteps() : bad;
}

QString RankLine::readGroups() {
    const QJsonValue groups = m_o.value(QLatin1String("groups"));
    if (!groups.isArray())
        return QStringLiteral("groups");
    for (const QJsonValue& g : groups.toArray()) {
        const QJsonObject o = g.toObject();
        if (!g.isObject() || !o.value(QLatin1String("name")).isString() || !o.value(QLatin1String("description")).isString() ||
            !o.value(QLatin1String("ranks")).isArray())
            return QStringLiteral("groups");
        ProcessGroup pg{o.value(QLatin1String("name")).toString(), o.value(QLatin1String("description")).toString(), {}};
        for (const QJsonValue& r : o.value(QLatin1String("ranks")).toArray()) {
            const qint64 v = integer(r);
            if (!inRange(v, 0, kMaxRank))
                return QStringLiteral("groups.ranks");
            pg.ranks.push_back(int(v));
        }
        m_out.groups.push_back(pg);
    }
    return {};
}

// Merged intervals: [start, end, start, end, ...], sorted, disjoint, inside the step.
QString RankLine::readIntervals(const QJsonValue& v, const StepTrace& step, QVector<Interval>& out, const QString& where) {
    const QJsonArray a = v.toArray();
    if (!v.isArray() || a.size() % 2 != 0)
        return where;
    qint64 last = step.start;
    for (qsizetype i = 0; i < a.size(); i += 2) {
        const qint64 s = integer(a[i]), e = integer(a[i + 1]);
        if (!inRange(s, last, step.end) || !inRange(e, s, step.end))
            return where;
        out.push_back(Interval{s, e});
        last = e;
    }
    return {};
}

// [start, end, kind, group, seq, in_bytes, out_bytes, splits_cut, name, collective]
QString RankLine::readCall(const QJsonValue& v, const StepTrace& step, CommCall& c, const QString& where) {
    const QJsonArray a = v.toArray();
    if (!v.isArray() || a.size() != 10 || !a[9].isString())
        return where;
    constexpr qint64 kMax = std::numeric_limits<qint64>::max();
    const qint64 s = integer(a[0]), e = integer(a[1]), kind = integer(a[2]), group = integer(a[3]);
    const qint64 seq = integer(a[4]), in = integer(a[5]), out = integer(a[6]), cut = integer(a[7]), name = integer(a[8]);
    if (!inRange(s, step.start, step.end) || !inRange(e, s, step.end) || !inRange(kind, 0, kLastCommKind) ||
        !inRange(group, -1, qint64(m_out.groups.size()) - 1) || !inRange(seq, -1, kMax) || !inRange(in, -1, kMax) ||
        !inRange(out, -1, kMax) || !inRange(cut, 0, 1) || !inRange(name, -1, qint64(m_out.names.size()) - 1))
        return where;
    c = CommCall{s, e, CommKind(kind), int(group), seq, in, out, cut == 1, int(name), a[9].toString()};
    return {};
}

QString RankLine::readSteps() {
    const QJsonValue steps = m_o.value(QLatin1String("steps"));
    if (!steps.isArray())
        return QStringLiteral("steps");
    qint64 previous = kNoInteger;
    for (const QJsonValue& v : steps.toArray()) {
        const QJsonObject o = v.toObject();
        StepTrace t;
        t.step = integer(o.value(QLatin1String("step")));
        t.start = integer(o.value(QLatin1String("start")));
        t.end = integer(o.value(QLatin1String("end")));
        const QString where = QStringLiteral("steps[%1]").arg(m_out.steps.size());
        if (!v.isObject() || t.step == kNoInteger || t.step <= previous || t.start == kNoInteger || !inRange(t.end, t.start, std::numeric_limits<qint64>::max()))
            return where;
        previous = t.step;
        QString bad = readIntervals(o.value(QLatin1String("compute")), t, t.compute, where + QStringLiteral(".compute"));
        if (bad.isEmpty())
            bad = readIntervals(o.value(QLatin1String("memcpy")), t, t.memcpy, where + QStringLiteral(".memcpy"));
        if (!bad.isEmpty())
            return bad;
        const QJsonValue comm = o.value(QLatin1String("comm"));
        if (!comm.isArray())
            return where + QStringLiteral(".comm");
        for (const QJsonValue& c : comm.toArray()) {
            CommCall call;
            bad = readCall(c, t, call, where + QStringLiteral(".comm[%1]").arg(t.comm.size()));
            if (!bad.isEmpty())
                return bad;
            t.comm.push_back(call);
        }
        m_out.steps.push_back(std::move(t));
    }
    return {};
}

} // namespace

DigestDocumentReader::DigestDocumentReader(QString source, std::function<QString(const QString&)> shownOf)
    : m_source(std::move(source)), m_shownOf(std::move(shownOf)) {}

bool DigestDocumentReader::fail(const QString& message) {
    if (m_error.isEmpty())
        m_error = AnatomyTr::tr("%1: the trace digest is refused, line %2: %3").arg(m_source).arg(m_lineNumber).arg(message);
    return false;
}

bool DigestDocumentReader::feed(const QByteArray& bytes) {
    if (!m_error.isEmpty())
        return false;
    qsizetype from = 0;
    for (;;) {
        const qsizetype nl = bytes.indexOf('\n', from);
        const qsizetype take = (nl < 0 ? bytes.size() : nl) - from;
        if (qint64(m_pending.size()) + take > kMaxLineBytes) {
            ++m_lineNumber;
            return fail(AnatomyTr::tr("a line longer than %1 MiB").arg(kMaxLineBytes >> 20));
        }
        m_pending.append(bytes.constData() + from, take);
        if (nl < 0)
            return true;
        const QByteArray text = std::exchange(m_pending, QByteArray());
        if (!line(text))
            return false;
        from = nl + 1;
    }
}

bool DigestDocumentReader::finish() {
    if (!m_error.isEmpty())
        return false;
    if (!m_pending.isEmpty() || !m_ended) {
        ++m_lineNumber;
        return fail(AnatomyTr::tr("the document ends early (no end line): the digest was cut off"));
    }
    return true;
}

bool DigestDocumentReader::line(const QByteArray& text) {
    ++m_lineNumber;
    if (m_ended)
        return fail(AnatomyTr::tr("text after the end line"));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return fail(AnatomyTr::tr("not a JSON object (%1)").arg(parseError.errorString()));
    const QJsonObject o = doc.object();
    if (m_lineNumber == 1) {
        const qint64 files = integer(o.value(QLatin1String("files")));
        if (o.value(QLatin1String("schema")).toString() != QLatin1String(kSchema))
            return fail(AnatomyTr::tr("not a %1 document (schema %2)")
                            .arg(QLatin1String(kSchema), importers::clipped(o.value(QLatin1String("schema")).toString())));
        if (!inRange(files, 1, kMaxFiles))
            return fail(AnatomyTr::tr("a bad \"%1\"").arg(QStringLiteral("files")));
        m_expectedFiles = files;
        return true;
    }
    if (o.contains(QLatin1String("end"))) {
        if (o.value(QLatin1String("end")).toString() != QLatin1String(kSchema) ||
            integer(o.value(QLatin1String("files"))) != m_expectedFiles || m_files.size() != m_expectedFiles)
            return fail(AnatomyTr::tr("the end line does not match the %1 files announced").arg(m_expectedFiles));
        m_ended = true;
        return true;
    }
    if (m_files.size() >= m_expectedFiles)
        return fail(AnatomyTr::tr("more files than the %1 announced").arg(m_expectedFiles));
    const QString path = o.value(QLatin1String("file")).toString();
    if (path.isEmpty())
        return fail(AnatomyTr::tr("a bad \"%1\"").arg(QStringLiteral("file")));
    FileDigest f;
    f.path = path;
    const QString shown = m_shownOf ? m_shownOf(path) : path;
    if (o.contains(QLatin1String("error"))) {
        const QJsonObject e = o.value(QLatin1String("error")).toObject();
        const qint64 line = integer(e.value(QLatin1String("line")));
        if (!inRange(line, 0, std::numeric_limits<qint64>::max()) || !e.value(QLatin1String("message")).isString() ||
            !e.value(QLatin1String("field")).isString() || !e.value(QLatin1String("unreadable")).isBool())
            return fail(AnatomyTr::tr("a bad \"%1\"").arg(QStringLiteral("error")));
        f.error = importers::ImportError{shown, line, importers::clipped(e.value(QLatin1String("field")).toString()),
                                         importers::clipped(e.value(QLatin1String("message")).toString(),
                                                            importers::kMaxMessageChars),
                                         e.value(QLatin1String("unreadable")).toBool()};
    } else {
        RankTrace trace;
        trace.shown = shown;
        const QString bad = RankLine(o, trace).read();
        if (!bad.isEmpty())
            return fail(AnatomyTr::tr("a bad \"%1\"").arg(bad));
        f.trace = std::move(trace);
    }
    m_files.push_back(std::move(f));
    return true;
}

} // namespace moewb::anatomy
