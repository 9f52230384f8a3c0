// TensorBoardImporter: TFRecord framing, both CRCs, scalars from simple_value and tensors;
// plus the CRC-32C and the protobuf wire reader it is built on.
#include "ImporterTestSupport.h"
#include "importers/Crc32c.h"
#include "importers/ProtoWireReader.h"
#include "importers/TensorBoardImporter.h"

#include <QJsonArray>

using namespace moewb::importers;
using importer_test::fixture;

class TestTensorBoardImporter : public QObject {
    Q_OBJECT
private slots:
    void crc32cKnownValues() {
        // RFC 3720 B.4 test vectors.
        QCOMPARE(crc32c("123456789", 9), 0xE3069283u);
        const QByteArray zeros(32, '\0');
        QCOMPARE(crc32c(zeros.constData(), 32), 0x8A9136AAu);
        const QByteArray ones(32, '\xff');
        QCOMPARE(crc32c(ones.constData(), 32), 0x62A8AB43u);
    }

    void wireReaderBoundsChecked() {
        const char varint[] = {char(0x08), char(0x96), char(0x01)}; // field 1 = 150
        ProtoWireReader r(std::string_view(varint, 3));
        QVERIFY(r.next());
        QCOMPARE(r.field(), 1u);
        QCOMPARE(r.varint(), quint64(150));
        QVERIFY(!r.next());
        QVERIFY(r.error().isEmpty());
        const char overlong[] = {char(0x12), char(0x05), 'a', 'b'}; // says 5 bytes, has 2
        ProtoWireReader bad(std::string_view(overlong, 4));
        QVERIFY(!bad.next());
        QVERIFY(!bad.error().isEmpty());
        const char cut[] = {char(0x08), char(0x96)};
        ProtoWireReader cutReader(std::string_view(cut, 2));
        QVERIFY(!cutReader.next());
        QVERIFY(!cutReader.error().isEmpty());
    }

    void scalarsFromSimpleValuesAndTensors() {
        const QString path = fixture(QStringLiteral("tensorboard/events.out.tfevents.1700000000.node-a"));
        auto r = importFile(path);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("tensorboard"));
        QCOMPARE(d.rows, 8);
        const QList<std::tuple<qint64, QString, double>> expected{
            {1, QStringLiteral("lm_loss"), 10.5},
            {2, QStringLiteral("lm_loss"), 9.75},
            {3, QStringLiteral("lm_loss"), 9.0},
            {1, QStringLiteral("load_balancing_loss"), 1.25},      // tensor float_val
            {2, QStringLiteral("learning_rate"), 3e-4},            // tensor double_val
            {3, QStringLiteral("elapsed_ms_per_iter"), 500.0},     // tensor_content, seconds -> ms
            {3, QStringLiteral("val_loss"), 8.5},
            {3, QStringLiteral("val_ppl"), double(4914.77f)}};
        QCOMPARE(d.stepMetrics.size(), expected.size());
        for (int i = 0; i < expected.size(); ++i) {
            QCOMPARE(d.stepMetrics[i].step, std::get<0>(expected[i]));
            QCOMPARE(d.stepMetrics[i].name, std::get<1>(expected[i]));
            QCOMPARE(d.stepMetrics[i].value, std::get<2>(expected[i]));
        }
        QCOMPARE(d.environment.value(QStringLiteral("records")).toInt(), 9);
        QCOMPARE(d.environment.value(QStringLiteral("file_version")).toString(), QStringLiteral("brain.Event:2"));
        QCOMPARE(d.environment.value(QStringLiteral("non_scalar_values_skipped")).toInt(), 1);
        QCOMPARE(d.environment.value(QStringLiteral("vs_samples_or_tokens_values_skipped")).toInt(), 3);
    }

    void tagNames() {
        double scale = 0;
        QCOMPARE(TensorBoardImporter::metricNameForTag(QStringLiteral("lm-loss-validation-ppl"), scale), QStringLiteral("val_ppl"));
        QCOMPARE(TensorBoardImporter::metricNameForTag(QStringLiteral("grad-norm"), scale), QStringLiteral("grad_norm"));
        QCOMPARE(TensorBoardImporter::metricNameForTag(QStringLiteral("batch-size"), scale), QStringLiteral("global_batch_size"));
        QCOMPARE(TensorBoardImporter::metricNameForTag(QStringLiteral("iteration-time"), scale),
                 QStringLiteral("elapsed_ms_per_iter"));
        QCOMPARE(scale, 1000.0);
    }

    void everyTruncationPointIsRejected() {
        const QByteArray bytes = importer_test::readFixture(QStringLiteral("tensorboard/events.out.tfevents.1700000000.node-a"));
        for (qsizetype cut = 1; cut < bytes.size(); ++cut) {
            auto r = TensorBoardImporter::parse(bytes.left(cut), QStringLiteral("cut"));
            // A cut exactly between records leaves a shorter but valid file.
            if (r.hasValue())
                continue;
            QVERIFY(r.error().line >= 1 || r.error().message.contains(QStringLiteral("no scalar")));
            QVERIFY2(r.error().message.contains(QStringLiteral("truncated")) ||
                         r.error().message.contains(QStringLiteral("no scalar")),
                     qPrintable(r.error().text()));
        }
    }

    MOEWB_IMPORTER_CORPUS_TESTS("tensorboard", TensorBoardImporter)
};

QTEST_GUILESS_MAIN(TestTensorBoardImporter)
#include "test_tensorboard_importer.moc"
