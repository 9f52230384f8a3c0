// importFile / detectFormat / importFormats: every fixture is detected as its format,
// every real log imports or is refused precisely, and every file of the malformed
// corpus is rejected by automatic detection too (nothing half-imported: an error
// carries no data).
#include "ImporterTestSupport.h"
#include "importers/JsonCursor.h"
#include "importers/MetricNames.h"
#include "importers/NumberText.h"

#include <QDir>
#include <QDirIterator>

using namespace moewb::importers;
using importer_test::fixture;

class TestImportFormatDetection : public QObject {
    Q_OBJECT
private slots:
    void formatNames() {
        QCOMPARE(importFormats(),
                 (QStringList{QStringLiteral("probe-json"), QStringLiteral("nccl-tests"), QStringLiteral("nccl-tests-json"),
                              QStringLiteral("megatron-log"), QStringLiteral("megatron-tpe-jsonl"),
                              QStringLiteral("routing-trace-jsonl"), QStringLiteral("megatron-routing-trace"),
                              QStringLiteral("tensorboard"),
                              QStringLiteral("csv-metrics"), QStringLiteral("jsonl-metrics"),
                              QStringLiteral("csv-expert-load"), QStringLiteral("jsonl-expert-load"),
                              QStringLiteral("torchtitan-log"), QStringLiteral("nemo-log"), QStringLiteral("wandb-csv"),
                              QStringLiteral("moewb-collect-jsonl")}));
        auto r = importFile(fixture(QStringLiteral("csv/metrics-long.csv")), QStringLiteral("excel"));
        QVERIFY(!r.hasValue());
        QVERIFY(r.error().message.startsWith(QStringLiteral("unknown format \"excel\"; known formats: probe-json,")));
    }

    void detection_data() {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("format");
        const QList<std::pair<const char*, const char*>> rows{
            {"probe/probe-tcp-2ranks-medians.json", "probe-json"},
            {"real/nccltests_alltoall_superbench_a100.txt", "nccl-tests"},
            {"real/nccltests_alltoall_oci-gb300-16hosts.txt", "nccl-tests"},
            {"real/nccltests_allreduce_cscs-gh200.txt", "nccl-tests"},
            {"real/nccltests_alltoall_chausat-a800-12x1rank.txt", "nccl-tests"},
            {"nccl-tests/alltoall-two-sweeps-exponent-sizes.txt", "nccl-tests"},
            {"nccl-tests/pasted-header-and-rows.txt", "nccl-tests"}, // the column header line alone
            {"nccl-tests/alltoall-timestamps-cputime.txt", "nccl-tests"},
            {"nccl-tests/alltoallv-per-iteration.txt", "nccl-tests"},
            {"megatron/megatron-core-zloss.log", "megatron-log"},
            {"real/megatron_seunghyunseo-moe64-ep8-warnings.log", "megatron-log"},
            {"probe/probe-tcp-2ranks-samples.json", "probe-json"},
            {"csv/metrics-long.csv", "csv-metrics"},
            {"nccl-tests-json/alltoall-per-iteration.json", "nccl-tests-json"},
            {"nccl-tests-json/alltoallv-plain.json", "nccl-tests-json"},
            {"real/megatron_seunghyunseo-dmoe64-ep4.log", "megatron-log"},
            {"real/deepspeed_superbench-megatron-ds-pdsh.log", "megatron-log"},
            {"real/deepspeed_haibaraaichan-megatron-ds-moe64.log", "megatron-log"},
            {"tpe/tokens-per-expert-rank0.jsonl", "megatron-tpe-jsonl"},
            {"routing/routing-trace.jsonl", "routing-trace-jsonl"},
            {"tpe/tokens_per_expert/rank2.jsonl", "megatron-tpe-jsonl"},
            {"megatron-routing-trace/router_trace_rank0.jsonl", "megatron-routing-trace"},
            {"megatron-routing-trace/router_trace_rank1.jsonl", "megatron-routing-trace"},
            {"tensorboard/events.out.tfevents.1700000000.node-a", "tensorboard"},
            {"csv/metrics-wide.csv", "csv-metrics"},
            {"csv/expert-load.csv", "csv-expert-load"},
            {"jsonl/metrics.jsonl", "jsonl-metrics"},
            {"jsonl/expert-load.jsonl", "jsonl-expert-load"},
            {"torchtitan/deepseek-2ranks-color.log", "torchtitan-log"},
            {"torchtitan/fp8-single-nocolor.log", "torchtitan-log"},
            {"nemo/pretrain-progress.log", "nemo-log"},
            {"wandb/torchtitan-one-run.csv", "wandb-csv"},
            {"wandb/megatron-two-runs.csv", "wandb-csv"},
            {"megatron/megatron-core-0.18-moe-losses.log", "megatron-log"},
            {"megatron/megatron-bridge.log", "megatron-log"},
            {"tensorboard/events.out.tfevents.torchtitan-megatron-moe", "tensorboard"}};
        for (const auto& [rel, fmt] : rows)
            QTest::newRow(rel) << QString::fromLatin1(rel) << QString::fromLatin1(fmt);
    }
    void detection() {
        QFETCH(QString, relative);
        QFETCH(QString, format);
        const QString path = fixture(relative);
        auto detected = detectFormat(importer_test::readFixture(relative), path);
        QVERIFY2(detected.hasValue(), detected.hasValue() ? "" : qPrintable(detected.error().text()));
        QCOMPARE(detected.value(), format);
    }

    void undetectableContentNamesTheFormats() {
        auto r = importBytes("hello world\n", QStringLiteral("x.bin"));
        QVERIFY(!r.hasValue());
        QVERIFY(r.error().text().startsWith(QStringLiteral("x.bin: cannot tell the format (")));
        QVERIFY(r.error().message.contains(QStringLiteral("give --format, one of: probe-json, nccl-tests")));
        QVERIFY(!importBytes(QByteArray(), QStringLiteral("empty")).hasValue());
    }

    void wholeMalformedCorpusIsRejected() {
        // Every file under malformed/ is listed in EXPECTED.tsv, and every listed file is
        // rejected with its line and field, also when the format is detected.
        QSet<QString> listed;
        for (const auto& c : importer_test::malformedCases())
            listed.insert(c.relative);
        const QString root = fixture(QStringLiteral("malformed"));
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            const QString rel = QDir(root).relativeFilePath(path);
            if (rel == QLatin1String("EXPECTED.tsv"))
                continue;
            ++files;
            QVERIFY2(listed.contains(rel), qPrintable(rel + QStringLiteral(" is not in EXPECTED.tsv")));
        }
        QCOMPARE(files, listed.size());
        for (const auto& c : importer_test::malformedCases()) {
            const QString path = fixture(QStringLiteral("malformed/") + c.relative);
            auto r = importFile(path);
            QVERIFY2(!r.hasValue(), qPrintable(c.relative));
            QCOMPARE(r.error().file, path);
        }
    }

    void numberText() {
        double d = 0;
        qint64 i = 0;
        QString why;
        QVERIFY(parseFiniteDouble(" 1.155841E+01 ", d, why));
        QCOMPARE(d, 11.55841);
        QVERIFY(parseFiniteDouble("+2", d, why));
        QVERIFY(!parseFiniteDouble("nan", d, why));
        QVERIFY(why.contains(QStringLiteral("not finite")));
        QVERIFY(!parseFiniteDouble("-Infinity", d, why));
        QVERIFY(!parseFiniteDouble("1e999", d, why));
        QVERIFY(why.contains(QStringLiteral("out of range")));
        QVERIFY(!parseFiniteDouble("1.5x", d, why));
        QVERIFY(!parseFiniteDouble("", d, why));
        QVERIFY(parseIntegral("8.589934592e+09", 0, qint64(1) << 40, i, why));
        QCOMPARE(i, qint64(8589934592));
        QVERIFY(!parseIntegral("2.5", 0, 10, i, why));
        QVERIFY(!parseIntegral("11", 0, 10, i, why));
        QVERIFY(why.contains(QStringLiteral("between 0 and 10")));
    }

    void jsonCursorStrictness() {
        auto parsed = [](const char* text) {
            JsonCursor c(text, text + strlen(text));
            return c.skipValue() && c.atEnd();
        };
        QVERIFY(parsed("{\"a\": [1, -2.5e3, true, null, \"\\u00e9\\ud83d\\ude00\"]}"));
        QVERIFY(!parsed("{\"a\": 01}"));
        QVERIFY(!parsed("[1,]"));
        QVERIFY(!parsed("{\"a\" 1}"));
        QVERIFY(!parsed("\"\\ud800\""));
        QVERIFY(!parsed("[NaN]"));
        QVERIFY(!parsed("[1e400]"));
        // Depth is bounded (fuzzing).
        QByteArray deep(5000, '[');
        JsonCursor c(deep.constData(), deep.constData() + deep.size());
        QVERIFY(!c.skipValue());
    }

    void metricNames() {
        QCOMPARE(megatronMetricName(u"lm loss"), QStringLiteral("lm_loss"));
        QCOMPARE(megatronMetricName(u"throughput per GPU (TFLOP/s/GPU)"), QStringLiteral("tflops_per_gpu"));
        QCOMPARE(megatronMetricName(u"elapsed time per iteration (ms)"), QStringLiteral("elapsed_ms_per_iter"));
        QCOMPARE(megatronMetricName(u"number of nan iterations"), QStringLiteral("nan_iterations"));
        QCOMPARE(megatronMetricName(u"consumed tokens"), QStringLiteral("tokens"));
        QCOMPARE(megatronMetricName(u"throughput (tokens/s/GPU)"), QStringLiteral("tokens_per_s_per_gpu"));
        QCOMPARE(megatronMetricName(u"moe loss"), QStringLiteral("moe_loss"));
        QCOMPARE(megatronMetricName(u"params norm"), QStringLiteral("params_norm"));
        // + trace_busiest_share, trace_mean_share (profiler traces), the three MoE overload factors
        QCOMPARE(canonicalMetricNames().size(), 36);
        QVERIFY(isValidMetricName(u"val_ppl"));
        QVERIFY(!isValidMetricName(u"Val"));
        QVERIFY(!isValidMetricName(u"1x"));
    }
};

QTEST_GUILESS_MAIN(TestImportFormatDetection)
#include "test_import_format_detection.moc"
