// The real `moewb import DIR --run NAME` of per-rank PyTorch profiler traces, then
// `moewb --json anatomy NAME` and `stage 3 --preview`: every per-rank, per-step figure
// equals the brute force that tests/fixtures/anatomy/gen_kineto_traces.py wrote beside
// the traces (expected.json: a sweep over 100 ns ticks of the files as written); the
// busiest rank is the planted straggler; stage 3 takes its busiest-device share from the
// traces. Scenarios: NCCL with a straggler, skewed clocks, one rank gzipped, DeepEP
// kernels; and the legacy torch 1.13 traces of the real reference training.
#include "../MoewbCli.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString generated(const QString& scenario) {
    return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/anatomy/generated/") + scenario;
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QJsonDocument::fromJson(f.readAll()).object();
}

const char* const kFields[] = {"step_us",        "compute_us",         "a2a_us",          "a2a_wait_us",
                               "other_comm_us",  "other_comm_wait_us", "exposed_comm_us", "memcpy_us",
                               "idle_us",        "busy_us"};

} // namespace

class TestMoewbAnatomy : public QObject {
    Q_OBJECT
    QTemporaryDir m_home;

    CliResult run(const QStringList& args) { return runMoewb(m_home.path(), args, 120000); }

    QString newProject(const QString& name) {
        const QString p = m_home.filePath(name + QStringLiteral(".moewb"));
        if (run({QStringLiteral("init"), p}).exitCode != 0)
            return {};
        const CliResult r = run({QStringLiteral("--project"), p, QStringLiteral("record"), QStringLiteral("add"),
                                 QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/collect-4ranks/record.json")});
        return r.exitCode == 0 ? p : QString();
    }

private slots:
    void generatedTracesReadExactly_data() {
        QTest::addColumn<QString>("scenario");
        for (const char* s : {"nccl-straggler", "clock-offset", "gzip-one-rank", "deepep"})
            QTest::newRow(s) << QString::fromLatin1(s);
    }

    void generatedTracesReadExactly() {
        QFETCH(QString, scenario);
        QVERIFY(m_home.isValid());
        const QString p = newProject(scenario);
        QVERIFY(!p.isEmpty());
        CliResult r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("import"),
                           generated(scenario), QStringLiteral("--exclude"), QStringLiteral("expected.json"),
                           QStringLiteral("--record"), QStringLiteral("collect-4ranks"), QStringLiteral("--run"), scenario});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonArray files = r.json()
                                     .value(QStringLiteral("runs")).toArray().first().toObject()
                                     .value(QStringLiteral("plan")).toObject()
                                     .value(QStringLiteral("files")).toArray();
        QCOMPARE(files.size(), 4);

        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("anatomy"), scenario});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject got = r.json();
        const QJsonObject expected = readJson(generated(scenario) + QStringLiteral("/expected.json"));
        QCOMPARE(got.value(QStringLiteral("ranks_traced")).toArray(), QJsonArray({0, 1, 2, 3}));
        const QJsonArray gotSteps = got.value(QStringLiteral("steps")).toArray();
        const QJsonArray wantSteps = expected.value(QStringLiteral("steps")).toArray();
        QCOMPARE(gotSteps.size(), wantSteps.size());
        const QJsonObject planted =
            expected.value(QStringLiteral("planted")).toObject().value(QStringLiteral("straggler_rank_per_step")).toObject();
        for (qsizetype i = 0; i < wantSteps.size(); ++i) {
            const QJsonObject want = wantSteps[i].toObject(), have = gotSteps[i].toObject();
            const qint64 step = want.value(QStringLiteral("step")).toInteger();
            QCOMPARE(have.value(QStringLiteral("step")).toInteger(), step);
            QCOMPARE(have.value(QStringLiteral("busiest_rank")).toInt(), want.value(QStringLiteral("busiest_rank")).toInt());
            QCOMPARE(have.value(QStringLiteral("busiest_rank")).toInt(), planted.value(QString::number(step)).toInt());
            QVERIFY(std::abs(have.value(QStringLiteral("busiest_share")).toDouble() -
                             want.value(QStringLiteral("busiest_share")).toDouble()) < 1e-6); // expected.json: 6 decimals
            QVERIFY(std::abs(have.value(QStringLiteral("mean_share")).toDouble() -
                             want.value(QStringLiteral("mean_share")).toDouble()) < 1e-6);
            const QJsonObject wantRanks = want.value(QStringLiteral("ranks")).toObject();
            const QJsonArray haveRanks = have.value(QStringLiteral("ranks")).toArray();
            QCOMPARE(haveRanks.size(), wantRanks.size());
            for (const QJsonValue& v : haveRanks) {
                const QJsonObject h = v.toObject();
                const QJsonObject w = wantRanks.value(QString::number(h.value(QStringLiteral("rank")).toInt())).toObject();
                for (const char* field : kFields) {
                    const double a = h.value(QLatin1String(field)).toDouble(), b = w.value(QLatin1String(field)).toDouble();
                    QVERIFY2(std::abs(a - b) < 1e-3, qPrintable(QStringLiteral("%1 step %2 rank %3 %4: %5, brute force %6")
                                                                    .arg(scenario).arg(step)
                                                                    .arg(h.value(QStringLiteral("rank")).toInt())
                                                                    .arg(QLatin1String(field)).arg(a).arg(b)));
                }
            }
        }
        // Stragglers: rank 2 twice, rank 1 once.
        const QJsonArray stragglers = got.value(QStringLiteral("stragglers")).toArray();
        QCOMPARE(stragglers.size(), 2);
        QCOMPARE(stragglers[0].toObject().value(QStringLiteral("rank")).toInt(), 2);
        QCOMPARE(stragglers[0].toObject().value(QStringLiteral("times_busiest")).toInt(), 2);

        // Stage 3 reads the share from the traces (the run has no expert load: the
        // collector's run folder is imported into it to give stage 3 its load).
        r = run({QStringLiteral("--project"), p, QStringLiteral("import"),
                 QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/collect-4ranks/tokens_per_expert"),
                 QStringLiteral("--into"), scenario});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"),
                 QStringLiteral("--preview")});
        const QJsonArray table = r.json().value(QStringLiteral("table")).toArray();
        QVERIFY2(table.size() == 1, qPrintable(r.out + r.err));
        const QJsonObject row = table.first().toObject();
        double sum = 0, meanSum = 0;
        for (const QJsonValue& v : wantSteps) {
            sum += v.toObject().value(QStringLiteral("busiest_share")).toDouble();
            meanSum += v.toObject().value(QStringLiteral("mean_share")).toDouble();
        }
        QCOMPARE(row.value(QStringLiteral("busiest_device_share_source")).toString(), QStringLiteral("profiler-traces"));
        QVERIFY(std::abs(row.value(QStringLiteral("busiest_device_share")).toDouble() - sum / wantSteps.size()) < 1e-6);
        QVERIFY(std::abs(row.value(QStringLiteral("mean_device_share")).toDouble() - meanSum / wantSteps.size()) < 1e-6);
    }

    void allToAllCallsMatchTheBruteForce() {
        const QString p = newProject(QStringLiteral("calls"));
        QVERIFY(!p.isEmpty());
        CliResult r = run({QStringLiteral("--project"), p, QStringLiteral("import"), generated(QStringLiteral("clock-offset")),
                           QStringLiteral("--exclude"), QStringLiteral("expected.json"), QStringLiteral("--record"),
                           QStringLiteral("collect-4ranks"), QStringLiteral("--run"), QStringLiteral("t")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("anatomy"), QStringLiteral("t")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // No stage 1 run: one row per (kind, size) with its median transfer, no baseline.
        const QJsonObject expected = readJson(generated(QStringLiteral("clock-offset")) + QStringLiteral("/expected.json"));
        QMap<qint64, QList<double>> bySize;
        for (const QJsonValue& v : expected.value(QStringLiteral("a2a_calls")).toArray())
            bySize[v.toObject().value(QStringLiteral("bytes_per_rank")).toInteger()]
                << v.toObject().value(QStringLiteral("transfer_us")).toDouble();
        const QJsonArray rows = r.json().value(QStringLiteral("a2a_vs_baseline")).toArray();
        QCOMPARE(rows.size(), bySize.size());
        for (const QJsonValue& v : rows) {
            const QJsonObject o = v.toObject();
            QList<double> us = bySize.value(o.value(QStringLiteral("bytes_per_rank")).toInteger());
            QVERIFY(!us.isEmpty());
            std::sort(us.begin(), us.end());
            const double median = us.size() % 2 ? us[us.size() / 2] : (us[us.size() / 2 - 1] + us[us.size() / 2]) / 2;
            QCOMPARE(o.value(QStringLiteral("calls")).toInt(), us.size());
            QVERIFY(std::abs(o.value(QStringLiteral("training_us")).toDouble() - median) < 1e-6);
            QVERIFY(o.value(QStringLiteral("baseline_gbps")).isNull());
        }

        // --timeline: per rank of step 5, compute, memcpy and waiting add up to the
        // generator's brute-force figures (expected.json, 100 ns ticks over the files).
        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("anatomy"), QStringLiteral("t"),
                 QStringLiteral("--step"), QStringLiteral("5"), QStringLiteral("--timeline")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray timeline = r.json().value(QStringLiteral("steps")).toArray().first().toObject().value(QStringLiteral("timeline")).toArray();
        QCOMPARE(timeline.size(), 4);
        QJsonObject truth;
        for (const QJsonValue& v : expected.value(QStringLiteral("steps")).toArray())
            if (v.toObject().value(QStringLiteral("step")).toInt() == 5)
                truth = v.toObject().value(QStringLiteral("ranks")).toObject();
        for (const QJsonValue& v : timeline) {
            const QJsonObject rank = v.toObject();
            const QJsonObject want = truth.value(QString::number(rank.value(QStringLiteral("rank")).toInt())).toObject();
            QMap<QString, qint64> ns;
            for (const QJsonValue& i : rank.value(QStringLiteral("intervals")).toArray())
                ns[i.toObject().value(QStringLiteral("class")).toString()] +=
                    i.toObject().value(QStringLiteral("end_ns")).toInteger() - i.toObject().value(QStringLiteral("start_ns")).toInteger();
            QCOMPARE(double(ns.value(QStringLiteral("compute"))) / 1000.0, want.value(QStringLiteral("compute_us")).toDouble());
            QCOMPARE(double(ns.value(QStringLiteral("memcpy"))) / 1000.0, want.value(QStringLiteral("memcpy_us")).toDouble());
            QCOMPARE(double(ns.value(QStringLiteral("waiting"))) / 1000.0,
                     want.value(QStringLiteral("a2a_wait_us")).toDouble() + want.value(QStringLiteral("other_comm_wait_us")).toDouble());
            QCOMPARE(rank.value(QStringLiteral("left_out")).toInteger(), qint64(0));
        }
        r = run({QStringLiteral("--project"), p, QStringLiteral("anatomy"), QStringLiteral("t"), QStringLiteral("--timeline")});
        QCOMPARE(r.exitCode, 2);
        r = run({QStringLiteral("--project"), p, QStringLiteral("anatomy"), QStringLiteral("t"), QStringLiteral("--step"),
                 QStringLiteral("6"), QStringLiteral("--timeline")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("Timeline (ms from the step's start")), qPrintable(r.out + r.err));
    }

    void legacyReferenceTracesAndRefusals() {
        const QString p = newProject(QStringLiteral("legacy"));
        QVERIFY(!p.isEmpty());
        // The real reference training's traces (torch 1.13, no Kineto): four ranks, three steps.
        CliResult r = run({QStringLiteral("--project"), p, QStringLiteral("import"),
                           QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/anatomy/reference-moe-4ranks"),
                           QStringLiteral("--exclude"), QStringLiteral("README.md"), QStringLiteral("--record"),
                           QStringLiteral("collect-4ranks"), QStringLiteral("--run"), QStringLiteral("ref")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("anatomy"), QStringLiteral("ref")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray steps = r.json().value(QStringLiteral("steps")).toArray();
        QCOMPARE(steps.size(), 3);
        for (const QJsonValue& v : steps) {
            const QJsonObject s = v.toObject();
            QVERIFY(s.value(QStringLiteral("step")).toInt() >= 20 && s.value(QStringLiteral("step")).toInt() <= 22);
            double best = -1, sum = 0;
            int bestRank = -1;
            for (const QJsonValue& rv : s.value(QStringLiteral("ranks")).toArray()) {
                const QJsonObject o = rv.toObject();
                const double step = o.value(QStringLiteral("step_us")).toDouble();
                // Every figure fits in its step; the parts add up.
                QVERIFY(step > 0);
                QVERIFY(o.value(QStringLiteral("compute_us")).toDouble() > 0);
                QVERIFY(o.value(QStringLiteral("a2a_us")).toDouble() > 0);
                QVERIFY(o.value(QStringLiteral("a2a_wait_us")).toDouble() <= o.value(QStringLiteral("a2a_us")).toDouble() + 1e-9);
                QVERIFY(o.value(QStringLiteral("busy_us")).toDouble() <= step + 1e-6);
                QVERIFY(o.value(QStringLiteral("idle_us")).toDouble() >= 0);
                const double busy = o.value(QStringLiteral("busy_us")).toDouble();
                if (busy > best) {
                    best = busy;
                    bestRank = o.value(QStringLiteral("rank")).toInt();
                }
                sum += busy / step;
            }
            QCOMPARE(s.value(QStringLiteral("busiest_rank")).toInt(), bestRank);
            QVERIFY(std::abs(s.value(QStringLiteral("mean_share")).toDouble() - sum / 4) < 1e-9);
        }

        // Two traces of one rank are refused, naming both files; nothing is stored.
        QTemporaryDir dup;
        QVERIFY(QFile::copy(generated(QStringLiteral("nccl-straggler")) +
                                QStringLiteral("/profiling/traces/iteration_8/rank1_trace.json"),
                            dup.filePath(QStringLiteral("rank1_trace.json"))));
        QVERIFY(QFile::copy(generated(QStringLiteral("nccl-straggler")) +
                                QStringLiteral("/profiling/traces/iteration_8/rank1_trace.json"),
                            dup.filePath(QStringLiteral("copy_trace.json"))));
        r = run({QStringLiteral("--project"), p, QStringLiteral("import"), dup.path(), QStringLiteral("--record"),
                 QStringLiteral("collect-4ranks"), QStringLiteral("--run"), QStringLiteral("dup")});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(QStringLiteral("second trace of rank 1")), qPrintable(r.err));
        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("runs"), QStringLiteral("list")});
        QVERIFY(!r.out.contains(QStringLiteral("\"dup\"")));
    }
};

QTEST_GUILESS_MAIN(TestMoewbAnatomy)
#include "test_moewb_anatomy.moc"
