// Stage 1 over real OpenSSH (3-4 sshd on 127.0.0.x): the sweep end to end through the
// ssh launcher and the tcp backend into a real project file, then `moewb stage 1` on
// it; the CLI (cluster add/check/list, run stage1, Ctrl-C); a shared home uploads once;
// hostile names injected nowhere; mpirun (Debian's OpenMPI) and slurm (stand-in srun /
// sbatch that record their argv) launchers.
#include "../MoewbCli.h"
#include "StageOneTestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>
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
        QVERIFY2(j.value(QStringLiteral("status")).toString() != QStringLiteral("not_ready"), qPrintable(s.out));
        QVERIFY2(!j.value(QStringLiteral("table")).toArray().isEmpty(), qPrintable(s.out));
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
        QVERIFY2(argv.size() > 8, qPrintable(argv.join('|')));
        QCOMPARE(argv.mid(0, 5), (QStringList{QStringLiteral("--nodes=3"), QStringLiteral("--ntasks=3"),
                                              QStringLiteral("--ntasks-per-node=1"),
                                              QStringLiteral("--nodelist=%1,%2,%3").arg(c.ip(0), c.ip(1), c.ip(2)), hostile}));
        QCOMPARE(argv.at(5), QStringLiteral("--partition=debug"));
        QVERIFY(argv.at(6).endsWith(QStringLiteral("/moe-probe")));
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
                             QStringLiteral("--mca"), QStringLiteral("plm_rsh_no_tree_spawn"), QStringLiteral("1")};
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
