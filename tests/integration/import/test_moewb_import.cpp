// `moewb import`, run as a user runs it: detection, --format, --record, --run, --json,
// exit codes, and that a bad file stores nothing (checked in the project file itself).
#include "../MoewbCli.h"
#include "store/ProjectStore.h"

#include <QJsonArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using moewb::store::ProjectStore;

class TestMoewbImport : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    int m_projects = 0;

    CliResult run(const QStringList& args) {
        return runMoewb(m_home.path(), args, 60000);
    }
    static QString fixture(const QString& relative) {
        return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/") + relative;
    }
    static QString record(const QString& name) {
        return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/") + name;
    }
    // A fresh project with the given records.
    QString project(const QStringList& records = {QStringLiteral("moe-64e-top8.json")}) {
        const QString path = m_home.filePath(QStringLiteral("p%1.moewb").arg(++m_projects));
        if (run({QStringLiteral("init"), path}).exitCode != 0)
            qFatal("init failed");
        for (const QString& r : records)
            if (run({QStringLiteral("--project"), path, QStringLiteral("record"), QStringLiteral("add"), record(r)}).exitCode != 0)
                qFatal("record add failed");
        return path;
    }
    CliResult import(const QString& projectPath, const QStringList& args, bool json = false) {
        QStringList all{QStringLiteral("--project"), projectPath};
        if (json)
            all << QStringLiteral("--json");
        all << QStringLiteral("import") << args;
        return run(all);
    }
    static int runCount(const QString& projectPath) {
        auto store = ProjectStore::open(projectPath, moewb::store::OpenMode::MustExist);
        return store ? int(store.value()->runs().size()) : -1;
    }

private slots:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void helpAndUsageErrors() {
        auto r = run({QStringLiteral("import"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("Usage: moewb [--project FILE] [--json] import PATH...")));
        QVERIFY(r.out.contains(QStringLiteral("megatron-tpe-jsonl")));
        r = run({QStringLiteral("--help")});
        QVERIFY(r.out.contains(QStringLiteral("import PATH...")));
        const QString p = project();
        QCOMPARE(import(p, {}).exitCode, 2);
        r = import(p, {QStringLiteral("--format"), QStringLiteral("excel"), fixture(QStringLiteral("csv/metrics-long.csv"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("unknown format \"excel\"")));
        r = import(p, {QStringLiteral("--run"), QStringLiteral("x"), QStringLiteral("--into"), QStringLiteral("y"),
                       fixture(QStringLiteral("csv/metrics-long.csv"))});
        QCOMPARE(r.exitCode, 2);
        r = import(p, {QStringLiteral("--into"), QStringLiteral("y"), fixture(QStringLiteral("csv/metrics-long.csv"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("no run named \"y\"")));
        QCOMPARE(runCount(p), 0);
        // --run makes ONE run of several files (steps 10-20 and 100-300 do not overlap).
        r = import(p, {QStringLiteral("--run"), QStringLiteral("x"), fixture(QStringLiteral("csv/metrics-long.csv")),
                       fixture(QStringLiteral("csv/metrics-wide.csv"))}, true);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(runCount(p), 1);
        QCOMPARE(r.json().value(QStringLiteral("runs")).toArray()[0].toObject().value(QStringLiteral("plan")).toObject()
                     .value(QStringLiteral("files")).toArray().size(), 2);
    }

    void recordIsRequiredAndChosen() {
        const QString none = project({});
        auto r = import(none, {fixture(QStringLiteral("csv/metrics-long.csv"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("moewb record add")));
        const QString two = project({QStringLiteral("moe-64e-top8.json"), QStringLiteral("dense-1.3b.json")});
        r = import(two, {fixture(QStringLiteral("csv/metrics-long.csv"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("moe-64e-top8")) && r.err.contains(QStringLiteral("dense-1.3b")), qPrintable(r.err));
        r = import(two, {QStringLiteral("--record"), QStringLiteral("nope"), fixture(QStringLiteral("csv/metrics-long.csv"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("no config record named \"nope\"")));
        r = import(two, {QStringLiteral("--record"), QStringLiteral("dense-1.3b"), fixture(QStringLiteral("csv/metrics-long.csv"))});
        QCOMPARE(r.exitCode, 0);
        auto store = ProjectStore::open(two, moewb::store::OpenMode::MustExist);
        QVERIFY(store.hasValue());
        QCOMPARE(store.value()->run(QStringLiteral("metrics-long"))->recordName, QStringLiteral("dense-1.3b"));
    }

    void realLogsImportWithJsonReport() {
        const QString p = project();
        const QStringList files{fixture(QStringLiteral("real/nccltests_alltoall_superbench_a100.txt")),
                                fixture(QStringLiteral("real/nccltests_alltoall_oci-gb300-16hosts.txt")),
                                fixture(QStringLiteral("real/megatron_seunghyunseo-dmoe64-ep4.log")),
                                fixture(QStringLiteral("real/megatron_seunghyunseo-moe64-ep8-warnings.log")),
                                fixture(QStringLiteral("real/deepspeed_haibaraaichan-megatron-ds-moe64.log")),
                                fixture(QStringLiteral("real/deepspeed_superbench-megatron-ds-pdsh.log")),
                                fixture(QStringLiteral("probe/probe-tcp-2ranks-samples.json")),
                                fixture(QStringLiteral("tensorboard/events.out.tfevents.1700000000.node-a"))};
        auto r = import(p, files, true);
        QCOMPARE(r.exitCode, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), files.size());
        const QList<std::tuple<QString, QString, int>> expected{
            {QStringLiteral("nccltests_alltoall_superbench_a100"), QStringLiteral("nccl-tests"), 34},
            {QStringLiteral("nccltests_alltoall_oci-gb300-16hosts"), QStringLiteral("nccl-tests"), 2},
            {QStringLiteral("megatron_seunghyunseo-dmoe64-ep4"), QStringLiteral("megatron-log"), 13},
            {QStringLiteral("megatron_seunghyunseo-moe64-ep8-warnings"), QStringLiteral("megatron-log"), 11},
            {QStringLiteral("deepspeed_haibaraaichan-megatron-ds-moe64"), QStringLiteral("megatron-log"), 19},
            {QStringLiteral("deepspeed_superbench-megatron-ds-pdsh"), QStringLiteral("megatron-log"), 5},
            {QStringLiteral("probe-tcp-2ranks-samples"), QStringLiteral("probe-json"), 24},
            {QStringLiteral("events.out.tfevents.1700000000"), QStringLiteral("tensorboard"), 8}};
        for (int i = 0; i < runs.size(); ++i) {
            const QJsonObject o = runs[i].toObject();
            QCOMPARE(o.value(QStringLiteral("name")).toString(), std::get<0>(expected[i]));
            QCOMPARE(o.value(QStringLiteral("format")).toString(), std::get<1>(expected[i]));
            QCOMPARE(o.value(QStringLiteral("rows")).toInt(), std::get<2>(expected[i]));
        }
        // What the file now holds.
        auto opened = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
        QVERIFY(opened.hasValue());
        ProjectStore& store = *opened.value();
        QCOMPARE(store.runs().size(), files.size());
        const auto nccl = store.run(QStringLiteral("nccltests_alltoall_superbench_a100"));
        QCOMPARE(nccl->commSampleCount, 34);
        QCOMPARE(nccl->environment.value(QStringLiteral("world")).toInt(), 8);
        QCOMPARE(nccl->environment.value(QStringLiteral("source_format")).toString(), QStringLiteral("nccl-tests"));
        QCOMPARE(nccl->kind, moewb::store::RunKind::Imported);
        const auto samples = store.commSamples(nccl->id);
        QCOMPARE(samples.last().bytesPerRank, quint64(8589934592));
        QCOMPARE(samples.last().timeUs, 33508.0);
        const auto megatron = store.run(QStringLiteral("megatron_seunghyunseo-dmoe64-ep4"));
        const auto loss = store.stepMetrics(megatron->id, QStringLiteral("lm_loss"));
        QCOMPARE(loss.size(), 13);
        QCOMPARE(loss.first().step, 20);
        QCOMPARE(loss.first().value, 11.55841);
        const auto probe = store.run(QStringLiteral("probe-tcp-2ranks-samples"));
        QCOMPARE(probe->kind, moewb::store::RunKind::Probe);
        QCOMPARE(probe->commSampleCount, 24);
        // One rank's tokens per expert (4 local experts) is not the record's 64: refused,
        // saying what to give instead (tests/integration/import/test_moewb_import_runs
        // imports whole rank folders).
        r = import(p, {fixture(QStringLiteral("tpe/tokens-per-expert-rank0.jsonl"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("counts 4 experts per layer, but the record says moe.experts = 64")),
                 qPrintable(r.err));
        QCOMPARE(store.runs().size(), files.size());
    }

    void severalTestsInOneLogListTheOnesLeftOut() {
        // A cluster script's log of five nccl-tests tests: the alltoall one is the run; the
        // plan names each test left out with its lines (counted here from the file's own
        // "# Collective test starting:" headers).
        const QString file = fixture(QStringLiteral("nccl-tests/cluster-script-five-tests.txt"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList others;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (line.startsWith("# Collective test starting: ") && !line.contains("alltoall"))
                others << QString::fromUtf8(line.mid(28)).remove(QStringLiteral("_perf")).trimmed();
        QCOMPARE(others.size(), 4);
        auto r = import(project(), {file}, true);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject run = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("runs")).toArray().first().toObject();
        QStringList leftOut;
        for (const QJsonValue& v : run.value(QStringLiteral("plan")).toObject().value(QStringLiteral("notes")).toArray())
            if (v.toString().contains(QStringLiteral("test left out")))
                leftOut << v.toString();
        QCOMPARE(leftOut.size(), others.size());
        for (int i = 0; i < others.size(); ++i)
            QVERIFY2(leftOut[i].contains(QStringLiteral("the %1 test left out").arg(others[i])), qPrintable(leftOut[i]));
    }

    void damagedLogLineKeepsTheRestOrStrictRefuses() {
        // The real Megatron log with another process's print glued onto its second iteration
        // line (Megatron's own "Number of parameters ..." print): every iteration imports, the
        // damaged line with all its fields; the plan names the line. --strict refuses it.
        QFile real(fixture(QStringLiteral("real/megatron_seunghyunseo-moe64-ep8-warnings.log")));
        QVERIFY(real.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = real.readAll().split('\n');
        int iterations = 0, damagedLine = 0, fields = 0;
        for (int i = 0; i < lines.size(); ++i) {
            if (!lines[i].contains(" iteration ") || !lines[i].contains("| consumed samples:"))
                continue;
            if (++iterations == 2) {
                damagedLine = i + 1;
                lines[i] = lines[i].trimmed() + "Number of parameters in transformer block in billions:  6.14";
                fields = int(lines[i].count('|')) - 1; // "key: value" segments between the bars
            }
        }
        QVERIFY(iterations >= 3);
        const QString file = m_home.filePath(QStringLiteral("glued.log"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(lines.join('\n'));
        out.close();
        const QString p = project();
        auto r = import(p, {file}, true);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject run =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("runs")).toArray().first().toObject();
        const QJsonObject plan = run.value(QStringLiteral("plan")).toObject();
        QCOMPARE(plan.value(QStringLiteral("files")).toArray()[0].toObject().value(QStringLiteral("rows")).toInt(),
                 iterations);
        QStringList damaged;
        for (const QJsonValue& v : plan.value(QStringLiteral("notes")).toArray())
            if (v.toString().contains(QStringLiteral("damaged line")))
                damaged << v.toString();
        QCOMPARE(damaged.size(), 1);
        QVERIFY2(damaged[0].contains(QStringLiteral("glued.log:%1: damaged line, %2 field").arg(damagedLine).arg(fields)),
                 qPrintable(damaged[0]));
        QVERIFY2(damaged[0].contains(QStringLiteral("another print glued on: \"Number of parameters in transformer")),
                 qPrintable(damaged[0]));
        QCOMPARE(runCount(p), 1);
        r = import(p, {QStringLiteral("--strict"), file});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("glued.log:%1:").arg(damagedLine)), qPrintable(r.err));
        QCOMPARE(runCount(p), 1);
    }

    void severalFilesOfOneTestAreRepeats() {
        // alltoall_perf run twice on the same 8 ranks (the same log under two names): ONE
        // baseline whose sizes each have repeats 0 and 1; another test beside them is refused.
        const QString log = fixture(QStringLiteral("nccl-tests/alltoall-nccl-debug-info.txt"));
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<quint64> sizes; // the data rows' sizes, read here from the file
        for (const QByteArray& line : f.readAll().split('\n')) {
            const QList<QByteArray> t = line.simplified().split(' ');
            bool number = false;
            const quint64 size = t.value(0).toULongLong(&number);
            if (number && t.size() == 13 && !line.contains("NCCL"))
                sizes << size;
        }
        QVERIFY(sizes.size() > 1);
        const QString second = m_home.filePath(QStringLiteral("second-run.txt"));
        QFile::remove(second);
        QVERIFY(QFile::copy(log, second));
        const QString p = project();
        auto r = import(p, {QStringLiteral("--run"), QStringLiteral("base"), log, second}, true);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto store = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
        QVERIFY(store);
        const auto runs = store.value()->runs();
        QCOMPARE(runs.size(), 1);
        const QVector<moewb::store::CommSample> samples = store.value()->commSamples(runs[0].id);
        QCOMPARE(samples.size(), 2 * sizes.size());
        for (const quint64 size : sizes) {
            QList<int> repeats;
            for (const auto& s : samples)
                if (s.bytesPerRank == size)
                    repeats << s.repeat;
            std::sort(repeats.begin(), repeats.end());
            QCOMPARE(repeats, (QList<int>{0, 1}));
        }
        // A log of another test is not a repeat.
        r = import(project(), {QStringLiteral("--run"), QStringLiteral("mixed"), log,
                               fixture(QStringLiteral("nccl-tests/alltoallv-per-iteration.txt"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("is a second communication measurement")), qPrintable(r.err));
    }

    void namesAreUniqueAndRunNameIsHonoured() {
        const QString p = project();
        const QString csv = fixture(QStringLiteral("csv/metrics-long.csv"));
        QCOMPARE(import(p, {csv, csv}).exitCode, 0);
        auto r = import(p, {csv}, true);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("runs")).toArray()[0]
                     .toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("metrics-long-3"));
        QCOMPARE(import(p, {QStringLiteral("--run"), QStringLiteral("baseline"), csv}).exitCode, 0);
        r = import(p, {QStringLiteral("--run"), QStringLiteral("baseline"), csv});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("a run named \"baseline\" already exists")));
        QCOMPARE(runCount(p), 4);
    }

    void badInputStoresNothing() {
        const QString p = project();
        const QString good = fixture(QStringLiteral("real/megatron_seunghyunseo-dmoe64-ep4.log"));
        const QString bad = fixture(QStringLiteral("malformed/megatron-log/nan-loss.log"));
        auto r = import(p, {good, bad});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(bad + QStringLiteral(":1: lm_loss: is not finite (nan)")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("nothing stored")));
        QCOMPARE(runCount(p), 0);
        r = import(p, {bad}, true);
        QCOMPARE(r.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("runs")).toArray().size(), 0);
        const QJsonObject e = doc.value(QStringLiteral("errors")).toArray()[0].toObject();
        QCOMPARE(e.value(QStringLiteral("line")).toInt(), 1);
        QCOMPARE(e.value(QStringLiteral("field")).toString(), QStringLiteral("lm_loss"));
        // Refused real files: the interleaved jobs and the all_reduce test.
        r = import(p, {fixture(QStringLiteral("real/nccltests_alltoall_chausat-a800-12x1rank.txt"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QStringLiteral(":4: header: holds 12 interleaved nccl-tests runs")));
        r = import(p, {fixture(QStringLiteral("real/nccltests_allreduce_cscs-gh200.txt"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QStringLiteral(":2: collective: is all_reduce, not alltoall or alltoallv")));
        // Forcing the wrong format is a validation failure, not a guess.
        r = import(p, {QStringLiteral("--format"), QStringLiteral("jsonl-metrics"), fixture(QStringLiteral("csv/metrics-long.csv"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QStringLiteral("metrics-long.csv:1:")));
        QCOMPARE(runCount(p), 0);
    }

    // The contract between remote/probe and core/importers: what the probe writes today
    // imports, sample for sample.
    void probeReportRoundTrip() {
        const QString report = m_home.filePath(QStringLiteral("probe-roundtrip.json"));
        bool ran = false;
        for (int attempt = 0; attempt < 3 && !ran; ++attempt) {
            const int port = 20000 + int((QCoreApplication::applicationPid() * 7 + attempt * 1009) % 30000);
            const QString rendezvous = QStringLiteral("127.0.0.1:%1").arg(port);
            QList<QProcess*> ranks;
            // The run's secret, shared by both ranks through their environment (docs/probe.md).
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("MOEWB_PROBE_SECRET"),
                       QString::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, QLatin1Char('0')) +
                           QString::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, QLatin1Char('0')));
            for (int r = 0; r < 2; ++r) {
                auto* p = new QProcess(this);
                p->setProcessEnvironment(env);
                p->start(QStringLiteral(MOEWB_PROBE),
                         {QStringLiteral("--backend"), QStringLiteral("tcp"), QStringLiteral("--rank"), QString::number(r),
                          QStringLiteral("--world"), QStringLiteral("2"), QStringLiteral("--rendezvous"), rendezvous,
                          QStringLiteral("--listen"), QStringLiteral("127.0.0.%1").arg(r + 1), QStringLiteral("-b"), QStringLiteral("1K"),
                          QStringLiteral("-e"), QStringLiteral("16K"), QStringLiteral("-f"), QStringLiteral("4"),
                          QStringLiteral("-n"), QStringLiteral("5"), QStringLiteral("-w"), QStringLiteral("1"),
                          QStringLiteral("-R"), QStringLiteral("2"), QStringLiteral("--timeout"), QStringLiteral("20"),
                          QStringLiteral("-J"), report});
                ranks << p;
            }
            ran = true;
            for (QProcess* p : ranks) {
                ran = p->waitForFinished(60000) && p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0 && ran;
                if (p->state() != QProcess::NotRunning)
                    p->kill();
            }
            qDeleteAll(ranks);
        }
        QVERIFY2(ran && QFile::exists(report), "moe-probe did not write its report");
        const QString p = project();
        auto r = import(p, {report}, true);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject run = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("runs")).toArray()[0].toObject();
        QCOMPARE(run.value(QStringLiteral("format")).toString(), QStringLiteral("probe-json"));
        QCOMPARE(run.value(QStringLiteral("kind")).toString(), QStringLiteral("probe"));
        QCOMPARE(run.value(QStringLiteral("comm_samples")).toInt(), 3 * 2 * 5); // sizes x repeats x iterations
        // Every stored sample is the report's samples_us value.
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        auto opened = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
        QVERIFY(opened.hasValue());
        const auto samples = opened.value()->commSamples(opened.value()->run(run.value(QStringLiteral("name")).toString())->id);
        QCOMPARE(samples.size(), 30);
        int i = 0;
        for (const QJsonValue& result : doc.value(QStringLiteral("results")).toArray()) {
            const auto bytes = quint64(result.toObject().value(QStringLiteral("bytes_per_rank")).toDouble());
            int repeat = 0;
            for (const QJsonValue& rep : result.toObject().value(QStringLiteral("repeats")).toArray()) {
                int iteration = 0;
                for (const QJsonValue& us : rep.toObject().value(QStringLiteral("samples_us")).toArray()) {
                    QCOMPARE(samples[i].bytesPerRank, bytes);
                    QCOMPARE(samples[i].repeat, repeat);
                    QCOMPARE(samples[i].iteration, iteration++);
                    QCOMPARE(samples[i].timeUs, us.toDouble());
                    ++i;
                }
                ++repeat;
            }
        }
        QCOMPARE(i, 30);
    }

    void unreadableFileIsARuntimeFailure() {
        const QString p = project();
        auto r = import(p, {m_home.filePath(QStringLiteral("missing.log"))});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.err.contains(QStringLiteral("missing.log: cannot read")));
        QCOMPARE(runCount(p), 0);
    }
};

QTEST_GUILESS_MAIN(TestMoewbImport)
#include "test_moewb_import.moc"
