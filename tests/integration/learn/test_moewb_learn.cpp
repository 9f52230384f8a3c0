// `moewb routing` and `moewb costs` run as a user runs them: exit codes, JSON, tables.
#include "../MoewbCli.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestMoewbLearn : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;

    CliResult run(const QStringList& args) {
        return runMoewb(m_home.path(), args, 30000);
    }
    QString project() const { return m_home.filePath(QStringLiteral("learn.moewb")); }
    static QString fixture(const QString& path) { return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/") + path; }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        QCOMPARE(run({QStringLiteral("init"), project()}).exitCode, 0);
        QCOMPARE(run({QStringLiteral("--project"), project(), QStringLiteral("record"), QStringLiteral("add"),
                      fixture(QStringLiteral("records/moe-64e-top8.json"))})
                     .exitCode,
                 0);
    }

    void routingJson() {
        const CliResult r = run({QStringLiteral("--json"), QStringLiteral("routing"), QStringLiteral("--tokens"),
                                 QStringLiteral("4096"), QStringLiteral("--scores"), QStringLiteral("zipf:1.1"),
                                 QStringLiteral("--seed"), QStringLiteral("5")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray routers = o.value(QStringLiteral("routers")).toArray();
        QCOMPARE(routers.size(), 3);
        const QStringList names{QStringLiteral("topk"), QStringLiteral("expert-choice"), QStringLiteral("sigmoid-bias")};
        for (int i = 0; i < 3; ++i) {
            const QJsonObject x = routers[i].toObject();
            QCOMPARE(x.value(QStringLiteral("router")).toString(), names[i]);
            for (const char* key : {"max_vio", "dropped_assignments", "tokens_without_expert", "entropy", "routing_ms"})
                QVERIFY2(x.value(QLatin1String(key)).isDouble(), key);
        }
        QCOMPARE(o.value(QStringLiteral("setup")).toObject().value(QStringLiteral("capacity")).toDouble(), 1146.0);
        // Deterministic apart from the timings.
        const CliResult again = run({QStringLiteral("--json"), QStringLiteral("routing"), QStringLiteral("--tokens"),
                                     QStringLiteral("4096"), QStringLiteral("--scores"), QStringLiteral("zipf:1.1"),
                                     QStringLiteral("--seed"), QStringLiteral("5")});
        const QJsonArray second = QJsonDocument::fromJson(again.out.toUtf8()).object().value(QStringLiteral("routers")).toArray();
        for (int i = 0; i < 3; ++i)
            QCOMPARE(second[i].toObject().value(QStringLiteral("loads")), routers[i].toObject().value(QStringLiteral("loads")));
    }

    void routingSeedSettingText() {
        const CliResult r = run({QStringLiteral("routing"), QStringLiteral("--router"), QStringLiteral("topk")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("capacity = 73400")));
        QVERIFY(r.out.contains(QStringLiteral("Top-K")));
        QVERIFY(r.out.contains(QStringLiteral(" ms")) || r.out.contains(QStringLiteral(" µs")));
    }

    void routingSweep() {
        const CliResult r = run({QStringLiteral("--json"), QStringLiteral("routing"), QStringLiteral("--sweep"),
                                 QStringLiteral("--tokens"), QStringLiteral("1024"), QStringLiteral("--router"),
                                 QStringLiteral("topk")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray sweep = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("sweep")).toArray();
        QCOMPARE(sweep.size(), 7);
        QCOMPARE(sweep.last().toObject().value(QStringLiteral("experts")).toInt(), 256);
    }

    void routingBadOptions_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("K > E") << QStringList{QStringLiteral("--top-k"), QStringLiteral("9")};
        QTest::newRow("T = 0") << QStringList{QStringLiteral("--tokens"), QStringLiteral("0")};
        QTest::newRow("T < 0") << QStringList{QStringLiteral("--tokens"), QStringLiteral("-5")};
        QTest::newRow("factor 0") << QStringList{QStringLiteral("--capacity-factor"), QStringLiteral("0")};
        QTest::newRow("factor text") << QStringList{QStringLiteral("--capacity-factor"), QStringLiteral("x")};
        QTest::newRow("scores") << QStringList{QStringLiteral("--scores"), QStringLiteral("zipf:-1")};
        QTest::newRow("router") << QStringList{QStringLiteral("--router"), QStringLiteral("hash")};
        QTest::newRow("unknown") << QStringList{QStringLiteral("--bogus")};
    }
    void routingBadOptions() {
        QFETCH(QStringList, args);
        const CliResult r = run(QStringList{QStringLiteral("routing")} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.err.isEmpty());
    }

    void costsWithoutBaseline() {
        CliResult r = run({QStringLiteral("--project"), project(), QStringLiteral("costs"), QStringLiteral("--record"),
                           QStringLiteral("moe-64e-top8")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("stage 1 baseline")));
        QVERIFY(r.out.contains(QStringLiteral("GiB")));
        r = run({QStringLiteral("--project"), project(), QStringLiteral("--json"), QStringLiteral("costs"),
                 QStringLiteral("--record"), QStringLiteral("moe-64e-top8")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("formula_total")).toDouble(),
                 6712983552.0);
        QCOMPARE(o.value(QStringLiteral("memory_per_device")).toObject().value(QStringLiteral("total_bytes")).toDouble(),
                 10102843392.0);
        QVERIFY(o.value(QStringLiteral("step_time")).toObject().value(QStringLiteral("needs_stage1_baseline")).toBool());
    }

    void costsErrors() {
        QCOMPARE(run({QStringLiteral("--project"), project(), QStringLiteral("costs")}).exitCode, 2);
        QCOMPARE(run({QStringLiteral("--project"), project(), QStringLiteral("costs"), QStringLiteral("--record"),
                      QStringLiteral("moe-64e-top8"), QStringLiteral("--ffn-matrices"), QStringLiteral("5")})
                     .exitCode,
                 2);
        QCOMPARE(run({QStringLiteral("--project"), project(), QStringLiteral("costs"), QStringLiteral("--record"),
                      QStringLiteral("no-such-record")})
                     .exitCode,
                 3);
    }

    void costsWithStageOneCurve() {
        QCOMPARE(run({QStringLiteral("--project"), project(), QStringLiteral("import"),
                      fixture(QStringLiteral("importers/probe/probe-tcp-2ranks-samples.json")), QStringLiteral("--record"),
                      QStringLiteral("moe-64e-top8"), QStringLiteral("--run"), QStringLiteral("probe1")})
                     .exitCode,
                 0);
        const CliResult r = run({QStringLiteral("--project"), project(), QStringLiteral("--json"), QStringLiteral("costs"),
                                 QStringLiteral("--record"), QStringLiteral("moe-64e-top8"),
                                 QStringLiteral("--achieved-tflops"), QStringLiteral("400")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject step =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("step_time")).toObject();
        QCOMPARE(step.value(QStringLiteral("stage1_run")).toString(), QStringLiteral("probe1"));
        QVERIFY(!step.value(QStringLiteral("needs_stage1_baseline")).toBool());
        QVERIFY(step.value(QStringLiteral("all_to_all_us")).toDouble() > 0);
        QVERIFY(step.value(QStringLiteral("total_us")).toDouble() > step.value(QStringLiteral("compute_us")).toDouble());
    }
};

QTEST_GUILESS_MAIN(TestMoewbLearn)
#include "test_moewb_learn.moc"
