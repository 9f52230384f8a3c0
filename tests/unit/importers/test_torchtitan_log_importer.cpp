// TorchtitanLogImporter: torchtitan console logs (torchtitan/components/metrics.py) with
// and without torchrun's rank prefixes and ANSI colours, several ranks per step, FP8
// ("mfu: N/A"), the pipeline-parallel loss placeholder, and torchtitan's TensorBoard tags.
// Every expected figure is the one the fixture prints (make_fixtures.py, torchtitan_fixtures).
#include "ImporterTestSupport.h"
#include "importers/MetricNames.h"
#include "importers/TensorBoardImporter.h"
#include "importers/TorchtitanLogImporter.h"

#include <QJsonArray>
#include <QMap>

using namespace moewb::importers;
using importer_test::fixture;

namespace {

ImportedData load(const QString& relative, const char* format) {
    auto r = importFile(fixture(relative)); // detected
    if (!r.hasValue())
        qFatal("%s", qPrintable(r.error().text()));
    if (r->format != QLatin1String(format))
        qFatal("detected as %s", qPrintable(r->format));
    return r.value();
}

QMap<QString, QMap<qint64, double>> byName(const ImportedData& d) {
    QMap<QString, QMap<qint64, double>> m;
    for (const auto& s : d.stepMetrics)
        m[s.name][s.step] = s.value;
    return m;
}

} // namespace

class TestTorchtitanLogImporter : public QObject {
    Q_OBJECT
private slots:
    void twoRanksWithColoursKeepRankZero() {
        const ImportedData d = load(QStringLiteral("torchtitan/deepseek-2ranks-color.log"), "torchtitan-log");
        QCOMPARE(d.rows, 4); // steps 1, 5, 10 and the validation at 10
        QCOMPARE(d.stepMetrics.size(), 3 * 7 + 1);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")], (QMap<qint64, double>{{1, 12.25}, {5, 9.875}, {10, 8.5}}));
        QCOMPARE(m[QStringLiteral("grad_norm")], (QMap<qint64, double>{{1, 16.5}, {5, 4.25}, {10, 2.125}}));
        // Rank 0's figures, also at step 5 where rank 1 printed first.
        QCOMPARE(m[QStringLiteral("memory_max_reserved_gib")], (QMap<qint64, double>{{1, 41.25}, {5, 43.0}, {10, 43.0}}));
        QCOMPARE(m[QStringLiteral("memory_max_reserved_percent")], (QMap<qint64, double>{{1, 52.09}, {5, 54.3}, {10, 54.3}}));
        // "tps: 1,234" (1234.4 rounded), "72,000", "73,100": thousands separators.
        QCOMPARE(m[QStringLiteral("tokens_per_s_per_gpu")], (QMap<qint64, double>{{1, 1234}, {5, 72000}, {10, 73100}}));
        // "tflops: 40.12", "1,027.50", "1,041.25"
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")], (QMap<qint64, double>{{1, 40.12}, {5, 1027.5}, {10, 1041.25}}));
        QCOMPARE(m[QStringLiteral("mfu_percent")], (QMap<qint64, double>{{1, 12.5}, {5, 97.0}, {10, 98.5}}));
        QCOMPARE(m[QStringLiteral("val_loss")], (QMap<qint64, double>{{10, 8.75}}));
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("framework")).toString(), QStringLiteral("torchtitan"));
        QCOMPARE(env.value(QStringLiteral("step_lines")).toInt(), 6);
        QCOMPARE(env.value(QStringLiteral("validation_lines")).toInt(), 2);
        QCOMPARE(env.value(QStringLiteral("other_rank_lines_skipped")).toInt(), 4);
        QCOMPARE(env.value(QStringLiteral("repeated_steps")).toInt(), 0);
        QCOMPARE(env.value(QStringLiteral("other_lines_skipped")).toInt(), 6);
        QCOMPARE(env.value(QStringLiteral("ranks_seen")).toArray(), (QJsonArray{0, 1}));
    }

    void singleProcessFp8WithoutColours() {
        const ImportedData d = load(QStringLiteral("torchtitan/fp8-single-nocolor.log"), "torchtitan-log");
        QCOMPARE(d.rows, 2);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")], (QMap<qint64, double>{{1, 11.0}, {2, 6.0908}}));
        QCOMPARE(m[QStringLiteral("grad_norm")][2], 4.2098);
        QCOMPARE(m[QStringLiteral("tokens_per_s_per_gpu")][2], 72915.0);
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")][1], 39.59);
        QCOMPARE(m[QStringLiteral("memory_max_reserved_gib")][1], 4.26);
        QCOMPARE(m[QStringLiteral("memory_max_reserved_percent")][2], 2.39);
        QVERIFY(!m.contains(QStringLiteral("mfu_percent"))); // "mfu: N/A" is no value
        QCOMPARE(d.environment.value(QStringLiteral("mfu_not_available")).toInt(), 2);
        QCOMPARE(d.environment.value(QStringLiteral("ranks_seen")).toArray(), (QJsonArray{0}));
        QCOMPARE(d.environment.value(QStringLiteral("other_lines_skipped")).toInt(), 2);
    }

    void pipelineLossFromTheLastStage() {
        const ImportedData d = load(QStringLiteral("torchtitan/pp-loss-on-last-stage.log"), "torchtitan-log");
        QCOMPARE(d.rows, 1);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")], (QMap<qint64, double>{{1, 10.5}})); // rank 2; rank 0 printed -2
        QCOMPARE(m[QStringLiteral("tokens_per_s_per_gpu")][1], 5000.0);            // rank 0's own figures
        QCOMPARE(m[QStringLiteral("memory_max_reserved_gib")][1], 30.0);
        QCOMPARE(d.environment.value(QStringLiteral("loss_placeholders_skipped")).toInt(), 1);
        QCOMPARE(d.environment.value(QStringLiteral("other_rank_lines_skipped")).toInt(), 1);
    }

    void theBriefsRealLine() {
        const QByteArray line = "[rank0]:[titan] 2026-07-17 12:05:19,496 - root - INFO - step:  2  loss:  6.09081  "
                                "grad_norm:  4.2098  memory:  4.26GiB(2.39%)  tps: 72,915  tflops: 39.59  mfu: N/A\n";
        auto r = TorchtitanLogImporter::parse(line, QStringLiteral("x.log"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const auto m = byName(r.value());
        QCOMPARE(m[QStringLiteral("lm_loss")][2], 6.09081);
        QCOMPARE(m[QStringLiteral("tokens_per_s_per_gpu")][2], 72915.0);
        QCOMPARE(r->stepMetrics.size(), 6);
        QCOMPARE(detectFormat(line, QStringLiteral("x.log")).value(), QStringLiteral("torchtitan-log"));
    }

    void torchtitanAndMegatronTensorBoardTags() {
        const ImportedData d =
            load(QStringLiteral("tensorboard/events.out.tfevents.torchtitan-megatron-moe"), "tensorboard");
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")][10], 8.5);
        QCOMPARE(m[QStringLiteral("lm_loss_max")][10], 9.25);
        QCOMPARE(m[QStringLiteral("tokens_per_s_per_gpu")][10], 72915.0);
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")][10], 39.5);
        QCOMPARE(m[QStringLiteral("mfu_percent")][10], 12.75);
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")][10], 2500.0); // 2.5 s
        QCOMPARE(m[QStringLiteral("time_metrics_data_loading_s")][10], 0.125);
        QCOMPARE(m[QStringLiteral("time_metrics_data_loading_percent")][10], 5.0);
        QCOMPARE(m[QStringLiteral("memory_max_reserved_gib")][10], 41.25);
        QCOMPARE(m[QStringLiteral("memory_max_reserved_percent")][10], 52.0);
        QCOMPARE(m[QStringLiteral("memory_num_ooms")][10], 0.0);
        QCOMPARE(m[QStringLiteral("tokens")][10], 1310720.0);
        QCOMPARE(m[QStringLiteral("lr_adamw")][10], double(0.00025f)); // a float32 simple_value
        QCOMPARE(m[QStringLiteral("val_loss")][10], 8.75);
        QCOMPARE(m[QStringLiteral("seq_load_balancing_loss")][10], 0.5);
        QCOMPARE(m[QStringLiteral("global_load_balancing_loss")][10], 1.0);
        QCOMPARE(m[QStringLiteral("load_balancing_loss_layer_3")][10], 1.125);
        QCOMPARE(m[QStringLiteral("z_loss_layer_0")][10], 0.0625);
        QCOMPARE(d.rows, 18);
    }

    void loggedKeyNames() {
        double scale = 0;
        QCOMPARE(loggedMetricName(QStringLiteral("loss_metrics/global_avg_loss"), scale), QStringLiteral("lm_loss"));
        QCOMPARE(scale, 1.0);
        QCOMPARE(loggedMetricName(QStringLiteral("time_metrics/end_to_end(s)"), scale), QStringLiteral("elapsed_ms_per_iter"));
        QCOMPARE(scale, 1000.0);
        QCOMPARE(loggedMetricName(QStringLiteral("memory/max_active(%)"), scale), QStringLiteral("memory_max_active_percent"));
        QCOMPARE(loggedMetricName(QStringLiteral("memory/max_active(GiB)"), scale), QStringLiteral("memory_max_active_gib"));
        QCOMPARE(loggedMetricName(QStringLiteral("validation_metrics/throughput(tps)"), scale),
                 QStringLiteral("val_tokens_per_s_per_gpu"));
        QCOMPARE(loggedMetricName(QStringLiteral("moe/global_load_balancing_loss_layer_12"), scale),
                 QStringLiteral("global_load_balancing_loss_layer_12"));
        QCOMPARE(loggedMetricName(QStringLiteral("lm-loss"), scale), QStringLiteral("lm_loss"));
        QCOMPARE(loggedMetricName(QStringLiteral("iteration-time"), scale), QStringLiteral("elapsed_ms_per_iter"));
        QCOMPARE(scale, 1000.0);
        QCOMPARE(loggedMetricName(QStringLiteral("throughput"), scale), QStringLiteral("tflops_per_gpu"));
        // Per-layer names take their base metric's range.
        QCOMPARE(metricRange(QStringLiteral("z_loss_layer_7")).max, 1e6);
        QCOMPARE(metricRange(QStringLiteral("load_balancing_loss_layer_0")).max, 1e4);
        QCOMPARE(metricRange(QStringLiteral("mfu_percent")).max, 1000.0);
        QVERIFY(canonicalMetricNames().contains(QStringLiteral("seq_load_balancing_loss")));
        QVERIFY(canonicalMetricNames().contains(QStringLiteral("global_load_balancing_loss")));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("torchtitan-log", TorchtitanLogImporter)
};

QTEST_GUILESS_MAIN(TestTorchtitanLogImporter)
#include "test_torchtitan_log_importer.moc"
