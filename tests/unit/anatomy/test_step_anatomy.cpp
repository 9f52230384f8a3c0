// core/anatomy/StepAnatomy + AnatomySummary: ranks' digests put side by side. The
// traces are built here with a planted straggler and skewed clocks; every expected
// figure comes from a brute-force walk over 1 µs ticks of the true timeline (which
// interval covers each tick), never from the interval code under test.
#include "anatomy/AnatomySummary.h"
#include "anatomy/StepAnatomy.h"

#include <QTest>

#include <array>
#include <map>
#include <vector>

using namespace moewb;
using anatomy::CommCall;
using anatomy::CommKind;
using anatomy::Interval;
using anatomy::RankTrace;
using anatomy::StepTrace;

namespace {

constexpr qint64 kUs = 1000; // ns

// The truth: intervals in µs on the true clock, per rank and step, with their kind.
struct Truth {
    enum Kind { Compute, A2a, Other, Memcpy };
    struct Span {
        qint64 start, end; // µs
        Kind kind;
        qint64 waitEnd = 0; // comm: [start, waitEnd) is waiting (waitEnd = start: none)
    };
    std::map<std::pair<qint64, int>, std::vector<Span>> spans; // (step, rank)
    std::map<std::pair<qint64, int>, std::pair<qint64, qint64>> stepSpan;
};

struct Figures {
    double step, compute, a2a, a2aWait, other, otherWait, exposed, memcpy, idle, busy;
};

// Brute force: walk every µs of the step and ask which spans cover it.
Figures bruteForce(const std::vector<Truth::Span>& spans, qint64 s0, qint64 s1) {
    Figures e{};
    e.step = double(s1 - s0);
    for (qint64 t = s0; t < s1; ++t) {
        bool c = false, a = false, aw = false, o = false, ow = false, m = false;
        for (const Truth::Span& s : spans) {
            if (t < s.start || t >= s.end)
                continue;
            const bool waiting = t < s.waitEnd;
            switch (s.kind) {
            case Truth::Compute: c = true; break;
            case Truth::A2a: a = true; aw = aw || waiting; break;
            case Truth::Other: o = true; ow = ow || waiting; break;
            case Truth::Memcpy: m = true; break;
            }
        }
        e.compute += c;
        e.a2a += a;
        e.a2aWait += aw;
        e.other += o;
        e.otherWait += ow;
        e.exposed += (a || o) && !c;
        e.memcpy += m;
        e.idle += !(c || a || o || m);
        e.busy += c || ((a || o) && !(aw || ow));
    }
    return e;
}

// World 4, EP 4 (group "1", EXPERT_MODEL_PARALLEL_GROUP) and a DP all-reduce (group "0").
// Steps 5, 6, 7. In each step every rank computes its forward part, dispatches (all-to-all
// send/receive in the EP group), computes its experts, combines, and joins an all-reduce; a
// collective ends for all at once, transfer time after the last rank arrives. The
// straggler's expert compute is longer: rank 2 in steps 5 and 7, rank 1 in step 6. Clock
// offsets: rank 1 −700 µs, rank 3 +2500 µs.
struct Scenario {
    QVector<RankTrace> traces;
    Truth truth;
    std::array<qint64, 4> skewUs{0, -700, 0, 2500};
};

Scenario makeScenario() {
    Scenario sc;
    for (int r = 0; r < 4; ++r) {
        RankTrace t;
        t.shown = QStringLiteral("rank%1_trace.json").arg(r);
        t.format = QStringLiteral("kineto-json");
        t.rank = r;
        t.worldSize = 4;
        t.gpu = true;
        t.groups = {anatomy::ProcessGroup{QStringLiteral("0"), QStringLiteral("DATA_PARALLEL_GROUP"), {0, 1, 2, 3}},
                    anatomy::ProcessGroup{QStringLiteral("1"), QStringLiteral("EXPERT_MODEL_PARALLEL_GROUP"), {0, 1, 2, 3}}};
        sc.traces.append(t);
    }
    qint64 seqEp = 0, seqDp = 0;
    for (int k = 0; k < 3; ++k) {
        const qint64 step = 5 + k;
        const int straggler = k == 1 ? 1 : 2;
        const qint64 base = 100000 * k; // µs
        std::array<qint64, 4> forward{300, 320, 310, 290};
        std::array<qint64, 4> expert{};
        for (int r = 0; r < 4; ++r)
            expert[std::size_t(r)] = r == straggler ? 900 : 400 + 20 * r;
        std::array<std::vector<Truth::Span>, 4> spans;
        std::array<std::vector<CommCall>, 4> calls;
        std::array<qint64, 4> cursor{};
        for (int r = 0; r < 4; ++r) {
            cursor[std::size_t(r)] = base + 50;
            spans[std::size_t(r)].push_back({cursor[std::size_t(r)], cursor[std::size_t(r)] + forward[std::size_t(r)], Truth::Compute});
            // A memcpy overlapping the forward compute.
            spans[std::size_t(r)].push_back({base + 60, base + 100, Truth::Memcpy});
            cursor[std::size_t(r)] += forward[std::size_t(r)];
        }
        // A collective over all four ranks: each arrives at its cursor, all end together.
        auto collective = [&](Truth::Kind kind, CommKind ck, int group, qint64 seq, qint64 transfer, qint64 bytes) {
            const qint64 latest = *std::max_element(cursor.begin(), cursor.end());
            for (int r = 0; r < 4; ++r) {
                const qint64 start = cursor[std::size_t(r)], end = latest + transfer;
                spans[std::size_t(r)].push_back({start, end, kind, latest});
                CommCall c;
                c.start = (start + sc.skewUs[std::size_t(r)]) * kUs;
                c.end = (end + sc.skewUs[std::size_t(r)]) * kUs;
                c.kind = ck;
                c.group = group;
                c.seq = seq;
                c.inBytes = bytes + r; // the largest rank's is the call's
                c.collective = kind == Truth::A2a ? QStringLiteral("all_to_allv") : QStringLiteral("allreduce");
                calls[std::size_t(r)].push_back(c);
                cursor[std::size_t(r)] = end;
            }
        };
        collective(Truth::A2a, CommKind::NcclSendRecv, 1, seqEp++, 120, 4 << 20);
        for (int r = 0; r < 4; ++r) {
            spans[std::size_t(r)].push_back({cursor[std::size_t(r)], cursor[std::size_t(r)] + expert[std::size_t(r)], Truth::Compute});
            cursor[std::size_t(r)] += expert[std::size_t(r)];
        }
        collective(Truth::A2a, CommKind::NcclSendRecv, 1, seqEp++, 110, 4 << 20);
        // The all-reduce overlaps a little backward compute on each rank (20 µs).
        for (int r = 0; r < 4; ++r)
            spans[std::size_t(r)].push_back({cursor[std::size_t(r)], cursor[std::size_t(r)] + 20, Truth::Compute});
        collective(Truth::Other, CommKind::NcclOther, 0, seqDp++, 200, 64 << 20);
        for (int r = 0; r < 4; ++r) {
            const qint64 s0 = base, s1 = base + 3000;
            StepTrace st;
            st.step = step;
            st.start = (s0 + sc.skewUs[std::size_t(r)]) * kUs;
            st.end = (s1 + sc.skewUs[std::size_t(r)]) * kUs;
            for (const Truth::Span& s : spans[std::size_t(r)]) {
                const Interval i{(s.start + sc.skewUs[std::size_t(r)]) * kUs, (s.end + sc.skewUs[std::size_t(r)]) * kUs};
                if (s.kind == Truth::Compute)
                    st.compute.append(i);
                else if (s.kind == Truth::Memcpy)
                    st.memcpy.append(i);
            }
            st.comm = QVector<CommCall>(calls[std::size_t(r)].begin(), calls[std::size_t(r)].end());
            sc.traces[r].steps.append(st);
            sc.truth.spans[{step, r}] = spans[std::size_t(r)];
            sc.truth.stepSpan[{step, r}] = {s0, s1};
        }
    }
    return sc;
}

void compareRow(const store::RankStepAnatomy& got, const Figures& e) {
    const QString where = QStringLiteral("step %1 rank %2: ").arg(got.step).arg(got.rank);
    auto near = [&](double a, double b, const char* what) {
        QVERIFY2(std::abs(a - b) < 1e-6, qPrintable(where + QLatin1String(what) + QStringLiteral(" %1, expected %2").arg(a).arg(b)));
    };
    near(got.stepUs, e.step, "step");
    near(got.computeUs, e.compute, "compute");
    near(got.a2aUs, e.a2a, "a2a");
    near(got.a2aWaitUs, e.a2aWait, "a2a wait");
    near(got.otherCommUs, e.other, "other comm");
    near(got.otherCommWaitUs, e.otherWait, "other wait");
    near(got.exposedCommUs, e.exposed, "exposed");
    near(got.memcpyUs, e.memcpy, "memcpy");
    near(got.idleUs, e.idle, "idle");
    near(got.busyUs, e.busy, "busy");
}

} // namespace

class TestStepAnatomy : public QObject {
    Q_OBJECT
private slots:
    void plantedStragglerWithSkewedClocks() {
        const Scenario sc = makeScenario();
        auto result = anatomy::computeAnatomy(sc.traces, std::nullopt);
        QVERIFY2(result, qPrintable(result ? QString() : result.error().first().text()));
        const store::RunAnatomy& a = result->anatomy;
        QCOMPARE(a.rows.size(), 12);
        QCOMPARE(a.ranksTraced, QVector<int>({0, 1, 2, 3}));
        for (const store::RankStepAnatomy& r : a.rows) {
            const auto span = sc.truth.stepSpan.at({r.step, r.rank});
            compareRow(r, bruteForce(sc.truth.spans.at({r.step, r.rank}), span.first, span.second));
        }
        // The clocks were put back: offsets are minus the skews (rank 0 the reference).
        QCOMPARE(result->clockOffsetNs, QVector<qint64>({0, 700 * kUs, 0, -2500 * kUs}));

        // The summary: busiest rank per step = the one with the most busy ticks (brute force).
        const anatomy::AnatomySummary s = anatomy::summarize(a);
        QCOMPARE(s.steps.size(), 3);
        for (const anatomy::StepSummary& st : s.steps) {
            int best = -1;
            double bestBusy = -1, shareSum = 0;
            for (int r = 0; r < 4; ++r) {
                const auto span = sc.truth.stepSpan.at({st.step, r});
                const Figures e = bruteForce(sc.truth.spans.at({st.step, r}), span.first, span.second);
                if (e.busy > bestBusy) {
                    bestBusy = e.busy;
                    best = r;
                }
                shareSum += e.busy / e.step;
            }
            QCOMPARE(st.busiestRank, best);
            QCOMPARE(st.busiestRank, st.step == 6 ? 1 : 2); // the planted straggler
            QVERIFY(std::abs(st.busiestShare - bestBusy / 3000.0) < 1e-12);
            QVERIFY(std::abs(st.meanShare - shareSum / 4) < 1e-12);
            QVERIFY(std::abs(st.billUs - (bestBusy / 3000.0 - shareSum / 4) * 3000.0) < 1e-6);
        }
        QCOMPARE(s.stragglers.size(), 2);
        QCOMPARE(s.stragglers[0].rank, 2);
        QCOMPARE(s.stragglers[0].timesBusiest, 2);
        QCOMPARE(s.stragglers[1].rank, 1);

        // All-to-all calls: 2 per step, matched over 4 ranks; transfer = the last arrival's
        // duration (the planted transfer time), bytes = the largest rank's.
        QCOMPARE(a.a2a.size(), 6);
        for (int i = 0; i < a.a2a.size(); ++i) {
            const store::A2aCallRow& c = a.a2a[i];
            QCOMPARE(c.step, 5 + i / 2);
            QCOMPARE(c.ranks, 4);
            QCOMPARE(c.bytesPerRank, qint64((4 << 20) + 3));
            QCOMPARE(c.transferUs, i % 2 == 0 ? 120.0 : 110.0);
            QCOMPARE(c.kind, QStringLiteral("sendrecv"));
            QVERIFY(c.slowestUs > c.transferUs);
        }
    }

    void sendRecvOutsideAnExpertGroupIsNotAllToAll() {
        // Pipeline P2P uses the same kernel: in a group that is not expert-parallel it is other communication.
        Scenario sc = makeScenario();
        for (RankTrace& t : sc.traces) {
            t.groups[1].description = QStringLiteral("PIPELINE_MODEL_PARALLEL_GROUP");
            for (StepTrace& s : t.steps)
                for (CommCall& c : s.comm)
                    c.collective.clear();
        }
        auto result = anatomy::computeAnatomy(sc.traces, std::nullopt);
        QVERIFY(result);
        for (const store::RankStepAnatomy& r : result->anatomy.rows)
            QCOMPARE(r.a2aUs, 0.0);
        QVERIFY(result->anatomy.a2a.isEmpty());
        // ... unless the record's expert-parallel layout has exactly that group.
        record::ConfigRecord rec;
        rec.parallelism.dp = 4;
        rec.parallelism.tp = 1;
        rec.parallelism.pp = 1;
        rec.parallelism.ep = 4;
        auto withRecord = anatomy::computeAnatomy(sc.traces, rec);
        QVERIFY(withRecord);
        QCOMPARE(withRecord->anatomy.a2a.size(), 6);
    }

    void refusesDuplicateAndMismatchedRanks() {
        Scenario sc = makeScenario();
        QVector<RankTrace> dup = sc.traces;
        dup[3].rank = 1;
        auto r = anatomy::computeAnatomy(dup, std::nullopt);
        QVERIFY(!r);
        QVERIFY2(r.error().first().text().contains(QStringLiteral("rank3_trace.json")), qPrintable(r.error().first().text()));
        QVERIFY(r.error().first().text().contains(QStringLiteral("second trace of rank 1")));

        QVector<RankTrace> world = sc.traces;
        world[2].worldSize = 8;
        r = anatomy::computeAnatomy(world, std::nullopt);
        QVERIFY(!r);
        QVERIFY(r.error().first().text().contains(QStringLiteral("rank2_trace.json")));

        record::ConfigRecord rec;
        rec.cluster.nodes = 2;
        rec.cluster.acceleratorsPerNode = 8;
        r = anatomy::computeAnatomy(sc.traces, rec);
        QVERIFY(!r);
        QVERIFY(r.error().first().text().contains(QStringLiteral("16")));
    }

    void missingRanksAreStated() {
        Scenario sc = makeScenario();
        sc.traces.removeAt(3);
        auto r = anatomy::computeAnatomy(sc.traces, std::nullopt);
        QVERIFY(r);
        QCOMPARE(r->missingRanks, QVector<int>({3}));
        QVERIFY(r->notes.join(QLatin1Char(' ')).contains(QStringLiteral("3 of 4 ranks traced")));
        QCOMPARE(anatomy::summarize(r->anatomy).steps.size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestStepAnatomy)
#include "test_step_anatomy.moc"
