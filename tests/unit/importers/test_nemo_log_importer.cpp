// NemoLogImporter: NeMo 2's ProgressPrinter lines (nemo/lightning/pytorch/callbacks/
// progress_printer.py) among NeMo's own log lines, Megatron timers and validation
// progress. Every expected figure is the one the fixture prints (make_fixtures.py, nemo_fixtures).
#include "ImporterTestSupport.h"
#include "importers/NemoLogImporter.h"

#include <QMap>

using namespace moewb::importers;
using importer_test::fixture;

namespace {

QMap<QString, QMap<qint64, double>> byName(const ImportedData& d) {
    QMap<QString, QMap<qint64, double>> m;
    for (const auto& s : d.stepMetrics)
        m[s.name][s.step] = s.value;
    return m;
}

} // namespace

class TestNemoLogImporter : public QObject {
    Q_OBJECT
private slots:
    void pretrainingProgress() {
        auto r = importFile(fixture(QStringLiteral("nemo/pretrain-progress.log"))); // detected
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->format, QStringLiteral("nemo-log"));
        const ImportedData& d = r.value();
        QCOMPARE(d.rows, 5);
        QCOMPARE(d.stepMetrics.size(), 5 * 5 + 1);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")],
                 (QMap<qint64, double>{{0, 11.02}, {1, 10.52}, {2, 10.02}, {3, 9.52}, {4, 9.125}}));
        QCOMPARE(m[QStringLiteral("learning_rate")],
                 (QMap<qint64, double>{{0, 1.499e-07}, {1, 2.998e-07}, {2, 4.497e-07}, {3, 5.996e-07}, {4, 7.495e-07}}));
        // "train_step_timing in s" in milliseconds
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")],
                 (QMap<qint64, double>{{0, 3210.0}, {1, 3460.0}, {2, 3710.0}, {3, 3960.0}, {4, 3000.0}}));
        QCOMPARE(m[QStringLiteral("global_batch_size")][3], 32.0);
        QCOMPARE(m[QStringLiteral("consumed_samples")],
                 (QMap<qint64, double>{{0, 32.0}, {1, 64.0}, {2, 96.0}, {3, 128.0}, {4, 160.0}}));
        QCOMPARE(m[QStringLiteral("val_loss")], (QMap<qint64, double>{{4, 9.5}}));
        QVERIFY(!m.contains(QStringLiteral("global_step"))); // the step, not a metric
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("framework")).toString(), QStringLiteral("NeMo"));
        QCOMPARE(env.value(QStringLiteral("global_step_differs_from_iteration")).toInt(), 0);
        QCOMPARE(env.value(QStringLiteral("validation_progress_lines")).toInt(), 2);
        QCOMPARE(env.value(QStringLiteral("other_lines_skipped")).toInt(), 4);
        QCOMPARE(env.value(QStringLiteral("last_iteration_total")).toInt(), 9);
    }

    void stepIsGlobalStepInALaterEpoch() {
        // Epoch 1 restarts the printer's iteration at 0; Lightning's global_step goes on.
        const QByteArray text = "Training epoch 0, iteration 1/1 | global_step: 1 | reduced_train_loss: 2.5\n"
                                "Training epoch 1, iteration 0/1 | global_step: 2 | reduced_train_loss: 2.25\n"
                                "Training epoch 1, iteration 1/1 | reduced_train_loss: 2\n";
        auto r = NemoLogImporter::parse(text, QStringLiteral("x.log"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        // Line 3 prints no global_step: its iteration (1) is the step.
        QCOMPARE(r->stepMetrics.size(), 3);
        QCOMPARE(r->stepMetrics[0].step, 1);
        QCOMPARE(r->stepMetrics[1].step, 2);
        QCOMPARE(r->stepMetrics[1].value, 2.25);
        QCOMPARE(r->stepMetrics[2].step, 1);
        QCOMPARE(r->environment.value(QStringLiteral("global_step_differs_from_iteration")).toInt(), 1);
        QCOMPARE(r->environment.value(QStringLiteral("epochs")).toInt(), 2);
    }

    void megatronDetectionDoesNotTakeNemoLines() {
        const QByteArray line = "Training epoch 0, iteration 0/9 | lr: 1.499e-07 | global_batch_size: 32 | global_step: 0 | "
                                "reduced_train_loss: 11.02 | train_step_timing in s: 3.21 | consumed_samples: 32\n";
        QCOMPARE(detectFormat(line, QStringLiteral("x.log")).value(), QStringLiteral("nemo-log"));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("nemo-log", NemoLogImporter)
};

QTEST_GUILESS_MAIN(TestNemoLogImporter)
#include "test_nemo_log_importer.moc"
