// The whole product, end to end, on this computer: the real `moewb reference --quick`
// (four real trainings with the collector, real probe ranks, the real importer, gates,
// verdicts and report), then every stage is checked against figures this test computes
// itself from the raw files and the stored samples — never against numbers written
// here:
//   stage 1: each baseline's median at the largest size = the median of its stored samples;
//   stage 2: the pair's stop = (MoE slower AND its validation loss not better), and the
//            validation losses are the last ones the trainings' train.log printed;
//   stage 3: the cf1.0 run's drop rate = the mean over the window's steps of
//            Σ dropped tokens / Σ tokens read from the collector's sidecar files (> 0); the
//            dropless run drops nothing; the busiest-device share is measured from the
//            ranks' profiler traces (the mean of the busiest rank's busy / step over the
//            traced steps of `moewb anatomy`), never below the collector's figure of the
//            same steps recomputed from the sidecars;
//   stage 4: as root, cluster B's stored baseline is slower than A's at the largest size
//            and stage 4 stops on it; else stage 4 says why it was not measured;
//   the PDF report carries the banner (pdftotext);
//   cluster A through the ssh launcher: 4 real sshd on 127.0.0.x, `cluster add/check`,
//   `run stage1` with the reference's MoE record and --quick options at 64 KiB and 1 MiB;
//   the run says launcher "ssh", its medians (recomputed from the stored samples) are
//   > 0, and at 1 MiB within 20x of the local launcher's run on the same machine.
// MOEWB_KEEP_PROJECTS=1 keeps the project for a look.
#include "../integration/MoewbCli.h"
#include "SshdCluster.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace {

struct StepDrops {
    double dropped = 0.0;
    double tokens = 0.0;
};

// Σ D and Σ T per step over every rank's sidecar and every layer.
QMap<qint64, StepDrops> sidecarDrops(const QString& runDir) {
    QMap<qint64, StepDrops> out;
    QDirIterator it(runDir + QStringLiteral("/moewb_collect"), {QStringLiteral("rank*.jsonl")}, QDir::Files);
    while (it.hasNext()) {
        QFile f(it.next());
        if (!f.open(QIODevice::ReadOnly))
            continue;
        while (!f.atEnd()) {
            const QJsonObject o = QJsonDocument::fromJson(f.readLine()).object();
            if (o.value(QStringLiteral("kind")).toString() != QLatin1String("drops"))
                continue;
            StepDrops& s = out[qint64(o.value(QStringLiteral("step")).toDouble())];
            s.dropped += o.value(QStringLiteral("dropped_tokens")).toDouble();
            s.tokens += o.value(QStringLiteral("tokens")).toDouble();
        }
    }
    return out;
}

struct RankTime {
    double step = 0, a2a = 0, compute = 0;
    bool hasCompute = false;
};

// step -> rank -> times, from the sidecars.
QMap<qint64, QMap<int, RankTime>> sidecarTimes(const QString& runDir) {
    QMap<qint64, QMap<int, RankTime>> out;
    QDirIterator it(runDir + QStringLiteral("/moewb_collect"), {QStringLiteral("rank*.jsonl")}, QDir::Files);
    while (it.hasNext()) {
        QFile f(it.next());
        if (!f.open(QIODevice::ReadOnly))
            continue;
        int rank = -1;
        while (!f.atEnd()) {
            const QJsonObject o = QJsonDocument::fromJson(f.readLine()).object();
            if (o.contains(QStringLiteral("format")))
                rank = o.value(QStringLiteral("rank")).toInt();
            if (o.value(QStringLiteral("kind")).toString() != QLatin1String("time"))
                continue;
            RankTime t;
            t.step = o.value(QStringLiteral("step_s")).toDouble();
            t.a2a = o.value(QStringLiteral("a2a_s")).toDouble();
            t.hasCompute = o.value(QStringLiteral("compute_s")).isDouble();
            t.compute = o.value(QStringLiteral("compute_s")).toDouble();
            out[qint64(o.value(QStringLiteral("step")).toDouble())][rank] = t;
        }
    }
    return out;
}

double median(QVector<double> v) {
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// The last "validation loss at iteration N | lm loss value: X" of a Megatron console log.
std::optional<double> lastValidationLoss(const QString& log) {
    QFile f(log);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    static const QRegularExpression re(QStringLiteral("validation loss at iteration\\s+\\d+.*lm loss value:\\s*([0-9.eE+-]+)"));
    std::optional<double> last;
    for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        const auto m = re.match(line);
        if (m.hasMatch())
            last = m.captured(1).toDouble();
    }
    return last;
}

QJsonObject rowOfRun(const QJsonArray& table, const QString& run) {
    for (const QJsonValue& v : table)
        if (v.toObject().value(QStringLiteral("run")).toString() == run)
            return v.toObject();
    return {};
}

} // namespace

class TestE2eReference : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_project;
    QString m_data;
    QString m_pdf;
    QJsonObject m_result;

    // `stage N --preview`: the gate evaluated again on the stored data, nothing saved (a
    // saved verdict would come after the reference's overrides and lock the next stage).
    CliResult onProject(const QStringList& args) {
        return runMoewb(m_home.path(), QStringList{QStringLiteral("--json"), QStringLiteral("--project"), m_project} + args,
                        120000);
    }
    QString runOfVariant(const QString& variant) {
        for (const QJsonValue& v : m_result.value(QStringLiteral("training_runs")).toArray())
            if (v.toString().contains(variant + QLatin1Char('-')) || v.toString().endsWith(variant))
                return v.toString();
        return {};
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        if (qEnvironmentVariableIsSet("MOEWB_KEEP_PROJECTS")) {
            m_home.setAutoRemove(false);
            qInfo("project kept in %s", qPrintable(m_home.path()));
        }
        if (!QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable())
            QSKIP("no /usr/bin/python3 (Debian's python3-torch) on this machine");
        m_project = m_home.filePath(QStringLiteral("ref.moewb"));
        m_data = m_home.filePath(QStringLiteral("ref.reference-data"));
        m_pdf = m_home.filePath(QStringLiteral("ref.pdf"));
        QElapsedTimer clock;
        clock.start();
        const CliResult r = runMoewb(m_home.path(),
                                     {QStringLiteral("--json"), QStringLiteral("reference"), QStringLiteral("--quick"),
                                      QStringLiteral("-o"), m_project, QStringLiteral("--report"), m_pdf},
                                     330000);
        qInfo("moewb reference --quick: %.1f s", clock.elapsed() / 1000.0);
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1\n%2").arg(r.exitCode).arg(r.err.right(3000))));
        m_result = r.json();
        QCOMPARE(m_result.value(QStringLiteral("ok")).toBool(), true);
        QVERIFY(clock.elapsed() < 300000); // the issue's bound: under 5 minutes on 2 cores
        QVERIFY(QFileInfo(m_project).isFile());
        QVERIFY(QFileInfo(m_data).isDir());
        // Nothing half-made beside it.
        const QStringList leftovers = QDir(m_home.path()).entryList({QStringLiteral(".ref.moewb*")},
                                                                      QDir::Files | QDir::Hidden);
        QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(QLatin1Char(' '))));
    }

    void stageOneMediansAreTheStoredSamples() {
        const CliResult r = onProject({QStringLiteral("stage"), QStringLiteral("1"), QStringLiteral("--preview")});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.err));
        const QJsonArray table = r.json().value(QStringLiteral("table")).toArray();
        QVERIFY(!table.isEmpty());
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("e2e-s1"));
        db.setDatabaseName(m_project);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        QVERIFY(db.open());
        int checked = 0;
        for (const QJsonValue& v : table) {
            const QJsonObject row = v.toObject();
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT c.time_us FROM comm_sample c JOIN run r ON r.id = c.run_id "
                                     "WHERE r.name = ? AND c.bytes_per_rank = ?"));
            q.addBindValue(row.value(QStringLiteral("run")).toString());
            q.addBindValue(qint64(row.value(QStringLiteral("bytes_per_rank")).toDouble()));
            QVERIFY(q.exec());
            QVector<double> times;
            while (q.next())
                times << q.value(0).toDouble();
            QVERIFY(!times.isEmpty());
            QCOMPARE(row.value(QStringLiteral("samples")).toInt(), int(times.size()));
            const double expected = median(times);
            QVERIFY2(std::abs(row.value(QStringLiteral("median_us")).toDouble() - expected) <= 1e-6 * expected,
                     qPrintable(QStringLiteral("%1 vs %2").arg(row.value(QStringLiteral("median_us")).toDouble()).arg(expected)));
            ++checked;
        }
        QVERIFY(checked >= 3);
    }

    void stageTwoFollowsTheRuleOnTheLogs() {
        const CliResult r = onProject({QStringLiteral("stage"), QStringLiteral("2"), QStringLiteral("--preview")});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.err));
        const QJsonObject o = r.json();
        const QString status = o.value(QStringLiteral("status")).toString();
        QVERIFY2(status == QLatin1String("pass") || status == QLatin1String("stop"),
                 qPrintable(QString::fromUtf8(QJsonDocument(o).toJson())));
        const QJsonArray pairs = o.value(QStringLiteral("table")).toArray();
        QCOMPARE(pairs.size(), 3); // three MoE variants against the dense control
        bool anyStop = false;
        for (const QJsonValue& v : pairs) {
            const QJsonObject p = v.toObject();
            const QString moeRun = p.value(QStringLiteral("moe_run")).toString();
            QString variant;
            for (const QString& x : {QStringLiteral("moe-cf1.0"), QStringLiteral("moe-cf1.25"), QStringLiteral("moe-dropless")})
                if (moeRun.contains(x))
                    variant = x;
            QVERIFY2(!variant.isEmpty(), qPrintable(moeRun));
            const auto moeVal = lastValidationLoss(m_data + QLatin1Char('/') + variant + QStringLiteral("/train.log"));
            const auto denseVal = lastValidationLoss(m_data + QStringLiteral("/dense/train.log"));
            QVERIFY(moeVal && denseVal);
            QVERIFY(std::abs(p.value(QStringLiteral("moe_val_loss")).toDouble() - *moeVal) < 1e-3);
            QVERIFY(std::abs(p.value(QStringLiteral("dense_val_loss")).toDouble() - *denseVal) < 1e-3);
            const bool slower = p.value(QStringLiteral("moe_tokens_per_s_per_gpu")).toDouble() <
                                p.value(QStringLiteral("dense_tokens_per_s_per_gpu")).toDouble();
            const bool notBetter = *moeVal >= *denseVal;
            QCOMPARE(p.value(QStringLiteral("stops")).toBool(), slower && notBetter);
            anyStop = anyStop || (slower && notBetter);
        }
        QCOMPARE(status == QLatin1String("stop"), anyStop);
    }

    void stageThreeDropRateAndShareAreTheSidecars() {
        const CliResult r = onProject({QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.err));
        const QJsonArray table = r.json().value(QStringLiteral("table")).toArray();
        const QString cf10 = runOfVariant(QStringLiteral("moe-cf1.0"));
        const QString dropless = runOfVariant(QStringLiteral("moe-dropless"));
        QVERIFY(!cf10.isEmpty() && !dropless.isEmpty());

        // cf1.0: the window's mean of per-step Σ D / Σ T over ranks and layers.
        const QJsonObject row = rowOfRun(table, cf10);
        QVERIFY2(!row.isEmpty(), qPrintable(QString::fromUtf8(QJsonDocument(table).toJson())));
        const qint64 first = qint64(row.value(QStringLiteral("window_first_step")).toDouble());
        const qint64 last = qint64(row.value(QStringLiteral("window_last_step")).toDouble());
        const QMap<qint64, StepDrops> drops = sidecarDrops(m_data + QStringLiteral("/moe-cf1.0"));
        double sum = 0.0;
        int steps = 0;
        for (auto it = drops.begin(); it != drops.end(); ++it)
            if (it.key() >= first && it.key() <= last && it->tokens > 0) {
                sum += it->dropped / it->tokens;
                ++steps;
            }
        QVERIFY(steps > 0);
        const double expected = sum / steps;
        QVERIFY2(expected > 0.0, "capacity factor 1.0 dropped no token: the sidecar shows no drops");
        const double got = row.value(QStringLiteral("drop_rate")).toDouble();
        QVERIFY2(std::abs(got - expected) <= 1e-9 + 1e-6 * expected,
                 qPrintable(QStringLiteral("stage 3 %1, sidecars %2").arg(got).arg(expected)));
        QVERIFY(row.value(QStringLiteral("drop_rate_source")).toString().contains(QLatin1String("measured")));

        // Busiest-device share: measured from the profiler traces every rank wrote
        // (torch_profile/rank-R.json), the mean over the traced steps of `moewb anatomy`'s
        // per-step figures, each the busiest rank's busy / step from its rows.
        QCOMPARE(row.value(QStringLiteral("busiest_device_share_estimated")).toBool(), false);
        QCOMPARE(row.value(QStringLiteral("busiest_device_share_source")).toString(), QStringLiteral("profiler-traces"));
        const CliResult a = onProject({QStringLiteral("anatomy"), cf10});
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        const QJsonArray traced = a.json().value(QStringLiteral("steps")).toArray();
        QVERIFY(traced.size() >= 2);
        QCOMPARE(a.json().value(QStringLiteral("ranks_traced")).toArray().size(), 4);
        double traceSum = 0.0;
        QMap<qint64, double> traceShare;
        for (const QJsonValue& v : traced) {
            double best = -1.0, bestStep = 0.0;
            for (const QJsonValue& rv : v.toObject().value(QStringLiteral("ranks")).toArray()) {
                const QJsonObject o = rv.toObject();
                if (o.value(QStringLiteral("busy_us")).toDouble() > best) {
                    best = o.value(QStringLiteral("busy_us")).toDouble();
                    bestStep = o.value(QStringLiteral("step_us")).toDouble();
                }
            }
            QVERIFY(bestStep > 0);
            traceSum += best / bestStep;
            traceShare[v.toObject().value(QStringLiteral("step")).toInteger()] = best / bestStep;
        }
        const double share = traceSum / double(traced.size());
        QVERIFY2(std::abs(row.value(QStringLiteral("busiest_device_share")).toDouble() - share) <= 1e-9,
                 qPrintable(QStringLiteral("stage 3 %1, traces %2")
                                .arg(row.value(QStringLiteral("busiest_device_share")).toDouble())
                                .arg(share)));
        // The collector's figure of the same steps, (Z_b + Y_b) / X_b with b = max Z from the
        // sidecars, times only the expert part of the step: the traces' busy share, all of
        // the busiest device's compute and communication, is never below it.
        const auto times = sidecarTimes(m_data + QStringLiteral("/moe-cf1.0"));
        int compared = 0;
        for (auto it = times.begin(); it != times.end(); ++it) {
            if (!traceShare.contains(it.key()))
                continue;
            int busiest = -1;
            bool all = true;
            for (auto r2 = it->begin(); r2 != it->end(); ++r2) {
                all = all && r2->hasCompute;
                if (busiest < 0 || r2->compute > (*it)[busiest].compute)
                    busiest = r2.key();
            }
            if (!all || busiest < 0)
                continue;
            const RankTime& b = (*it)[busiest];
            const double collector = (b.compute + b.a2a) / b.step;
            // (Each rank's share is of its own ProfilerStep span; on CPU the ranks' spans differ by a
            // few per cent, hence the margin.)
            QVERIFY2(traceShare.value(it.key()) >= collector - 0.05,
                     qPrintable(QStringLiteral("step %1: traces %2 below the collector's %3")
                                    .arg(it.key()).arg(traceShare.value(it.key())).arg(collector)));
            ++compared;
        }
        QVERIFY(compared > 0);

        // Dropless: the sidecars show no dropped token and stage 3 shows none.
        double droplessDropped = 0.0, droplessTokens = 0.0;
        for (const StepDrops& s : sidecarDrops(m_data + QStringLiteral("/moe-dropless"))) {
            droplessDropped += s.dropped;
            droplessTokens += s.tokens;
        }
        QVERIFY(droplessTokens > 0);
        QCOMPARE(droplessDropped, 0.0);
        const QJsonObject dl = rowOfRun(table, dropless);
        QVERIFY(!dl.isEmpty());
        QVERIFY(dl.value(QStringLiteral("drop_rate")).isNull() || dl.value(QStringLiteral("drop_rate")).toDouble() == 0.0);
    }

    void stageFourSeesTheSlowerCluster() {
        const bool measured = m_result.value(QStringLiteral("stage4_measured")).toBool();
        const CliResult r = onProject({QStringLiteral("stage"), QStringLiteral("4"), QStringLiteral("--preview")});
        const QJsonObject o = r.json();
        if (!measured) {
            QVERIFY(::geteuid() != 0 || qEnvironmentVariableIsSet("MOEWB_E2E_NO_NETNS"));
            // The project says why stage 4 was not measured.
            QVERIFY(!m_result.value(QStringLiteral("stage4_why_not")).toString().isEmpty());
            QSKIP("not root: cluster B (network namespaces) was not measured");
        }
        QVERIFY2(r.exitCode == 1, qPrintable(r.out + r.err));
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("stop"));
        const QStringList runs = [&] {
            QStringList out;
            for (const QJsonValue& v : m_result.value(QStringLiteral("stage1_runs")).toArray())
                out << v.toString();
            return out;
        }();
        QCOMPARE(runs.size(), 2);
        // The stored samples: B's median at the largest size is above A's.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("e2e-s4"));
        db.setDatabaseName(m_project);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("SELECT max(bytes_per_rank) FROM comm_sample")) && q.next());
        const qint64 largest = q.value(0).toLongLong();
        double medians[2];
        for (int i = 0; i < 2; ++i) {
            QSqlQuery s(db);
            s.prepare(QStringLiteral("SELECT c.time_us FROM comm_sample c JOIN run r ON r.id = c.run_id "
                                     "WHERE r.name = ? AND c.bytes_per_rank = ?"));
            s.addBindValue(runs[i]);
            s.addBindValue(largest);
            QVERIFY(s.exec());
            QVector<double> t;
            while (s.next())
                t << s.value(0).toDouble();
            QVERIFY(!t.isEmpty());
            medians[i] = median(t);
        }
        QVERIFY2(medians[1] > medians[0], qPrintable(QStringLiteral("A %1 µs, B %2 µs").arg(medians[0]).arg(medians[1])));
        // Stage 4 says so at that size: the target's bandwidth below the source's, a stop.
        bool found = false;
        for (const QJsonValue& v : o.value(QStringLiteral("table")).toArray()) {
            const QJsonObject row = v.toObject();
            if (qint64(row.value(QStringLiteral("bytes_per_rank")).toDouble()) != largest)
                continue;
            found = true;
            QVERIFY(row.value(QStringLiteral("target_gbps")).toDouble() < row.value(QStringLiteral("source_gbps")).toDouble());
            QVERIFY(row.value(QStringLiteral("stops")).toBool());
            // The bandwidths are bytes / median: their ratio is the medians' ratio.
            const double ratio = row.value(QStringLiteral("source_gbps")).toDouble() /
                                 row.value(QStringLiteral("target_gbps")).toDouble();
            QVERIFY2(std::abs(ratio - medians[1] / medians[0]) <= 1e-3 * ratio,
                     qPrintable(QStringLiteral("%1 vs %2").arg(ratio).arg(medians[1] / medians[0])));
        }
        QVERIFY(found);
    }

    void reportCarriesTheBanner() {
        QVERIFY(QFileInfo(m_pdf).size() > 0);
        QProcess p;
        p.start(QStringLiteral("pdftotext"), {m_pdf, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(60000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput()).simplified();
        QVERIFY2(text.contains(QStringLiteral("Measured on this computer: CPU, gloo, tiny model")),
                 qPrintable(text.left(2000)));
        QVERIFY(text.contains(QStringLiteral("the method is real, the scale is not")));
    }

    // The same probe through the ssh launcher: cluster A's four ranks as four real sshd
    // nodes on 127.0.0.x (last: the project gains a run the stages above do not expect).
    void clusterAThroughTheSshLauncher() {
        QElapsedTimer clock;
        clock.start();
        SshdCluster c;
        const QString e = c.start(4);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        auto cli = [&](const QStringList& args) {
            return runMoewb(c.home(), QStringList{QStringLiteral("--json"), QStringLiteral("--project"), m_project} + args,
                            120000);
        };
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("e2e-ssh"));
        db.setDatabaseName(m_project);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        QVERIFY(db.open());
        // The local run of cluster A and the record stage 1 used for it.
        const QString localRun = m_result.value(QStringLiteral("stage1_runs")).toArray().at(0).toString();
        QVERIFY2(localRun.contains(QLatin1String("-A")), qPrintable(localRun));
        QString record;
        {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT c.name, r.environment FROM run r JOIN config_record c ON c.id = r.record_id "
                                     "WHERE r.name = ?"));
            q.addBindValue(localRun);
            QVERIFY(q.exec() && q.next());
            record = q.value(0).toString();
            QCOMPARE(QJsonDocument::fromJson(q.value(1).toByteArray()).object().value(QStringLiteral("launcher")).toString(),
                     QStringLiteral("local"));
        }
        QVERIFY(!record.isEmpty());

        CliResult r = cli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("A-ssh"), QStringLiteral("--node"),
                           QStringLiteral("node0,node1,node2,node3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString bundle = QStringLiteral(MOEWB_PROBE_BUNDLE_DIR);
        r = cli({QStringLiteral("cluster"), QStringLiteral("check"), QStringLiteral("A-ssh"), QStringLiteral("--probe-bundle"),
                 bundle});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QCOMPARE(r.json().value(QStringLiteral("nodes")).toArray().size(), 4);
        r = cli({QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"), QStringLiteral("A-ssh"),
                 QStringLiteral("--record"), record, QStringLiteral("--nodes"), QStringLiteral("4"), QStringLiteral("--sizes"),
                 QStringLiteral("64K,1M"), QStringLiteral("-R"), QStringLiteral("3"), QStringLiteral("-n"), QStringLiteral("5"),
                 QStringLiteral("-w"), QStringLiteral("2"), QStringLiteral("--name"), QStringLiteral("ssh-A"),
                 QStringLiteral("--probe-bundle"), bundle});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QString sshRun = QStringLiteral("ssh-A-n4");

        {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT environment FROM run WHERE name = ?"));
            q.addBindValue(sshRun);
            QVERIFY(q.exec() && q.next());
            const QJsonObject env = QJsonDocument::fromJson(q.value(0).toByteArray()).object();
            QCOMPARE(env.value(QStringLiteral("launcher")).toString(), QStringLiteral("ssh"));
            QCOMPARE(env.value(QStringLiteral("world")).toInt(), 4);
        }
        // Per size, the median of the stored samples (brute force here) for each run.
        auto medianOf = [&](const QString& run, qint64 bytes) -> double {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT c.time_us FROM comm_sample c JOIN run r ON r.id = c.run_id "
                                     "WHERE r.name = ? AND c.bytes_per_rank = ?"));
            q.addBindValue(run);
            q.addBindValue(bytes);
            if (!q.exec())
                return -1.0;
            QVector<double> t;
            while (q.next())
                t << q.value(0).toDouble();
            return t.size() == 15 ? median(t) : -1.0;  // 3 repeats x 5 iterations
        };
        // Stage 1's table shows these medians for the ssh run.
        const CliResult s = cli({QStringLiteral("stage"), QStringLiteral("1"), QStringLiteral("--preview")});
        QVERIFY2(s.exitCode == 0 || s.exitCode == 1, qPrintable(s.err));
        int rows = 0;
        for (const qint64 bytes : {qint64(64) << 10, qint64(1) << 20}) {
            const double ssh = medianOf(sshRun, bytes);
            const double local = medianOf(localRun, bytes);
            QVERIFY2(ssh > 0.0 && local > 0.0, qPrintable(QStringLiteral("%1 B: ssh %2, local %3").arg(bytes).arg(ssh).arg(local)));
            for (const QJsonValue& v : s.json().value(QStringLiteral("table")).toArray()) {
                const QJsonObject row = v.toObject();
                if (row.value(QStringLiteral("run")).toString() != sshRun ||
                    qint64(row.value(QStringLiteral("bytes_per_rank")).toDouble()) != bytes)
                    continue;
                ++rows;
                QVERIFY2(std::abs(row.value(QStringLiteral("median_us")).toDouble() - ssh) <= 1e-6 * ssh,
                         qPrintable(QStringLiteral("%1 vs %2").arg(row.value(QStringLiteral("median_us")).toDouble()).arg(ssh)));
            }
            qInfo("%lld B: local launcher %.1f us, ssh launcher %.1f us", bytes, local, ssh);
            if (bytes == (qint64(1) << 20))
                QVERIFY2(ssh < 20.0 * local && local < 20.0 * ssh,
                         qPrintable(QStringLiteral("1 MiB: local %1 us, ssh %2 us").arg(local).arg(ssh)));
        }
        QCOMPARE(rows, 2);
        qInfo("cluster A through ssh: %.1f s", clock.elapsed() / 1000.0);
        QVERIFY(clock.elapsed() < 60000);
    }
};

QTEST_GUILESS_MAIN(TestE2eReference)
#include "test_e2e_reference.moc"
