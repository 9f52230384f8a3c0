// The demo project (docs/demo.md) as a user meets it: `moewb demo` writes it, and
// the real CLI then gives the documented outcome at every stage. Also: the data is
// identical on every generation, an existing file is refused without --force, the
// file is sound, and generation is fast.
#include "../MoewbCli.h"
#include "demo/DemoProject.h"
#include "store/ProjectStore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace moewb;

class TestMoewbDemo : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;

    CliResult run(const QStringList& args) { return runMoewb(m_home.path(), args, 120000); }
    CliResult onDemo(const QString& project, const QStringList& args) {
        return run(QStringList{QStringLiteral("--project"), project} + args);
    }

    static std::unique_ptr<store::ProjectStore> open(const QString& path) {
        auto opened = store::ProjectStore::open(path, store::OpenMode::MustExist);
        if (!opened)
            qFatal("%s", qPrintable(opened.error().text()));
        return std::move(opened.value());
    }

    static QString reasonsOf(const CliResult& r) {
        return QString::fromUtf8(QJsonDocument(r.json().value(QStringLiteral("reasons")).toArray()).toJson());
    }

    QString freshDemo(const QString& name) {
        const QString path = m_home.filePath(name);
        const CliResult r = run({QStringLiteral("demo"), QStringLiteral("-o"), path});
        if (r.exitCode != 0)
            qFatal("moewb demo failed (%d): %s", r.exitCode, qPrintable(r.err));
        return path;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        if (qEnvironmentVariableIsSet("MOEWB_KEEP_PROJECTS")) {
            m_home.setAutoRemove(false);
            qInfo("projects kept in %s", qPrintable(m_home.path()));
        }
    }

    void writesAndPrintsThePath() {
        const QString dir = m_home.filePath(QStringLiteral("out"));
        const QString path = dir + QStringLiteral("/sub/demo.moewb");
        CliResult r = run({QStringLiteral("--json"), QStringLiteral("demo"), QStringLiteral("-o"), path});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("path")).toString(), path);
        QVERIFY(QFileInfo(path).isFile());
        // Nothing but the finished file is left beside it (no temporary, no -wal).
        QCOMPARE(QDir(dir + QStringLiteral("/sub")).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("demo.moewb")});

        // Without -o: the default demo path under XDG_DATA_HOME; text output is the path.
        r = run({QStringLiteral("demo")});
        QCOMPARE(r.exitCode, 0);
        const QString expected = m_home.path() + QStringLiteral("/data/moe-workbench/demo.moewb");
        QCOMPARE(r.out.trimmed(), expected);
        QVERIFY(QFileInfo(expected).isFile());
        QVERIFY2(r.err.contains(QStringLiteral("synthetic")), qPrintable(r.err));

        // Usage errors exit 2.
        QCOMPARE(run({QStringLiteral("demo"), QStringLiteral("extra")}).exitCode, 2);
        QCOMPARE(run({QStringLiteral("demo"), QStringLiteral("--bogus")}).exitCode, 2);
        r = run({QStringLiteral("--help")});
        QVERIFY(r.out.contains(QStringLiteral("demo [-o PATH] [--force]")));
    }

    void refusesAnExistingFileWithoutForce() {
        const QString path = freshDemo(QStringLiteral("existing.moewb"));
        const QByteArray before = [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(!before.isEmpty());
        CliResult r = run({QStringLiteral("demo"), QStringLiteral("-o"), path});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("already exists")), qPrintable(r.err));
        QVERIFY2(r.err.contains(path), qPrintable(r.err));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        f.close();

        // Not a project at all: still refused, still untouched.
        const QString other = m_home.filePath(QStringLiteral("notes.txt"));
        QVERIFY(QFile(other).open(QIODevice::WriteOnly));
        QCOMPARE(run({QStringLiteral("demo"), QStringLiteral("-o"), other}).exitCode, 3);
        QCOMPARE(QFileInfo(other).size(), 0);

        // The API says the same.
        auto refused = demo::writeDemoProject(path);
        QVERIFY(!refused);
        QVERIFY(refused.error().text().contains(QStringLiteral("already exists")));

        r = run({QStringLiteral("demo"), QStringLiteral("-o"), path, QStringLiteral("--force")});
        QCOMPARE(r.exitCode, 0);
        auto p = open(path);
        QVERIFY(demo::isDemoProject(*p));
        QCOMPARE(p->runs().size(), 8);
    }

    void stagesGiveTheDocumentedOutcomes() {
        const QString project = freshDemo(QStringLiteral("stages.moewb"));
        {
            auto p = open(project);
            QVERIFY(p->verdicts().isEmpty()); // the user evaluates each stage
        }

        CliResult r = onDemo(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("pass"));
        QVERIFY2(reasonsOf(r).contains(QStringLiteral("team threshold")), qPrintable(reasonsOf(r)));
        // 19 sizes in each of the three stage 1 runs; two node counts compared.
        QCOMPARE(r.json().value(QStringLiteral("table")).toArray().size(), 3 * 19);
        QVERIFY(!r.json().value(QStringLiteral("node_comparison")).toArray().isEmpty());
        // Large messages on InfiniBand at 4 nodes: 40–45 GB/s effective.
        for (const QJsonValue& v : r.json().value(QStringLiteral("table")).toArray()) {
            const QJsonObject row = v.toObject();
            if (row.value(QStringLiteral("run")).toString() == QLatin1String("demo-probe-a100-ib-4n") &&
                row.value(QStringLiteral("bytes_per_rank")).toDouble() == 268435456.0) {
                const double gbps = row.value(QStringLiteral("effective_gbps")).toDouble();
                QVERIFY2(gbps > 40.0 && gbps < 45.0, qPrintable(QString::number(gbps)));
            }
        }

        r = onDemo(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("pass"));
        QCOMPARE(r.json().value(QStringLiteral("table")).toArray().size(), 4); // 4 MoE settings × 1 dense
        for (const QJsonValue& v : r.json().value(QStringLiteral("table")).toArray()) {
            const QJsonObject row = v.toObject();
            QVERIFY(row.value(QStringLiteral("moe_val_loss")).toDouble() <
                    row.value(QStringLiteral("dense_val_loss")).toDouble());
            QVERIFY(row.value(QStringLiteral("moe_tokens_per_s_per_gpu")).toDouble() >=
                    row.value(QStringLiteral("dense_tokens_per_s_per_gpu")).toDouble());
        }

        r = onDemo(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        const QString reasons = reasonsOf(r);
        QVERIFY2(reasons.contains(QStringLiteral("layer 5: max/mean above 1.6× (team threshold)")),
                 qPrintable(reasons));
        QVERIFY2(!reasons.contains(QStringLiteral("drop rate")) || !reasons.contains(QStringLiteral("; above the limit 5 %")),
                 qPrintable(reasons));
        QVERIFY(!r.json().value(QStringLiteral("stage2_stale")).toBool());
        // Drop rate falls as the capacity factor grows; dropless has none.
        QHash<QString, double> drop;
        for (const QJsonValue& v : r.json().value(QStringLiteral("table")).toArray()) {
            const QJsonObject row = v.toObject();
            if (!row.value(QStringLiteral("drop_rate")).isNull())
                drop.insert(row.value(QStringLiteral("run")).toString(),
                            row.value(QStringLiteral("drop_rate")).toDouble());
            QCOMPARE(row.value(QStringLiteral("worst_layer")).toInt(), 5);
        }
        QCOMPARE(drop.size(), 3);
        QVERIFY(drop.value(QStringLiteral("demo-train-moe-cf1.0")) > drop.value(QStringLiteral("demo-train-moe-cf1.25")));
        QVERIFY(drop.value(QStringLiteral("demo-train-moe-cf1.25")) > drop.value(QStringLiteral("demo-train-moe-cf1.5")));
        QVERIFY(drop.value(QStringLiteral("demo-train-moe-cf1.0")) < 0.05);

        // Stage 4 is locked until the stop is overridden with a justification.
        r = onDemo(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("4")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("locked"));
        r = onDemo(project, {QStringLiteral("override"), QStringLiteral("3"), QStringLiteral("--justification"),
                             QStringLiteral("demo: the hot expert of layer 5 is known and accepted for this walk-through"),
                             QStringLiteral("--author"), QStringLiteral("demo-user")});
        QCOMPARE(r.exitCode, 0);

        r = onDemo(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("4")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = r.json();
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("pass"));
        QCOMPARE(j.value(QStringLiteral("source_run")).toString(), QStringLiteral("demo-probe-a100-ib-4n"));
        QCOMPARE(j.value(QStringLiteral("target_run")).toString(), QStringLiteral("demo-probe-h800-roce-4n"));
        QCOMPARE(j.value(QStringLiteral("table")).toArray().size(), 19);
        const QString applicability =
            QString::fromUtf8(QJsonDocument(j.value(QStringLiteral("applicability")).toArray()).toJson());
        QVERIFY2(applicability.contains(QStringLiteral("A100 SXM4 80GB")), qPrintable(applicability));
        QVERIFY(applicability.contains(QStringLiteral("H800 SXM5 80GB")));
        QVERIFY(applicability.contains(QStringLiteral("Experts: 16 per layer, top-2")));
        QVERIFY(reasonsOf(r).contains(QStringLiteral("team threshold")));
    }

    void checksWarnNaturally() {
        const QString project = freshDemo(QStringLiteral("checks.moewb"));
        const CliResult r = onDemo(project, {QStringLiteral("--json"), QStringLiteral("checks")});
        QCOMPARE(r.exitCode, 0);
        QSet<int> ids;
        QString text;
        for (const QJsonValue& v : r.json().value(QStringLiteral("warnings")).toArray()) {
            ids.insert(v.toObject().value(QStringLiteral("id")).toInt());
            text += v.toObject().value(QStringLiteral("message")).toString() + QLatin1Char('\n');
        }
        // 2: throughput across capacity factors; 4: the faster cf1.0 run has the worse loss.
        QCOMPARE(ids, (QSet<int>{2, 4}));
        QVERIFY2(text.contains(QStringLiteral("Run demo-train-moe-cf1.0 is faster than demo-train-moe-dropless")),
                 qPrintable(text));
    }

    void recordListShowsTheDraftIncomplete() {
        const QString project = freshDemo(QStringLiteral("records.moewb"));
        CliResult r = onDemo(project, {QStringLiteral("--json"), QStringLiteral("record"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        int complete = 0;
        bool sawDraft = false;
        for (const QJsonValue& v : r.json().value(QStringLiteral("records")).toArray()) {
            const QJsonObject o = v.toObject();
            QVERIFY(o.value(QStringLiteral("name")).toString().startsWith(QStringLiteral("demo-")));
            if (o.value(QStringLiteral("name")).toString() == QLatin1String("demo-moe-32e-top4-draft")) {
                sawDraft = true;
                QVERIFY(!o.value(QStringLiteral("complete")).toBool());
                const QString missing = QString::fromUtf8(
                    QJsonDocument(o.value(QStringLiteral("missing_or_invalid")).toArray()).toJson());
                QVERIFY2(missing.contains(QStringLiteral("moe.capacity_factor")), qPrintable(missing));
                QVERIFY(missing.contains(QStringLiteral("parallelism.ep")));
                QVERIFY(missing.contains(QStringLiteral("recipe.validation_set")));
            } else {
                QVERIFY(o.value(QStringLiteral("complete")).toBool());
                ++complete;
            }
        }
        QVERIFY(sawDraft);
        QCOMPARE(complete, 6);
        r = onDemo(project, {QStringLiteral("record"), QStringLiteral("list")});
        QVERIFY2(r.out.contains(QStringLiteral("incomplete (3 fields)")), qPrintable(r.out));
    }

    void twoGenerationsHoldIdenticalData() {
        const QString a = m_home.filePath(QStringLiteral("same-a.moewb"));
        const QString b = m_home.filePath(QStringLiteral("same-b.moewb"));
        QVERIFY(demo::writeDemoProject(a));
        QVERIFY(demo::writeDemoProject(b));
        auto pa = open(a);
        auto pb = open(b);
        const auto runsA = pa->runs();
        const auto runsB = pb->runs();
        QCOMPARE(runsA.size(), runsB.size());
        QCOMPARE(runsA.size(), 8);
        qint64 samples = 0, metrics = 0, blocks = 0;
        for (qsizetype i = 0; i < runsA.size(); ++i) {
            const auto& ra = runsA[i];
            const auto& rb = runsB[i];
            QCOMPARE(ra.name, rb.name);
            QVERIFY(ra.name.startsWith(QStringLiteral("demo-")));
            QCOMPARE(ra.kind, rb.kind);
            QCOMPARE(ra.recordName, rb.recordName);
            QCOMPARE(ra.clusterName, rb.clusterName);
            QCOMPARE(ra.environment, rb.environment);
            QCOMPARE(ra.environment.value(QStringLiteral("demo")).toBool(), true);
            QCOMPARE(ra.environment.value(QStringLiteral("data")).toString(), QStringLiteral("synthetic"));
            const auto ca = pa->commSamples(ra.id);
            const auto cb = pb->commSamples(rb.id);
            QCOMPARE(ca.size(), cb.size());
            for (qsizetype k = 0; k < ca.size(); ++k)
                QVERIFY(ca[k].bytesPerRank == cb[k].bytesPerRank && ca[k].repeat == cb[k].repeat &&
                        ca[k].iteration == cb[k].iteration && ca[k].timeUs == cb[k].timeUs);
            const auto ma = pa->stepMetrics(ra.id);
            const auto mb = pb->stepMetrics(rb.id);
            QCOMPARE(ma.size(), mb.size());
            for (qsizetype k = 0; k < ma.size(); ++k)
                QVERIFY(ma[k].step == mb[k].step && ma[k].name == mb[k].name && ma[k].value == mb[k].value);
            const auto la = pa->expertLoad(ra.id);
            const auto lb = pb->expertLoad(rb.id);
            QCOMPARE(la.size(), lb.size());
            for (qsizetype k = 0; k < la.size(); ++k) {
                QVERIFY(la[k].step == lb[k].step && la[k].layer == lb[k].layer &&
                        la[k].tokensPerExpert == lb[k].tokensPerExpert);
                // Every step of every layer routes tokens × top-k assignments.
                quint64 sum = 0;
                for (quint32 c : la[k].tokensPerExpert)
                    sum += c;
                QCOMPARE(sum, quint64(1048576) * 2);
            }
            samples += ca.size();
            metrics += ma.size();
            blocks += la.size();
        }
        qInfo("demo data: %lld comm samples, %lld step metrics, %lld expert-load blocks", samples, metrics, blocks);
        QCOMPARE(blocks, qint64(4 * 1000 * 8)); // every 2nd step of 2000, 8 MoE layers

        const auto recA = pa->configRecords();
        const auto recB = pb->configRecords();
        QCOMPARE(recA.size(), 7);
        for (qsizetype i = 0; i < recA.size(); ++i) {
            QCOMPARE(recA[i].name, recB[i].name);
            QCOMPARE(recA[i].json, recB[i].json);
            QCOMPARE(recA[i].complete, recB[i].complete);
        }
        const auto clA = pa->clusters();
        const auto clB = pb->clusters();
        QCOMPARE(clA.size(), 2);
        QCOMPARE(clA[0].name, QStringLiteral("demo-a100-ib"));
        QCOMPARE(clA[1].name, QStringLiteral("demo-h800-roce"));
        for (qsizetype i = 0; i < clA.size(); ++i) {
            QCOMPARE(clA[i].facts, clB[i].facts);
            const auto na = pa->nodes(clA[i].id);
            const auto nb = pb->nodes(clB[i].id);
            QCOMPARE(na.size(), 4);
            for (qsizetype k = 0; k < na.size(); ++k) {
                QCOMPARE(na[k].address, nb[k].address);
                QCOMPARE(na[k].gpus, 8);
                QCOMPARE(na[k].facts, nb[k].facts);
                QCOMPARE(na[k].facts.value(QStringLiteral("gpu_count")).toInt(), 8);
            }
        }
        int team = 0, placeholder = 0;
        for (const auto& t : pa->thresholds()) {
            const auto other = pb->threshold(t.key);
            QVERIFY(other && other->value == t.value && other->source == t.source);
            team += t.source == store::ThresholdSource::Team;
            placeholder += t.source == store::ThresholdSource::Placeholder;
        }
        QVERIFY(team >= 3);
        QVERIFY(placeholder >= 1);
    }

    void fileIsSoundAndMarked() {
        const QString path = m_home.filePath(QStringLiteral("sound.moewb"));
        QVERIFY(demo::writeDemoProject(path));
        auto p = open(path);
        const auto problems = p->integrityProblems();
        QVERIFY(problems);
        QVERIFY2(problems->isEmpty(), qPrintable(problems->join(QLatin1Char('\n'))));
        QVERIFY(demo::isDemoProject(*p));
        QCOMPARE(p->schemaVersion(), store::ProjectStore::kSchemaVersion);

        auto plain = store::ProjectStore::open(m_home.filePath(QStringLiteral("plain.moewb")));
        QVERIFY(plain);
        QVERIFY(!demo::isDemoProject(*plain.value()));
    }

    // The project file gets the mode of any new file (0666 less the umask), not a
    // temporary file's 0600; a replaced file keeps its mode.
    void fileModeFollowsTheUmask() {
        const auto modeOf = [](const QString& path) {
            struct stat st {};
            return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
        };
        const mode_t old = ::umask(022);
        const QString cli = m_home.filePath(QStringLiteral("mode-cli.moewb"));
        QCOMPARE(run({QStringLiteral("demo"), QStringLiteral("-o"), cli}).exitCode, 0);
        const QString api = m_home.filePath(QStringLiteral("mode-api.moewb"));
        QVERIFY(demo::writeDemoProject(api));
        ::umask(027);
        const QString strict = m_home.filePath(QStringLiteral("mode-027.moewb"));
        QVERIFY(demo::writeDemoProject(strict));
        ::umask(old);
        QCOMPARE(modeOf(cli), 0644);
        QCOMPARE(modeOf(api), 0644);
        QCOMPARE(modeOf(strict), 0640);
        QVERIFY(QFile::setPermissions(api, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup |
                                               QFileDevice::WriteGroup));
        demo::DemoOptions replace;
        replace.overwrite = true;
        QVERIFY(demo::writeDemoProject(api, replace));
        QCOMPARE(modeOf(api), 0660);
    }

    void defaultPathFollowsXdg() {
        const QByteArray old = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", "/tmp/xdg-demo-test");
        QCOMPARE(demo::defaultDemoPath(), QStringLiteral("/tmp/xdg-demo-test/moe-workbench/demo.moewb"));
        qputenv("XDG_DATA_HOME", "relative/path"); // ignored, as the XDG spec says
        QCOMPARE(demo::defaultDemoPath(), QDir::homePath() + QStringLiteral("/.local/share/moe-workbench/demo.moewb"));
        if (old.isNull())
            qunsetenv("XDG_DATA_HOME");
        else
            qputenv("XDG_DATA_HOME", old);
    }

    void generationIsFast() {
        const QString path = m_home.filePath(QStringLiteral("timed.moewb"));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(demo::writeDemoProject(path));
        const qint64 ms = timer.elapsed();
        qInfo("writeDemoProject: %lld ms", ms);
        QVERIFY2(ms < 2000, qPrintable(QString::number(ms)));
    }

    void expertLoadBenchProject() {
        QVERIFY(!demo::writeExpertLoadBenchProject(m_home.filePath(QStringLiteral("bad.moewb")), 0, 1, 8));
        const QString small = m_home.filePath(QStringLiteral("bench-small.moewb"));
        QVERIFY(demo::writeExpertLoadBenchProject(small, 50, 4, 16));
        {
            auto p = open(small);
            const auto runs = p->runs();
            QCOMPARE(runs.size(), 1);
            QCOMPARE(runs[0].expertLoadBlocks, qint64(50 * 4));
            QCOMPARE(runs[0].stepCount, qint64(50));
            QVERIFY(p->configRecords().at(0).complete);
            const auto blocks = p->expertLoad(runs[0].id, 7);
            QCOMPARE(blocks.size(), 4);
            QCOMPARE(blocks[0].tokensPerExpert.size(), 16);
        }
        // Overwrites: a second, different size replaces the first.
        QVERIFY(demo::writeExpertLoadBenchProject(small, 20, 2, 8));
        QCOMPARE(open(small)->runs().at(0).expertLoadBlocks, qint64(40));

        // The GUI benchmark's size (10,000 steps × 32 layers × 64 experts); the
        // figure goes into docs/demo.md. MOEWB_DEMO_SKIP_BIG_BENCH=1 skips it.
        if (qEnvironmentVariableIsSet("MOEWB_DEMO_SKIP_BIG_BENCH"))
            return;
        const QString big = m_home.filePath(QStringLiteral("bench-big.moewb"));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(demo::writeExpertLoadBenchProject(big, 10000, 32, 64));
        qInfo("writeExpertLoadBenchProject(10000, 32, 64): %lld ms, %lld MB", timer.elapsed(),
              QFileInfo(big).size() / 1000000);
        QCOMPARE(open(big)->runs().at(0).expertLoadBlocks, qint64(320000));
        QFile::remove(big);
    }
};

QTEST_MAIN(TestMoewbDemo)
#include "test_moewb_demo.moc"
