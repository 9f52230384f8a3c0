// moewb import --on-cluster's engine over three real sshd nodes on 127.0.0.x: the traces
// lie in one local folder ("the shared file system"), moe-digest is uploaded to every
// node like the probe, the first node lists the traces, each node digests its share and
// only the digests come back. The run saved from that plan has the same step_anatomy and
// a2a_call rows as the local import of the folder, and its busiest ranks are the
// generator's brute-force truth (expected.json). Faults: a node down, a digest that hangs
// (timeout, cancel: no process left on the node), a node answering garbage.
#include "../MoewbCli.h"
#include "SshdCluster.h"
#include "launch/ClusterDigest.h"
#include "record/ConfigRecord.h"
#include "runimport/RunImport.h"
#include "store/ProjectStore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QSet>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

using namespace moewb;

namespace {

const QString kGenerated = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/anatomy/generated");

QJsonObject readJson(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

std::optional<record::ConfigRecord> fixtureRecord() {
    return record::ConfigRecord::fromJson(
        readJson(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/collect-4ranks/record.json")), nullptr);
}

// Copies a folder tree (the traces onto "the shared file system").
void copyTree(const QString& from, const QString& to) {
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        const QString target = to + f.mid(from.size());
        QDir().mkpath(QFileInfo(target).path());
        QFile::copy(f, target);
    }
}

// A bundle whose moe-digest is a shell stand-in doing `body` (moe-probe is needed for the
// bundle to be found).
QString standInBundle(const QString& dir, const QString& body) {
    QDir().mkpath(dir);
    QFile::copy(QStringLiteral(MOEWB_PROBE_BUNDLE_DIR "/moe-probe"), dir + QStringLiteral("/moe-probe"));
    QFile f(dir + QStringLiteral("/moe-digest"));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(QStringLiteral("#!/bin/sh\n%1\n").arg(body).toUtf8());
    f.close();
    QFile::setPermissions(f.fileName(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return dir;
}

} // namespace

class TestImportOnCluster : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sameRunAsLocalImport();
    void nodeDown();
    void hangingDigestTimesOutAndCancels();
    void garbageRefused();
    void moewbImportOnCluster();

private:
    remote::ClusterDigestRequest request(const QString& path) const;
    SshdCluster m_cluster;
    QTemporaryDir m_shared;
    QString m_traces;
};

void TestImportOnCluster::initTestCase() {
    const QString why = m_cluster.start(3);
    if (!why.isEmpty())
        QSKIP(qPrintable(QStringLiteral("no sshd: ") + why));
    QVERIFY(m_shared.isValid());
    m_traces = m_shared.path() + QStringLiteral("/nccl-straggler");
    copyTree(kGenerated + QStringLiteral("/nccl-straggler"), m_traces);
    QFile::remove(m_traces + QStringLiteral("/expected.json")); // the local import is told --exclude
    // Left out as a local walk leaves them: a hidden file, a file not named as a log, a link.
    QFile hidden(m_traces + QStringLiteral("/.rank-9.json"));
    QVERIFY(hidden.open(QIODevice::WriteOnly));
    hidden.write("[{\"name\": \"x\", \"ph\": \"X\"}]");
    hidden.close();
    QFile notes(m_traces + QStringLiteral("/notes.md"));
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("[{\"name\": \"not a log by its name\", \"ph\": \"X\"}]");
    notes.close();
    QVERIFY(QFile::link(m_traces + QStringLiteral("/profiling/traces/iteration_8/rank0_trace.json"),
                        m_traces + QStringLiteral("/linked-rank0.json")));
}

remote::ClusterDigestRequest TestImportOnCluster::request(const QString& path) const {
    remote::StageOneRequest r;
    m_cluster.configure(r);
    remote::ClusterDigestRequest q;
    q.nodes = m_cluster.addresses();
    q.ssh.sshDir = r.sshDir;
    q.ssh.configFile = r.sshConfigFile;
    q.ssh.knownHostsFile = r.knownHostsFile;
    q.ssh.useAgent = false;
    q.ssh.connectTimeoutMs = r.connectTimeoutMs;
    q.path = path;
    q.probeBundleDir = QStringLiteral(MOEWB_PROBE_BUNDLE_DIR);
    return q;
}

void TestImportOnCluster::sameRunAsLocalImport() {
    const auto record = fixtureRecord();
    QVERIFY(record);
    std::vector<QString> progress;
    remote::StageOneEvents events;
    std::mutex mutex;
    events.progress = [&](const QString& node, double, const QString& what) {
        std::lock_guard<std::mutex> lock(mutex);
        progress.push_back(node + QLatin1Char('|') + what);
    };
    auto digested = remote::digestOnCluster(request(m_traces), events);
    QVERIFY2(digested.hasValue(), qPrintable(digested.hasValue() ? QString() : digested.error().first().message));
    QCOMPARE(digested->size(), 4); // the four ranks; not the hidden file, notes.md or the link
    QSet<QString> nodesUsed;
    QList<runimport::ImportCandidate> files;
    std::vector<Expected<anatomy::RankTrace, importers::ImportError>> read;
    for (remote::ClusterDigestFile& f : digested.value()) {
        QVERIFY2(f.trace.has_value(), qPrintable(f.error.text()));
        QVERIFY(f.shown.startsWith(QStringLiteral("nccl-straggler/profiling/traces/iteration_8/rank")));
        nodesUsed.insert(f.node);
        files << runimport::ImportCandidate{f.path, f.shown, true};
        read.push_back(std::move(*f.trace));
    }
    QCOMPARE(nodesUsed.size(), 3); // four files of about the same size over three nodes
    auto remotePlan = runimport::planReadTraceImport(files, std::move(read), record);
    QVERIFY(remotePlan.hasValue());

    runimport::ImportOptions options;
    auto collected = runimport::collectImportFiles({m_traces}, options);
    QVERIFY(collected.hasValue());
    auto localPlan = runimport::planImport(collected.value(), record, options);
    QVERIFY(localPlan.hasValue());
    // The same files planned, named and described as the local import shows them.
    QCOMPARE(remotePlan->files.size(), localPlan->files.size());
    for (qsizetype i = 0; i < localPlan->files.size(); ++i) {
        QCOMPARE(remotePlan->files[i].shown, localPlan->files[i].shown);
        QCOMPARE(remotePlan->files[i].format, localPlan->files[i].format);
        QCOMPARE(remotePlan->files[i].rows, localPlan->files[i].rows);
        QCOMPARE(remotePlan->files[i].rank, localPlan->files[i].rank);
        QCOMPARE(remotePlan->files[i].role, localPlan->files[i].role);
    }
    QCOMPARE(remotePlan->stepMetrics.size(), localPlan->stepMetrics.size());
    for (qsizetype i = 0; i < localPlan->stepMetrics.size(); ++i)
        QCOMPARE(remotePlan->stepMetrics[i].value, localPlan->stepMetrics[i].value);

    QTemporaryDir dir;
    auto opened = store::ProjectStore::open(dir.filePath(QStringLiteral("p.moewb")));
    QVERIFY(opened.hasValue());
    store::ProjectStore& project = *opened.value();
    QVERIFY(project.addConfigRecord(QStringLiteral("collect-4ranks"),
                                    readJson(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/collect-4ranks/record.json")), true));
    auto savedRemote = project.saveRun(runimport::toRunData(std::move(remotePlan.value()), QStringLiteral("on-cluster"),
                                                            QStringLiteral("collect-4ranks")));
    auto savedLocal = project.saveRun(runimport::toRunData(std::move(localPlan.value()), QStringLiteral("local"),
                                                           QStringLiteral("collect-4ranks")));
    QVERIFY(savedRemote.hasValue() && savedLocal.hasValue());
    const store::RunAnatomy a = project.runAnatomy(*savedRemote);
    const store::RunAnatomy b = project.runAnatomy(*savedLocal);
    QVERIFY(!a.rows.isEmpty());
    QCOMPARE(a.rows.size(), b.rows.size());
    QCOMPARE(a.ranksTraced, b.ranksTraced);
    QCOMPARE(a.worldSize, b.worldSize);
    QCOMPARE(a.format, b.format);
    for (qsizetype i = 0; i < a.rows.size(); ++i) {
        const auto& x = a.rows[i];
        const auto& y = b.rows[i];
        QCOMPARE(x.step, y.step);
        QCOMPARE(x.rank, y.rank);
        QCOMPARE(x.stepUs, y.stepUs);
        QCOMPARE(x.computeUs, y.computeUs);
        QCOMPARE(x.a2aUs, y.a2aUs);
        QCOMPARE(x.a2aWaitUs, y.a2aWaitUs);
        QCOMPARE(x.otherCommUs, y.otherCommUs);
        QCOMPARE(x.otherCommWaitUs, y.otherCommWaitUs);
        QCOMPARE(x.exposedCommUs, y.exposedCommUs);
        QCOMPARE(x.memcpyUs, y.memcpyUs);
        QCOMPARE(x.idleUs, y.idleUs);
        QCOMPARE(x.busyUs, y.busyUs);
    }
    QCOMPARE(a.a2a.size(), b.a2a.size());
    for (qsizetype i = 0; i < a.a2a.size(); ++i) {
        QCOMPARE(a.a2a[i].step, b.a2a[i].step);
        QCOMPARE(a.a2a[i].bytesPerRank, b.a2a[i].bytesPerRank);
        QCOMPARE(a.a2a[i].transferUs, b.a2a[i].transferUs);
        QCOMPARE(a.a2a[i].slowestUs, b.a2a[i].slowestUs);
    }
    // And against the generator's brute force: each step's busiest rank and its busy time.
    const QJsonArray steps = readJson(kGenerated + QStringLiteral("/nccl-straggler/expected.json"))
                                 .value(QStringLiteral("steps")).toArray();
    QVERIFY(!steps.isEmpty());
    for (const QJsonValue& v : steps) {
        const QJsonObject s = v.toObject();
        const qint64 step = s.value(QStringLiteral("step")).toInteger();
        const int busiest = s.value(QStringLiteral("busiest_rank")).toInt();
        const double busyUs = s.value(QStringLiteral("ranks")).toObject().value(QString::number(busiest))
                                  .toObject().value(QStringLiteral("busy_us")).toDouble();
        double best = -1;
        int bestRank = -1;
        for (const auto& r : a.rows)
            if (r.step == step && r.busyUs > best) {
                best = r.busyUs;
                bestRank = r.rank;
            }
        QCOMPARE(bestRank, busiest);
        QVERIFY2(std::abs(best - busyUs) < 0.15, qPrintable(QStringLiteral("step %1: %2 vs %3").arg(step).arg(best).arg(busyUs)));
    }
    // The digest binary went up to every node (or was found there: one shared home here).
    int uploads = 0;
    for (const QString& p : progress)
        uploads += p.contains(QStringLiteral("uploaded")) || p.contains(QStringLiteral("already there")) ? 1 : 0;
    QCOMPARE(uploads, 3);
    // Content-addressed in each node's cache, as the probe: .cache/moe-workbench/probe/<sha256>/moe-digest.
    QFile digest(QStringLiteral(MOEWB_PROBE_BUNDLE_DIR "/moe-digest"));
    QVERIFY(digest.open(QIODevice::ReadOnly));
    QCryptographicHash sha(QCryptographicHash::Sha256);
    QVERIFY(sha.addData(&digest));
    const QString cached = QStringLiteral("/.cache/moe-workbench/probe/%1/moe-digest").arg(QString::fromLatin1(sha.result().toHex()));
    for (int i = 0; i < m_cluster.size(); ++i)
        QVERIFY2(QFileInfo(m_cluster.remoteHome(i) + cached).isFile(), qPrintable(m_cluster.remoteHome(i) + cached));
}

// A fourth node that nobody answers on: the import stops at the connection, naming it.
void TestImportOnCluster::nodeDown() {
    remote::ClusterDigestRequest q = request(m_traces);
    const int port = SshdCluster::freePort(QStringLiteral("127.0.0.1"));
    auto dead = remote::NodeAddress::parse(QStringLiteral("%1@127.0.0.1:%2").arg(m_cluster.user()).arg(port));
    QVERIFY(dead.hasValue());
    q.nodes << *dead;
    QElapsedTimer t;
    t.start();
    auto digested = remote::digestOnCluster(q);
    QVERIFY(!digested.hasValue());
    QVERIFY(t.elapsed() < 30000);
    QCOMPARE(digested.error().size(), 1);
    const remote::NodeFailure& f = digested.error().first();
    QCOMPARE(f.node, dead->display());
    QCOMPARE(f.kind, remote::RemoteError::Kind::Unreachable);
    QVERIFY2(f.message.contains(dead->display()), qPrintable(f.message));
}

void TestImportOnCluster::hangingDigestTimesOutAndCancels() {
    const QString marker = QStringLiteral("sleep 4219.%1").arg(m_cluster.port(0));
    QTemporaryDir dir;
    // --list answers (the real listing); the digest itself hangs.
    const QString bundle = standInBundle(
        dir.filePath(QStringLiteral("hang")),
        QStringLiteral("if [ \"$1\" = --list ]; then exec '%1' \"$@\"; fi\nexec %2")
            .arg(QStringLiteral(MOEWB_PROBE_BUNDLE_DIR "/moe-digest"), marker));
    remote::ClusterDigestRequest q = request(m_traces);
    q.probeBundleDir = bundle;
    q.digestTimeoutMs = 3000;
    QElapsedTimer t;
    t.start();
    auto timedOut = remote::digestOnCluster(q);
    QVERIFY(!timedOut.hasValue());
    QCOMPARE(timedOut.error().first().kind, remote::RemoteError::Kind::TimedOut);
    QVERIFY(t.elapsed() < 30000);
    QTRY_VERIFY_WITH_TIMEOUT(SshdCluster::processesMatching(marker).isEmpty(), 10000);

    q.digestTimeoutMs = 0;
    std::atomic_bool cancel{false};
    std::thread canceller([&] {
        for (int i = 0; i < 300 && SshdCluster::processesMatching(marker).size() < 3; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        cancel = true;
    });
    auto cancelled = remote::digestOnCluster(q, {}, &cancel);
    canceller.join();
    QVERIFY(!cancelled.hasValue());
    QCOMPARE(cancelled.error().first().kind, remote::RemoteError::Kind::Cancelled);
    QTRY_VERIFY_WITH_TIMEOUT(SshdCluster::processesMatching(marker).isEmpty(), 10000);
}

void TestImportOnCluster::garbageRefused() {
    QTemporaryDir dir;
    const QString bundle = standInBundle(
        dir.filePath(QStringLiteral("garbage")),
        QStringLiteral("if [ \"$1\" = --list ]; then exec '%1' \"$@\"; fi\n"
                       "echo '{\"schema\":\"moe-digest/1\",\"version\":\"x\",\"files\":1}'\n"
                       "echo '{\"file\":\"/etc/passwd\",\"rank\":0}'\n")
            .arg(QStringLiteral(MOEWB_PROBE_BUNDLE_DIR "/moe-digest")));
    remote::ClusterDigestRequest q = request(m_traces);
    q.probeBundleDir = bundle;
    auto digested = remote::digestOnCluster(q);
    QVERIFY(!digested.hasValue());
    const QString message = digested.error().first().message;
    QVERIFY2(message.contains(QStringLiteral("refused")), qPrintable(message));
}

// The command itself: `moewb import --on-cluster` stores a run whose `moewb anatomy` is
// the local import's, figure for figure; a node down exits 2 naming it, storing nothing.
void TestImportOnCluster::moewbImportOnCluster() {
    // The cluster's private client HOME (~/.ssh: key, config, known_hosts) is moewb's HOME.
    const QString home = m_cluster.home();
    const QString project = m_shared.path() + QStringLiteral("/cli.moewb");
    auto run = [&](const QStringList& args) { return runMoewb(home, QStringList{QStringLiteral("--project"), project} + args, 120000); };
    QCOMPARE(runMoewb(home, {QStringLiteral("init"), project}).exitCode, 0);
    CliResult r = run({QStringLiteral("record"), QStringLiteral("add"),
                       QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/collect-4ranks/record.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QStringList add{QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("loop")};
    for (const QString& n : m_cluster.addressTexts())
        add << QStringLiteral("--node") << n;
    r = run(add);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    r = run({QStringLiteral("--json"), QStringLiteral("import"), QStringLiteral("--on-cluster"), QStringLiteral("loop"),
             m_traces, QStringLiteral("--record"), QStringLiteral("collect-4ranks"), QStringLiteral("--run"),
             QStringLiteral("oc"), QStringLiteral("--probe-bundle"), QStringLiteral(MOEWB_PROBE_BUNDLE_DIR)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    r = run({QStringLiteral("import"), m_traces, QStringLiteral("--record"), QStringLiteral("collect-4ranks"),
             QStringLiteral("--run"), QStringLiteral("here")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    CliResult a = run({QStringLiteral("--json"), QStringLiteral("anatomy"), QStringLiteral("oc")});
    CliResult b = run({QStringLiteral("--json"), QStringLiteral("anatomy"), QStringLiteral("here")});
    QVERIFY2(a.exitCode == 0 && b.exitCode == 0, qPrintable(a.err + b.err));
    QJsonObject x = a.json(), y = b.json();
    QVERIFY(!x.value(QStringLiteral("steps")).toArray().isEmpty());
    x.remove(QStringLiteral("run"));
    y.remove(QStringLiteral("run"));
    QCOMPARE(x, y);

    // A node that does not answer: nothing stored, the node named.
    const int port = SshdCluster::freePort(QStringLiteral("127.0.0.1"));
    r = run({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("half"), QStringLiteral("--node"),
             m_cluster.addressTexts().first(), QStringLiteral("--node"),
             QStringLiteral("%1@127.0.0.1:%2").arg(m_cluster.user()).arg(port)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    r = run({QStringLiteral("import"), QStringLiteral("--on-cluster"), QStringLiteral("half"), m_traces,
             QStringLiteral("--record"), QStringLiteral("collect-4ranks"), QStringLiteral("--run"), QStringLiteral("none"),
             QStringLiteral("--probe-bundle"), QStringLiteral(MOEWB_PROBE_BUNDLE_DIR)});
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains(QStringLiteral("127.0.0.1:%1").arg(port)), qPrintable(r.err));
    r = run({QStringLiteral("--json"), QStringLiteral("runs"), QStringLiteral("list")});
    QVERIFY(!r.out.contains(QStringLiteral("\"none\"")));
}

QTEST_GUILESS_MAIN(TestImportOnCluster)
#include "test_import_on_cluster.moc"
