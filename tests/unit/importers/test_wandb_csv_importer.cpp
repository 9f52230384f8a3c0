// WandbCsvImporter: W&B chart exports ("Step","<run> - <metric>","…__MIN","…__MAX"), one
// run and several, torchtitan and Megatron keys. Every expected figure is the one the
// fixture holds (make_fixtures.py, wandb_fixtures).
#include "ImporterTestSupport.h"
#include "importers/WandbCsvImporter.h"

#include <QMap>

using namespace moewb::importers;
using importer_test::fixture;
using importer_test::readFixture;

namespace {

QMap<QString, QMap<qint64, double>> byName(const ImportedData& d) {
    QMap<QString, QMap<qint64, double>> m;
    for (const auto& s : d.stepMetrics)
        m[s.name][s.step] = s.value;
    return m;
}

} // namespace

class TestWandbCsvImporter : public QObject {
    Q_OBJECT
private slots:
    void oneTorchtitanRun() {
        auto r = importFile(fixture(QStringLiteral("wandb/torchtitan-one-run.csv"))); // detected
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->format, QStringLiteral("wandb-csv"));
        const ImportedData& d = r.value();
        QCOMPARE(d.rows, 3);
        QCOMPARE(d.stepMetrics.size(), 14); // 5 metrics x 3 steps, mfu missing at step 10
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")], (QMap<qint64, double>{{1, 11.5}, {10, 9.25}, {20, 8.75}}));
        QCOMPARE(m[QStringLiteral("tokens_per_s_per_gpu")], (QMap<qint64, double>{{1, 60000}, {10, 72915.5}, {20, 73000}}));
        QCOMPARE(m[QStringLiteral("mfu_percent")], (QMap<qint64, double>{{1, 12.5}, {20, 14.75}}));
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")], (QMap<qint64, double>{{1, 2500}, {10, 2062.5}, {20, 2000}}));
        QCOMPARE(m[QStringLiteral("memory_max_reserved_gib")], (QMap<qint64, double>{{1, 40.25}, {10, 41.5}, {20, 41.5}}));
        QCOMPARE(d.environment.value(QStringLiteral("run")).toString(), QStringLiteral("dsv3-16b-fp8"));
        QCOMPARE(d.environment.value(QStringLiteral("min_max_columns_skipped")).toInt(), 10);
        QCOMPARE(d.environment.value(QStringLiteral("x_axis")).toString(), QStringLiteral("Step"));
    }

    // NeMo-Automodel's MoE load-balance metrics (nemo_automodel/components/moe/
    // load_balance_metrics.py, compute_detailed_metrics) in a W&B chart export: each key
    // lands under its documented name; the per-layer and per-expert keys keep their layer.
    void nemoAutomodelMoeMetrics() {
        const QStringList keys{QStringLiteral("moe/cv_mean"),
                               QStringLiteral("moe/expert_utilization_max"),
                               QStringLiteral("moe/aux_loss_mean"),
                               QStringLiteral("moe/dead_expert_frac_mean"),
                               QStringLiteral("moe/expert_diversity_min"),
                               QStringLiteral("moe/layer_3/cv"),
                               QStringLiteral("moe/layer_3/dead_expert_frac"),
                               QStringLiteral("moe_expert_utilization/layer_0_expert_5")};
        const QStringList names{QStringLiteral("load_cv_mean"),
                                QStringLiteral("expert_utilization_max"),
                                QStringLiteral("load_balancing_loss"),
                                QStringLiteral("dead_expert_frac_mean"),
                                QStringLiteral("expert_diversity_min"),
                                QStringLiteral("load_cv_layer_3"),
                                QStringLiteral("dead_expert_frac_layer_3"),
                                QStringLiteral("expert_utilization_layer_0_expert_5")};
        QByteArray csv = "\"Step\"";
        for (const QString& k : keys)
            csv += ",\"moe-16b - " + k.toUtf8() + "\"";
        csv += "\n\"10\"";
        for (int i = 0; i < keys.size(); ++i)
            csv += ",\"0." + QByteArray::number(i + 1) + "\"";
        csv += "\n";
        auto r = WandbCsvImporter::parse(csv, QStringLiteral("automodel.csv"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const auto m = byName(r.value());
        for (int i = 0; i < names.size(); ++i)
            QCOMPARE(m.value(names[i]), (QMap<qint64, double>{{10, (i + 1) / 10.0}}));
    }

    void severalRunsArePickedOneByOne() {
        const QString path = fixture(QStringLiteral("wandb/megatron-two-runs.csv"));
        const QByteArray bytes = readFixture(QStringLiteral("wandb/megatron-two-runs.csv"));
        auto names = WandbCsvImporter::runNames(bytes, path);
        QVERIFY(names.hasValue());
        QCOMPARE(names.value(), (QStringList{QStringLiteral("moe-64e-a"), QStringLiteral("moe-64e-b")}));

        auto refused = importFile(path);
        QVERIFY(!refused.hasValue());
        QCOMPARE(refused.error().line, 1);
        QVERIFY(refused.error().message.contains(QStringLiteral("moe-64e-a, moe-64e-b")));
        QVERIFY(refused.error().message.contains(QStringLiteral("--wandb-run")));

        auto a = WandbCsvImporter::parseRun(bytes, path, QStringLiteral("moe-64e-a"));
        QVERIFY2(a.hasValue(), a.hasValue() ? "" : qPrintable(a.error().text()));
        auto ma = byName(a.value());
        QCOMPARE(ma[QStringLiteral("lm_loss")], (QMap<qint64, double>{{100, 7.5}, {200, 6.25}, {300, 5.5}}));
        QCOMPARE(ma[QStringLiteral("elapsed_ms_per_iter")][100], 812.5); // iteration-time 0.8125 s
        QCOMPARE(ma[QStringLiteral("load_balancing_loss")][200], 1.0625);
        QCOMPARE(ma[QStringLiteral("load_balancing_loss_layer_3")][300], 1.125);
        QCOMPARE(a->rows, 3);
        QCOMPARE(a->environment.value(QStringLiteral("other_run_columns_skipped")).toInt(), 12);

        auto b = WandbCsvImporter::parseRun(bytes, path, QStringLiteral("moe-64e-b"));
        QVERIFY(b.hasValue());
        auto mb = byName(b.value());
        QCOMPARE(mb[QStringLiteral("lm_loss")], (QMap<qint64, double>{{100, 7.75}, {200, 6.5}}));
        QCOMPARE(mb[QStringLiteral("elapsed_ms_per_iter")][200], 875.0);
        QCOMPARE(mb[QStringLiteral("load_balancing_loss_layer_3")][100], 1.5);
        QCOMPARE(b->rows, 2);
        QCOMPARE(b->environment.value(QStringLiteral("rows_without_values")).toInt(), 1);

        auto none = WandbCsvImporter::parseRun(bytes, path, QStringLiteral("moe-64e-c"));
        QVERIFY(!none.hasValue());
        QVERIFY(none.error().message.contains(QStringLiteral("moe-64e-c")));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("wandb-csv", WandbCsvImporter)
};

QTEST_GUILESS_MAIN(TestWandbCsvImporter)
#include "test_wandb_csv_importer.moc"
