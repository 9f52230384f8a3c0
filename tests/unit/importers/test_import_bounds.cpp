// What keeps an import bounded: number arrays read from their text (a located error
// still names the item's line and path), no message quoting more than a few hundred
// characters of the input, CSV lines with absurdly many or long fields refused, and
// the size limit (MOEWB_IMPORT_MAX_BYTES) refusing a file before it is read.
#include "ImporterTestSupport.h"
#include "importers/ImportLimits.h"
#include "importers/ImportSupport.h"
#include "importers/JsonFields.h"
#include "importers/JsonTree.h"
#include "importers/NcclTestsJsonImporter.h"
#include "importers/ProbeJsonImporter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>

using namespace moewb::importers;
using importer_test::fixture;
using importer_test::readFixture;

namespace {

// The 1-based line of the n-th (0-based) occurrence of `needle` in `text`.
qint64 lineOfOccurrence(const QByteArray& text, const QByteArray& needle, int n) {
    qsizetype at = -1;
    for (int i = 0; i <= n; ++i)
        at = text.indexOf(needle, at + 1);
    return at < 0 ? -1 : text.left(at).count('\n') + 1;
}

// The longest run of one character in `text`.
qsizetype longestRun(const QString& text, QChar c) {
    qsizetype best = 0, run = 0;
    for (QChar x : text) {
        run = x == c ? run + 1 : 0;
        best = std::max(best, run);
    }
    return best;
}

} // namespace

class TestImportBounds : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& bytes) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    // The real probe report with the first repeat's samples replaced by `samples`,
    // written as the probe writes it (one value per line) or on one line.
    static QByteArray probeWithSamples(const QJsonArray& samples, bool indented) {
        QJsonObject doc = QJsonDocument::fromJson(readFixture(QStringLiteral("probe/probe-tcp-2ranks-samples.json"))).object();
        QJsonObject options = doc.value(QStringLiteral("options")).toObject();
        options.insert(QStringLiteral("iters"), samples.size());
        doc.insert(QStringLiteral("options"), options);
        QJsonArray results = doc.value(QStringLiteral("results")).toArray();
        for (qsizetype r = 0; r < results.size(); ++r) {
            QJsonObject result = results[r].toObject();
            result.insert(QStringLiteral("iterations"), samples.size());
            QJsonArray reps = result.value(QStringLiteral("repeats")).toArray();
            for (qsizetype k = 0; k < reps.size(); ++k) {
                QJsonObject rep = reps[k].toObject();
                rep.insert(QStringLiteral("samples_us"), samples);
                reps[k] = rep;
            }
            result.insert(QStringLiteral("repeats"), reps);
            results[r] = result;
        }
        doc.insert(QStringLiteral("results"), results);
        return QJsonDocument(doc).toJson(indented ? QJsonDocument::Indented : QJsonDocument::Compact);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Many samples, read from the text without a node each: every value as Qt's own
    // JSON reader reads it, in order, for every size and repeat.
    void packedSamplesKeepEveryValue_data() {
        QTest::addColumn<bool>("indented");
        QTest::newRow("one per line") << true;
        QTest::newRow("one line") << false;
    }
    void packedSamplesKeepEveryValue() {
        QFETCH(bool, indented);
        QJsonArray samples;
        QRandomGenerator rng(7);
        for (int i = 0; i < 5000; ++i)
            samples.append(double(rng.bounded(1, 10000000)) / 1000.0);
        const QByteArray text = probeWithSamples(samples, indented);
        auto r = ProbeJsonImporter::parse(text, QStringLiteral("big.json"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const auto& s = r.value().commSamples;
        const QJsonArray results = QJsonDocument::fromJson(text).object().value(QStringLiteral("results")).toArray();
        qsizetype expected = 0;
        for (const QJsonValue& result : results)
            expected += result.toObject().value(QStringLiteral("repeats")).toArray().size() * samples.size();
        QCOMPARE(s.size(), expected);
        QCOMPARE(r.value().rows, expected);
        for (qsizetype i = 0; i < s.size(); ++i) {
            QCOMPARE(s[i].iteration, int(i % samples.size()));
            QCOMPARE(s[i].timeUs, samples[i % samples.size()].toDouble());
        }
    }

    // A bad value deep in a packed array: its own line and path, not the array's.
    void packedArrayErrorNamesTheItemLine() {
        QJsonArray samples;
        for (int i = 0; i < 300; ++i)
            samples.append(10.5 + i);
        samples[217] = 0.0;
        const QByteArray text = probeWithSamples(samples, true);
        auto r = ProbeJsonImporter::parse(text, QStringLiteral("zero.json"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("results[0].repeats[0].samples_us[217]"));
        // The 218th sample of the first samples_us array, counted in the text here.
        const qint64 arrayLine = lineOfOccurrence(text, "\"samples_us\"", 0);
        QCOMPARE(r.error().line, arrayLine + 1 + 217);
        QVERIFY2(r.error().message.contains(QStringLiteral("0 µs")), qPrintable(r.error().message));

        samples[217] = 2e10; // over kMaxTimeUs
        auto absurd = ProbeJsonImporter::parse(probeWithSamples(samples, false), QStringLiteral("absurd.json"));
        QVERIFY(!absurd.hasValue());
        QCOMPARE(absurd.error().field, QStringLiteral("results[0].repeats[0].samples_us[217]"));
        QCOMPARE(absurd.error().line, 1);
        QVERIFY(absurd.error().message.contains(QStringLiteral("between")));
    }

    // Zero is still a valid time for a message of 0 bytes.
    void zeroTimeForAnEmptyMessageIsKept() {
        QJsonObject doc = QJsonDocument::fromJson(readFixture(QStringLiteral("nccl-tests-json/alltoall-per-iteration.json"))).object();
        QJsonArray results = doc.value(QStringLiteral("results")).toArray();
        QJsonObject row = results[0].toObject();
        row.insert(QStringLiteral("size"), 0);
        row.insert(QStringLiteral("count"), 0);
        QJsonObject perIter = row.value(QStringLiteral("out_of_place_per_iter")).toObject();
        perIter.insert(QStringLiteral("times_us"), QJsonArray{0.0, 0.0, 0.0});
        row.insert(QStringLiteral("out_of_place_per_iter"), perIter);
        results[0] = row;
        doc.insert(QStringLiteral("results"), results);
        auto r = NcclTestsJsonImporter::parse(QJsonDocument(doc).toJson(), QStringLiteral("empty.json"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r.value().commSamples.first().bytesPerRank, quint64(0));
        QCOMPARE(r.value().commSamples.first().timeUs, 0.0);
    }

    // A packed array used item by item (the EP groups of a moe-probe/2 report) and
    // turned into Qt JSON (the environment) gives the same values.
    void packedArrayItemsAndQtJson() {
        const QByteArray text = "{\n  \"a\": [1, -2,\n 3.5e2, 40],\n  \"b\": [1, \"x\"]\n}";
        auto doc = parseJsonDocument(std::string_view(text.constData(), size_t(text.size())));
        QVERIFY(doc.hasValue());
        const JsonNode* a = doc.value().member(QLatin1String("a"));
        QVERIFY(a && a->packed);
        QCOMPARE(a->size(), 4);
        QCOMPARE(a->at(2).number, 350.0);
        QCOMPARE(a->at(2).line, 3);
        QCOMPARE(a->at(1).integer, -2);
        QVERIFY(a->at(1).integral);
        const JsonNode* b = doc.value().member(QLatin1String("b"));
        QVERIFY(b && !b->packed);
        QCOMPARE(b->size(), 2);
        QCOMPARE(toQJsonValue(doc.value()).toObject(),
                 QJsonDocument::fromJson(text).object());
    }

    // A duplicate key in an object too large for a linear search is still found.
    void duplicateKeyInALargeObject() {
        QByteArray text = "{\n";
        for (int i = 0; i < 500; ++i)
            text += "\"k" + QByteArray::number(i) + "\": " + QByteArray::number(i) + ",\n";
        text += "\"k123\": 1\n}";
        auto doc = parseJsonDocument(std::string_view(text.constData(), size_t(text.size())));
        QVERIFY(!doc.hasValue());
        QVERIFY(doc.error().message.contains(QStringLiteral("\"k123\" appears twice")));
        QCOMPARE(doc.error().line, 502);
    }

    // Messages quote at most a few hundred characters of what they found.
    void messagesQuoteLittleOfTheInput() {
        const QByteArray huge(200000, 'x');
        QList<std::pair<QString, QByteArray>> cases{
            {QStringLiteral("csv-metrics"), "step," + huge + "\n1,2\n"},
            {QStringLiteral("csv-metrics"), huge + ",lm_loss\n1,2\n"},
            {QStringLiteral("csv-metrics"), "step,metric,value\n1," + huge + ",2\n"},
            {QStringLiteral("csv-expert-load"), huge + ",layer,e0\n1,0,2\n"},
            {QStringLiteral("probe-json"), "{\"" + huge + "\": 1, \"" + huge + "\": 2}"},
            {QStringLiteral("probe-json"), "{\"schema\": \"" + huge + "\"}"},
            {QStringLiteral("nccl-tests-json"), "{\"results\": [], \"config\": {}, \"" + huge + "\" 1}"},
        };
        for (const auto& [format, bytes] : cases) {
            auto r = importBytes(bytes, QStringLiteral("in.txt"), format);
            QVERIFY(!r.hasValue());
            const QString text = r.error().text();
            QVERIFY2(longestRun(text, QLatin1Char('x')) <= kMaxQuotedChars, qPrintable(text.left(300)));
            QVERIFY2(text.size() < 1300, qPrintable(text.left(300)));
            QVERIFY(r.error().field.size() <= kMaxQuotedChars + 1);
        }
    }

    // A CSV line with more fields than any export has, or one field longer than any
    // value, is refused at once (not split into millions of strings first).
    void csvLimits() {
        QByteArray wide = "step";
        for (qsizetype i = 0; i < kMaxCsvFields + 5; ++i)
            wide += ",m" + QByteArray::number(i);
        wide += "\n";
        auto r = importBytes(wide, QStringLiteral("wide.csv"), QStringLiteral("csv-metrics"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 1);
        QVERIFY2(r.error().message.contains(QString::number(kMaxCsvFields)), qPrintable(r.error().text()));

        QByteArray row = "step,lm_loss\n1,2\n2,\"" + QByteArray(kMaxCsvFieldBytes + 10, '1') + "\"\n";
        r = importBytes(row, QStringLiteral("long.csv"), QStringLiteral("csv-metrics"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 3);
        QVERIFY2(r.error().message.contains(QStringLiteral("longer than")), qPrintable(r.error().text()));

        // Just inside both limits: read.
        QByteArray ok = "step";
        for (int i = 0; i < 2000; ++i)
            ok += ",m" + QByteArray::number(i);
        ok += "\n1";
        for (int i = 0; i < 2000; ++i)
            ok += "," + QByteArray::number(i);
        ok += "\n";
        r = importBytes(ok, QStringLiteral("ok.csv"), QStringLiteral("csv-metrics"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r.value().stepMetrics.size(), 2000);
    }

    // MOEWB_IMPORT_MAX_BYTES: a file over it is refused before it is read, naming the
    // limit and the variable; a malformed value keeps the default.
    void sizeLimit() {
        const QString path = write(QStringLiteral("metrics.csv"), "step,lm_loss\n" + QByteArray("1,2.5\n").repeated(500));
        qputenv("MOEWB_IMPORT_MAX_BYTES", "2K");
        QCOMPARE(maxImportBytes(), 2048);
        auto r = importFile(path);
        QVERIFY(!r.hasValue());
        QVERIFY(r.error().unreadable);
        QVERIFY2(r.error().message.contains(QStringLiteral("MOEWB_IMPORT_MAX_BYTES")), qPrintable(r.error().text()));
        QVERIFY(r.error().message.contains(QStringLiteral("over the import limit")));
        qputenv("MOEWB_IMPORT_MAX_BYTES", "4096");
        QVERIFY(importFile(path).hasValue()); // 3013 bytes
        qputenv("MOEWB_IMPORT_MAX_BYTES", "lots");
        QCOMPARE(maxImportBytes(), kDefaultMaxImportBytes);
        qputenv("MOEWB_IMPORT_MAX_BYTES", "1m");
        QCOMPARE(maxImportBytes(), 1LL << 20);
        qunsetenv("MOEWB_IMPORT_MAX_BYTES");
        QCOMPARE(maxImportBytes(), kDefaultMaxImportBytes);
    }
};

QTEST_GUILESS_MAIN(TestImportBounds)
#include "test_import_bounds.moc"
