// core/anatomy/StepTimeline: the one-step timeline of the generated Kineto traces
// (tests/fixtures/anatomy/generated: a planted straggler, ranks' clocks shifted, NCCL and
// DeepEP kernels). The expected intervals come from the files themselves, read here with
// Qt's JSON parser: kernels tied to steps by their launches' correlation, classified by
// name, compute and memcpy united over 100 ns ticks, each call's waiting from the calls
// matched across ranks (c10d Seq, or occurrence within the step) on the generator's true
// clock offsets (expected.json) — never from the reader or the anatomy under test.
#include "anatomy/StepAnatomy.h"
#include "anatomy/StepTimeline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <zlib.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace moewb;
using store::TimelineClass;
using store::TimelineInterval;

namespace {

const QString kGenerated = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/anatomy/generated");
constexpr qint64 kTick = 100; // ns: every time in the fixtures is a multiple

QByteArray readMaybeGz(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray raw = f.readAll();
    if (!path.endsWith(QLatin1String(".gz")))
        return raw;
    QByteArray out;
    z_stream z{};
    inflateInit2(&z, 16 + MAX_WBITS);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.constData()));
    z.avail_in = uInt(raw.size());
    char buf[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buf, qsizetype(sizeof buf - z.avail_out));
    }
    inflateEnd(&z);
    return out;
}

qint64 ns(double us) {
    return qRound64(us * 1000.0);
}

// A piece as the test expects it: times relative to the step's origin on the true clock.
using Piece = std::tuple<qint64, qint64, int, QString, QString, qint64>; // start, end, class, name, group, bytes

struct Call {
    qint64 start, end; // true clock
    QString name, group, matchKey;
    qint64 bytes = -1;
    TimelineClass cls;
};

struct RankStep {
    qint64 s0 = 0, s1 = 0; // true clock
    std::vector<std::pair<qint64, qint64>> compute, memcpy;
    std::vector<Call> calls;
};

// Ticks covered by any interval, as maximal runs, clipped to [s0, s1).
std::vector<std::pair<qint64, qint64>> unionByTicks(const std::vector<std::pair<qint64, qint64>>& v, qint64 s0, qint64 s1) {
    std::vector<char> covered(std::size_t((s1 - s0) / kTick), 0);
    for (const auto& [a, b] : v)
        for (qint64 t = std::max(a, s0); t < std::min(b, s1); t += kTick)
            covered[std::size_t((t - s0) / kTick)] = 1;
    std::vector<std::pair<qint64, qint64>> runs;
    for (std::size_t i = 0; i < covered.size(); ++i) {
        if (!covered[i])
            continue;
        const qint64 t = s0 + qint64(i) * kTick;
        if (!runs.empty() && runs.back().second == t)
            runs.back().second = t + kTick;
        else
            runs.push_back({t, t + kTick});
    }
    return runs;
}

struct Fixture {
    std::map<std::pair<qint64, int>, RankStep> steps; // (step, rank), true clock
    std::map<int, qint64> offset;                     // expected.json clock_offset_ns
    std::map<qint64, int> straggler;
};

Fixture readFixture(const QString& scenario) {
    Fixture fx;
    const QJsonObject expected = QJsonDocument::fromJson(readMaybeGz(kGenerated + QLatin1Char('/') + scenario + QStringLiteral("/expected.json"))).object();
    const QJsonObject files = expected.value(QStringLiteral("files")).toObject();
    const QJsonObject offsets = expected.value(QStringLiteral("clock_offset_ns")).toObject();
    const QJsonObject planted = expected.value(QStringLiteral("planted")).toObject().value(QStringLiteral("straggler_rank_per_step")).toObject();
    for (auto it = planted.begin(); it != planted.end(); ++it)
        fx.straggler[it.key().toLongLong()] = it.value().toInt();
    for (auto it = files.begin(); it != files.end(); ++it) {
        const int rank = it.key().toInt();
        fx.offset[rank] = qint64(offsets.value(it.key()).toDouble());
        const QJsonObject doc = QJsonDocument::fromJson(readMaybeGz(kGenerated + QLatin1Char('/') + scenario + QLatin1Char('/') + it.value().toString())).object();
        const QJsonArray events = doc.value(QStringLiteral("traceEvents")).toArray();
        std::map<qint64, std::pair<qint64, qint64>> stepSpan;
        std::map<qint64, qint64> launch; // correlation -> launch ts
        for (const QJsonValue& v : events) {
            const QJsonObject e = v.toObject();
            const QString cat = e.value(QStringLiteral("cat")).toString(), name = e.value(QStringLiteral("name")).toString();
            if (cat == QLatin1String("user_annotation") && name.startsWith(QLatin1String("ProfilerStep#"))) {
                const qint64 t = ns(e.value(QStringLiteral("ts")).toDouble());
                stepSpan[name.mid(13).toLongLong()] = {t, t + ns(e.value(QStringLiteral("dur")).toDouble())};
            } else if (cat == QLatin1String("cuda_runtime")) {
                launch[qint64(e.value(QStringLiteral("args")).toObject().value(QStringLiteral("correlation")).toDouble())] =
                    ns(e.value(QStringLiteral("ts")).toDouble());
            }
        }
        std::map<std::pair<qint64, QString>, int> occurrence;
        std::vector<QJsonObject> gpu;
        for (const QJsonValue& v : events) {
            const QString cat = v.toObject().value(QStringLiteral("cat")).toString();
            if (cat == QLatin1String("kernel") || cat == QLatin1String("gpu_memcpy") || cat == QLatin1String("gpu_memset"))
                gpu.push_back(v.toObject());
        }
        std::sort(gpu.begin(), gpu.end(), [](const QJsonObject& a, const QJsonObject& b) {
            return a.value(QStringLiteral("ts")).toDouble() < b.value(QStringLiteral("ts")).toDouble();
        });
        for (const QJsonObject& e : gpu) {
            const QJsonObject args = e.value(QStringLiteral("args")).toObject();
            const auto l = launch.find(qint64(args.value(QStringLiteral("correlation")).toDouble()));
            if (l == launch.end())
                continue;
            qint64 step = -1;
            for (const auto& [n, span] : stepSpan)
                if (l->second >= span.first && l->second < span.second)
                    step = n;
            if (step < 0)
                continue;
            RankStep& rs = fx.steps[{step, rank}];
            rs.s0 = stepSpan[step].first;
            rs.s1 = stepSpan[step].second;
            const qint64 a = ns(e.value(QStringLiteral("ts")).toDouble()), b = a + ns(e.value(QStringLiteral("dur")).toDouble());
            const QString cat = e.value(QStringLiteral("cat")).toString(), name = e.value(QStringLiteral("name")).toString();
            if (cat != QLatin1String("kernel")) {
                rs.memcpy.push_back({a, b});
                continue;
            }
            const bool nccl = name.startsWith(QLatin1String("nccl")), deepEp = name.contains(QLatin1String("deep_ep::"));
            if (!nccl && !deepEp) {
                rs.compute.push_back({a, b});
                continue;
            }
            Call c{a, b, name, {}, {}, -1, TimelineClass::OtherComm};
            const QString pg = args.value(QStringLiteral("Process Group Name")).toString();
            if (!pg.isEmpty())
                c.group = pg + QStringLiteral(" · ") + args.value(QStringLiteral("Process Group Description")).toString();
            if (args.contains(QStringLiteral("In msg nelems")))
                c.bytes = qint64(args.value(QStringLiteral("In msg nelems")).toDouble()) *
                          (args.value(QStringLiteral("dtype")).toString() == QLatin1String("Float") ? 4 : 2);
            if (deepEp)
                c.cls = name.contains(QLatin1String("combine")) ? TimelineClass::Combine : TimelineClass::Dispatch;
            else if (args.value(QStringLiteral("Collective name")).toString().startsWith(QLatin1String("all_to_all")))
                c.cls = TimelineClass::AllToAll;
            c.matchKey = args.contains(QStringLiteral("Seq"))
                             ? pg + QLatin1Char('#') + QString::number(qint64(args.value(QStringLiteral("Seq")).toDouble()))
                             : QStringLiteral("%1|%2#%3").arg(step).arg(name).arg(occurrence[{step, name}]++);
            rs.calls.push_back(c);
        }
    }
    return fx;
}

// What the timeline of (step, rank) must hold: compute and memcpy as tick unions, each
// call as its waiting (the latest aligned start among its matched calls minus its own)
// and the rest.
std::multiset<Piece> expectedPieces(const Fixture& fx, qint64 step, int rank, qint64 origin) {
    std::map<QString, qint64> latest; // match key -> latest aligned start
    for (const auto& [key, rs] : fx.steps)
        for (const Call& c : rs.calls)
            latest[c.matchKey] = std::max(latest.count(c.matchKey) ? latest[c.matchKey] : LLONG_MIN, c.start + fx.offset.at(key.second));
    // Calls of other steps share keys only through Seq; all are in `latest`.
    const RankStep& rs = fx.steps.at({step, rank});
    const qint64 shift = fx.offset.at(rank) - origin;
    std::multiset<Piece> out;
    for (const auto& [a, b] : unionByTicks(rs.compute, rs.s0, rs.s1))
        out.insert({a + shift, b + shift, int(TimelineClass::Compute), {}, {}, -1});
    for (const auto& [a, b] : unionByTicks(rs.memcpy, rs.s0, rs.s1))
        out.insert({a + shift, b + shift, int(TimelineClass::Memcpy), {}, {}, -1});
    for (const Call& c : rs.calls) {
        const qint64 wait = std::clamp<qint64>(latest[c.matchKey] - (c.start + fx.offset.at(rank)), 0, c.end - c.start);
        auto piece = [&](qint64 a, qint64 b, TimelineClass cls) {
            a = std::clamp(a, rs.s0, rs.s1);
            b = std::clamp(b, rs.s0, rs.s1);
            if (b > a)
                out.insert({a + shift, b + shift, int(cls), c.name, c.group, c.bytes});
        };
        piece(c.start, c.start + wait, TimelineClass::Waiting);
        piece(c.start + wait, c.end, c.cls);
    }
    return out;
}

std::multiset<Piece> actualPieces(const store::RankStepTimeline& t) {
    std::multiset<Piece> out;
    for (const TimelineInterval& i : t.intervals)
        out.insert({i.startNs, i.endNs, int(i.cls), i.name >= 0 ? t.labels[i.name] : QString(),
                    i.group >= 0 ? t.labels[i.group] : QString(), i.bytes});
    return out;
}

QString describe(const std::multiset<Piece>& s) {
    QStringList l;
    for (const Piece& p : s)
        l << QStringLiteral("[%1,%2) c%3 %4 %5 %6").arg(std::get<0>(p)).arg(std::get<1>(p)).arg(std::get<2>(p))
                 .arg(std::get<3>(p).left(30), std::get<4>(p)).arg(std::get<5>(p));
    return l.join(QLatin1Char('\n'));
}

struct Computed {
    QVector<anatomy::RankTrace> traces;
    anatomy::AnatomyResult result;
};

Computed compute(const QString& scenario) {
    Computed c;
    const QJsonObject files = QJsonDocument::fromJson(readMaybeGz(kGenerated + QLatin1Char('/') + scenario + QStringLiteral("/expected.json")))
                                  .object().value(QStringLiteral("files")).toObject();
    for (auto it = files.begin(); it != files.end(); ++it) {
        auto t = anatomy::readRankTrace(kGenerated + QLatin1Char('/') + scenario + QLatin1Char('/') + it.value().toString(), it.value().toString());
        if (!t)
            qFatal("%s", qPrintable(t.error().message));
        c.traces << *t;
    }
    auto r = anatomy::computeAnatomy(c.traces, std::nullopt);
    if (!r)
        qFatal("anatomy failed");
    c.result = *r;
    return c;
}

} // namespace

class TestStepTimeline : public QObject {
    Q_OBJECT
private slots:
    void intervalsEqualTheFiles_data() {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("nccl, clocks shifted") << QStringLiteral("clock-offset");
        QTest::newRow("deepep, gzip") << QStringLiteral("deepep");
    }
    void intervalsEqualTheFiles() {
        QFETCH(QString, scenario);
        const Fixture fx = readFixture(scenario);
        const Computed c = compute(scenario);
        const QVector<store::RankStepTimeline> timeline = anatomy::stepTimeline(c.traces, c.result);
        QCOMPARE(timeline.size(), qsizetype(fx.steps.size())); // 3 steps × 4 ranks
        for (const store::RankStepTimeline& t : timeline) {
            // The step's origin: the earliest aligned ProfilerStep start among the ranks.
            qint64 origin = LLONG_MAX;
            for (const auto& [key, rs] : fx.steps)
                if (key.first == t.step)
                    origin = std::min(origin, rs.s0 + fx.offset.at(key.second));
            const RankStep& rs = fx.steps.at({t.step, t.rank});
            QCOMPARE(t.stepStartNs, rs.s0 + fx.offset.at(t.rank) - origin);
            QCOMPARE(t.stepEndNs, rs.s1 + fx.offset.at(t.rank) - origin);
            QCOMPARE(t.dropped, qint64(0));
            const auto expected = expectedPieces(fx, t.step, t.rank, origin);
            const auto actual = actualPieces(t);
            if (actual != expected)
                QFAIL(qPrintable(QStringLiteral("step %1 rank %2\nactual:\n%3\nexpected:\n%4")
                                     .arg(t.step).arg(t.rank).arg(describe(actual), describe(expected))));
            for (int i = 1; i < t.intervals.size(); ++i)
                QVERIFY(t.intervals[i - 1].startNs <= t.intervals[i].startNs);
        }
    }

    // The planted straggler arrives last at the combine: it alone has no waiting there,
    // and every other rank waits there at least the straggler's extra expert compute.
    void waitingIsOnTheOtherRanks() {
        const Fixture fx = readFixture(QStringLiteral("clock-offset"));
        const Computed c = compute(QStringLiteral("clock-offset"));
        const auto timeline = anatomy::stepTimeline(c.traces, c.result);
        QCOMPARE(fx.straggler.size(), std::size_t(3));
        for (const auto& [step, straggler] : fx.straggler) {
            for (const store::RankStepTimeline& t : timeline) {
                if (t.step != step)
                    continue;
                // The combine: the second all-to-all call of the step.
                std::vector<qint64> seqs;
                for (const TimelineInterval& i : t.intervals)
                    if (i.callClass == TimelineClass::AllToAll && std::find(seqs.begin(), seqs.end(), i.seq) == seqs.end())
                        seqs.push_back(i.seq);
                QCOMPARE(seqs.size(), std::size_t(2));
                std::sort(seqs.begin(), seqs.end());
                qint64 waited = 0;
                for (const TimelineInterval& i : t.intervals)
                    if (i.cls == TimelineClass::Waiting && i.seq == seqs[1])
                        waited += i.endNs - i.startNs;
                if (t.rank == straggler)
                    QCOMPARE(waited, qint64(0));
                else
                    QVERIFY2(waited >= 1'000'000, qPrintable(QStringLiteral("step %1 rank %2 waited %3 ns").arg(step).arg(t.rank).arg(waited)));
            }
        }
    }

    void boundsCutAndSayHowMuch() {
        const Computed c = compute(QStringLiteral("deepep"));
        const auto full = anatomy::stepTimeline(c.traces, c.result);
        anatomy::TimelineBounds bounds;
        bounds.maxIntervals = 5;
        bounds.maxSteps = 2;
        const auto cut = anatomy::stepTimeline(c.traces, c.result, bounds);
        QCOMPARE(cut.size(), qsizetype(8)); // steps 5 and 6 of 4 ranks
        for (int i = 0; i < cut.size(); ++i) {
            QCOMPARE(cut[i].step, full[i].step);
            QCOMPARE(cut[i].intervals.size(), qsizetype(5));
            QCOMPARE(cut[i].dropped, full[i].intervals.size() - 5);
            QVERIFY(cut[i].intervals == full[i].intervals.mid(0, 5)); // the earliest kept
        }
    }

    void dispatchAndCombineByName() {
        using K = anatomy::CommKind;
        QCOMPARE(anatomy::allToAllClass(K::EpDispatch, QStringLiteral("x")), TimelineClass::Dispatch);
        QCOMPARE(anatomy::allToAllClass(K::EpCombine, QStringLiteral("x")), TimelineClass::Combine);
        QCOMPARE(anatomy::allToAllClass(K::EpOther, QStringLiteral("deep_ep::intranode::notify_dispatch<8>")), TimelineClass::Dispatch);
        QCOMPARE(anatomy::allToAllClass(K::NcclSendRecv, QStringLiteral("hybrid_ep::combine_kernel")), TimelineClass::Combine);
        QCOMPARE(anatomy::allToAllClass(K::NcclAllToAll, QStringLiteral("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)")),
                 TimelineClass::AllToAll);
    }
};

QTEST_GUILESS_MAIN(TestStepTimeline)
#include "test_step_timeline.moc"
