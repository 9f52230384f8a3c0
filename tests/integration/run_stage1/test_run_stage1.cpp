// Stage 1 over real OpenSSH (3-4 sshd on 127.0.0.x): the sweep end to end through the
// ssh launcher and the tcp backend into a real project file, then `moewb stage 1` on
// it; the CLI (cluster add/check/list, run stage1, Ctrl-C); a shared home uploads once;
// hostile names injected nowhere; mpirun (Debian's OpenMPI) and slurm (stand-in srun /
// sbatch that record their argv) launchers.
#include "../MoewbCli.h"
#include "StageOneTestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <optional>
#include <thread>

using namespace moewb;
using namespace stage1test;

class TestRunStage1 : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    int m_n = 0;
    QString newProjectPath() { return m_tmp.filePath(QStringLiteral("eval%1.moewb").arg(++m_n)); }

private slots:
    // `moewb run stage1` with moe-probe's own sweep options: -b/-e/-f make the sizes, and
    // --pattern reaches every node's probe; both are recorded in the stored run.
    void cliSizeSeriesAndPatternReachTheProbe() {
        SshdCluster c;
        const QString e = c.start(2);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        auto moewbCli = [&](const QStringList& args) {
            return runMoewb(c.home(), QStringList{QStringLiteral("--project"), project} + args, 120000);
        };
        CliResult r = moewbCli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("lab"), QStringLiteral("--node"),
                                QStringLiteral("node0,node1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = moewbCli({QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"), QStringLiteral("lab"),
                      QStringLiteral("--record"), kRecord, QStringLiteral("-b"), QStringLiteral("1K"), QStringLiteral("-e"),
                      QStringLiteral("4K"), QStringLiteral("-f"), QStringLiteral("2"), QStringLiteral("--pattern"),
                      QStringLiteral("hot:1:0.5"), QStringLiteral("-R"), QStringLiteral("2"), QStringLiteral("-n"),
                      QStringLiteral("3"), QStringLiteral("-w"), QStringLiteral("1"), QStringLiteral("--name"),
                      QStringLiteral("pat"), QStringLiteral("--probe-timeout"), QStringLiteral("10"),
                      QStringLiteral("--probe-bundle"), probeBundle()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("saved run pat-n2")));
        // The probe's command line, as logged (shell-quoted, word by word), carries the
        // series and the pattern.
        QVERIFY2(r.err.contains(QStringLiteral("'-b' '1024' '-e' '4096' '-f' '2'")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("'--pattern' 'hot:1:0.5'")), qPrintable(r.err));

        auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        QVERIFY(opened);
        const auto run = opened.value()->run(QStringLiteral("pat-n2"));
        QVERIFY(run);
        QCOMPARE(run->environment.value(QStringLiteral("pattern")).toString(), QStringLiteral("hot:1:0.5"));
        QCOMPARE(run->environment.value(QStringLiteral("sizes")).toArray(), (QJsonArray{1024, 2048, 4096}));
        const QJsonObject options = run->environment.value(QStringLiteral("options")).toObject();
        QCOMPARE(options.value(QStringLiteral("min_bytes")).toInteger(), 1024);
        QCOMPARE(options.value(QStringLiteral("max_bytes")).toInteger(), 4096);
        QCOMPARE(options.value(QStringLiteral("repeats")).toInt(), 2);
        QCOMPARE(options.value(QStringLiteral("iters")).toInt(), 3);
        // 3 sizes x 2 repeats x 3 iterations, at exactly the sizes asked for.
        const auto samples = opened.value()->commSamples(run->id);
        QCOMPARE(samples.size(), 18);
        QSet<quint64> sizes;
        for (const auto& s : samples)
            sizes.insert(s.bytesPerRank);
        QCOMPARE(sizes, (QSet<quint64>{1024, 2048, 4096}));

        // matrix:FILE travels to every node with the probe; a matrix that is not the
        // sweep point's world is refused before anything runs.
        const QString matrix = m_tmp.filePath(QStringLiteral("load.txt"));
        {
            QFile f(matrix);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("# bytes from row to column\n1K 3K\n3K 1K\n");
        }
        const QStringList matrixRun{QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"),
                                    QStringLiteral("lab"), QStringLiteral("--record"), kRecord, QStringLiteral("--sizes"),
                                    QStringLiteral("4K"), QStringLiteral("--pattern"), QStringLiteral("matrix:") + matrix,
                                    QStringLiteral("-R"), QStringLiteral("2"), QStringLiteral("-n"), QStringLiteral("2"),
                                    QStringLiteral("--probe-timeout"), QStringLiteral("10"), QStringLiteral("--probe-bundle"),
                                    probeBundle()};
        r = moewbCli(matrixRun + QStringList{QStringLiteral("--name"), QStringLiteral("mat")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        opened.value().reset();
        opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        const auto matRun = opened.value()->run(QStringLiteral("mat-n2"));
        QVERIFY(matRun);
        QCOMPARE(matRun->environment.value(QStringLiteral("pattern")).toString(), QStringLiteral("matrix:") + matrix);
        QVERIFY2(matRun->environment.value(QStringLiteral("pattern_on_nodes")).toString().contains(
                     QStringLiteral("/.cache/moe-workbench/probe/")),
                 qPrintable(matRun->environment.value(QStringLiteral("pattern_on_nodes")).toString()));
        {
            QFile f(matrix);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("1K 1K 1K\n1K 1K 1K\n1K 1K 1K\n");
        }
        r = moewbCli(matrixRun + QStringList{QStringLiteral("--name"), QStringLiteral("mat3")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("3×3")), qPrintable(r.err));
    }

    void sweepEndToEndThenStageOne() {
        SshdCluster c;
        const QString e = c.start(4);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath(), QStringLiteral("lab"), c.addressTexts());
        remote::StageOneRequest r = smallRequest(c, project);
        r.clusterName = QStringLiteral("lab");
        r.nodes.clear();  // from the stored cluster
        r.nodeCounts = {2, 4};
        r.messageSizes = {16u << 10, 64u << 10};
        Recorder rec;
        remote::StageOneSweep sweep(r, rec.events());
        auto result = sweep.run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary()));
        QCOMPARE(result.value(), (QStringList{QStringLiteral("t-n2"), QStringLiteral("t-n4")}));

        auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        QVERIFY(opened);
        auto& p = *opened.value();
        for (int n : {2, 4}) {
            const auto run = p.run(QStringLiteral("t-n%1").arg(n));
            QVERIFY(run);
            QCOMPARE(run->kind, store::RunKind::Probe);
            QCOMPARE(run->recordName, kRecord);
            QCOMPARE(run->clusterName, QStringLiteral("lab"));
            QCOMPARE(run->environment.value(QStringLiteral("nodes")).toInt(), n);
            QCOMPARE(run->environment.value(QStringLiteral("world")).toInt(), n);
            QCOMPARE(run->environment.value(QStringLiteral("launcher")).toString(), QStringLiteral("ssh"));
            QCOMPARE(run->environment.value(QStringLiteral("node_addresses")).toArray().size(), n);
            // 2 sizes x 2 repeats x 3 iterations, every sample positive.
            const auto samples = p.commSamples(run->id);
            QCOMPARE(samples.size(), 12);
            QCOMPARE(samples.first().bytesPerRank, quint64(16u << 10));
            QCOMPARE(samples.last().bytesPerRank, quint64(64u << 10));
            for (const auto& s : samples)
                QVERIFY(s.timeUs > 0.0);
            QVERIFY(run->sourceFile.contains(c.addressTexts().first()));
        }
        // Live events: every node uploaded, ran, and rank 0 printed its table.
        for (const QString& node : c.addressTexts()) {
            QVERIFY2(rec.sawProgressContaining(node + QStringLiteral("|uploading probe")), qPrintable(rec.progress.join('\n')));
            QVERIFY(rec.sawProgressContaining(node + QStringLiteral("|running 4 nodes, 16 KiB..64 KiB")));
        }
        bool table = false;
        for (const QString& l : rec.logs)
            table = table || (l.startsWith(c.addressTexts().first() + QStringLiteral("|0|")) && l.contains(QLatin1String("65536")));
        QVERIFY2(table, qPrintable(rec.logs.join('\n')));
        // Nothing left on the nodes: no process, no report file.
        QVERIFY(SshdCluster::processesMatching(c.dir()).filter(QStringLiteral("moe-probe")).isEmpty());
        QVERIFY(QDir(c.remoteHome(0) + QStringLiteral("/.cache/moe-workbench/results")).entryList(QDir::Files).isEmpty());

        // The same names again: refused before anything runs.
        remote::StageOneSweep again(r);
        auto second = again.run();
        QVERIFY(!second);
        QVERIFY(second.error().summary().contains(QStringLiteral("already exists")));

        // moewb stage 1 reads the stored runs.
        const CliResult s = runMoewb(c.home(), {QStringLiteral("--project"), project, QStringLiteral("--json"),
                                                 QStringLiteral("stage"), QStringLiteral("1")});
        QVERIFY2(s.exitCode == 0 || s.exitCode == 1, qPrintable(s.err));
        const QJsonObject j = s.json();
        QCOMPARE(j.value(QStringLiteral("stage")).toInt(), 1);
        // The record trains on 4 nodes x 8 GPUs (world 32) as 4 concurrent all-to-alls of
        // EP 8; these sweep points ran one all-to-all over 1 rank per node. The stored runs
        // are read and tabled, but they are not the training's baseline: never a pass, and
        // the reason says why (the gate must not PASS a baseline at another concurrency).
        // "not ready" on a quiet machine; "stop" when loopback timings on a loaded one
        // also vary past the CV limit (the concurrency reason is given either way).
        QVERIFY2(!j.value(QStringLiteral("table")).toArray().isEmpty(), qPrintable(s.out));
        const QString status = j.value(QStringLiteral("status")).toString();
        QVERIFY2(status == QStringLiteral("not_ready") || status == QStringLiteral("stop"), qPrintable(s.out));
        const QString reasons = QJsonDocument(j.value(QStringLiteral("reasons")).toArray()).toJson();
        QVERIFY2(reasons.contains(QStringLiteral("t-n4 was measured as one 4-rank all-to-all")), qPrintable(s.out));
        QVERIFY2(reasons.contains(QStringLiteral("the training runs 4 concurrent all-to-alls of EP 8")),
                 qPrintable(s.out));
    }

    // The probe options a sweep point gets from the record's parallelism (EP groups laid
    // out as Megatron-Core lays them out), every word shell-quoted by the launcher.
    void epGroupsFollowTheRecord() {
        remote::StageOneRequest r;
        r.backend = remote::ProbeBackend::Nccl;
        r.gpusPerNode = 8;
        record::ParallelismRecord p;  // the fixture's: dp 16, tp 2, pp 1, ep 8 (world 32)
        p.dp = 16;
        p.tp = 2;
        p.pp = 1;
        p.ep = 8;
        r.parallelism = p;
        // 2 nodes x 8 GPUs: the training's first 16 ranks are 2 x (tp 2) EP groups of 8.
        auto c = remote::StageOneSweep::epChoice(r, 16);
        QCOMPARE(c.arguments, (QStringList{QStringLiteral("--ep-size"), QStringLiteral("8"), QStringLiteral("--tp"),
                                           QStringLiteral("2"), QStringLiteral("--ep-order"), QStringLiteral("tp-cp-ep-dp-pp")}));
        QCOMPARE(c.groups, 2);
        QVERIFY2(c.text.startsWith(QStringLiteral("2 groups of EP 8 at once")), qPrintable(c.text));
        const QStringList argv = remote::StageOneSweep::probeArguments(r, QStringLiteral("moe-probe"), 2,
                                                                      QStringLiteral("h:1"), QString());
        QVERIFY(argv.join(QLatin1Char(' ')).contains(QStringLiteral("--ep-size 8 --tp 2 --ep-order tp-cp-ep-dp-pp")));
        // 1 node of 8 GPUs: half an EP group of tp 2: one all-to-all over the world.
        c = remote::StageOneSweep::epChoice(r, 8);
        QVERIFY(c.arguments.isEmpty());
        QVERIFY2(c.text.startsWith(QStringLiteral("one all-to-all over 8 ranks (")), qPrintable(c.text));
        // --whole-world, and a record without expert parallelism.
        r.wholeWorld = true;
        QVERIFY(remote::StageOneSweep::epChoice(r, 16).arguments.isEmpty());
        r.wholeWorld = false;
        p.ep = 1;
        r.parallelism = p;
        QVERIFY(remote::StageOneSweep::epChoice(r, 16).arguments.isEmpty());
        // dp before ep: EP groups stride over the training's dp, so only its own world
        // (or whole pipeline stages of it) reproduces them; pp 2 needs --pp 2.
        p = {};
        p.dp = 4;
        p.tp = 1;
        p.pp = 2;
        p.ep = 2;
        p.order = QStringLiteral("tp-cp-dp-ep-pp");
        r.parallelism = p;  // world 8, expert dp 2: groups {0,2} {1,3} {4,6} {5,7}
        c = remote::StageOneSweep::epChoice(r, 8);
        QCOMPARE(c.arguments, (QStringList{QStringLiteral("--ep-size"), QStringLiteral("2"), QStringLiteral("--tp"),
                                           QStringLiteral("1"), QStringLiteral("--ep-order"), QStringLiteral("tp-cp-dp-ep-pp"),
                                           QStringLiteral("--pp"), QStringLiteral("2")}));
        c = remote::StageOneSweep::epChoice(r, 4);  // one pipeline stage: pp 1 is the same layout
        QCOMPARE(c.arguments.mid(0, 2), (QStringList{QStringLiteral("--ep-size"), QStringLiteral("2")}));
        QVERIFY(!c.arguments.contains(QStringLiteral("--pp")));
        QVERIFY(remote::StageOneSweep::epChoice(r, 2).arguments.isEmpty());  // {0,2} straddles 2 ranks
    }

    // A record with EP 2 on 4 nodes (tcp: 4 ranks): the sweep measures 2 EP groups of 2
    // at once; the run's environment and the stage 1 table say so. --whole-world
    // measures one all-to-all over the 4 ranks.
    void sweepMeasuresTheRecordsEpGroups() {
        SshdCluster c;
        const QString e = c.start(4);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        {
            auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
            QVERIFY(opened);
            QJsonObject rec = fixtureRecord();
            rec.insert(QStringLiteral("parallelism"), QJsonObject{{QStringLiteral("dp"), 4}, {QStringLiteral("tp"), 1},
                                                                  {QStringLiteral("pp"), 1}, {QStringLiteral("ep"), 2}});
            QVERIFY(opened.value()->addConfigRecord(QStringLiteral("moe-ep2"), rec, true));
        }
        remote::StageOneRequest r = smallRequest(c, project);
        r.recordName = QStringLiteral("moe-ep2");
        r.nodeCounts = {4};
        Recorder rec;
        remote::StageOneSweep sweep(r, rec.events());
        auto result = sweep.run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary()));
        r.wholeWorld = true;
        r.runNamePrefix = QStringLiteral("w");
        remote::StageOneSweep whole(r);
        auto second = whole.run();
        QVERIFY2(second, second ? "" : qPrintable(second.error().summary()));
        {
            auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
            QVERIFY(opened);
            const auto run = opened.value()->run(QStringLiteral("t-n4"));
            QVERIFY(run);
            QCOMPARE(run->environment.value(QStringLiteral("ep_size")).toInt(), 2);
            QCOMPARE(run->environment.value(QStringLiteral("ep_groups")).toArray(),
                     QJsonArray({QJsonArray{0, 1}, QJsonArray{2, 3}}));
            QCOMPARE(run->environment.value(QStringLiteral("ep_order")).toString(), QStringLiteral("tp-cp-ep-dp-pp"));
            const auto w = opened.value()->run(QStringLiteral("w-n4"));
            QVERIFY(w);
            QCOMPARE(w->environment.value(QStringLiteral("ep_size")).toInt(), 4);
            QVERIFY(!w->environment.contains(QStringLiteral("ep_order")));
        }
        bool logged = false;
        for (const QString& l : rec.logs)
            logged = logged || l.contains(QStringLiteral("t-n4: 2 groups of EP 2 at once"));
        QVERIFY2(logged, qPrintable(rec.logs.join('\n')));

        const CliResult s = runMoewb(c.home(), {QStringLiteral("--project"), project, QStringLiteral("stage"), QStringLiteral("1")});
        QVERIFY2(s.exitCode == 0 || s.exitCode == 1, qPrintable(s.err));
        const int t = s.out.indexOf(QStringLiteral("Run t-n4:")), w = s.out.indexOf(QStringLiteral("Run w-n4:"));
        QVERIFY2(t >= 0 && w >= 0, qPrintable(s.out));
        QVERIFY2(s.out.mid(t).section(QLatin1Char('\n'), 1, 1) == QStringLiteral("concurrency: 2 concurrent all-to-alls of EP 2"),
                 qPrintable(s.out));
        QVERIFY2(s.out.mid(w).section(QLatin1Char('\n'), 1, 1) == QStringLiteral("concurrency: one 4-rank all-to-all"),
                 qPrintable(s.out));
        const CliResult j = runMoewb(c.home(), {QStringLiteral("--project"), project, QStringLiteral("--json"),
                                                 QStringLiteral("stage"), QStringLiteral("1")});
        bool row = false;
        for (const QJsonValue& v : j.json().value(QStringLiteral("table")).toArray())
            row = row || (v.toObject().value(QStringLiteral("run")).toString() == QStringLiteral("t-n4") &&
                          v.toObject().value(QStringLiteral("ep_size")).toInt() == 2);
        QVERIFY2(row, qPrintable(j.out));
    }

    void cliClusterAddCheckListRun() {
        SshdCluster c;
        const QString e = c.start(3);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        auto moewbCli = [&](const QStringList& args, int timeoutMs = 90000) {
            return runMoewb(c.home(), QStringList{QStringLiteral("--project"), project} + args, timeoutMs);
        };
        // Hostile addresses are refused; nothing is added.
        CliResult r = moewbCli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("bad"), QStringLiteral("--node"),
                                QStringLiteral("node0,-oProxyCommand=touch /tmp/pwn")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("-oProxyCommand")), qPrintable(r.err));
        r = moewbCli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("bad"), QStringLiteral("--node"),
                      QStringLiteral("a;reboot")});
        QCOMPARE(r.exitCode, 2);
        // Nodes by ~/.ssh/config alias.
        r = moewbCli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("lab"), QStringLiteral("--node"),
                      QStringLiteral("node0,node1"), QStringLiteral("--node"), QStringLiteral("node2"), QStringLiteral("--gpus"),
                      QStringLiteral("8")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = moewbCli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray clusters = r.json().value(QStringLiteral("clusters")).toArray();
        QCOMPARE(clusters.size(), 1);
        QCOMPARE(clusters.at(0).toObject().value(QStringLiteral("nodes")).toArray().size(), 3);
        QCOMPARE(clusters.at(0).toObject().value(QStringLiteral("gpus_per_node")).toInt(), 8);

        r = moewbCli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("check"), QStringLiteral("lab"),
                      QStringLiteral("--probe-bundle"), probeBundle()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonArray checked = r.json().value(QStringLiteral("nodes")).toArray();
        QCOMPARE(checked.size(), 3);
        for (const auto& n : checked) {
            QVERIFY(n.toObject().value(QStringLiteral("ok")).toBool());
            QVERIFY(!n.toObject().value(QStringLiteral("inventory")).toObject().value(QStringLiteral("hostname")).toString().isEmpty());
        }
        // The refreshed facts are stored on the cluster's nodes (added without any).
        QCOMPARE(r.json().value(QStringLiteral("updated")).toInt(), 3);
        r = moewbCli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("list")});
        const QJsonArray listed =
            r.json().value(QStringLiteral("clusters")).toArray().at(0).toObject().value(QStringLiteral("nodes")).toArray();
        QCOMPARE(listed.size(), 3);
        for (const auto& n : listed) {
            const QJsonObject facts = n.toObject().value(QStringLiteral("facts")).toObject();
            QVERIFY2(!facts.value(QStringLiteral("hostname")).toString().isEmpty() &&
                         !facts.value(QStringLiteral("checked")).toString().isEmpty(),
                     qPrintable(QString::fromUtf8(QJsonDocument(facts).toJson())));
            QCOMPARE(n.toObject().value(QStringLiteral("gpus")).toInt(), 8);  // as given at add
        }
        r = moewbCli({QStringLiteral("cluster"), QStringLiteral("check"), QStringLiteral("lab"), QStringLiteral("--no-update"),
                      QStringLiteral("--probe-bundle"), probeBundle()});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("Facts not stored (--no-update).")), qPrintable(r.err + r.out));

        r = moewbCli({QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"), QStringLiteral("lab"),
                      QStringLiteral("--record"), kRecord, QStringLiteral("--nodes"), QStringLiteral("2,3"), QStringLiteral("--sizes"),
                      QStringLiteral("32K"), QStringLiteral("--repeats"), QStringLiteral("2"), QStringLiteral("--iterations"),
                      QStringLiteral("3"), QStringLiteral("--warmup"), QStringLiteral("1"), QStringLiteral("--name"),
                      QStringLiteral("cli"), QStringLiteral("--probe-bundle"), probeBundle()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("saved run cli-n2")));
        QVERIFY(r.out.contains(QStringLiteral("saved run cli-n3")));
        // Live per-node output on stderr, by node as the user named it.
        QVERIFY2(r.err.contains(QStringLiteral("[node1] running 3 nodes, 32 KiB")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("[node0] ")));
        r = moewbCli({QStringLiteral("--json"), QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--kind"),
                      QStringLiteral("probe")});
        QCOMPARE(r.json().value(QStringLiteral("runs")).toArray().size(), 2);

        // Usage errors name the option.
        r = moewbCli({QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"), QStringLiteral("lab"),
                      QStringLiteral("--record"), kRecord, QStringLiteral("--launcher"), QStringLiteral("pbs")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("pbs")));
        r = moewbCli({QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"), QStringLiteral("lab"),
                      QStringLiteral("--record"), kRecord, QStringLiteral("--nodes"), QStringLiteral("9"), QStringLiteral("--probe-bundle"),
                      probeBundle()});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("outside 1..3")), qPrintable(r.err));
    }

    void cliCtrlCCancelsAndLeavesNothing() {
        SshdCluster c;
        const QString e = c.start(3);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath(), QStringLiteral("lab"), c.addressTexts());
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), c.home());
        env.insert(QStringLiteral("XDG_DATA_HOME"), c.home() + QStringLiteral("/data"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(MOEWB_CLI),
                {QStringLiteral("--project"), project, QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"),
                 QStringLiteral("lab"), QStringLiteral("--record"), kRecord, QStringLiteral("--sizes"), QStringLiteral("1M"),
                 QStringLiteral("--iterations"), QStringLiteral("1000000"), QStringLiteral("--name"), QStringLiteral("ctrlc"),
                 QStringLiteral("--probe-bundle"), probeBundle()});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QElapsedTimer t;
        t.start();
        // Wait until every probe runs (rank 0 prints its table header on stdout).
        while (t.elapsed() < 60000 && !err.contains("|  ") && !err.contains("#  ")) {
            p.waitForReadyRead(200);
            err += p.readAllStandardError();
            if (p.state() != QProcess::Running)
                break;
            if (SshdCluster::probeRunsUnder(c.dir()).size() >= 3)
                break;
        }
        QCOMPARE(SshdCluster::probeRunsUnder(c.dir()).size(), 3);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);  // our own child, by its PID
        QElapsedTimer cancelTime;
        cancelTime.start();
        QVERIFY(p.waitForFinished(30000));
        const qint64 ms = cancelTime.elapsed();
        qInfo("Ctrl-C: moewb ended %lld ms after SIGINT", ms);
        err += p.readAllStandardError();
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(ms < 10000, qPrintable(QString::number(ms)));  // ~1 s idle; the kill is a remote command
        QVERIFY2(err.contains("cancel"), err.constData());
        QVERIFY2(SshdCluster::processesMatching(c.dir()).filter(QStringLiteral("moe-probe")).isEmpty(),
                 qPrintable(SshdCluster::processesMatching(c.dir()).join('\n')));
        QCOMPARE(runCount(project), 0);
    }

    void sharedHomeUploadsOnce() {
        SshdCluster c;
        QList<SshdCluster::NodeSpec> specs(3);
        for (auto& s : specs)
            s.remoteHomeName = QStringLiteral("shared");
        const QString e = c.start(3, specs);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        Recorder rec;
        remote::StageOneSweep sweep(smallRequest(c, project), rec.events());
        auto result = sweep.run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary()));
        QCOMPARE(rec.countProgress(QStringLiteral("probe uploaded")), 1);
        QCOMPARE(rec.countProgress(QStringLiteral("probe already there")), 2);
        QVERIFY(rec.sawProgressContaining(c.addressTexts().first() + QStringLiteral("|probe uploaded")));
    }

    void hostileNamesAndArgumentsInjectNothing() {
        SshdCluster c;
        const QString e = c.start(3);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        const QString marker = c.dir() + QStringLiteral("/pwned");
        // The run name: stored as given; on the node the report's file name keeps only
        // letters, digits, '.', '_' and '-' (a '/' would make folders), and every
        // argument is quoted anyway (-J, cat, rm).
        remote::StageOneRequest r = smallRequest(c, project);
        r.nodeCounts = {2};
        r.runNamePrefix = QStringLiteral("x'; touch %1; echo '$(touch %1)`touch %1` \"q\" *").arg(marker);
        auto result = remote::StageOneSweep(r).run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary()));
        QCOMPARE(result.value(), QStringList{r.runNamePrefix + QStringLiteral("-n2")});
        QVERIFY(!QFile::exists(marker));

        // Launcher options are passed word by word: a stand-in srun records its argv.
        const QString standin = c.dir() + QStringLiteral("/srun");
        const QString argvFile = c.dir() + QStringLiteral("/srun.argv");
        writeSrunStandIn(standin, argvFile);
        r.launcher = remote::Launcher::Slurm;
        r.srunProgram = standin;
        r.runNamePrefix = QStringLiteral("slurm");
        r.nodeCounts = {3};
        const QString hostile = QStringLiteral("--comment=$(touch %1); `touch %1` 'x' \"y\" \n z").arg(marker);
        r.slurmExtraArgs = {hostile, QStringLiteral("--partition=debug")};
        result = remote::StageOneSweep(r).run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary()));
        QVERIFY(!QFile::exists(marker));
        const QStringList argv = readArgv(argvFile);
        QVERIFY2(argv.size() > 12, qPrintable(argv.join(QLatin1Char('|'))));
        QCOMPARE(argv.mid(0, 5), (QStringList{QStringLiteral("--nodes=3"), QStringLiteral("--ntasks=3"),
                                              QStringLiteral("--ntasks-per-node=1"),
                                              QStringLiteral("--nodelist=%1,%2,%3").arg(c.ip(0), c.ip(1), c.ip(2)), hostile}));
        QCOMPARE(argv.at(5), QStringLiteral("--partition=debug"));
        // The probe runs through the verified-exec helper: sh -c SCRIPT NAME SHA256 PATH args...
        QCOMPARE(argv.mid(6, 2), (QStringList{QStringLiteral("sh"), QStringLiteral("-c")}));
        QCOMPARE(argv.at(9), QStringLiteral("moewb-verified-exec"));
        QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(argv.at(10)).hasMatch());
        QVERIFY2(argv.at(11).endsWith(QStringLiteral("/moe-probe")), qPrintable(argv.at(11)));
        QVERIFY(argv.contains(QStringLiteral("--rendezvous")));
        QVERIFY(!argv.contains(QStringLiteral("--rank")));  // ranks come from SLURM_PROCID
        auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        const auto run = opened.value()->run(QStringLiteral("slurm-n3"));
        QVERIFY(run);
        QCOMPARE(run->environment.value(QStringLiteral("launcher")).toString(), QStringLiteral("slurm"));
        QCOMPARE(run->environment.value(QStringLiteral("world")).toInt(), 3);
    }

    void sbatchLauncherStandIn() {
        SshdCluster c;
        const QString e = c.start(2);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        const QString srun = c.dir() + QStringLiteral("/srun");
        writeSrunStandIn(srun, c.dir() + QStringLiteral("/srun.argv"));
        const QString sbatch = c.dir() + QStringLiteral("/sbatch");
        const QString argvFile = c.dir() + QStringLiteral("/sbatch.argv");
        // sbatch --wait stand-in: records argv, runs --wrap with sh, output to --output.
        writeScript(sbatch, QStringLiteral("#!/bin/sh\n: > '%1'\nfor a in \"$@\"; do printf '%s\\0' \"$a\" >> '%1'; done\n"
                                           "out=/dev/null; wrap=\n"
                                           "for a in \"$@\"; do case \"$a\" in --output=*) out=\"${a#--output=}\";; "
                                           "--wrap=*) wrap=\"${a#--wrap=}\";; esac; done\n"
                                           "echo 'Submitted batch job 4242'\nsh -c \"$wrap\" > \"$out\" 2>&1\n")
                                .arg(argvFile));
        remote::StageOneRequest r = smallRequest(c, project);
        r.launcher = remote::Launcher::Slurm;
        r.slurmUseSbatch = true;
        r.srunProgram = srun;
        r.sbatchProgram = sbatch;
        auto result = remote::StageOneSweep(r).run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary()));
        const QStringList argv = readArgv(argvFile);
        QVERIFY2(argv.size() >= 5, qPrintable(argv.join('|')));
        QCOMPARE(argv.mid(0, 3), (QStringList{QStringLiteral("--wait"), QStringLiteral("--nodes=2"), QStringLiteral("--ntasks-per-node=1")}));
        QVERIFY(argv.at(3).startsWith(QStringLiteral("--output=")));
        QVERIFY2(QRegularExpression(QStringLiteral("^--job-name=moewb-[0-9a-f]{16}$")).match(argv.at(4)).hasMatch(), qPrintable(argv.at(4)));
        QVERIFY(argv.last().startsWith(QStringLiteral("--wrap='%1' '--nodes=2'").arg(srun)));
    }

    // Cancelled after sbatch submitted but before it printed the job id: the job is
    // found by its name, unique to the sweep point, and scancel'ed by it.
    void sbatchCancelledBeforeJobIdCancelsByName() {
        SshdCluster c;
        const QString e = c.start(2);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        const QString sbatch = c.dir() + QStringLiteral("/sbatch");
        const QString argvFile = c.dir() + QStringLiteral("/sbatch.argv");
        const QString scancel = c.dir() + QStringLiteral("/scancel");
        const QString scancelArgv = c.dir() + QStringLiteral("/scancel.argv");
        // sbatch stand-in: records argv, then "submits" without a word, as a slow
        // controller would leave it.
        writeScript(sbatch, QStringLiteral("#!/bin/sh\n: > '%1.tmp'\nfor a in \"$@\"; do printf '%s\\0' \"$a\" >> '%1.tmp'; done\n"
                                           "mv '%1.tmp' '%1'\nexec sleep 3011\n")
                                .arg(argvFile));
        writeScript(scancel, QStringLiteral("#!/bin/sh\n: > '%1'\nfor a in \"$@\"; do printf '%s\\0' \"$a\" >> '%1'; done\n")
                                 .arg(scancelArgv));
        remote::StageOneRequest r = smallRequest(c, project);
        r.launcher = remote::Launcher::Slurm;
        r.slurmUseSbatch = true;
        r.sbatchProgram = sbatch;
        r.scancelProgram = scancel;
        Recorder rec;
        remote::StageOneSweep sweep(r, rec.events());
        std::optional<Expected<QStringList, remote::StageOneFailure>> result;
        std::thread worker([&] { result = sweep.run(); });
        QElapsedTimer t;
        t.start();
        while (!QFile::exists(argvFile) && t.elapsed() < 60000)
            QThread::msleep(50);
        sweep.cancel();
        worker.join();
        QVERIFY2(QFile::exists(argvFile), "sbatch never ran");
        QVERIFY(result && !*result);
        QVERIFY(result->error().cancelled);
        QCOMPARE(runCount(project), 0);
        const QStringList submitted = readArgv(argvFile).filter(QRegularExpression(QStringLiteral("^--job-name=")));
        QCOMPARE(submitted.size(), 1);
        QCOMPARE(readArgv(scancelArgv), QStringList{QStringLiteral("--name=") + submitted.first().mid(11)});
        QVERIFY2(rec.logs.join('\n').contains(QStringLiteral("cancelled Slurm job named moewb-")), qPrintable(rec.logs.join('\n')));
        // The stand-in sbatch (now "sleep 3011") was ended with its process group.
        QVERIFY2(SshdCluster::processesMatching(QStringLiteral("sleep 3011")).isEmpty(),
                 qPrintable(SshdCluster::processesMatching(QStringLiteral("sleep 3011")).join('\n')));
    }

    void mpirunLauncherWithOpenMpi() {
        if (QStandardPaths::findExecutable(QStringLiteral("mpirun")).isEmpty())
            QFAIL("mpirun not found: install openmpi-bin (packaging/install-deps)");
        SshdCluster c;
        const QString e = c.start(2);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        remote::StageOneRequest r = smallRequest(c, project);
        r.launcher = remote::Launcher::Mpirun;
        // The nodes are all this machine: mpirun starts both ranks locally (no ssh of its own).
        r.nodes = {c.addresses().at(0), c.addresses().at(1)};
        r.mpirunExtraArgs = {QStringLiteral("--allow-run-as-root"), QStringLiteral("--oversubscribe")};
        r.mpirunHosts = {QStringLiteral("localhost"), QStringLiteral("localhost")};
        r.rendezvousHost = QStringLiteral("127.0.0.1");
        Recorder rec;
        auto result = remote::StageOneSweep(r, rec.events()).run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary() + QLatin1Char('\n') + rec.logs.join('\n')));
        auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        const auto run = opened.value()->run(QStringLiteral("t-n2"));
        QVERIFY(run);
        QCOMPARE(run->environment.value(QStringLiteral("launcher")).toString(), QStringLiteral("mpirun"));
        QCOMPARE(run->environment.value(QStringLiteral("world")).toInt(), 2);
        bool sawCommand = false;
        for (const QString& l : rec.logs)
            sawCommand = sawCommand || l.contains(QStringLiteral("$ 'mpirun' '-np' '2' '-H' 'localhost:1,localhost:1'"));
        QVERIFY2(sawCommand, qPrintable(rec.logs.join('\n')));
    }

    void mpirunLauncherAcrossSshdNodes() {
        // mpirun on the head node (node0) starts its daemons on node1..node2 through
        // Open MPI's rsh launcher: the agent is ssh with the test's config (aliases, ports,
        // key, strict known_hosts), wrapped to record what it was asked to run.
        if (QStandardPaths::findExecutable(QStringLiteral("mpirun")).isEmpty())
            QFAIL("mpirun not found: install openmpi-bin (packaging/install-deps)");
        SshdCluster c;
        const QString e = c.start(3);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(newProjectPath());
        const QString agentLog = c.dir() + QStringLiteral("/rsh-agent.log");
        const QString agent = c.dir() + QStringLiteral("/rsh-agent");
        writeScript(agent, QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$*\" >> '%1'\n"
                                          "exec ssh -F '%2/config' -o StrictHostKeyChecking=yes -o UserKnownHostsFile='%2/known_hosts' "
                                          "-o BatchMode=yes -o IdentitiesOnly=yes -i '%2/id_ed25519' \"$@\"\n")
                               .arg(agentLog, c.sshDir()));
        remote::StageOneRequest r = smallRequest(c, project);
        r.launcher = remote::Launcher::Mpirun;
        r.mpirunHosts = {QStringLiteral("node0"), QStringLiteral("node1"), QStringLiteral("node2")};
        r.mpirunExtraArgs = {QStringLiteral("--allow-run-as-root"), QStringLiteral("--mca"), QStringLiteral("plm_rsh_agent"), agent,
                             QStringLiteral("--mca"), QStringLiteral("plm_rsh_no_tree_spawn"), QStringLiteral("1"),
                             // Tests use loopback only: the daemons call mpirun back on lo, never on
                             // an interface another test (a network namespace's veth) may be changing.
                             QStringLiteral("--mca"), QStringLiteral("oob_tcp_if_include"), QStringLiteral("lo")};
        Recorder rec;
        auto result = remote::StageOneSweep(r, rec.events()).run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary() + QLatin1Char('\n') + rec.logs.join('\n')));
        auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        const auto run = opened.value()->run(QStringLiteral("t-n3"));
        QVERIFY(run);
        QCOMPARE(run->environment.value(QStringLiteral("launcher")).toString(), QStringLiteral("mpirun"));
        QCOMPARE(run->environment.value(QStringLiteral("world")).toInt(), 3);
        QVERIFY(run->commSampleCount > 0);
        // Each host's daemon went through the agent (ssh with the test's config).
        QFile log(agentLog);
        QVERIFY2(log.open(QIODevice::ReadOnly), "the rsh agent was never called");
        const QString calls = QString::fromUtf8(log.readAll());
        for (const QString& h : {QStringLiteral("node1"), QStringLiteral("node2")})
            QVERIFY2(calls.contains(QRegularExpression(QStringLiteral("(^|\\n|\\s)%1\\s.*orted").arg(h))), qPrintable(calls));
        QVERIFY(SshdCluster::programsUnder(c.dir()).isEmpty());
    }

private:
    static void writeScript(const QString& path, const QString& text) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.toUtf8());
        f.close();
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    // srun stand-in: records argv (NUL-separated), then starts --ntasks copies of the
    // command locally with SLURM_PROCID / SLURM_NTASKS / SLURM_LOCALID set, as srun does.
    static void writeSrunStandIn(const QString& path, const QString& argvFile) {
        writeScript(path, QStringLiteral("#!/bin/sh\n: > '%1'\nfor a in \"$@\"; do printf '%s\\0' \"$a\" >> '%1'; done\n"
                                         "n=1\nwhile [ $# -gt 0 ]; do case \"$1\" in --ntasks=*) n=\"${1#--ntasks=}\"; shift;; "
                                         "-*) shift;; *) break;; esac; done\n"
                                         "i=0; pids=\nwhile [ $i -lt $n ]; do SLURM_PROCID=$i SLURM_NTASKS=$n SLURM_LOCALID=$i \"$@\" & "
                                         "pids=\"$pids $!\"; i=$((i+1)); done\n"
                                         "rc=0; for p in $pids; do wait $p || rc=$?; done; exit $rc\n")
                                  .arg(argvFile));
    }

    static QStringList readArgv(const QString& file) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QStringList out;
        for (const QByteArray& a : f.readAll().split('\0'))
            out << QString::fromUtf8(a);
        if (!out.isEmpty() && out.last().isEmpty())
            out.removeLast();
        return out;
    }
};

QTEST_GUILESS_MAIN(TestRunStage1)
#include "test_run_stage1.moc"
