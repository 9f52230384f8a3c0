// moe-digest, the trace digest run on cluster nodes: the real binary over the real
// fixtures (generated Kineto traces, HolisticTraceAnalysis's traces, the legacy gloo
// and reference traces), its moe-digest/1 document read back by DigestDocumentReader
// equal, field by field, to readRankTrace of the same files; refusals carried with the
// local reader's own message; a cut or tampered document refused.
#include "RankTraceCompare.h"
#include "anatomy/DigestDocument.h"
#include "anatomy/RankTrace.h"

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace moewb::anatomy;

namespace {

const QString kFixtures = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/anatomy");

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runDigest(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(MOEWB_DIGEST_EXECUTABLE), args);
    Run r;
    if (!p.waitForFinished(120000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QStringList fixtureTraces() {
    QStringList files;
    QDirIterator it(kFixtures, {QStringLiteral("*.json"), QStringLiteral("*.json.gz")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!path.endsWith(QStringLiteral("expected.json")))
            files << path;
    }
    files.sort();
    return files;
}

} // namespace

class TestMoeDigest : public QObject {
    Q_OBJECT
private slots:
    void digestEqualsLocalRead_data();
    void digestEqualsLocalRead();
    void refusedFilesCarryTheLocalMessage();
    void cutOrTamperedDocumentRefused();
    void usageErrors();
};

void TestMoeDigest::digestEqualsLocalRead_data() {
    QTest::addColumn<QString>("jobs");
    QTest::newRow("one thread") << QStringLiteral("1");
    QTest::newRow("four threads") << QStringLiteral("4");
}

// Every fixture trace, in one run of the binary: the same digest as a local read.
void TestMoeDigest::digestEqualsLocalRead() {
    QFETCH(QString, jobs);
    const QStringList files = fixtureTraces();
    QVERIFY(files.size() >= 20); // 4 generated sets of 4, HTA's 2, legacy 2, reference 4
    const Run run = runDigest(QStringList{QStringLiteral("--jobs"), jobs, QStringLiteral("--")} + files);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    DigestDocumentReader reader(QStringLiteral("node"),
                                [](const QString& path) { return path.mid(kFixtures.size() + 1); });
    // Fed in small pieces, as a channel delivers it.
    for (qsizetype i = 0; i < run.out.size(); i += 4093)
        QVERIFY2(reader.feed(run.out.mid(i, 4093)), qPrintable(reader.error()));
    QVERIFY2(reader.finish(), qPrintable(reader.error()));
    QCOMPARE(reader.files().size(), files.size());
    int kinetoGpu = 0, legacy = 0, comm = 0;
    for (qsizetype i = 0; i < files.size(); ++i) {
        const auto& remote = reader.files()[i];
        QCOMPARE(remote.path, files[i]);
        QVERIFY2(remote.trace.has_value(), qPrintable(remote.error.text()));
        const auto local = readRankTrace(files[i], files[i].mid(kFixtures.size() + 1));
        QVERIFY2(local.hasValue(), qPrintable(files[i]));
        moewb::testing::compareRankTraces(*remote.trace, local.value());
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("differs: ") + files[i]));
        kinetoGpu += local->gpu ? 1 : 0;
        legacy += local->format == QLatin1String("torch-legacy-json") ? 1 : 0;
        for (const StepTrace& s : local->steps)
            comm += int(s.comm.size());
    }
    // The comparison covered both formats and real communication calls.
    QVERIFY(kinetoGpu >= 16);
    QVERIFY(legacy >= 2);
    QVERIFY(comm > 100);
}

void TestMoeDigest::refusedFilesCarryTheLocalMessage() {
    QTemporaryDir dir;
    const QString text = dir.filePath(QStringLiteral("notes.json"));
    QFile f(text);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("step,loss\n1,2\n");
    f.close();
    const QString cut = dir.filePath(QStringLiteral("rank-1.json"));
    QFile src(kFixtures + QStringLiteral("/generated/clock-offset/torch_profile/rank-1.json"));
    QVERIFY(src.open(QIODevice::ReadOnly));
    QFile c(cut);
    QVERIFY(c.open(QIODevice::WriteOnly));
    c.write(src.readAll().chopped(300));
    c.close();
    const QString fifo = dir.filePath(QStringLiteral("rank-2.json"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString missing = dir.filePath(QStringLiteral("rank-3.json"));
    const QStringList files{text, cut, fifo, missing};
    const Run run = runDigest(files);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    DigestDocumentReader reader(QStringLiteral("node"));
    QVERIFY2(reader.feed(run.out) && reader.finish(), qPrintable(reader.error()));
    QCOMPARE(reader.files().size(), 4);
    for (qsizetype i = 0; i < files.size(); ++i) {
        const auto& remote = reader.files()[i];
        QVERIFY(!remote.trace);
        const auto local = readRankTrace(files[i], files[i]);
        QVERIFY(!local.hasValue());
        QCOMPARE(remote.error.text(), local.error().text());
        QCOMPARE(remote.error.unreadable, local.error().unreadable);
    }
    QVERIFY(reader.files()[2].error.message.contains(QStringLiteral("not a regular file")));
    QVERIFY(reader.files()[1].error.message.contains(QStringLiteral("truncated")));
}

void TestMoeDigest::cutOrTamperedDocumentRefused() {
    const QString file = kFixtures + QStringLiteral("/generated/nccl-straggler/profiling/traces/iteration_8/rank0_trace.json");
    const Run run = runDigest({file});
    QCOMPARE(run.exitCode, 0);
    QList<QByteArray> lines = run.out.split('\n');
    QCOMPARE(lines.size(), 4); // header, the file, end, "" after the last newline
    auto read = [](const QByteArray& doc, QString* error = nullptr) {
        DigestDocumentReader r(QStringLiteral("node-b"));
        const bool ok = r.feed(doc) && r.finish();
        if (error)
            *error = r.error();
        return ok;
    };
    QVERIFY(read(run.out));
    QString error;
    // Cut before the end line.
    QVERIFY(!read(lines[0] + '\n' + lines[1] + '\n', &error));
    QVERIFY2(error.contains(QStringLiteral("node-b")) && error.contains(QStringLiteral("cut off")), qPrintable(error));
    // Another schema.
    QByteArray other = run.out;
    other.replace("moe-digest/1", "moe-digest/9");
    QVERIFY(!read(other, &error));
    // Tampered digests: a kind past the last, an interval outside its step, a group
    // index past the table, a rank line repeated past the count announced.
    auto tampered = [&](const QByteArray& from, const QByteArray& to) {
        QByteArray doc = run.out;
        const qsizetype at = doc.indexOf(from);
        if (at < 0)
            return QString(QStringLiteral("pattern not found: ") + QString::fromLatin1(from));
        doc.replace(at, from.size(), to);
        QString e;
        return read(doc, &e) ? QStringLiteral("accepted") : e;
    };
    const QByteArray rankLine = lines[1];
    QVERIFY(rankLine.contains("\"comm\":[["));
    // The first call's kind is its third element.
    const qsizetype call = rankLine.indexOf("\"comm\":[[") + 9;
    const QList<QByteArray> fields = rankLine.mid(call, rankLine.indexOf(']', call) - call).split(',');
    const QByteArray original = fields.join(',');
    QList<QByteArray> k = fields;
    k[2] = "99";
    QString e = tampered(original, k.join(','));
    QVERIFY2(e.contains(QStringLiteral("comm[0]")), qPrintable(e));
    k = fields;
    k[0] = "-5";
    e = tampered(original, k.join(','));
    QVERIFY2(e.contains(QStringLiteral("comm[0]")), qPrintable(e));
    k = fields;
    k[3] = "1000";
    e = tampered(original, k.join(','));
    QVERIFY2(e.contains(QStringLiteral("comm[0]")), qPrintable(e));
    QByteArray twice = lines[0] + '\n' + lines[1] + '\n' + lines[1] + '\n' + lines[2] + '\n';
    QVERIFY(!read(twice, &error));
    QVERIFY2(error.contains(QStringLiteral("announced")), qPrintable(error));
    // A line past the bound is refused before it is parsed.
    DigestDocumentReader big(QStringLiteral("node-c"));
    QVERIFY(big.feed(lines[0] + '\n'));
    const QByteArray block(1 << 20, 'x');
    bool refused = false;
    for (int i = 0; i < 70 && !refused; ++i)
        refused = !big.feed(block);
    QVERIFY(refused);
    QVERIFY2(big.error().contains(QStringLiteral("64 MiB")), qPrintable(big.error()));
}

void TestMoeDigest::usageErrors() {
    QCOMPARE(runDigest({}).exitCode, 2);
    QCOMPARE(runDigest({QStringLiteral("--bogus"), QStringLiteral("x")}).exitCode, 2);
    QCOMPARE(runDigest({QStringLiteral("--jobs"), QStringLiteral("0"), QStringLiteral("x")}).exitCode, 2);
    const Run v = runDigest({QStringLiteral("--version")});
    QCOMPARE(v.exitCode, 0);
    QVERIFY(v.out.contains("moe-digest/1"));
}

QTEST_GUILESS_MAIN(TestMoeDigest)
#include "test_moe_digest.moc"
