// MegatronLogImporter on recent Megatron-Core and Megatron-Bridge console logs: the
// microsecond timestamp (core_v0.16+), MoEMetricsTracker's losses (moe_logging.py:
// load_balancing_loss, seq_load_balancing_loss, global_load_balancing_loss, z_loss),
// energy/power fields, and Megatron-Bridge's timestamp in seconds and its framework tell.
// Every expected figure is the one the fixture prints (make_fixtures.py,
// megatron_core_recent_fixtures). The malformed corpus runs in test_megatron_log_importer.
#include "ImporterTestSupport.h"
#include "importers/MegatronLogImporter.h"

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

QMap<QString, QMap<qint64, double>> byName(const ImportedData& d) {
    QMap<QString, QMap<qint64, double>> m;
    for (const auto& s : d.stepMetrics)
        m[s.name][s.step] = s.value;
    return m;
}

} // namespace

class TestMegatronCoreLogImporter : public QObject {
    Q_OBJECT
private slots:
    void coreMicrosecondTimestampsAndMoeLosses() {
        const ImportedData d = load(QStringLiteral("megatron/megatron-core-0.18-moe-losses.log"));
        QCOMPARE(d.rows, 2);
        QCOMPARE(d.stepMetrics.size(), 2 * 16);
        // The values as the log prints them ("{:.6E}": 1.0078125 -> 1.007812E+00).
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")], (QMap<qint64, double>{{10, 10.75}, {20, 9.5}}));
        QCOMPARE(m[QStringLiteral("load_balancing_loss")], (QMap<qint64, double>{{10, 1.015625}, {20, 1.007812}}));
        QCOMPARE(m[QStringLiteral("seq_load_balancing_loss")], (QMap<qint64, double>{{10, 0.5078125}, {20, 0.5039062}}));
        QCOMPARE(m[QStringLiteral("global_load_balancing_loss")], (QMap<qint64, double>{{10, 1.03125}, {20, 1.015625}}));
        QCOMPARE(m[QStringLiteral("z_loss")], (QMap<qint64, double>{{10, 0.0125}, {20, 0.00625}}));
        QCOMPARE(m[QStringLiteral("learning_rate")], (QMap<qint64, double>{{10, 3e-4}, {20, 6e-4}}));
        QCOMPARE(m[QStringLiteral("consumed_samples")], (QMap<qint64, double>{{10, 2560}, {20, 5120}}));
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")][20], 850.5);
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")][10], 412.3);
        QCOMPARE(m[QStringLiteral("energy_per_gpu_j_iter_gpu")][10], 601.2);
        QCOMPARE(m[QStringLiteral("power_per_gpu_w_gpu")][20], 706.9);
        QCOMPARE(m[QStringLiteral("global_batch_size")][20], 256.0);
        QCOMPARE(d.environment.value(QStringLiteral("framework")).toString(), QStringLiteral("Megatron-LM"));
        QCOMPARE(d.environment.value(QStringLiteral("train_iters")).toInt(), 1000);
        QCOMPARE(d.environment.value(QStringLiteral("other_lines_skipped")).toInt(), 1);
    }

    void megatronBridge() {
        const ImportedData d = load(QStringLiteral("megatron/megatron-bridge.log"));
        QCOMPARE(d.rows, 1);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")][5], 10.5);
        QCOMPARE(m[QStringLiteral("load_balancing_loss")][5], 1.25);
        QCOMPARE(m[QStringLiteral("consumed_samples")][5], 40.0);
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")][5], 1203.7);
        QCOMPARE(m[QStringLiteral("learning_rate")][5], 1.5e-5);
        QCOMPARE(d.environment.value(QStringLiteral("framework")).toString(), QStringLiteral("Megatron-Bridge"));
        QCOMPARE(d.environment.value(QStringLiteral("train_iters")).toInt(), 100);
    }
};

QTEST_GUILESS_MAIN(TestMegatronCoreLogImporter)
#include "test_megatron_core_log_importer.moc"
