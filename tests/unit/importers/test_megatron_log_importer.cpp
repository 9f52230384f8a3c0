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

    // ---- Damaged lines: the readable fields kept, the rest listed; --strict refuses ----
    void damagedFieldsAreLeftOutTheRestKept_data() {
        QTest::addColumn<QByteArray>("damaged");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("leftOut");
        const QByteArray it = "[2025-03-01 10:00:00] iteration       20/     500 | elapsed time per iteration (ms): "
                              "812.5 | learning rate: 1.500000E-05 | global batch size:    64 | lm loss: LOSS | "
                              "grad norm: GN |";
        auto line = [&](const char* loss, const char* gn) {
            return QByteArray(it).replace("LOSS", loss).replace("GN", gn);
        };
        QTest::newRow("nan") << line("nan", "3.250") << QStringLiteral("lm_loss") << 1;
        QTest::newRow("inf") << line("9.5E+00", "inf") << QStringLiteral("grad_norm") << 1;
        QTest::newRow("absurd") << line("1.0E+09", "3.250") << QStringLiteral("lm_loss") << 1;
        QTest::newRow("wrong type") << line("9.5E+00", "three") << QStringLiteral("grad_norm") << 1;
        QTest::newRow("two bad") << line("nan", "three") << QStringLiteral("lm_loss") << 2;
        QTest::newRow("without value")
            << line("9.5E+00", "3.250").replace("| lm loss: 9.5E+00 |", "| lm loss 9.5 |")
            << QStringLiteral("lm loss 9.5") << 1;
        QTest::newRow("truncated") << line("9.5E+00", "3.250").replace(" | grad norm: 3.250 |", " | grad norm: 3.2")
                                   << QStringLiteral("grad_norm") << 1;
        // Another process's print glued onto the line (as Megatron's own
        // theoretical_memory_usage.py prints it).
        QTest::newRow("print glued on")
            << line("9.5E+00", "3.250") + "Number of parameters in transformer block in billions:  6.14"
            << QStringLiteral("number_of_parameters_in_transformer_block_in_billions") << 1;
    }
    void damagedFieldsAreLeftOutTheRestKept() {
        QFETCH(QByteArray, damaged);
        QFETCH(QString, field);
        QFETCH(int, leftOut);
        const QByteArray good = "[2025-03-01 10:00:00] iteration       10/     500 | elapsed time per iteration (ms): "
                                "812.5 | learning rate: 1.500000E-05 | global batch size:    64 | lm loss: "
                                "9.875000E+00 | grad norm: 3.250 |\n";
        const QByteArray bytes = good + "noise between them\n" + damaged + "\n";
        // The fields of the damaged line, counted here: "key: value" segments between bars,
        // a glued tail or a cut last field being one more segment.
        const QList<QByteArray> segments = damaged.mid(damaged.indexOf("500 |") + 5).split('|');
        int fields = 0;
        for (const QByteArray& seg : segments)
            fields += seg.trimmed().isEmpty() ? 0 : 1;
        auto r = MegatronLogImporter::parse(bytes, QStringLiteral("d.log"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, 2);
        const auto m = byName(r.value());
        QCOMPARE(m.value(QStringLiteral("elapsed_ms_per_iter")).value(20), 812.5);
        QCOMPARE(m.value(QStringLiteral("learning_rate")).size(), 2);
        QVERIFY(!m.contains(QStringLiteral("number_of_parameters_in_transformer_block_in_billions")));
        qint64 step20 = 0;
        for (const auto& sm : r->stepMetrics)
            step20 += sm.step == 20 ? 1 : 0;
        QCOMPARE(step20, fields - leftOut);
        const QJsonArray listed = r->environment.value(QStringLiteral("damaged_lines")).toArray();
        QCOMPARE(listed.size(), 1);
        const QJsonObject d = listed[0].toObject();
        QCOMPARE(d.value(QStringLiteral("line")).toInteger(), 3);
        QCOMPARE(d.value(QStringLiteral("field")).toString(), field);
        QCOMPARE(d.value(QStringLiteral("kept")).toInteger(), fields - leftOut);
        QCOMPARE(d.value(QStringLiteral("left_out")).toInteger(), leftOut);
        QCOMPARE(r->environment.value(QStringLiteral("damaged_lines_total")).toInteger(), 1);
        // --strict: the first damaged line refuses the file, naming it.
        auto strict = MegatronLogImporter::parseStrict(bytes, QStringLiteral("d.log"));
        QVERIFY(!strict.hasValue());
        QCOMPARE(strict.error().line, 3);
        QCOMPARE(strict.error().field, field);
    }

    void damagedLinesAreCountedPastTheList() {
        // 60 iteration lines whose step is past the total: each left out whole, 50 listed;
        // one good line keeps the file.
        QByteArray bytes = "[2025-03-01 10:00:00] iteration 1/ 100 | lm loss: 9.5 |\n";
        for (int i = 0; i < 60; ++i)
            bytes += QByteArray("[2025-03-01 10:00:00] iteration ") + QByteArray::number(200 + i) + "/ 100 | lm loss: 9.5 |\n";
        auto r = MegatronLogImporter::parse(bytes, QStringLiteral("d.log"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, 1);
        QCOMPARE(r->environment.value(QStringLiteral("damaged_lines")).toArray().size(), 50);
        QCOMPARE(r->environment.value(QStringLiteral("damaged_lines_total")).toInteger(), 60);
        QCOMPARE(r->environment.value(QStringLiteral("damaged_lines")).toArray()[0].toObject().value(QStringLiteral("kept")).toInteger(), 0);
        // Without the good line nothing usable remains: the first damaged line refuses it.
        r = MegatronLogImporter::parse(bytes.mid(bytes.indexOf('\n') + 1), QStringLiteral("d.log"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 1);
        QVERIFY2(r.error().message.contains(QStringLiteral("and 59 more damaged line")), qPrintable(r.error().message));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("megatron-log", MegatronLogImporter)
};

QTEST_GUILESS_MAIN(TestMegatronLogImporter)
#include "test_megatron_log_importer.moc"
