// `moewb import` of a large file of each format under an address-space limit
// (prlimit --as): the real binary, as a user runs it, must stay within the memory
// budget docs/formats.md states for the format ("Memory"), and refuse with a clear
// message, not abort, where the limit is too small or the file is absurd.
//
// Each limit is computed here from what the test wrote: the program's own share
// (kProgram) + the file once + what the stored data takes (8 bytes per
// communication sample and 24 per run of consecutive iterations, 40 per metric
// value, ...), with 10% slack.
#include "../MoewbCli.h"
#include "store/ProjectStore.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using moewb::store::ProjectStore;

namespace {

constexpr qint64 kMiB = 1 << 20;
// The program itself under `prlimit --as`: Qt, SQLite and the C library mapped, before
// any data (a tiny import runs at 90 MiB here).
constexpr qint64 kProgram = 128 * kMiB;
// About this much of each format is written.
constexpr qint64 kTarget = 8 * kMiB;
// The formats whose data once took several times the file (packed since): three times
// as much, so that the program's share (kProgram) does not hide what the data takes
// (24 MiB of one-line probe JSON held as 24-byte samples runs out of this budget).
constexpr qint64 kLargeTarget = 3 * kTarget;

struct Limited {
    int exitCode = -1; // -1: crashed or hung
    QString err;
};

} // namespace

class TestImportMemory : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_prlimit;
    int m_projects = 0;

    QString project() {
        const QString path = m_home.filePath(QStringLiteral("p%1.moewb").arg(++m_projects));
        if (runMoewb(m_home.path(), {QStringLiteral("init"), path}).exitCode != 0 ||
            runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("record"), QStringLiteral("add"),
                                     QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json")})
                    .exitCode != 0)
            return {}; // the test fails on the empty path
        return path;
    }

    QString write(const QString& name, const QByteArray& bytes) {
        const QString path = m_home.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    // moewb --project P import --format F FILE under prlimit --as=LIMIT.
    Limited importLimited(const QString& projectPath, const QString& format, const QString& file, qint64 limit,
                          const QStringList& extraEnv = {}, const QStringList& extraArgs = {}) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path() + QStringLiteral("/data"));
        for (const QString& kv : extraEnv)
            env.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        p.setProcessEnvironment(env);
        p.start(m_prlimit, QStringList{QStringLiteral("--as=%1").arg(limit), QStringLiteral(MOEWB_CLI),
                                       QStringLiteral("--project"), projectPath, QStringLiteral("import")} +
                               extraArgs + QStringList{QStringLiteral("--format"), format, file});
        if (!p.waitForFinished(240000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        if (p.exitStatus() != QProcess::NormalExit)
            return {-1, QString::fromUtf8(p.readAllStandardError())};
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
    }

    static qint64 stored(const QString& projectPath, bool metrics) {
        auto store = ProjectStore::open(projectPath, moewb::store::OpenMode::MustExist);
        if (!store || store.value()->runs().isEmpty())
            return -1;
        const qint64 id = store.value()->runs().first().id;
        return metrics ? store.value()->stepMetrics(id).size() : store.value()->commSamples(id).size();
    }

    static qint64 budget(qint64 fileBytes, qint64 dataBytes) {
        return kProgram + (fileBytes + dataBytes) * 11 / 10;
    }

    // A moe-probe report with `sizes` x `repeats` x `iters` samples, one per line (as
    // the probe writes it) or all on one line.
    static QByteArray probeReport(int sizes, int repeats, int iters, bool oneLine) {
        QRandomGenerator rng(1);
        const char* nl = oneLine ? "" : "\n";
        QByteArray t;
        t += "{\"schema\": \"moe-probe/1\", \"collective\": \"alltoall\",";
        t += "\"options\": {\"iters\": " + QByteArray::number(iters) + ", \"repeats\": " + QByteArray::number(repeats) + "},";
        t += "\"environment\": {\"world\": 2, \"backend\": \"tcp\", \"hostnames\": [\"vm\"]},";
        t += QByteArray("\"results\": [") + nl;
        for (int s = 0; s < sizes; ++s) {
            t += (s ? "," : "") + QByteArray("{\"bytes_per_rank\": ") + QByteArray::number(1024 << s) +
                 ", \"iterations\": " + QByteArray::number(iters) + ", \"repeats\": [" + nl;
            for (int k = 0; k < repeats; ++k) {
                t += (k ? "," : "") + QByteArray("{\"time_us\": {\"median\": 100.5}, \"samples_us\": [") + nl;
                for (int i = 0; i < iters; ++i) {
                    t += oneLine ? "" : "            ";
                    t += QByteArray::number(double(rng.bounded(50000, 150000)) / 1000.0, 'f', 3);
                    t += i + 1 < iters ? "," : "";
                    t += nl;
                }
                t += QByteArray("]}") + nl;
            }
            t += QByteArray("]}") + nl;
        }
        t += "]}\n";
        return t;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        m_prlimit = QStandardPaths::findExecutable(QStringLiteral("prlimit"));
        if (m_prlimit.isEmpty())
            QSKIP("prlimit (util-linux) is not installed");
        // The program's share is enough for a tiny import, and kProgram / 2 is not:
        // the limit is real, so a budget that is exceeded fails.
        const QString tiny = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/csv/metrics-long.csv");
        const QString p1 = project(), p2 = project();
        QVERIFY(!p1.isEmpty() && !p2.isEmpty());
        QCOMPARE(importLimited(p1, QStringLiteral("csv-metrics"), tiny, kProgram).exitCode, 0);
        QVERIFY(importLimited(p2, QStringLiteral("csv-metrics"), tiny, kProgram / 2).exitCode != 0);
    }

    void probeJsonWithinBudget_data() {
        QTest::addColumn<bool>("oneLine");
        QTest::newRow("one sample per line") << false;
        QTest::newRow("one line") << true;
    }
    void probeJsonWithinBudget() {
        QFETCH(bool, oneLine);
        const int sizes = 8, repeats = 4;
        const int iters = int((oneLine ? kLargeTarget : kTarget) / (sizes * repeats * (oneLine ? 7 : 20)));
        const QByteArray text = probeReport(sizes, repeats, iters, oneLine);
        const QString file = write(QStringLiteral("probe.json"), text);
        const qint64 samples = qint64(sizes) * repeats * iters;
        const QString p = project();
        QVERIFY(!p.isEmpty());
        // 8 bytes per sample, 24 per (size, repeat): the samples are packed (docs/formats.md).
        const Limited r = importLimited(p, QStringLiteral("probe-json"), file,
                                        budget(text.size(), 8 * samples + 24 * sizes * repeats));
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QCOMPARE(stored(p, false), samples);
    }

    void ncclTestsJsonWithinBudget() {
        QRandomGenerator rng(2);
        const int sizes = 16;
        const int iters = int(kLargeTarget / (sizes * 7));
        QByteArray t = "{\"version\":2,\"args\":[\"./build/alltoall_perf\"],\"nccl_version\":22705,\"config\":{\"nthreads\":1,"
                       "\"ngpus\":1,\"devices\":[{\"rank\":0,\"hostname\":\"a\"},{\"rank\":1,\"hostname\":\"a\"}]},\"results\":[";
        for (int s = 0; s < sizes; ++s) {
            const qint64 size = 1048576LL * (s + 1);
            t += (s ? "," : "") + QByteArray("{\"size\":") + QByteArray::number(size) + ",\"count\":" +
                 QByteArray::number(size / 8) + ",\"type\":\"float\",\"redop\":\"none\",\"out_of_place\":{\"time\":100.0,"
                 "\"alg_bw\":" + QByteArray::number(double(size) / 100.0 / 1e3, 'f', 2) +
                 "},\"out_of_place_per_iter\":{\"times_us\":[";
            for (int i = 0; i < iters; ++i)
                t += (i ? "," : "") + QByteArray::number(double(rng.bounded(5000, 15000)) / 100.0, 'f', 2);
            t += "]}}";
        }
        t += "]}";
        const QString file = write(QStringLiteral("nccl.json"), t);
        const qint64 samples = qint64(sizes) * iters;
        const QString p = project();
        QVERIFY(!p.isEmpty());
        const Limited r = importLimited(p, QStringLiteral("nccl-tests-json"), file, budget(t.size(), 8 * samples + 24 * sizes));
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QCOMPARE(stored(p, false), samples);
    }

    void csvMetricsWithinBudget() {
        QRandomGenerator rng(3);
        const char* names[] = {"lm_loss", "grad_norm", "val_loss", "tokens_per_s_per_gpu"};
        QByteArray t = "step,metric,value\n";
        qint64 values = 0;
        while (t.size() < kTarget) {
            t += QByteArray::number(values / 4) + ',' + names[values % 4] + ',' +
                 QByteArray::number(double(rng.bounded(1, 100000)) / 10000.0, 'f', 4) + '\n';
            ++values;
        }
        const QString file = write(QStringLiteral("metrics.csv"), t);
        const QString p = project();
        QVERIFY(!p.isEmpty());
        const Limited r = importLimited(p, QStringLiteral("csv-metrics"), file, budget(t.size(), 40 * values));
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QCOMPARE(stored(p, true), values);
    }

    void csvExpertLoadWithinBudget() {
        QRandomGenerator rng(4);
        const int experts = 64;
        QByteArray t = "step,layer";
        for (int e = 0; e < experts; ++e)
            t += ",e" + QByteArray::number(e);
        t += '\n';
        qint64 rows = 0;
        while (t.size() < kTarget) {
            t += QByteArray::number(rows / 8) + ',' + QByteArray::number(rows % 8);
            for (int e = 0; e < experts; ++e)
                t += ',' + QByteArray::number(rng.bounded(10000));
            t += '\n';
            ++rows;
        }
        const QString file = write(QStringLiteral("load.csv"), t);
        const QString p = project();
        QVERIFY(!p.isEmpty());
        const Limited r = importLimited(p, QStringLiteral("csv-expert-load"), file,
                                        budget(t.size(), rows * (4 * experts + 80)));
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        auto store = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
        QVERIFY(store && !store.value()->runs().isEmpty());
        QCOMPARE(qint64(store.value()->expertLoad(store.value()->runs().first().id).size()), rows);
    }

    // nccl-tests text as alltoall_perf prints it: 110-byte rows.
    void ncclTestsTextWithinBudget() {
        QRandomGenerator rng(5);
        QByteArray t = "# nccl-tests version 2.17.6 nccl-headers=22705 nccl-library=22705\n"
                       "# Collective test starting: alltoall_perf\n"
                       "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 "
                       "agg iters: 1 validation: 1 graph: 0\n"
                       "#\n# Using devices\n"
                       "#  Rank  0 Group  0 Pid   1001 on     node-a device  0 [0000:18:00] NVIDIA H100 80GB HBM3\n"
                       "#  Rank  1 Group  0 Pid   1002 on     node-a device  1 [0000:2a:00] NVIDIA H100 80GB HBM3\n"
                       "#\n#                                                              out-of-place                       "
                       "in-place\n"
                       "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   "
                       "algbw   busbw  #wrong\n"
                       "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  "
                       "(GB/s)  (GB/s)\n";
        const qint64 size = 1048576;
        qint64 rows = 0;
        while (t.size() < kLargeTarget) {
            const double time = double(rng.bounded(5000, 6000)) / 100.0;
            const QByteArray bw = QByteArray::number(double(size) / time / 1e3, 'f', 2);
            const QByteArray us = QByteArray::number(time, 'f', 2);
            t += "     1048576        131072     float    none      -1  " + us + "  " + bw + "  " + bw + "       0  " + us +
                 "  " + bw + "  " + bw + "       0\n";
            ++rows;
        }
        t += "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 10.0\n#\n# Collective test concluded: alltoall_perf\n";
        const QString file = write(QStringLiteral("nccl.txt"), t);
        const QString p = project();
        QVERIFY(!p.isEmpty());
        // Per row: its sample (32 bytes: one per group), its checks (48) and its in-place
        // time in the environment's column (16, more while the column grows).
        const Limited r = importLimited(p, QStringLiteral("nccl-tests"), file, budget(t.size(), rows * 120));
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QCOMPARE(stored(p, false), rows);
    }

    // The line-per-record formats, written as their writers print them (the fixtures in
    // tests/fixtures/importers and remote/collect), each about 8 MiB (24 MiB: torchtitan,
    // Megatron timer lines).
    // `values` is what the lines hold: metric
    // values for the metric formats, expert-load blocks (one per step and layer) for the
    // load formats; `perValue` what one of them takes once stored.
    void lineFormatsWithinBudget_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("values");
        QTest::addColumn<bool>("metrics");
        QTest::addColumn<qint64>("perValue");
        QRandomGenerator rng(6);
        auto real = [&](int lo, int hi, int scale) { return double(rng.bounded(lo, hi)) / scale; };
        {
            // Megatron-LM training_log: 12 "key: value" fields per iteration line, each a metric.
            QByteArray t = "> building train, validation, and test datasets ...\n";
            qint64 lines = 0;
            while (t.size() < kTarget) {
                ++lines;
                t += " [2026-08-01 09:00:01.250117] iteration " + QByteArray::number(lines * 10).rightJustified(8, ' ') +
                     "/ 99999999 | consumed samples: " + QByteArray::number(lines * 2560) +
                     " | elapsed time per iteration (ms): " + QByteArray::number(real(8000, 9000, 10), 'f', 1) +
                     " | throughput per GPU (TFLOP/s/GPU): 412.3 | learning rate: 3.000000E-04 | global batch size:   256"
                     " | lm loss: " + QByteArray::number(real(20000, 110000, 10000), 'E', 6) +
                     " | load_balancing_loss: " + QByteArray::number(real(10000, 11000, 10000), 'E', 6) +
                     " | z_loss: 1.250000E-02 | loss scale: 1.0 | grad norm: 2.250 | number of skipped iterations:   0"
                     " | number of nan iterations:   0 |\n";
            }
            QTest::newRow("megatron-log") << QStringLiteral("megatron-log") << t << lines * 12 << true << qint64(40);
        }
        {
            // Megatron-LM with --timing-log-option all on 8 ranks (megatron/core/timers.py,
            // the fixture megatron/megatron-timers-all-ranks.log): per iteration 8 metrics of
            // the iteration line, max and min of 3 timers, forward-backward per rank (8) and
            // the busiest device's share: 23 values, most of them from 21-byte rank lines.
            QByteArray t;
            qint64 iterations = 0;
            while (t.size() < kLargeTarget) {
                ++iterations;
                t += " [2026-08-02 14:30:00.123456] iteration " + QByteArray::number(iterations * 10).rightJustified(8, ' ') +
                     "/ 99999999 | consumed samples: " + QByteArray::number(iterations * 80).rightJustified(12, ' ') +
                     " | elapsed time per iteration (ms): 1000.0 | learning rate: 1.000000E-04 | global batch size:     8"
                     " | lm loss: " + QByteArray::number(real(20000, 110000, 10000), 'E', 6) +
                     " | loss scale: 1.0 | number of skipped iterations:   0 | number of nan iterations:   0 |\n"
                     "times across ranks (ms):\n";
                for (const auto& [name, base] : {std::pair<const char*, int>{"forward-backward", 800},
                                                 {"optimizer", 100}, {"batch-generator", 5}}) {
                    t += QByteArray("  ") + name + ":\n";
                    for (int r = 0; r < 8; ++r)
                        t += "     rank  " + QByteArray::number(r) + ": " +
                             QByteArray::number(base + real(0, 10000, 100), 'f', 2) + '\n';
                }
            }
            QTest::newRow("megatron-log, timer lines") << QStringLiteral("megatron-log") << t << iterations * 23 << true
                                                       << qint64(40);
        }
        {
            // NeMo 2 progress printer: lr, global_batch_size, reduced_train_loss, train_step_timing,
            // consumed_samples are metrics; global_step is the step.
            QByteArray t = "[NeMo I 2025-09-01 10:00:00 nemo_logging:393] Experiments will be logged at /results/moe\n";
            qint64 lines = 0;
            while (t.size() < kTarget) {
                t += "Training epoch 0, iteration " + QByteArray::number(lines) + "/99999999 | lr: 1.499e-07 | "
                     "global_batch_size: 32 | global_step: " + QByteArray::number(lines) + " | reduced_train_loss: " +
                     QByteArray::number(real(20000, 110000, 10000), 'f', 4) + " | train_step_timing in s: " +
                     QByteArray::number(real(300, 400, 100), 'f', 2) + " | consumed_samples: " +
                     QByteArray::number(32 * (lines + 1)) + "\n";
                ++lines;
            }
            QTest::newRow("nemo-log") << QStringLiteral("nemo-log") << t << lines * 5 << true << qint64(40);
        }
        {
            // A W&B panel export of one run: each metric with its __MIN and __MAX columns.
            const char* names[] = {"lm loss", "iteration-time", "load_balancing_loss"};
            QByteArray t = "\"Step\"";
            for (const char* m : names)
                t += QByteArray(",\"moe-64e-a - ") + m + "\",\"moe-64e-a - " + m + "__MIN\",\"moe-64e-a - " + m + "__MAX\"";
            t += '\n';
            qint64 rows = 0;
            while (t.size() < kTarget) {
                t += QByteArray::number(++rows);
                for (int m = 0; m < 3; ++m) {
                    const QByteArray v = '"' + QByteArray::number(real(5000, 100000, 10000), 'f', 6) + '"';
                    t += ',' + v + ',' + v + ',' + v;
                }
                t += '\n';
            }
            QTest::newRow("wandb-csv") << QStringLiteral("wandb-csv") << t << rows * 3 << true << qint64(40);
        }
        {
            // torchtitan's metrics line: lm_loss, grad_norm, memory (GiB and %), tps and tflops
            // are stored (mfu N/A is not). Each step line is held as where it is (24 bytes)
            // until every line is read (the lowest rank's line wins).
            QByteArray t = "+ torchrun --nproc_per_node=1 -m torchtitan.train\n";
            qint64 steps = 0;
            while (t.size() < kLargeTarget) {
                t += "[titan] 2026-07-17 12:05:19,496 - root - INFO - step: " + QByteArray::number(++steps) +
                     "  loss: " + QByteArray::number(real(20000, 110000, 10000), 'f', 4) + "  grad_norm: " +
                     QByteArray::number(real(10000, 80000, 10000), 'f', 4) +
                     "  memory:  4.26GiB(2.39%)  tps: 72,915  tflops: 39.59  mfu: N/A\n";
            }
            QTest::newRow("torchtitan-log") << QStringLiteral("torchtitan-log") << t << steps * 6 << true
                                            << qint64(40 + 24 / 6);
        }
        {
            QByteArray t;
            qint64 lines = 0;
            while (t.size() < kTarget) {
                t += "{\"step\": " + QByteArray::number(++lines) + ", \"lm_loss\": " +
                     QByteArray::number(real(20000, 110000, 10000), 'f', 6) +
                     ", \"learning_rate\": 0.0003, \"grad_norm\": " + QByteArray::number(real(10000, 80000, 10000), 'f', 5) +
                     "}\n";
            }
            QTest::newRow("jsonl-metrics") << QStringLiteral("jsonl-metrics") << t << lines * 3 << true << qint64(40);
        }
        {
            // The collector's sidecar of a one-rank training (remote/collect, moewb-collect/1;
            // 64 experts, top-8 as the project's record):
            // per step 8 drops lines and a time line; per step dropped tokens and assignments,
            // their two rates and the busiest-device share. Each step is held as a
            // CollectorStep (72 bytes) until the file is read.
            const int moeLayers = 8;
            QByteArray t = "{\"format\": \"moewb-collect/1\", \"rank\": 0, \"world\": 1, \"framework\": \"megatron-core\", "
                           "\"experts\": 64, \"topk\": 8, \"moe_layers\": 8, \"every\": 1, \"clock\": \"cuda-events\"}\n";
            qint64 steps = 0;
            while (t.size() < kTarget) {
                const QByteArray step = QByteArray::number(++steps);
                for (int l = 0; l < moeLayers; ++l) {
                    const int tokens = 8192, dropped = rng.bounded(20), droppedAssignments = 8 * dropped + rng.bounded(400);
                    t += "{\"kind\": \"drops\", \"step\": " + step + ", \"layer\": " + QByteArray::number(l) +
                         ", \"tokens\": " + QByteArray::number(tokens) + ", \"assignments\": " +
                         QByteArray::number(8 * tokens) + ", \"dropped_tokens\": " + QByteArray::number(dropped) +
                         ", \"dropped_assignments\": " + QByteArray::number(droppedAssignments) + "}\n";
                }
                t += "{\"kind\": \"time\", \"step\": " + step + ", \"step_s\": " +
                     QByteArray::number(real(800000, 900000, 1000000), 'f', 6) + ", \"a2a_s\": " +
                     QByteArray::number(real(100000, 200000, 1000000), 'f', 6) + ", \"compute_s\": " +
                     QByteArray::number(real(200000, 300000, 1000000), 'f', 6) + "}\n";
            }
            QTest::newRow("moewb-collect-jsonl") << QStringLiteral("moewb-collect-jsonl") << t << steps * 5 << true
                                                 << qint64(40 + 72 / 5);
        }
        const int experts = 64, layers = 8;
        auto counts = [&] {
            QByteArray c;
            for (int e = 0; e < experts; ++e)
                c += (e ? ", " : "") + QByteArray::number(rng.bounded(10000));
            return c;
        };
        {
            QByteArray t;
            qint64 blocks = 0;
            for (qint64 step = 1; t.size() < kTarget; ++step)
                for (int l = 0; l < layers; ++l, ++blocks)
                    t += "{\"step\": " + QByteArray::number(step) + ", \"layer\": " + QByteArray::number(l) +
                         ", \"tokens\": [" + counts() + "]}\n";
            QTest::newRow("jsonl-expert-load") << QStringLiteral("jsonl-expert-load") << t << blocks << false
                                               << qint64(4 * experts + 80);
        }
        {
            // Megatron's tokens-per-expert dump: per layer, one list per rank (summed).
            QByteArray t;
            qint64 blocks = 0;
            for (qint64 iter = 10; t.size() < kTarget; iter += 10)
                for (int l = 0; l < layers; ++l, ++blocks)
                    t += "{\"iter\": " + QByteArray::number(iter) + ", \"layer\": " + QByteArray::number(l) +
                         ", \"tpe\": [[" + counts() + "], [" + counts() + "]]}\n";
            QTest::newRow("megatron-tpe-jsonl") << QStringLiteral("megatron-tpe-jsonl") << t << blocks << false
                                                << qint64(4 * experts + 80);
        }
        {
            // Per-token top-2 routing, 256 tokens per (iteration, layer) line.
            QByteArray t;
            qint64 blocks = 0;
            for (qint64 iter = 1; t.size() < kTarget; ++iter)
                for (int l = 0; l < 4; ++l, ++blocks) {
                    t += "{\"iter\": " + QByteArray::number(iter) + ", \"layer\": " + QByteArray::number(l) +
                         ", \"num_experts\": " + QByteArray::number(experts) + ", \"topk\": [";
                    for (int k = 0; k < 256; ++k) {
                        const int a = rng.bounded(experts);
                        t += (k ? ", [" : "[") + QByteArray::number(a) + ", " +
                             QByteArray::number((a + 1 + rng.bounded(experts - 1)) % experts) + "]";
                    }
                    t += "]}\n";
                }
            QTest::newRow("routing-trace-jsonl") << QStringLiteral("routing-trace-jsonl") << t << blocks << false
                                                 << qint64(4 * experts + 80);
        }
    }
    void lineFormatsWithinBudget() {
        QFETCH(QString, format);
        QFETCH(QByteArray, text);
        QFETCH(qint64, values);
        QFETCH(bool, metrics);
        QFETCH(qint64, perValue);
        const QString file = write(format + QStringLiteral(".data"), text);
        const QString p = project();
        QVERIFY(!p.isEmpty());
        const Limited r = importLimited(p, format, file, budget(text.size(), values * perValue));
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err.left(600))));
        if (metrics) {
            QCOMPARE(stored(p, true), values);
        } else {
            auto store = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
            QVERIFY(store && !store.value()->runs().isEmpty());
            QCOMPARE(qint64(store.value()->expertLoad(store.value()->runs().first().id).size()), values);
        }
    }

    // One line of 8 MiB: a header with a million columns, or one 8 MiB field. Refused
    // at once, within a budget of twice the file, with a message that quotes little.
    void singleLineCsvRefusedWithinBudget_data() {
        QTest::addColumn<bool>("manyColumns");
        QTest::newRow("a million columns") << true;
        QTest::newRow("one huge field") << false;
    }
    void singleLineCsvRefusedWithinBudget() {
        QFETCH(bool, manyColumns);
        QByteArray t = "step";
        if (manyColumns) {
            for (qint64 i = 0; t.size() < kTarget; ++i)
                t += ",m" + QByteArray::number(i);
        } else {
            t += ',' + QByteArray(kTarget, 'x');
        }
        t += '\n';
        const QString file = write(QStringLiteral("line.csv"), t);
        const QString p = project();
        QVERIFY(!p.isEmpty());
        const Limited r = importLimited(p, QStringLiteral("csv-metrics"), file, budget(t.size(), t.size()));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(manyColumns ? QStringLiteral("has more than 100000 fields")
                                            : QStringLiteral("is longer than 1048576 bytes")),
                 qPrintable(r.err.left(400)));
        QVERIFY2(r.err.size() < 1000, qPrintable(r.err.left(400)));
        QCOMPARE(stored(p, true), -1);
    }

    // Too little memory for the data: an error naming the file, nothing stored, no abort.
    // 24 MiB on one line needs about 2.2 times its size beyond the program; the limit
    // leaves the program (90 MiB) room to read it and a quarter of the file more.
    void outOfMemoryIsAnError() {
        const int sizes = 8, repeats = 4, iters = int(3 * kTarget / (sizes * repeats * 7));
        const QByteArray text = probeReport(sizes, repeats, iters, true);
        const QString file = write(QStringLiteral("probe-oom.json"), text);
        const QString p = project();
        QVERIFY(!p.isEmpty());
        const Limited r = importLimited(p, QStringLiteral("probe-json"), file, 96 * kMiB + text.size() * 5 / 4);
        QVERIFY2(r.exitCode > 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(QStringLiteral("probe-oom.json: ran out of memory importing it")), qPrintable(r.err));
        QCOMPARE(stored(p, false), -1);
    }

    // MOEWB_IMPORT_MAX_BYTES: a file over the limit is refused before it is read.
    void sizeLimitRefusesBeforeReading() {
        const QByteArray text = probeReport(2, 2, 20000, true);
        const QString file = write(QStringLiteral("probe-big.json"), text);
        const QString p = project();
        QVERIFY(!p.isEmpty());
        const Limited r = importLimited(p, QStringLiteral("probe-json"), file, kProgram + 2 * kMiB,
                                        {QStringLiteral("MOEWB_IMPORT_MAX_BYTES=64K")});
        QVERIFY(r.exitCode > 0);
        QVERIFY2(r.err.contains(QStringLiteral("over the import limit of")) &&
                     r.err.contains(QStringLiteral("MOEWB_IMPORT_MAX_BYTES")),
                 qPrintable(r.err));
        QCOMPARE(stored(p, false), -1);
    }

    // moewb import --max-bytes SIZE: the same limit, given on the command line; it wins
    // over MOEWB_IMPORT_MAX_BYTES either way, and a malformed size is a usage error.
    void maxBytesOptionWinsOverTheVariable() {
        const QByteArray text = probeReport(2, 2, 20000, true);
        QVERIFY(text.size() > 64 * 1024 && text.size() < kMiB);
        const QString file = write(QStringLiteral("probe-option.json"), text);
        const QString p1 = project();
        QVERIFY(!p1.isEmpty());
        Limited r = importLimited(p1, QStringLiteral("probe-json"), file, kProgram + 16 * kMiB,
                                  {QStringLiteral("MOEWB_IMPORT_MAX_BYTES=1G")},
                                  {QStringLiteral("--max-bytes"), QStringLiteral("64K")});
        QVERIFY(r.exitCode > 0);
        QVERIFY2(r.err.contains(QStringLiteral("over the import limit of")) &&
                     r.err.contains(QStringLiteral("(--max-bytes); give a larger --max-bytes")) &&
                     !r.err.contains(QStringLiteral("MOEWB_IMPORT_MAX_BYTES")),
                 qPrintable(r.err));
        QCOMPARE(stored(p1, false), -1);

        const QString p2 = project();
        QVERIFY(!p2.isEmpty());
        r = importLimited(p2, QStringLiteral("probe-json"), file, kProgram + 16 * kMiB,
                          {QStringLiteral("MOEWB_IMPORT_MAX_BYTES=64K")}, {QStringLiteral("--max-bytes=1m")});
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QCOMPARE(stored(p2, false), qint64(2 * 2 * 20000));

        for (const QString& bad : {QStringLiteral("lots"), QStringLiteral("0"), QStringLiteral("-5M"), QStringLiteral("1X")}) {
            const QString p3 = project();
            QVERIFY(!p3.isEmpty());
            r = importLimited(p3, QStringLiteral("probe-json"), file, kProgram + 16 * kMiB, {},
                              {QStringLiteral("--max-bytes"), bad});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(QStringLiteral("--max-bytes must be a size")), qPrintable(r.err));
            QCOMPARE(stored(p3, false), -1);
        }
    }

    // A lone tokens-per-expert file is streamed (docs/store.md, "Streamed import"): the
    // plan scans it and the save reads its counts straight into the store, so the
    // import runs in far less memory than its counts take. 64 MiB of text, about 58 MiB
    // of counts as uint32, imported under the program's share + 32 MiB; the same rows
    // with one line out of step order (read whole, counts kept) cannot be.
    void streamedTpeBelowItsCounts() {
        QRandomGenerator rng(19);
        const int experts = 64, layers = 4; // the record's moe.experts
        QByteArray t;
        t.reserve(66 * kMiB);
        qint64 rows = 0, counts = 0;
        QByteArray first;
        for (qint64 iter = 1; t.size() < 64 * kMiB; ++iter)
            for (int l = 0; l < layers; ++l, ++rows) {
                QByteArray line = "{\"iter\": " + QByteArray::number(iter) + ", \"layer\": " + QByteArray::number(l) +
                                  ", \"tpe\": [";
                for (int e = 0; e < experts; ++e)
                    line += (e ? ", " : "") + QByteArray::number(rng.bounded(100));
                line += "]}\n";
                counts += experts;
                if (first.isEmpty())
                    first = line;
                t += line;
            }
        const qint64 countBytes = counts * qint64(sizeof(quint32));
        QVERIFY(countBytes > 50 * kMiB);
        const qint64 limit = kProgram + 32 * kMiB;
        QVERIFY(limit - kProgram < countBytes * 3 / 4);

        const QString file = write(QStringLiteral("streamed-tpe.jsonl"), t);
        const QString p = project();
        QVERIFY(!p.isEmpty());
        // One malloc arena: the parsing thread's own would reserve 64 MiB of address
        // space (glibc's per-thread heap) that it never uses, and prlimit --as counts it.
        const QStringList oneArena{QStringLiteral("MALLOC_ARENA_MAX=1")};
        const Limited r = importLimited(p, QStringLiteral("megatron-tpe-jsonl"), file, limit, oneArena);
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err.left(600))));
        {
            auto store = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
            QVERIFY(store && !store.value()->runs().isEmpty());
            QCOMPARE(store.value()->runs().first().expertLoadBlocks, rows);
        }

        // The control: the first line moved to the end (jsonl-expert-load keys, steps
        // out of order) is read whole, and the same budget does not hold its counts.
        QByteArray moved = t.mid(first.size()) + first;
        moved.replace("\"iter\"", "\"step\"");
        moved.replace("\"tpe\"", "\"tokens\"");
        t.clear();
        const QString unordered = write(QStringLiteral("unordered-load.jsonl"), moved);
        moved.clear();
        const QString p2 = project();
        QVERIFY(!p2.isEmpty());
        const Limited control = importLimited(p2, QStringLiteral("jsonl-expert-load"), unordered, limit, oneArena);
        QVERIFY2(control.exitCode != 0, "the in-memory path fit the streamed budget: the budget proves nothing");
        QCOMPARE(stored(p2, false), -1);
    }
};

QTEST_GUILESS_MAIN(TestImportMemory)
#include "test_import_memory.moc"
