// `moewb stage N` and `moewb checks` run as a user runs them, on a project file built
// here through ProjectStore: exit codes, the gating order, saved verdicts, stale
// marking, JSON output.
#include "../MoewbCli.h"
#include "store/ProjectStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace moewb;

class TestMoewbStages : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    int m_n = 0;

    CliResult run(const QString& project, const QStringList& args) {
        return runMoewb(m_home.path(), QStringList{QStringLiteral("--project"), project} + args, 60000);
    }

    static QJsonObject fixture(const char* name) {
        QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/") + QLatin1String(name));
        if (!f.open(QIODevice::ReadOnly))
            qFatal("no fixture %s", name);
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    // A project with the two fixture records; returns its path.
    QString newProject(std::unique_ptr<store::ProjectStore>* keep = nullptr) {
        const QString path = m_home.filePath(QStringLiteral("eval%1.moewb").arg(++m_n));
        auto opened = store::ProjectStore::open(path);
        if (!opened)
            qFatal("%s", qPrintable(opened.error().text()));
        auto& p = *opened.value();
        if (!p.addConfigRecord(QStringLiteral("moe-64e-top8"), fixture("moe-64e-top8.json"), true) ||
            !p.addConfigRecord(QStringLiteral("dense-1.3b"), fixture("dense-1.3b.json"), true))
            qFatal("cannot add the fixture records");
        if (keep)
            *keep = std::move(opened.value());
        return path;
    }

    static store::ProjectStore& open(const QString& path, std::unique_ptr<store::ProjectStore>& holder) {
        auto opened = store::ProjectStore::open(path, store::OpenMode::MustExist);
        if (!opened)
            qFatal("%s", qPrintable(opened.error().text()));
        holder = std::move(opened.value());
        return *holder;
    }

    // 1 MiB and 4 MiB, 3 repeats of 20 iterations; the last repeat `spread` × slower.
    static store::RunData probeRun(const QString& name, double spread, const QString& cluster = {},
                                   double base = 100.0, int nodes = 4) {
        store::RunData r;
        r.name = name;
        r.kind = store::RunKind::Probe;
        r.recordName = QStringLiteral("moe-64e-top8");
        r.clusterName = cluster;
        // EP groups of 8 at once (moe-probe/2), as the record's training runs them.
        r.environment = QJsonObject{{QStringLiteral("world"), nodes * 8}, {QStringLiteral("nodes"), nodes},
                                    {QStringLiteral("ep_size"), 8}};
        for (quint64 bytes : {quint64(1048576), quint64(4194304)})
            for (int rep = 0; rep < 3; ++rep)
                for (int it = 0; it < 20; ++it)
                    r.commSamples.append(
                        {bytes, rep, it, base * double(bytes / 1048576) * (rep == 2 ? spread : 1.0)});
        return r;
    }

    static store::RunData trainingRun(const QString& name, const QString& record, double tps,
                                      double valLoss) {
        store::RunData r;
        r.name = name;
        r.kind = store::RunKind::Imported;
        r.recordName = record;
        for (int s = 1; s <= 100; ++s) {
            r.stepMetrics.append({s, QStringLiteral("tokens_per_s_per_gpu"), s <= 20 ? tps / 10 : tps});
            r.stepMetrics.append({s, QStringLiteral("lm_loss"), 2.0});
        }
        r.stepMetrics.append({100, QStringLiteral("val_loss"), valLoss});
        return r;
    }

    static store::RunData loadRun(const QString& name, const QString& record, bool hot) {
        store::RunData r;
        r.name = name;
        r.recordName = record;
        for (int s = 1; s <= 50; ++s) {
            for (int l = 0; l < 4; ++l) {
                QVector<quint32> c(64, 100);
                if (hot && l == 2)
                    c[5] = 1000; // ratio 1000·64/7300 ≈ 8.8
                r.expertLoad.append({s, l, c});
            }
            r.stepMetrics.append({s, QStringLiteral("drop_rate"), 0.001});
            r.stepMetrics.append({s, QStringLiteral("lm_loss"), 2.0});
        }
        return r;
    }

private slots:
    // Issue 28 (3): a real nccl-tests all-to-all log (SuperBench on 8 × A100, one pass:
    // five 0-byte rows, then 29 sizes once each). The 0-byte rows are shown but never
    // gated nor used for suggestions; the 29 missing repeats are one reason, not 29.
    void realNcclTestsLogReadsClearly() {
        const QString project = newProject();
        const QString log = QStringLiteral(MOEWB_SOURCE_DIR
                                           "/tests/fixtures/importers/real/nccltests_alltoall_superbench_a100.txt");
        QCOMPARE(run(project, {QStringLiteral("import"), log, QStringLiteral("--run"), QStringLiteral("a100"),
                               QStringLiteral("--record"), QStringLiteral("moe-64e-top8")})
                     .exitCode,
                 0);
        CliResult r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("1")});
        const QJsonObject j = r.json();
        // Not a stop on the 0-byte rows' CV: not ready, for want of repeats.
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("not_ready"));
        QStringList reasons;
        for (const QJsonValue& v : j.value(QStringLiteral("reasons")).toArray())
            reasons << v.toString();
        const QString all = reasons.join(QLatin1Char('\n'));
        QVERIFY2(reasons.size() <= 6, qPrintable(all));
        QCOMPARE(int(all.count(QStringLiteral("repeat"))), 1);
        QVERIFY2(all.contains(QStringLiteral("29 sizes have one repeat each; run-to-run variation needs at least 2 — "
                                             "run alltoall_perf -N 5 or import several files.")),
                 qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral(" 0 B")), qPrintable(all));
        // The 0-byte rows are in the table, and said to be shown only.
        bool zeroRow = false;
        for (const QJsonValue& row : j.value(QStringLiteral("table")).toArray())
            zeroRow = zeroRow || row.toObject().value(QStringLiteral("bytes_per_rank")).toDouble(-1) == 0.0;
        QVERIFY2(zeroRow, qPrintable(QString::fromUtf8(QJsonDocument(j.value(QStringLiteral("table")).toArray()).toJson())));
        QString notes;
        for (const QJsonValue& v : j.value(QStringLiteral("notes")).toArray())
            notes += v.toString() + QLatin1Char('\n');
        QVERIFY2(notes.contains(QStringLiteral("0-byte rows are shown but not gated")), qPrintable(notes));
        // Suggestions come from the 29 sizes with data, never from the 0-byte rows.
        QVERIFY2(!notes.contains(QStringLiteral("stage1.cv_max")), qPrintable(notes));
        QVERIFY2(notes.contains(QStringLiteral("over 29 sizes")), qPrintable(notes));
        // In words: one line for the repeats.
        r = run(project, {QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(int(r.out.count(QStringLiteral("one repeat"))), 1);
    }

    void initTestCase() {
        QVERIFY(m_home.isValid());
        // MOEWB_KEEP_PROJECTS=1 keeps the project files for a look at the output.
        if (qEnvironmentVariableIsSet("MOEWB_KEEP_PROJECTS")) {
            m_home.setAutoRemove(false);
            qInfo("projects kept in %s", qPrintable(m_home.path()));
        }
    }

    void usage() {
        const QString project = newProject();
        QCOMPARE(run(project, {QStringLiteral("stage"), QStringLiteral("5")}).exitCode, 2);
        QCOMPARE(run(project, {QStringLiteral("stage")}).exitCode, 2);
        CliResult r = run(project, {QStringLiteral("stage"), QStringLiteral("1"), QStringLiteral("--run"),
                                    QStringLiteral("nope")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("nope")));
        // Locked: exit 1, and the next step is the first stage that has not passed.
        r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("locked"));
        QCOMPARE(r.json().value(QStringLiteral("next_step")).toString(),
                 QStringLiteral("Run: moewb stage 1"));
        r = run(project, {QStringLiteral("stage"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("--run")));
        r = run(project, {QStringLiteral("--help")});
        QVERIFY(r.out.contains(QStringLiteral("stage 1|2|3|4")));
        QVERIFY(r.out.contains(QStringLiteral("checks")));
    }

    void stageOneStopsThenPassesWithTeamThreshold() {
        std::unique_ptr<store::ProjectStore> p;
        const QString project = newProject(&p);
        // Empty: not ready, exit 1.
        CliResult r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("not_ready"));

        QVERIFY(p->saveRun(probeRun(QStringLiteral("probe-4n"), 1.3)));
        r = run(project, {QStringLiteral("stage"), QStringLiteral("1"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject j = r.json();
        QCOMPARE(j.value(QStringLiteral("stage")).toInt(), 1);
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        const QString reasons = QJsonDocument(j.value(QStringLiteral("reasons")).toArray()).toJson();
        QVERIFY2(reasons.contains(QStringLiteral("run-to-run CV")), qPrintable(reasons));
        QVERIFY(reasons.contains(QStringLiteral("placeholder — set your own")));
        QCOMPARE(j.value(QStringLiteral("table")).toArray().size(), 2);
        const QJsonObject row = j.value(QStringLiteral("table")).toArray().at(0).toObject();
        QCOMPARE(row.value(QStringLiteral("bytes_per_rank")).toDouble(), 1048576.0);
        QCOMPARE(row.value(QStringLiteral("median_us")).toDouble(), 100.0);
        QCOMPARE(row.value(QStringLiteral("repeats")).toInt(), 3);
        // 1 MiB · 31/32 / 100 µs
        QVERIFY(std::fabs(row.value(QStringLiteral("effective_gbps")).toDouble() -
                          1048576.0 * 31 / 32 / 100e-6 / 1e9) < 1e-9);
        const QJsonArray thresholds = j.value(QStringLiteral("thresholds")).toArray();
        QCOMPARE(thresholds.at(0).toObject().value(QStringLiteral("key")).toString(),
                 QStringLiteral("stage1.cv_max"));
        QCOMPARE(thresholds.at(0).toObject().value(QStringLiteral("source")).toString(),
                 QStringLiteral("placeholder"));
        QVERIFY(!j.value(QStringLiteral("suggested_thresholds")).toArray().isEmpty());
        QCOMPARE(p->verdict(1)->status, QStringLiteral("stop"));

        // Stage 2 is locked while stage 1 stops.
        r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("locked"));

        QVERIFY(
            p->setThreshold({QStringLiteral("stage1.cv_max"), 0.5, store::ThresholdSource::Team, {}, {}}));
        r = run(project, {QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("VERDICT: PASS")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("50 % (team threshold)")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("size (B)")));
        QVERIFY(r.out.contains(QStringLiteral("algbw (GB/s)")));
        QVERIFY(r.out.contains(QStringLiteral("Suggested (not applied)")));
        QCOMPARE(p->verdict(1)->status, QStringLiteral("pass"));
    }

    // Issue 17 (1a): an import into a finished evaluation changes no verdict, no lock and
    // no override; `status` and `stage N --preview` say "new data since the verdict"
    // (the override "given on older data") until `stage N` re-evaluates. Everything
    // through the real CLI on a real project file: records, imports, verdicts.
    void importIntoFinishedEvaluationKeepsVerdictsAndOverrides() {
        const QString project = m_home.filePath(QStringLiteral("finished.moewb"));
        const QString dir = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/method/stage1-one-group-matches/");
        QCOMPARE(run(project, {QStringLiteral("init")}).exitCode, 0);
        QCOMPARE(run(project, {QStringLiteral("record"), QStringLiteral("add"), dir + QStringLiteral("record.json")})
                     .exitCode,
                 0);
        const QString baseline = dir + QStringLiteral("baseline-1n.txt");
        QCOMPARE(run(project, {QStringLiteral("import"), baseline, QStringLiteral("--run"), QStringLiteral("base")})
                     .exitCode,
                 0);
        // A team threshold its CVs (0.002–0.003) exceed: stage 1 stops, and is overridden.
        QCOMPARE(run(project, {QStringLiteral("threshold"), QStringLiteral("set"), QStringLiteral("stage1.cv_max"),
                               QStringLiteral("0.001")})
                     .exitCode,
                 0);
        CliResult r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        QCOMPARE(run(project, {QStringLiteral("override"), QStringLiteral("1"), QStringLiteral("--justification"),
                               QStringLiteral("fabric accepted"), QStringLiteral("--author"), QStringLiteral("lead")})
                     .exitCode,
                 0);
        auto stageOf = [&](int n) {
            const CliResult st = run(project, {QStringLiteral("--json"), QStringLiteral("status")});
            if (st.exitCode != 0)
                qFatal("status failed: %s", qPrintable(st.err));
            return st.json().value(QStringLiteral("stages")).toArray().at(n - 1).toObject();
        };
        QJsonObject one = stageOf(1);
        QCOMPARE(one.value(QStringLiteral("state")).toString(), QStringLiteral("overridden"));
        QCOMPARE(one.value(QStringLiteral("new_data")).toBool(), false);
        QCOMPARE(one.value(QStringLiteral("runs")).toArray(), QJsonArray{QStringLiteral("base")});
        const QString decided = one.value(QStringLiteral("decided")).toString();
        QCOMPARE(stageOf(2).value(QStringLiteral("state")).toString(), QStringLiteral("not started"));

        // New data: a second baseline. Verdict, override and unlock stay.
        QCOMPARE(run(project, {QStringLiteral("import"), baseline, QStringLiteral("--run"), QStringLiteral("second")})
                     .exitCode,
                 0);
        one = stageOf(1);
        QCOMPARE(one.value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        QCOMPARE(one.value(QStringLiteral("state")).toString(), QStringLiteral("overridden"));
        QCOMPARE(one.value(QStringLiteral("decided")).toString(), decided);
        QCOMPARE(one.value(QStringLiteral("new_data")).toBool(), true);
        QCOMPARE(one.value(QStringLiteral("new_runs")).toArray(), QJsonArray{QStringLiteral("second")});
        const QJsonObject over = one.value(QStringLiteral("override")).toObject();
        QCOMPARE(over.value(QStringLiteral("author")).toString(), QStringLiteral("lead"));
        QCOMPARE(over.value(QStringLiteral("given_on_older_data")).toBool(), true);
        QCOMPARE(stageOf(2).value(QStringLiteral("state")).toString(), QStringLiteral("not started"));
        // In words, with English plural forms.
        r = run(project, {QStringLiteral("status")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("New data since the verdict — re-evaluate? 1 new run: second.")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("Overridden by lead, given on older data.")), qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("(s)")));

        // --preview looks and says so, and saves nothing.
        r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("1"),
                          QStringLiteral("--preview")});
        QCOMPARE(r.json().value(QStringLiteral("saved")).toBool(), false);
        QCOMPARE(r.json().value(QStringLiteral("saved_verdict")).toObject().value(QStringLiteral("new_data")).toBool(),
                 true);
        QCOMPARE(stageOf(1).value(QStringLiteral("decided")).toString(), decided);

        // A run rewritten in place (as `import --into` does: ProjectStore::replaceRun) is new
        // data too, though its name and counts stay.
        {
            std::unique_ptr<store::ProjectStore> holder;
            store::ProjectStore& p = open(project, holder);
            const auto base = p.run(QStringLiteral("base"));
            QVERIFY(base);
            store::RunData again;
            again.name = base->name;
            again.kind = base->kind;
            again.recordName = base->recordName;
            again.sourceFile = base->sourceFile;
            again.environment = base->environment;
            again.commSamples = p.commSamples(base->id);
            QTest::qWait(5); // a later write stamp than the first
            QVERIFY(p.replaceRun(again));
        }
        QCOMPARE(stageOf(1).value(QStringLiteral("changed_runs")).toArray(), QJsonArray{QStringLiteral("base")});

        // Re-evaluating decides on the new data: a new stop on another basis. The override
        // is kept, marked as given on older data (confirm or withdraw), never silently gone:
        // stage 2 stays unlocked.
        r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        QCOMPARE(r.json().value(QStringLiteral("saved_verdict")).toObject().value(QStringLiteral("state_token")).toString(),
                 QStringLiteral("overridden_older_data"));
        one = stageOf(1);
        QCOMPARE(one.value(QStringLiteral("new_data")).toBool(), false);
        QCOMPARE(one.value(QStringLiteral("state")).toString(), QStringLiteral("overridden"));
        QCOMPARE(one.value(QStringLiteral("state_token")).toString(), QStringLiteral("overridden_older_data"));
        QCOMPARE(one.value(QStringLiteral("override")).toObject().value(QStringLiteral("basis_changed")).toBool(), true);
        QCOMPARE(one.value(QStringLiteral("runs")).toArray(),
                 (QJsonArray{QStringLiteral("base"), QStringLiteral("second")}));
        QCOMPARE(stageOf(2).value(QStringLiteral("state")).toString(), QStringLiteral("not started"));
        r = run(project, {QStringLiteral("status")});
        QVERIFY2(r.out.contains(QStringLiteral("Stage 1 · Communication baseline: STOP — OVERRIDDEN ON OLDER DATA")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("Confirm the override")), qPrintable(r.out));
        // The same stop evaluated again, nothing changed: still kept (and still flagged).
        r = run(project, {QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(stageOf(1).value(QStringLiteral("state_token")).toString(), QStringLiteral("overridden_older_data"));
        // Withdrawn: the stop is in force again, stage 2 locks; the override stays on record.
        r = run(project, {QStringLiteral("override"), QStringLiteral("1"), QStringLiteral("--withdraw")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("withdrawn")), qPrintable(r.out));
        QCOMPARE(stageOf(1).value(QStringLiteral("state")).toString(), QStringLiteral("stopped"));
        QCOMPARE(stageOf(2).value(QStringLiteral("state")).toString(), QStringLiteral("locked"));
        QCOMPARE(run(project, {QStringLiteral("override"), QStringLiteral("1"), QStringLiteral("--withdraw")}).exitCode,
                 1);
    }

    void overrideUnlocksTheNextStage() {
        std::unique_ptr<store::ProjectStore> p;
        const QString project = newProject(&p);
        QVERIFY(p->saveRun(probeRun(QStringLiteral("probe-4n"), 1.3)));
        QCOMPARE(run(project, {QStringLiteral("stage"), QStringLiteral("1")}).exitCode, 1);
        CliResult r = run(project, {QStringLiteral("stage"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("LOCKED")), qPrintable(r.out));
        QVERIFY(p->addOverride({0,
                                1,
                                QStringLiteral("known maintenance window; baseline accepted"),
                                QStringLiteral("lead"),
                                {}}));
        r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("2")});
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(),
                 QStringLiteral("not_ready")); // no training runs
    }

    void overrideCommandNeedsAStopAndAJustification() {
        std::unique_ptr<store::ProjectStore> p;
        const QString project = newProject(&p);
        QVERIFY(p->saveRun(probeRun(QStringLiteral("probe-4n"), 1.3)));
        // Nothing to override before the stage has stopped.
        QCOMPARE(run(project, {QStringLiteral("override"), QStringLiteral("1"), QStringLiteral("--justification"),
                               QStringLiteral("x")})
                     .exitCode,
                 1);
        QCOMPARE(run(project, {QStringLiteral("stage"), QStringLiteral("1")}).exitCode, 1);
        // A blank justification is a usage error and records nothing.
        QCOMPARE(run(project, {QStringLiteral("override"), QStringLiteral("1"), QStringLiteral("--justification"),
                               QStringLiteral("   ")})
                     .exitCode,
                 2);
        QVERIFY(p->overrides().isEmpty());
        CliResult r = run(project, {QStringLiteral("--json"), QStringLiteral("override"), QStringLiteral("1"),
                                    QStringLiteral("--justification"),
                                    QStringLiteral("fabric maintenance during round 1; re-measure next week"),
                                    QStringLiteral("--author"), QStringLiteral("lead")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("author")).toString(), QStringLiteral("lead"));
        const auto overrides = p->overrides();
        QCOMPARE(overrides.size(), 1);
        QCOMPARE(overrides.first().stage, 1);
        QVERIFY(overrides.first().justification.startsWith(QStringLiteral("fabric maintenance")));
        // The stop stays on record; stage 2 is no longer locked.
        QCOMPARE(p->verdict(1)->status, QStringLiteral("stop"));
        r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("2")});
        QVERIFY2(r.json().value(QStringLiteral("status")).toString() != QStringLiteral("locked"), qPrintable(r.out));
    }

    void stageTwoThreeAndStaleMarking() {
        std::unique_ptr<store::ProjectStore> p;
        const QString project = newProject(&p);
        QVERIFY(p->saveVerdict({1, QStringLiteral("pass"), {}, {}, {}}));
        QVERIFY(p->saveRun(trainingRun(QStringLiteral("moe"), QStringLiteral("moe-64e-top8"), 900.0, 2.5)));
        QVERIFY(p->saveRun(trainingRun(QStringLiteral("dense"), QStringLiteral("dense-1.3b"), 1000.0, 2.5)));
        CliResult r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 1);
        QJsonObject j = r.json();
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        QCOMPARE(j.value(QStringLiteral("table"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("moe_tokens_per_s_per_gpu"))
                     .toDouble(),
                 900.0);

        // The MoE with a better validation loss pays.
        QVERIFY(p->saveRun(
            trainingRun(QStringLiteral("moe-better"), QStringLiteral("moe-64e-top8"), 900.0, 2.4)));
        r = run(project, {QStringLiteral("stage"), QStringLiteral("2"), QStringLiteral("--run"),
                          QStringLiteral("moe-better"), QStringLiteral("--run"), QStringLiteral("dense")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("MoE tokens/s/GPU")), qPrintable(r.out));
        QCOMPARE(p->verdict(2)->status, QStringLiteral("pass"));

        // Stage 3 with the same balancing method: runs, not stale.
        QVERIFY(p->saveRun(loadRun(QStringLiteral("load-even"), QStringLiteral("moe-64e-top8"), false)));
        r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"),
                          QStringLiteral("--run"), QStringLiteral("load-even")});
        QCOMPARE(r.exitCode, 0);
        j = r.json();
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("pass"));
        QCOMPARE(j.value(QStringLiteral("stage2_stale")).toBool(), false);
        const QJsonObject row = j.value(QStringLiteral("table")).toArray().at(0).toObject();
        QCOMPARE(row.value(QStringLiteral("load_ratio_max")).toDouble(), 1.0);
        QCOMPARE(row.value(QStringLiteral("busiest_device_share_estimated")).toBool(), true);
        QCOMPARE(row.value(QStringLiteral("busiest_device_share")).toDouble(), 0.125);

        // A new balancing method: stage 3 marks stage 2 stale; stage 3 is then locked.
        QJsonObject bias = fixture("moe-64e-top8.json");
        QJsonObject moe = bias.value(QStringLiteral("moe")).toObject();
        moe.insert(QStringLiteral("load_balancing"),
                   QJsonObject{{QStringLiteral("method"), QStringLiteral("aux_loss_free_bias")},
                               {QStringLiteral("update_rate"), 0.001}});
        bias.insert(QStringLiteral("moe"), moe);
        QVERIFY(p->addConfigRecord(QStringLiteral("moe-bias"), bias, true));
        QVERIFY(p->saveRun(loadRun(QStringLiteral("load-bias-hot"), QStringLiteral("moe-bias"), true)));
        r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"),
                          QStringLiteral("--run"), QStringLiteral("load-bias-hot")});
        QCOMPARE(r.exitCode, 1);
        j = r.json();
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        QVERIFY(j.value(QStringLiteral("stage2_stale")).toBool());
        QCOMPARE(p->verdict(2)->status, QStringLiteral("stale"));
        QCOMPARE(p->verdict(3)->status, QStringLiteral("stop"));
        r = run(project, {QStringLiteral("stage"), QStringLiteral("3")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("stale")), qPrintable(r.out));
    }

    // A Megatron-Core run with --log-moe-overload-factor and no tokens per expert: stage 3
    // judges the EP-rank ratio and takes the busiest-device share from the overload factor,
    // and the CLI table and the PDF report mark both (stages/OverloadFactorLoad.h).
    void stageThreeFromTheOverloadFactorInTheCliAndTheReport() {
        std::unique_ptr<store::ProjectStore> p;
        const QString project = newProject(&p);
        QVERIFY(p->saveVerdict({1, QStringLiteral("pass"), {}, {}, {}}));
        QVERIFY(p->saveVerdict({2, QStringLiteral("pass"), {}, {}, {}}));
        store::RunData r;
        r.name = QStringLiteral("overload");
        r.recordName = QStringLiteral("moe-64e-top8"); // EP 8
        double maxSum = 0.0, layerMax = 0.0;
        for (int s = 1; s <= 50; ++s) {
            const double overall = 1.1 + 0.01 * (s % 7);
            maxSum += overall;
            r.stepMetrics.append({s, QStringLiteral("max_overload_factor"), overall});
            for (int l = 0; l < 4; ++l) {
                const double v = 1.05 + 0.02 * ((s + l) % 5);
                layerMax = std::max(layerMax, v);
                r.stepMetrics.append({s, QStringLiteral("max_overload_factor_layer_%1").arg(l), v});
            }
            r.stepMetrics.append({s, QStringLiteral("drop_rate"), 0.001});
            r.stepMetrics.append({s, QStringLiteral("lm_loss"), 2.0});
        }
        QVERIFY(p->saveRun(r));
        const CliResult c = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"),
                                          QStringLiteral("--run"), QStringLiteral("overload")});
        QVERIFY2(c.exitCode == 0, qPrintable(c.out + c.err));
        const QJsonObject row = c.json().value(QStringLiteral("table")).toArray().at(0).toObject();
        QCOMPARE(row.value(QStringLiteral("busiest_device_share_source")).toString(), QStringLiteral("overload-factor"));
        QVERIFY(qAbs(row.value(QStringLiteral("busiest_device_share")).toDouble() - maxSum / 50.0 / 8.0) < 1e-9);
        QCOMPARE(row.value(QStringLiteral("load_ratio_source")).toString(), QStringLiteral("ep-rank-overload-factor"));
        QVERIFY(qAbs(row.value(QStringLiteral("load_ratio_max")).toDouble() - layerMax) < 1e-9);
        QCOMPARE(row.value(QStringLiteral("layers")).toInt(), 4);

        const QString pdf = m_home.filePath(QStringLiteral("overload.pdf"));
        const CliResult rep = run(project, {QStringLiteral("report"), QStringLiteral("-o"), pdf});
        QVERIFY2(rep.exitCode == 0, qPrintable(rep.out + rep.err));
        QProcess text;
        text.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        QVERIFY(text.waitForFinished(60000));
        QString all = QString::fromUtf8(text.readAllStandardOutput());
        all.remove(QRegularExpression(QStringLiteral("\\s+")));
        QVERIFY2(all.contains(QStringLiteral("measured(overloadfactor)")), qPrintable(all.left(4000)));
        QVERIFY2(all.contains(QStringLiteral("(EPranks)")), qPrintable(all.left(4000)));
    }

    void stageTwoRefusesIncompleteRecords() {
        std::unique_ptr<store::ProjectStore> p;
        const QString project = newProject(&p);
        QVERIFY(p->saveVerdict({1, QStringLiteral("pass"), {}, {}, {}}));
        QJsonObject partial = fixture("moe-64e-top8.json");
        partial.remove(QStringLiteral("recipe"));
        QVERIFY(p->addConfigRecord(QStringLiteral("partial"), partial, false));
        QVERIFY(p->saveRun(trainingRun(QStringLiteral("moe"), QStringLiteral("partial"), 900.0, 2.5)));
        QVERIFY(p->saveRun(trainingRun(QStringLiteral("dense"), QStringLiteral("dense-1.3b"), 1000.0, 2.5)));
        const CliResult r =
            run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject j = r.json();
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("not_ready"));
        const QString reasons = QJsonDocument(j.value(QStringLiteral("reasons")).toArray()).toJson();
        QVERIFY2(reasons.contains(QStringLiteral("recipe.validation_set")), qPrintable(reasons));
        QVERIFY(j.value(QStringLiteral("table")).toArray().isEmpty());
    }

    void stageFourComparesTwoClusters() {
        std::unique_ptr<store::ProjectStore> p;
        const QString project = newProject(&p);
        for (int s = 1; s <= 3; ++s)
            QVERIFY(p->saveVerdict({s, QStringLiteral("pass"), {}, {}, {}}));
        QVERIFY(p->addCluster({0, QStringLiteral("prod-a"), 8, {}, {}}, {}));
        QVERIFY(p->addCluster({0, QStringLiteral("prod-b"), 8, {}, {}}, {}));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("a"), 1.0, QStringLiteral("prod-a"), 100.0)));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("b"), 1.0, QStringLiteral("prod-b"), 125.0)));
        CliResult r = run(project, {QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("4")});
        QCOMPARE(r.exitCode, 1); // target bandwidth 20 % below > 0.15
        QJsonObject j = r.json();
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        QCOMPARE(j.value(QStringLiteral("source_run")).toString(), QStringLiteral("a"));
        QVERIFY(std::fabs(j.value(QStringLiteral("table"))
                              .toArray()
                              .at(0)
                              .toObject()
                              .value(QStringLiteral("relative_diff"))
                              .toDouble() -
                          0.2) < 1e-9);
        QVERIFY(!j.value(QStringLiteral("applicability")).toArray().isEmpty());
        QVERIFY(
            QJsonDocument(j.value(QStringLiteral("reasons")).toArray()).toJson().contains("reference only"));
        QVERIFY(p->setThreshold(
            {QStringLiteral("stage4.baseline_diff_max"), 0.25, store::ThresholdSource::Team, {}, {}}));
        r = run(project, {QStringLiteral("stage"), QStringLiteral("4"), QStringLiteral("--run"),
                          QStringLiteral("a"), QStringLiteral("--run"), QStringLiteral("b")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Applicability")), qPrintable(r.out));
        QCOMPARE(p->verdict(4)->status, QStringLiteral("pass"));
    }

    void checksWarnButExitZero() {
        std::unique_ptr<store::ProjectStore> p;
        const QString project = newProject(&p);
        CliResult r = run(project, {QStringLiteral("checks")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("No misjudgment warnings")));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("probe-1n"), 1.0, {}, 100.0, 1)));
        store::RunData train =
            trainingRun(QStringLiteral("moe"), QStringLiteral("moe-64e-top8"), 1000.0, 2.5);
        QVERIFY(p->saveRun(train));
        r = run(project, {QStringLiteral("--json"), QStringLiteral("checks")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray warnings = r.json().value(QStringLiteral("warnings")).toArray();
        QList<int> ids;
        for (const auto& w : warnings) {
            ids << w.toObject().value(QStringLiteral("id")).toInt();
            QVERIFY(!w.toObject().value(QStringLiteral("fix")).toString().isEmpty());
            QVERIFY(!w.toObject().value(QStringLiteral("title")).toString().isEmpty());
        }
        QCOMPARE(ids, (QList<int>{3, 5}));
        r = run(project, {QStringLiteral("checks")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Fix:")), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestMoewbStages)
#include "test_moewb_stages.moc"
