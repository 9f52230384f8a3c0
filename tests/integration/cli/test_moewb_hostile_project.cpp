// A project file from someone else, through the real `moewb` binary (docs/store.md,
// "What opening a project checks"): the demo project written by moewb itself, then
// changed with the SQLite C API as an attacker would (a trigger that flips verdicts,
// one that writes 400 MB at each save, a view in place of the run table that never
// ends, a foreign table, moewb's own trigger altered). `status`, `stage 3 --preview`
// and `report` each end with exit code 3 and a message naming what was planted, inside
// 1 GiB of address space (prlimit --as) and 60 s, and leave the file byte for byte as
// it was (the stop verdict stays a stop). `project clean` recovers every known row
// (counted against SQLite's own count of the source). A failed upgrade tried again and
// again leaves no backups. `import` of a FIFO or /dev/zero answers at once.
#include "../MoewbCli.h"
#include "../../unit/store/HostileFile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

namespace {

constexpr qint64 kAddressSpace = 1LL << 30; // prlimit --as: 1 GiB
constexpr int kDeadlineMs = 60000;

using moewb::testing::plant;
using moewb::testing::sha256;

QString value(const QString& path, const QString& query) {
    return moewb::testing::firstValue(path, query);
}

struct Limited {
    int exitCode = -1; // -1: crashed, killed or hung
    QString err;
    qint64 elapsedMs = 0;
};

struct Hostile {
    const char* name;
    const char* script;
    const char* named; // what the refusal must say
};

const Hostile kHostile[] = {
    {"flip",
     "CREATE TRIGGER zz_flip AFTER INSERT ON verdict BEGIN "
     "UPDATE verdict SET status = 'pass' WHERE stage = new.stage AND status = 'stop'; END; "
     "CREATE TRIGGER zz_flip_again AFTER UPDATE ON verdict BEGIN "
     "UPDATE verdict SET status = 'pass' WHERE stage = new.stage AND status = 'stop'; END;",
     "a trigger zz_flip that moewb did not create"},
    {"fill",
     "CREATE TABLE zz_junk (b BLOB); CREATE TRIGGER zz_fill AFTER INSERT ON verdict BEGIN "
     "INSERT INTO zz_junk VALUES (randomblob(400000000)); END;",
     "a trigger zz_fill that moewb did not create"},
    {"endless-run-view",
     "PRAGMA foreign_keys = OFF; CREATE TABLE zz_saved AS SELECT * FROM run; DROP TABLE run; "
     "CREATE VIEW run AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
     "SELECT x AS id, hex(randomblob(1000000)) AS name, 'imported' AS kind, 1 AS record_id, NULL AS cluster_id, "
     "'' AS source_file, '{}' AS environment, '' AS created, 0 AS comm_sample_count, 0 AS step_count, "
     "0 AS expert_load_blocks, '' AS updated FROM c;",
     "a view run in place of moewb's table run"},
    {"foreign-table", "CREATE TABLE zz_extra (x); INSERT INTO zz_extra VALUES (1);",
     "a table zz_extra that moewb did not create"},
    {"altered-trigger",
     "DROP TRIGGER expert_load_totals_follow_chunk; "
     "CREATE TRIGGER expert_load_totals_follow_chunk AFTER DELETE ON expert_load_chunk BEGIN "
     "DELETE FROM verdict; END;",
     "the trigger expert_load_totals_follow_chunk with a definition that moewb does not give it"},
};

} // namespace

class TestMoewbHostileProject : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_demo;
    QString m_prlimit;

    CliResult moewb(const QStringList& args) { return runMoewb(m_home.path(), args); }

    Limited limited(const QStringList& args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path() + QStringLiteral("/data"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        p.start(m_prlimit, QStringList{QStringLiteral("--as=%1").arg(kAddressSpace), QStringLiteral(MOEWB_CLI)} + args);
        Limited r;
        if (!p.waitForFinished(kDeadlineMs + 10000)) {
            p.kill();
            p.waitForFinished();
            r.err = QStringLiteral("(hung)");
            return r;
        }
        r.elapsedMs = t.elapsed();
        r.err = QString::fromUtf8(p.readAllStandardError());
        if (p.exitStatus() == QProcess::NormalExit)
            r.exitCode = p.exitCode();
        return r;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        m_prlimit = QStandardPaths::findExecutable(QStringLiteral("prlimit"));
        if (m_prlimit.isEmpty())
            QSKIP("prlimit (util-linux) is not installed");
        m_demo = m_home.filePath(QStringLiteral("demo.moewb"));
        const CliResult r = moewb({QStringLiteral("demo"), QStringLiteral("-o"), m_demo});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Stages 1 and 2 of the demo pass, stage 3 stops; the verdicts are saved.
        for (const char* stage : {"1", "2", "3"})
            moewb({QStringLiteral("--project"), m_demo, QStringLiteral("stage"), QString::fromLatin1(stage)});
        QCOMPARE(value(m_demo, QStringLiteral("SELECT status FROM verdict WHERE stage = 3")), QStringLiteral("stop"));
        // The demo as moewb wrote it opens under the same limits.
        const Limited ok = limited({QStringLiteral("--project"), m_demo, QStringLiteral("status")});
        QVERIFY2(ok.exitCode == 0 || ok.exitCode == 1, qPrintable(ok.err));
    }

    void everyCommandRefusesEveryHostileFile_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("named");
        QTest::addColumn<QStringList>("command");
        const QList<QStringList> commands = {
            {QStringLiteral("status")},
            {QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")},
            {QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("out.pdf")},
        };
        for (const Hostile& h : kHostile)
            for (const QStringList& c : commands)
                QTest::newRow(qPrintable(QStringLiteral("%1 / %2").arg(QLatin1String(h.name), c.first())))
                    << QString::fromUtf8(h.script) << QString::fromUtf8(h.named) << c;
    }

    void everyCommandRefusesEveryHostileFile() {
        QFETCH(QString, script);
        QFETCH(QString, named);
        QFETCH(QStringList, command);
        static int n = 0;
        const QString path = m_home.filePath(QStringLiteral("hostile-%1.moewb").arg(++n));
        QVERIFY(QFile::copy(m_demo, path));
        QCOMPARE(plant(path, script.toUtf8().constData()), QString());
        const QByteArray before = sha256(path);
        QStringList args{QStringLiteral("--project"), path};
        for (const QString& a : command)
            args << (a == QLatin1String("out.pdf") ? m_home.filePath(QStringLiteral("out-%1.pdf").arg(n)) : a);
        const Limited r = limited(args);
        QVERIFY2(r.exitCode == 3, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.elapsedMs < kDeadlineMs, qPrintable(QString::number(r.elapsedMs)));
        QVERIFY2(r.err.contains(named), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("not opened")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("moewb project clean")), qPrintable(r.err));
        QCOMPARE(sha256(path), before);
        if (!script.contains(QLatin1String("DROP TABLE run")))
            QCOMPARE(value(path, QStringLiteral("SELECT status FROM verdict WHERE stage = 3")), QStringLiteral("stop"));
        QVERIFY(!QFile::exists(m_home.filePath(QStringLiteral("out-%1.pdf").arg(n))));
    }

    void cleanRecoversTheKnownRows() {
        const QString source = m_home.filePath(QStringLiteral("to-clean.moewb"));
        QVERIFY(QFile::copy(m_demo, source));
        QCOMPARE(plant(source, kHostile[0].script), QString());
        QCOMPARE(plant(source, kHostile[3].script), QString());
        const QByteArray before = sha256(source);
        const QString target = m_home.filePath(QStringLiteral("cleaned.moewb"));
        const CliResult r =
            moewb({QStringLiteral("--json"), QStringLiteral("project"), QStringLiteral("clean"), source, QStringLiteral("-o"),
                   target});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(sha256(source), before);
        const QJsonObject report = r.json();
        QCOMPARE(report.value(QStringLiteral("skipped")).toInt(), 0);
        const QString leftOut = QJsonDocument(report.value(QStringLiteral("left_out")).toArray()).toJson();
        QVERIFY2(leftOut.contains(QStringLiteral("zz_flip")) && leftOut.contains(QStringLiteral("zz_extra")),
                 qPrintable(leftOut));
        int tables = 0;
        qint64 rows = 0;
        for (const QJsonValue& v : report.value(QStringLiteral("tables")).toArray()) {
            const QJsonObject t = v.toObject();
            const QString name = t.value(QStringLiteral("table")).toString();
            const QString counted = value(source, QStringLiteral("SELECT count(*) FROM \"%1\"").arg(name));
            QCOMPARE(QString::number(t.value(QStringLiteral("copied")).toInteger()), counted);
            QCOMPARE(value(target, QStringLiteral("SELECT count(*) FROM \"%1\"").arg(name)), counted);
            rows += t.value(QStringLiteral("copied")).toInteger();
            ++tables;
        }
        QVERIFY(tables >= 15);
        QVERIFY(rows > 1000);
        QCOMPARE(value(target, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name LIKE 'zz%'")),
                 QStringLiteral("0"));
        // The copy is an ordinary project: the same commands work on it.
        const Limited status = limited({QStringLiteral("--project"), target, QStringLiteral("status")});
        QVERIFY2(status.exitCode == 0 || status.exitCode == 1, qPrintable(status.err));
        QCOMPARE(value(target, QStringLiteral("SELECT status FROM verdict WHERE stage = 3")), QStringLiteral("stop"));
        // Text output, and never over a file.
        const CliResult again =
            moewb({QStringLiteral("project"), QStringLiteral("clean"), source, QStringLiteral("-o"), target});
        QCOMPARE(again.exitCode, 3);
        QVERIFY2(again.err.contains(QStringLiteral("already exists")), qPrintable(again.err));
        QCOMPARE(moewb({QStringLiteral("project"), QStringLiteral("clean"), source}).exitCode, 2);
    }

    void failedUpgradesLeaveNoBackups() {
        // A version-5 project whose chunk is not a zstd frame: each try refuses.
        const QString path = m_home.filePath(QStringLiteral("broken-v5.moewb"));
        QFile fixture(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/store/schema-v5.sql"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QByteArray script = fixture.readAll();
        script += "\nINSERT INTO expert_load_chunk VALUES (3, 1, 1, 1, 1, 4, 1, X'0102');\n";
        QCOMPARE(plant(path, script.constData()), QString());
        const QByteArray before = sha256(path);
        for (int attempt = 0; attempt < 3; ++attempt) {
            const Limited r = limited({QStringLiteral("--project"), path, QStringLiteral("status")});
            QCOMPARE(r.exitCode, 3);
            QVERIFY2(r.err.contains(QStringLiteral("from schema version 5 to 6")), qPrintable(r.err));
        }
        QCOMPARE(QDir(m_home.path()).entryList({QStringLiteral("broken-v5.moewb.v*")}), QStringList());
        QCOMPARE(value(path, QStringLiteral("PRAGMA user_version")), QStringLiteral("5"));
        Q_UNUSED(before); // journal mode may change (WAL); the data and version do not
        QCOMPARE(value(path, QStringLiteral("SELECT count(*) FROM expert_load_chunk")), QStringLiteral("10"));
    }

    void importOfAFifoOrADeviceAnswersAtOnce() {
        const QString project = m_home.filePath(QStringLiteral("import.moewb"));
        QCOMPARE(moewb({QStringLiteral("init"), project}).exitCode, 0);
        QCOMPARE(moewb({QStringLiteral("--project"), project, QStringLiteral("record"), QStringLiteral("add"),
                        QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json")})
                     .exitCode,
                 0);
        const QString fifo = m_home.filePath(QStringLiteral("stream.csv"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        for (const auto& [file, what] : {std::pair{fifo, QStringLiteral("FIFO")},
                                         std::pair{QStringLiteral("/dev/zero"), QStringLiteral("character device")},
                                         std::pair{QStringLiteral("/dev/urandom"), QStringLiteral("character device")}}) {
            for (const QStringList& format : {QStringList{}, QStringList{QStringLiteral("--format"), QStringLiteral("csv-metrics")}}) {
                const Limited r = limited(QStringList{QStringLiteral("--project"), project, QStringLiteral("import"), file,
                                                      QStringLiteral("--run"), QStringLiteral("x")} +
                                          format);
                QVERIFY2(r.exitCode > 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
                QVERIFY2(r.elapsedMs < 10000, qPrintable(QString::number(r.elapsedMs)));
                QVERIFY2(r.err.contains(what) && r.err.contains(QStringLiteral("regular file")), qPrintable(r.err));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestMoewbHostileProject)
#include "test_moewb_hostile_project.moc"
