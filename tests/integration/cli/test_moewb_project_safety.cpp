// The project file under misuse, through the real `moewb` binary: two imports of files
// with the same base name at once (both must land, under different names); a project
// on read-only media (really read-only, for root too: a read-only bind mount in a
// private mount namespace) and another user's read-only copy (chmod, run as nobody);
// names with terminal escapes refused and, where an older project holds them,
// escaped on output; config records with duplicate keys refused naming both lines.
#include "../MoewbCli.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

namespace {

QString recordFixture() {
    return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json");
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

// A metrics CSV big enough that reading it takes a while, so two imports started at
// once both choose their run name before either saves.
QByteArray metricsCsv(int rows, double offset) {
    QByteArray out = "step,lm_loss,tokens_per_s_per_gpu\n";
    out.reserve(rows * 24);
    for (int s = 1; s <= rows; ++s)
        out += QByteArray::number(s) + ',' + QByteArray::number(2.0 + offset + 1.0 / s, 'f', 6) + ',' +
               QByteArray::number(1000 + s % 7) + '\n';
    return out;
}

QByteArray sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

// Runs `moewb args` with `dir` bind-mounted read-only over itself in a private mount
// namespace (unshare -m): read-only for root as well. rc -2 when that is not possible.
CliResult moewbOnReadOnlyMount(const QString& home, const QString& dir, const QStringList& args) {
    QStringList quoted;
    for (const QString& a : QStringList{QStringLiteral(MOEWB_CLI)} + args)
        quoted << QStringLiteral("'%1'").arg(QString(a).replace(QLatin1String("'"), QLatin1String("'\\''")));
    const QString script = QStringLiteral("mount --bind -o ro '%1' '%1' && touch '%1/.probe' 2>/dev/null && exit 97; "
                                          "exec %2")
                               .arg(dir, quoted.join(QLatin1Char(' ')));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("unshare"), {QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"), script});
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit)
        return {};
    CliResult r{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    if (r.exitCode == 97 || r.err.contains(QStringLiteral("unshare:")) || r.err.contains(QStringLiteral("mount:")))
        r.exitCode = -2;
    return r;
}

} // namespace

class TestMoewbProjectSafety : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QString project(const QString& dirName) {
        const QString dir = m_home.filePath(dirName);
        QDir().mkpath(dir);
        const QString path = dir + QStringLiteral("/p.moewb");
        // A failure is reported by the caller's QVERIFY (an empty path), with the reason.
        const CliResult init = runMoewb(m_home.path(), {QStringLiteral("init"), path});
        if (init.exitCode != 0) {
            qWarning("init failed (%d): %s", init.exitCode, qPrintable(init.err));
            return {};
        }
        const CliResult add = runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("record"),
                                                       QStringLiteral("add"), recordFixture(), QStringLiteral("--name"),
                                                       QStringLiteral("moe")});
        if (add.exitCode != 0) {
            qWarning("record add failed (%d): %s", add.exitCode, qPrintable(add.err));
            return {};
        }
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void concurrentImportsOfOneBaseNameBothLand() {
        const QString path = project(QStringLiteral("concurrent"));
        QVERIFY(!path.isEmpty());
        const QString a = m_home.filePath(QStringLiteral("concurrent/a/metrics.csv"));
        const QString b = m_home.filePath(QStringLiteral("concurrent/b/metrics.csv"));
        writeFile(a, metricsCsv(50000, 0.0));
        writeFile(b, metricsCsv(50000, 1.0));
        QStringList expected{QStringLiteral("metrics")};
        int collisions = 0; // rounds in which both chose the same name before either saved
        for (int round = 0; round < 2; ++round) {
            QList<QProcess*> imports;
            for (const QString& file : {a, b}) {
                auto* p = new QProcess(this);
                QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
                env.insert(QStringLiteral("HOME"), m_home.path());
                p->setProcessEnvironment(env);
                p->start(QStringLiteral(MOEWB_CLI), {QStringLiteral("--project"), path, QStringLiteral("import"), file,
                                                     QStringLiteral("--record"), QStringLiteral("moe")});
                imports << p;
            }
            QStringList planned;
            for (QProcess* p : imports) {
                QVERIFY(p->waitForFinished(120000));
                const QString out = QString::fromUtf8(p->readAllStandardOutput());
                QVERIFY2(p->exitCode() == 0, qPrintable(out + QString::fromUtf8(p->readAllStandardError())));
                planned << out.section(QStringLiteral("Plan: run \""), 1).section(QLatin1Char('"'), 0, 0);
                delete p;
            }
            if (planned.size() == 2 && !planned[0].isEmpty() && planned[0] == planned[1])
                ++collisions;
            for (int n = int(expected.size()) + 1; expected.size() < 2 * (round + 1); ++n)
                expected << QStringLiteral("metrics-%1").arg(n);
        }
        const CliResult list = runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("--json"),
                                                        QStringLiteral("runs"), QStringLiteral("list")});
        QCOMPARE(list.exitCode, 0);
        QStringList names;
        for (const QJsonValue& r : list.json().value(QStringLiteral("runs")).toArray())
            names << r.toObject().value(QStringLiteral("name")).toString();
        names.sort();
        expected.sort();
        QCOMPARE(names, expected); // metrics, metrics-2, metrics-3, metrics-4: every import landed
        // The race really happened (both planned one name; before, the second import failed with
        // "a run named metrics already exists").
        QVERIFY2(collisions >= 1, "the two imports never chose the same name; the race was not exercised");
    }

    void readOnlyMediaCanBeListedNotChanged() {
        const QString path = project(QStringLiteral("ro"));
        QVERIFY(!path.isEmpty());
        writeFile(m_home.filePath(QStringLiteral("ro-src/train.csv")), metricsCsv(50, 0.0));
        QCOMPARE(runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("import"),
                                          m_home.filePath(QStringLiteral("ro-src/train.csv")), QStringLiteral("--record"),
                                          QStringLiteral("moe")})
                     .exitCode,
                 0);
        const QString dir = QFileInfo(path).absolutePath();
        const QByteArray before = sha256(path);
        const QStringList entriesBefore = QDir(dir).entryList(QDir::Files | QDir::Hidden);

        const CliResult list = moewbOnReadOnlyMount(m_home.path(), dir,
                                                    {QStringLiteral("--project"), path, QStringLiteral("runs"),
                                                     QStringLiteral("list")});
        if (list.exitCode == -2)
            QSKIP("a read-only bind mount in a private mount namespace is not possible here");
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QVERIFY2(list.out.contains(QStringLiteral("train")), qPrintable(list.out));
        QVERIFY2(list.err.contains(QStringLiteral("is read-only (its file or folder cannot be written)")),
                 qPrintable(list.err));

        const CliResult records = moewbOnReadOnlyMount(
            m_home.path(), dir, {QStringLiteral("--project"), path, QStringLiteral("record"), QStringLiteral("list")});
        QCOMPARE(records.exitCode, 0);
        QVERIFY(records.out.contains(QStringLiteral("moe")));

        const QString pdf = m_home.filePath(QStringLiteral("ro-report.pdf"));
        const CliResult report = moewbOnReadOnlyMount(m_home.path(), dir,
                                                      {QStringLiteral("--project"), path, QStringLiteral("report"),
                                                       QStringLiteral("-o"), pdf});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        QVERIFY(QFileInfo(pdf).size() > 1000);

        // A stage is evaluated and shown; its verdict is not written back.
        const CliResult stage = moewbOnReadOnlyMount(m_home.path(), dir,
                                                     {QStringLiteral("--project"), path, QStringLiteral("--json"),
                                                      QStringLiteral("stage"), QStringLiteral("1")});
        QVERIFY2(stage.exitCode == 0 || stage.exitCode == 1, qPrintable(stage.err));
        const QJsonObject verdict = QJsonDocument::fromJson(stage.out.toUtf8()).object();
        QCOMPARE(verdict.value(QStringLiteral("stage")).toInt(), 1);
        QVERIFY2(!verdict.value(QStringLiteral("status")).toString().isEmpty(), qPrintable(stage.out));
        QCOMPARE(verdict.value(QStringLiteral("saved")), QJsonValue(false));
        const CliResult stageText = moewbOnReadOnlyMount(
            m_home.path(), dir, {QStringLiteral("--project"), path, QStringLiteral("stage"), QStringLiteral("1")});
        QVERIFY2(stageText.out.contains(QStringLiteral("The verdict was not saved: the project is read-only.")),
                 qPrintable(stageText.out + stageText.err));

        const CliResult add = moewbOnReadOnlyMount(m_home.path(), dir,
                                                   {QStringLiteral("--project"), path, QStringLiteral("record"),
                                                    QStringLiteral("add"), recordFixture(), QStringLiteral("--name"),
                                                    QStringLiteral("second")});
        QVERIFY(add.exitCode != 0);
        QVERIFY2(add.err.contains(QStringLiteral("the project is read-only")), qPrintable(add.err));
        const CliResult import = moewbOnReadOnlyMount(
            m_home.path(), dir,
            {QStringLiteral("--project"), path, QStringLiteral("import"), m_home.filePath(QStringLiteral("ro-src/train.csv")),
             QStringLiteral("--record"), QStringLiteral("moe"), QStringLiteral("--run"), QStringLiteral("again")});
        QVERIFY(import.exitCode != 0);
        QVERIFY2(import.err.contains(QStringLiteral("the project is read-only")), qPrintable(import.err));

        QCOMPARE(sha256(path), before);
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden), entriesBefore); // no -wal, -shm or journal left
    }

    void anotherUsersReadOnlyCopy() {
        if (::geteuid() != 0)
            QSKIP("needs root to run a command as nobody");
        const QString path = project(QStringLiteral("chmod"));
        QVERIFY(!path.isEmpty());
        // nobody must reach the binary's folder and the project: open the test's folders.
        for (QString d = QFileInfo(path).absolutePath(); d.startsWith(m_home.path()); d = QFileInfo(d).absolutePath())
            QFile::setPermissions(d, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                         QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup |
                                         QFileDevice::ExeGroup);
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
        QFile::setPermissions(QFileInfo(path).absolutePath(), QFileDevice::ReadOwner | QFileDevice::ExeOwner |
                                                                 QFileDevice::ReadOther | QFileDevice::ExeOther |
                                                                 QFileDevice::ReadGroup | QFileDevice::ExeGroup);
        const QByteArray before = sha256(path);
        auto asNobody = [&](const QStringList& args) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HOME"), QStringLiteral("/nonexistent"));
            env.insert(QStringLiteral("XDG_DATA_HOME"), QStringLiteral("/nonexistent"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral("setpriv"), QStringList{QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                                           QStringLiteral("--clear-groups"), QStringLiteral(MOEWB_CLI)} +
                                                   args);
            p.waitForFinished(60000);
            return CliResult{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                             QString::fromUtf8(p.readAllStandardError())};
        };
        const CliResult list = asNobody({QStringLiteral("--project"), path, QStringLiteral("record"), QStringLiteral("list")});
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QVERIFY(list.out.contains(QStringLiteral("moe")));
        QVERIFY2(list.err.contains(QStringLiteral("is read-only")), qPrintable(list.err));
        const CliResult add = asNobody({QStringLiteral("--project"), path, QStringLiteral("record"), QStringLiteral("add"),
                                        recordFixture(), QStringLiteral("--name"), QStringLiteral("x")});
        QVERIFY(add.exitCode != 0);
        QVERIFY2(add.err.contains(QStringLiteral("the project is read-only")), qPrintable(add.err));
        QCOMPARE(sha256(path), before);

        // A folder anyone may write, the file only its owner: the reader leaves no -wal or
        // -shm of its own behind (they would be nobody's, read-only, and lock the owner out).
        QFile::setPermissions(QFileInfo(path).absolutePath(), QFileDevice::Permissions(0x7777));
        const QStringList entries = QDir(QFileInfo(path).absolutePath()).entryList(QDir::Files | QDir::Hidden);
        const CliResult again = asNobody({QStringLiteral("--project"), path, QStringLiteral("runs"), QStringLiteral("list")});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QVERIFY2(again.err.contains(QStringLiteral("is read-only")), qPrintable(again.err));
        QCOMPARE(QDir(QFileInfo(path).absolutePath()).entryList(QDir::Files | QDir::Hidden), entries);
        QVERIFY(runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("record"), QStringLiteral("list")})
                    .err.isEmpty()); // the owner (root) still opens it for writing, without a note
    }

    void namesWithEscapesRefusedAndEscapedOnOutput() {
        const QString path = project(QStringLiteral("names"));
        QVERIFY(!path.isEmpty());
        const CliResult add = runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("record"),
                                                       QStringLiteral("add"), recordFixture(), QStringLiteral("--name"),
                                                       QStringLiteral("evil\x1b]0;owned\x07")});
        QVERIFY(add.exitCode != 0);
        QVERIFY2(add.err.contains(QStringLiteral("holds the control character U+001B at character 5")), qPrintable(add.err));
        QVERIFY(!add.err.contains(QChar(0x1b)));
        writeFile(m_home.filePath(QStringLiteral("names-src/t.csv")), metricsCsv(10, 0.0));
        const CliResult longRun = runMoewb(
            m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("import"),
                            m_home.filePath(QStringLiteral("names-src/t.csv")), QStringLiteral("--record"),
                            QStringLiteral("moe"), QStringLiteral("--run"), QString(257, QLatin1Char('r'))});
        QVERIFY(longRun.exitCode != 0);
        QVERIFY2(longRun.err.contains(QStringLiteral("at most 256 characters")), qPrintable(longRun.err));

        // A project written before names had rules: the names are in the file already.
        QCOMPARE(runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("import"),
                                          m_home.filePath(QStringLiteral("names-src/t.csv")), QStringLiteral("--record"),
                                          QStringLiteral("moe"), QStringLiteral("--run"), QStringLiteral("plain")})
                     .exitCode,
                 0);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("UPDATE run SET name = 'run' || char(27) || '[2J' WHERE name = 'plain'")));
            QVERIFY(q.exec(QStringLiteral("UPDATE config_record SET name = 'moe' || char(27) || '[31m'")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("old"));
        for (const QStringList& words : {QStringList{QStringLiteral("runs"), QStringLiteral("list")},
                                         QStringList{QStringLiteral("record"), QStringLiteral("list")}}) {
            const CliResult r = runMoewb(m_home.path(), QStringList{QStringLiteral("--project"), path} + words);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY2(!r.out.contains(QChar(0x1b)), qPrintable(r.out)); // before: the raw escape reached the terminal
            QVERIFY2(r.out.contains(QStringLiteral("moe\\x1b[31m")), qPrintable(r.out));
        }
        const CliResult runs =
            runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("runs"), QStringLiteral("list")});
        QVERIFY2(runs.out.contains(QStringLiteral("run\\x1b[2J")), qPrintable(runs.out));
        // Everything else the CLI prints goes through the same filter: a stage's tables
        // and the error quoting a hostile file's line.
        const CliResult stage = runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("stage"),
                                                         QStringLiteral("2"), QStringLiteral("--preview")});
        QVERIFY2(!stage.out.contains(QChar(0x1b)) && !stage.err.contains(QChar(0x1b)), qPrintable(stage.out + stage.err));
        writeFile(m_home.filePath(QStringLiteral("names-src/evil.csv")),
                  QByteArray("step,lm_loss\n1,\x1b]0;owned\x07\xe2\x80\xae0.5\n"));
        const CliResult evil = runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("import"),
                                                        m_home.filePath(QStringLiteral("names-src/evil.csv")),
                                                        // the record as the CLI shows it: the name a user types
                                                        QStringLiteral("--record"), QStringLiteral("moe\\x1b[31m"),
                                                        QStringLiteral("--format"), QStringLiteral("csv-metrics")});
        QVERIFY(evil.exitCode != 0);
        QVERIFY2(!evil.err.contains(QChar(0x1b)) && !evil.err.contains(QChar(0x202E)), qPrintable(evil.err));
        QVERIFY2(evil.err.contains(QStringLiteral("\\x1b]0;owned\\x07")), qPrintable(evil.err));
    }

    void duplicateKeysInARecordAreRefused() {
        const QString path = project(QStringLiteral("dups"));
        QVERIFY(!path.isEmpty());
        QFile fixture(recordFixture());
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QByteArray text = fixture.readAll();
        // A second "name" key right after the opening brace: QJsonDocument would keep the last.
        text.replace(0, 1, "{\n  \"name\": \"shadow\",");
        const QString file = m_home.filePath(QStringLiteral("dups/record.json"));
        writeFile(file, text);
        int firstLine = 0;
        const QList<QByteArray> lines = text.split('\n');
        for (int i = 2; i < lines.size() && !firstLine; ++i)
            if (lines[i].trimmed().startsWith("\"name\""))
                firstLine = i + 1;
        QVERIFY(firstLine > 2);
        const CliResult validate =
            runMoewb(m_home.path(), {QStringLiteral("record"), QStringLiteral("validate"), file});
        QCOMPARE(validate.exitCode, 1);
        QVERIFY2(validate.out.contains(QStringLiteral("line %1: key \"name\" of the record appears again (first on line 2)")
                                           .arg(firstLine)),
                 qPrintable(validate.out));
        const CliResult add = runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("record"),
                                                       QStringLiteral("add"), file});
        QVERIFY(add.exitCode != 0);
        QVERIFY2(add.err.contains(QStringLiteral("appears again")), qPrintable(add.err));
        const CliResult list = runMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("--json"),
                                                        QStringLiteral("record"), QStringLiteral("list")});
        QCOMPARE(list.json().value(QStringLiteral("records")).toArray().size(), 1); // only "moe"
    }
};

QTEST_GUILESS_MAIN(TestMoewbProjectSafety)
#include "test_moewb_project_safety.moc"
