// MegatronLogImporter: the real Megatron-LM and Megatron-DeepSpeed logs, validation
// lines, noise, and every bad-input class.
#include "ImporterTestSupport.h"
#include "importers/MegatronLogImporter.h"

#include <QJsonArray>
#include <QMap>

using namespace moewb::importers;
using importer_test::fixture;

namespace {

ImportedData load(const QString& relative) {
    auto r = importFile(fixture(relative)); // detected
    if (!r.hasValue())
        qFatal("%s", qPrintable(r.error().text()));
    if (r->format != QLatin1String("megatron-log"))
        qFatal("detected as %s", qPrintable(r->format));
    return r.value();
}

// metric name -> step -> value
QMap<QString, QMap<qint64, double>> byName(const ImportedData& d) {
    QMap<QString, QMap<qint64, double>> m;
    for (const auto& s : d.stepMetrics)
        m[s.name][s.step] = s.value;
    return m;
}

} // namespace

class TestMegatronLogImporter : public QObject {
    Q_OBJECT
private slots:
    void megatronCoreMoeWithTimestampsAndAGap() {
        const ImportedData d = load(QStringLiteral("real/megatron_seunghyunseo-dmoe64-ep4.log"));
        QCOMPARE(d.rows, 13);
        QCOMPARE(d.stepMetrics.size(), 13 * 13);
        const auto m = byName(d);
        QCOMPARE(m.value(QStringLiteral("lm_loss")).size(), 13);
        QCOMPARE(m[QStringLiteral("lm_loss")][20], 11.55841);
        QCOMPARE(m[QStringLiteral("lm_loss")][1140], 4.289932);
        QCOMPARE(m[QStringLiteral("load_balancing_loss")][20], 1.436934);
        QCOMPARE(m[QStringLiteral("load_balancing_loss")][1080], 0.9994035);
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")][40], 39.3);
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")][20], 2027.3);
        QCOMPARE(m[QStringLiteral("learning_rate")][1140], 5.999809e-04);
        QCOMPARE(m[QStringLiteral("global_batch_size")][100], 64.0);
        QCOMPARE(m[QStringLiteral("grad_norm")][1060], 0.331);
        QCOMPARE(m[QStringLiteral("skipped_iterations")][140], 0.0);
        QCOMPARE(m[QStringLiteral("nan_iterations")][140], 0.0);
        QCOMPARE(m[QStringLiteral("consumed_samples")][1140], 72960.0); // other keys kept in snake_case
        QCOMPARE(m[QStringLiteral("num_zeros")][20], 312072984.0);
        QCOMPARE(m[QStringLiteral("params_norm")][20], 1104.963);
        QCOMPARE(m[QStringLiteral("loss_scale")][20], 1.0);
        QVERIFY(!m.contains(QStringLiteral("val_loss")));
        QCOMPARE(d.environment.value(QStringLiteral("framework")).toString(), QStringLiteral("Megatron-LM"));
        QCOMPARE(d.environment.value(QStringLiteral("train_iters")).toInt(), 40000);
        QCOMPARE(d.environment.value(QStringLiteral("other_lines_skipped")).toInt(), 7);
    }

    void pythonWarningsBetweenIterations() {
        const ImportedData d = load(QStringLiteral("real/megatron_seunghyunseo-moe64-ep8-warnings.log"));
        QCOMPARE(d.rows, 11);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")].keys(),
                 (QList<qint64>{20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220}));
        QCOMPARE(m[QStringLiteral("lm_loss")][220], 6.749821);
        QCOMPARE(m[QStringLiteral("load_balancing_loss")][40], 1.321269);
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")][20], 3367.6);
        QCOMPARE(d.environment.value(QStringLiteral("other_lines_skipped")).toInt(), 12);
    }

    void deepSpeedMoeLossAndValidationBlock() {
        const ImportedData d = load(QStringLiteral("real/deepspeed_haibaraaichan-megatron-ds-moe64.log"));
        QCOMPARE(d.rows, 19); // 18 iteration lines + 1 validation line
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")].size(), 18);
        QCOMPARE(m[QStringLiteral("lm_loss")][10], 10.6858);
        QCOMPARE(m[QStringLiteral("moe_loss")][10], 0.08526326);
        QCOMPARE(m[QStringLiteral("moe_loss")][180], 0.06155881);
        QCOMPARE(m[QStringLiteral("tokens")][10], 5242880.0); // consumed tokens
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")][110], 16.00); // TFLOPs
        QCOMPARE(m[QStringLiteral("samples_per_second")][10], 32.147);
        QCOMPARE(m[QStringLiteral("learning_rate")][10], 5.662e-06);
        QCOMPARE(m[QStringLiteral("val_loss")], (QMap<qint64, double>{{100, 7.095548}}));
        QCOMPARE(m[QStringLiteral("val_ppl")], (QMap<qint64, double>{{100, 1206.584}}));
        QCOMPARE(d.environment.value(QStringLiteral("framework")).toString(), QStringLiteral("Megatron-DeepSpeed"));
        QCOMPARE(d.environment.value(QStringLiteral("validation_lines")).toInt(), 1);
        QCOMPARE(d.environment.value(QStringLiteral("train_iters")).toInt(), 1716613);
    }

    void pdshHostPrefixes() {
        const ImportedData d = load(QStringLiteral("real/deepspeed_superbench-megatron-ds-pdsh.log"));
        QCOMPARE(d.rows, 5);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")][1], 11.00492);
        QCOMPARE(m[QStringLiteral("lm_loss")][5], 9.927882);
        QCOMPARE(m[QStringLiteral("actual_seqlen")][3], 2048.0);
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")][5], 150.62);
        QCOMPARE(m[QStringLiteral("global_batch_size")][1], 2048.0);
        QCOMPARE(d.stepMetrics.size(), 5 * 12);
    }

    void zLossTokensPerGpuAndCoreValidationLine() {
        const ImportedData d = load(QStringLiteral("megatron/megatron-core-zloss.log"));
        QCOMPARE(d.rows, 3);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("z_loss")][10], 0.025);
        QCOMPARE(m[QStringLiteral("tokens_per_s_per_gpu")][20], 3276.8);
        QCOMPARE(m[QStringLiteral("val_loss")][20], 8.25);
        QCOMPARE(m[QStringLiteral("val_ppl")][20], 3827.626);
        QCOMPARE(m[QStringLiteral("val_load_balancing_loss")][20], 1.015625);
    }

    MOEWB_IMPORTER_CORPUS_TESTS("megatron-log", MegatronLogImporter)
};

QTEST_GUILESS_MAIN(TestMegatronLogImporter)
#include "test_megatron_log_importer.moc"
