// The slurm launcher against a real Slurm on this machine (SlurmCluster: munged,
// slurmctld and two slurmd named node0 and node1) and a real sshd as the head node
// (SshdCluster; its ~/.ssh/config alias node0 is also the first Slurm node's name, and
// sshd's SetEnv gives remote commands SLURM_CONF). Through StageOneSweep with
// Launcher::Slurm and the tcp backend: srun inside an existing allocation (salloc),
// sbatch --wait, and cancel / timeout during sbatch (the job is scancel'ed: squeue no
// longer lists it, no probe is left in the process table).
#include "SlurmCluster.h"
#include "StageOneTestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <thread>

using namespace moewb;
using namespace stage1test;

class TestSlurmLauncher : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    int m_n = 0;
    std::unique_ptr<SlurmCluster> m_slurm;
    std::unique_ptr<SshdCluster> m_ssh;
    const QStringList m_nodeNames{QStringLiteral("node0"), QStringLiteral("node1")};

    QString newProjectPath() { return m_tmp.filePath(QStringLiteral("eval%1.moewb").arg(++m_n)); }

    // Two Slurm nodes, reached through the head node node0 (an ~/.ssh/config alias).
    remote::StageOneRequest request(const QString& project, const QString& prefix) {
        remote::StageOneRequest r = smallRequest(*m_ssh, project);
        r.nodes.clear();
        for (const QString& n : m_nodeNames)
            r.nodes << *remote::NodeAddress::parse(n);
        r.nodeCounts = {2};
        r.launcher = remote::Launcher::Slurm;
        r.rendezvousHost = QStringLiteral("127.0.0.1");  // node0 is a Slurm name, not in DNS
        r.runNamePrefix = prefix;
        return r;
    }

    // The id sbatch printed ("Submitted batch job N"), from the live log.
    static QString submittedJob(Recorder& rec) {
        QMutexLocker l(&rec.mutex);
        static const QRegularExpression re(QStringLiteral("Submitted batch job (\\d+)"));
        for (const QString& line : rec.logs) {
            const auto m = re.match(line);
            if (m.hasMatch())
                return m.captured(1);
        }
        return {};
    }

    static bool logged(Recorder& rec, const QString& text) {
        QMutexLocker l(&rec.mutex);
        for (const QString& line : rec.logs)
            if (line.contains(text))
                return true;
        return false;
    }

    // Processes running the uploaded probe (or a command line naming it: srun, the batch
    // script): its path lies under the head node's home.
    QStringList probeProcesses() const { return SshdCluster::processesMatching(m_ssh->remoteHome(0) + QStringLiteral("/.cache")); }

    void checkSavedRun(const QString& project, const QString& name) {
        auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        QVERIFY(opened);
        auto& p = *opened.value();
        const auto run = p.run(name);
        QVERIFY2(run, qPrintable(name));
        QCOMPARE(run->kind, store::RunKind::Probe);
        QCOMPARE(run->recordName, kRecord);
        QCOMPARE(run->environment.value(QStringLiteral("launcher")).toString(), QStringLiteral("slurm"));
        QCOMPARE(run->environment.value(QStringLiteral("backend")).toString(), QStringLiteral("tcp"));
        QCOMPARE(run->environment.value(QStringLiteral("world")).toInt(), 2);
        QCOMPARE(run->environment.value(QStringLiteral("processes")).toInt(), 2);
        QCOMPARE(run->environment.value(QStringLiteral("nodes")).toInt(), 2);
        QCOMPARE(run->environment.value(QStringLiteral("node_addresses")).toArray(),
                 (QJsonArray{QStringLiteral("node0"), QStringLiteral("node1")}));
        const auto samples = p.commSamples(run->id);
        QCOMPARE(samples.size(), 6);  // 1 size x 2 repeats x 3 iterations
        for (const auto& s : samples) {
            QCOMPARE(s.bytesPerRank, quint64(64u << 10));
            QVERIFY(s.timeUs > 0.0);
        }
        // Rank 0's report and sbatch's output were removed from the node.
        QVERIFY(QDir(m_ssh->remoteHome(0) + QStringLiteral("/.cache/moe-workbench/results")).entryList(QDir::Files).isEmpty());
    }

    // After a cancel or timeout during sbatch: the job was scancel'ed, so squeue drops it
    // and no probe (nor srun, nor the batch script) is left on the machine.
    void checkJobCancelled(Recorder& rec, const QString& jobId) {
        QVERIFY2(logged(rec, QStringLiteral("cancelled Slurm job %1").arg(jobId)), qPrintable(rec.logs.join('\n')));
        QElapsedTimer t;
        t.start();
        while ((m_slurm->queuedJobs().contains(jobId) || !probeProcesses().isEmpty()) && t.elapsed() < 15000)
            QTest::qWait(200);
        QVERIFY2(!m_slurm->queuedJobs().contains(jobId),
                 qPrintable(m_slurm->client(QStringLiteral("squeue"), {}) + m_slurm->logTails()));
        QCOMPARE(m_slurm->jobState(jobId), QStringLiteral("JobState=CANCELLED"));
        QVERIFY2(probeProcesses().isEmpty(), qPrintable(probeProcesses().join('\n')));
    }

    // A sweep point that runs until stopped (16 MiB, endless iterations), with sbatch.
    remote::StageOneRequest endlessSbatch(const QString& project, const QString& prefix) {
        remote::StageOneRequest r = request(project, prefix);
        r.slurmUseSbatch = true;
        r.messageSizes = {16u << 20};
        r.iterations = 1000000;
        r.repeats = 100;
        r.warmup = 0;
        r.probeTimeoutS = 30;
        return r;
    }

    // Waits until sbatch's job runs and both probes are up; returns the job id.
    QString waitForRunningJob(Recorder& rec, const std::atomic_bool& finished) {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 40000 && !finished.load()) {
            const QString job = submittedJob(rec);
            if (!job.isEmpty() && m_slurm->jobState(job) == QLatin1String("JobState=RUNNING") &&
                SshdCluster::probeRunsUnder(m_ssh->remoteHome(0)).size() >= 2)
                return job;
            QTest::qWait(100);
        }
        return {};
    }

private slots:
    void initTestCase() {
        m_slurm = std::make_unique<SlurmCluster>();
        QElapsedTimer t;
        t.start();
        const QString e = m_slurm->start(m_nodeNames);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        qInfo("Slurm up (2 nodes idle) in %lld ms", t.elapsed());
        m_ssh = std::make_unique<SshdCluster>();
        // What a login on the head node would have: the cluster's slurm.conf.
        m_ssh->sessionEnv << QStringLiteral("SLURM_CONF=%1").arg(m_slurm->confFile());
        const QString s = m_ssh->start(1);
        QVERIFY2(s.isEmpty(), qPrintable(s));
    }

    void cleanupTestCase() {
        m_ssh.reset();
        m_slurm.reset();  // scancels what is left, ends the daemons by PID
    }

    // (a) srun inside an existing allocation (salloc --no-shell, then --jobid).
    void srunInsideAllocation() {
        int rc = 0;
        const QString out = m_slurm->client(QStringLiteral("salloc"),
                                            {QStringLiteral("--no-shell"), QStringLiteral("--nodes=2"), QStringLiteral("--job-name=moewb-alloc")},
                                            &rc);
        QVERIFY2(rc == 0, qPrintable(out + m_slurm->logTails()));
        const auto m = QRegularExpression(QStringLiteral("Granted job allocation (\\d+)")).match(out);
        QVERIFY2(m.hasMatch(), qPrintable(out));
        const QString alloc = m.captured(1);
        // The allocation ends with this test, passed or not (the next tests need the nodes).
        auto release = qScopeGuard([&] {
            m_slurm->client(QStringLiteral("scancel"), {alloc});
            QElapsedTimer t;
            t.start();
            while (m_slurm->queuedJobs().contains(alloc) && t.elapsed() < 10000)
                QTest::qWait(100);
        });

        const QString project = makeProject(newProjectPath());
        remote::StageOneRequest r = request(project, QStringLiteral("srun"));
        r.slurmExtraArgs = {QStringLiteral("--jobid=") + alloc};
        Recorder rec;
        auto result = remote::StageOneSweep(r, rec.events()).run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary() + QLatin1Char('\n') + rec.logs.join('\n') + m_slurm->logTails()));
        QCOMPARE(result.value(), QStringList{QStringLiteral("srun-n2")});
        checkSavedRun(project, QStringLiteral("srun-n2"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(logged(rec, QStringLiteral("$ 'srun' '--nodes=2' '--ntasks=2' '--ntasks-per-node=1' '--nodelist=node0,node1' '--jobid=%1'").arg(alloc)),
                 qPrintable(rec.logs.join('\n')));
        // One task on each Slurm node, as step 0 of the allocation, which goes on.
        for (const QString& n : m_nodeNames)
            QVERIFY2(m_slurm->slurmdLog(n).contains(QStringLiteral("StepId=%1.0").arg(alloc)), qPrintable(m_slurm->slurmdLog(n)));
        QCOMPARE(m_slurm->jobState(alloc), QStringLiteral("JobState=RUNNING"));
        QVERIFY2(probeProcesses().isEmpty(), qPrintable(probeProcesses().join('\n')));
        release.dismiss();
        m_slurm->client(QStringLiteral("scancel"), {alloc});
        QElapsedTimer t;
        t.start();
        while (m_slurm->queuedJobs().contains(alloc) && t.elapsed() < 10000)
            QTest::qWait(100);
        QVERIFY(!m_slurm->queuedJobs().contains(alloc));
    }

    // (b) sbatch --wait: submitted, waited for, its output collected, the run stored.
    void sbatchAndWait() {
        const QString project = makeProject(newProjectPath());
        remote::StageOneRequest r = request(project, QStringLiteral("sbatch"));
        r.slurmUseSbatch = true;
        Recorder rec;
        auto result = remote::StageOneSweep(r, rec.events()).run();
        QVERIFY2(result, result ? "" : qPrintable(result.error().summary() + QLatin1Char('\n') + rec.logs.join('\n') + m_slurm->logTails()));
        QCOMPARE(result.value(), QStringList{QStringLiteral("sbatch-n2")});
        checkSavedRun(project, QStringLiteral("sbatch-n2"));
        const QString job = submittedJob(rec);
        QVERIFY2(!job.isEmpty(), qPrintable(rec.logs.join('\n')));
        QCOMPARE(m_slurm->jobState(job), QStringLiteral("JobState=COMPLETED"));
        QVERIFY(!m_slurm->queuedJobs().contains(job));
        QVERIFY(!logged(rec, QStringLiteral("cancelled Slurm job")));  // nothing to cancel
        // The batch script ran on node0; its srun started one task on each node.
        QVERIFY2(m_slurm->slurmdLog(QStringLiteral("node0")).contains(QStringLiteral("Launching batch job %1").arg(job)),
                 qPrintable(m_slurm->slurmdLog(QStringLiteral("node0"))));
        for (const QString& n : m_nodeNames)
            QVERIFY2(m_slurm->slurmdLog(n).contains(QStringLiteral("StepId=%1.0").arg(job)), qPrintable(m_slurm->slurmdLog(n)));
        QVERIFY2(probeProcesses().isEmpty(), qPrintable(probeProcesses().join('\n')));
    }

    // (c) cancel() while the sbatch job runs: sbatch is killed on the head node and the
    // job scancel'ed; nothing is saved.
    void cancelDuringSbatch() {
        const QString project = makeProject(newProjectPath());
        remote::StageOneRequest r = endlessSbatch(project, QStringLiteral("cancelled"));
        Recorder rec;
        remote::StageOneSweep sweep(r, rec.events());
        std::atomic_bool finished{false};
        std::optional<Expected<QStringList, remote::StageOneFailure>> result;
        std::thread worker([&] {
            result = sweep.run();
            finished.store(true);
        });
        const QString job = waitForRunningJob(rec, finished);
        QElapsedTimer t;
        t.start();
        sweep.cancel();
        worker.join();
        qInfo("run() returned %lld ms after cancel()", t.elapsed());
        QVERIFY2(!job.isEmpty(), qPrintable(rec.logs.join('\n') + m_slurm->logTails()));
        QVERIFY(result && !*result);
        QVERIFY2(result->error().cancelled, qPrintable(result->error().summary()));
        QCOMPARE(runCount(project), 0);
        checkJobCancelled(rec, job);
    }

    // The command timeout during sbatch: the same, through the timeout.
    void timeoutDuringSbatch() {
        const QString project = makeProject(newProjectPath());
        remote::StageOneRequest r = endlessSbatch(project, QStringLiteral("timeout"));
        r.commandTimeoutMs = 8000;
        Recorder rec;
        auto result = remote::StageOneSweep(r, rec.events()).run();
        QVERIFY(!result);
        QVERIFY2(!result.error().cancelled, qPrintable(result.error().summary()));
        bool timedOut = false;
        for (const remote::NodeFailure& f : result.error().nodes)
            timedOut = timedOut || (f.node == QLatin1String("node0") && f.kind == remote::RemoteError::Kind::TimedOut);
        QVERIFY2(timedOut, qPrintable(result.error().summary()));
        QCOMPARE(runCount(project), 0);
        const QString job = submittedJob(rec);
        QVERIFY2(!job.isEmpty(), qPrintable(rec.logs.join('\n')));
        checkJobCancelled(rec, job);
    }
};

QTEST_GUILESS_MAIN(TestSlurmLauncher)
#include "test_slurm_launcher.moc"
