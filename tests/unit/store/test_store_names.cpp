// Names of records, runs and clusters (a shared project put terminal escapes into
// `record list`): refused with a sentence naming the character and its position or
// the length limit; escaped on output. Automatic run names of two writers at once:
// the second takes the next free name inside its own transaction.
#include "store/NameRules.h"
#include "store/ProjectStore.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;
using namespace moewb::store;

namespace {

RunData probeRun(const QString& name, const QString& automaticBase = {}) {
    RunData run;
    run.name = name;
    run.recordName = QStringLiteral("r");
    run.commSamples = {{1024, 0, 0, 10.0}};
    run.automaticNameBase = automaticBase;
    return run;
}

} // namespace

class TestStoreNames : public QObject {
    Q_OBJECT

private slots:
    void controlCharactersAreRefusedNamingThem() {
        const QString escape = QStringLiteral("red\x1b[31mX");
        QCOMPARE(nameProblem(NameKind::Record, escape),
                 QStringLiteral("the config record name \"red\\x1b[31mX\" holds the control character U+001B at "
                                "character 4; names may not hold control characters"));
        const QString bidi = QStringLiteral("a") + QChar(0x202E) + QStringLiteral("b");
        QVERIFY(nameProblem(NameKind::Run, bidi).contains(QStringLiteral("U+202E at character 2")));
        QVERIFY(nameProblem(NameKind::Run, QStringLiteral("a\nb")).contains(QStringLiteral("U+000A")));
        QVERIFY(nameProblem(NameKind::Cluster, QStringLiteral("a") + QChar(0x9B)).contains(QStringLiteral("U+009B")));
        QVERIFY(nameProblem(NameKind::Run, QStringLiteral("probe 4n ✓ 节点")).isEmpty());
    }

    void lengthLimitIsStated() {
        QVERIFY(nameProblem(NameKind::Run, QString(256, QLatin1Char('a'))).isEmpty());
        QCOMPARE(nameProblem(NameKind::Run, QString(257, QLatin1Char('a'))),
                 QStringLiteral("a run name may be at most 256 characters long; this one has 257"));
    }

    void printableNameEscapes() {
        QCOMPARE(printableName(QStringLiteral("plain\\name")), QStringLiteral("plain\\name"));
        QCOMPARE(printableName(QStringLiteral("a\\b\x1b]0;pwned\x07")), QStringLiteral("a\\\\b\\x1b]0;pwned\\x07"));
        QCOMPARE(printableName(QStringLiteral("x") + QChar(0x2066)), QStringLiteral("x\\u{2066}"));
        const QString shown = printableName(QString(300, QLatin1Char('n')));
        QCOMPARE(shown.size(), 256);
        QVERIFY(shown.endsWith(QChar(0x2026)));
    }

    void storeRefusesBadNamesAndWritesNothing() {
        QTemporaryDir dir;
        auto project = ProjectStore::open(dir.filePath(QStringLiteral("p.moewb"))).value();
        auto bad = project->addConfigRecord(QStringLiteral("r\x1b[2J"), {}, false);
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.contains(QStringLiteral("U+001B at character 2")), qPrintable(bad.error().text()));
        QVERIFY(project->configRecords().isEmpty());
        QVERIFY(project->addConfigRecord(QStringLiteral("r"), {}, false));

        auto badRun = project->saveRun(probeRun(QStringLiteral("run\r")));
        QVERIFY(!badRun);
        QVERIFY(badRun.error().message.contains(QStringLiteral("U+000D")));
        auto longRun = project->saveRun(probeRun(QString(300, QLatin1Char('x'))));
        QVERIFY(!longRun);
        QVERIFY(longRun.error().message.contains(QStringLiteral("at most 256 characters")));
        QVERIFY(project->runs().isEmpty());

        auto badCluster = project->addCluster({0, QStringLiteral("c\x07"), 8, {}, {}}, {});
        QVERIFY(!badCluster);
        QVERIFY(project->clusters().isEmpty());
    }

    void automaticNameTakenMeanwhileGetsTheNextFree() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.moewb"));
        auto a = ProjectStore::open(path).value();
        auto b = ProjectStore::open(path).value(); // a second writer on the same file
        QVERIFY(a->addConfigRecord(QStringLiteral("r"), {}, false));
        // Both chose "probe" while it was free; a saves first.
        QString nameA, nameB, nameC;
        QVERIFY(a->saveRun(probeRun(QStringLiteral("probe"), QStringLiteral("probe")), {}, &nameA));
        QCOMPARE(nameA, QStringLiteral("probe"));
        QVERIFY(b->saveRun(probeRun(QStringLiteral("probe"), QStringLiteral("probe")), {}, &nameB));
        QCOMPARE(nameB, QStringLiteral("probe-2"));
        QVERIFY(a->saveRun(probeRun(QStringLiteral("probe-2"), QStringLiteral("probe")), {}, &nameC));
        QCOMPARE(nameC, QStringLiteral("probe-3"));
        QStringList names;
        for (const RunRow& r : a->runs())
            names << r.name;
        QCOMPARE(names, (QStringList{QStringLiteral("probe"), QStringLiteral("probe-2"), QStringLiteral("probe-3")}));
        // A name the user chose is never changed: refused.
        auto chosen = b->saveRun(probeRun(QStringLiteral("probe")));
        QVERIFY(!chosen);
        QVERIFY(chosen.error().message.contains(QStringLiteral("a run named probe already exists")));
    }
};

QTEST_GUILESS_MAIN(TestStoreNames)
#include "test_store_names.moc"
