// The method's rules, end to end: every folder under tests/fixtures/method (written by
// make_method.py) is a scenario — the files a user would have, the moewb commands they
// would type, and what the gate must say. Each runs on a fresh project through the real
// moewb binary; the scenario's JSON holds the expected status and reasons.
#include "../MoewbCli.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

class TestMethodScenarios : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;

    static QString scenarios() { return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/method"); }

    CliResult run(const QString& folder, const QStringList& args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path() + QStringLiteral("/data"));
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(folder);
        p.start(QStringLiteral(MOEWB_CLI), args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }

private slots:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void scenario_data() {
        QTest::addColumn<QString>("folder");
        const QStringList names = QDir(scenarios()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(names.size() >= 3);
        for (const QString& n : names)
            QTest::newRow(qPrintable(n)) << scenarios() + QLatin1Char('/') + n;
    }

    void scenario() {
        QFETCH(QString, folder);
        QFile f(folder + QStringLiteral("/scenario.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject s = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(!s.value(QStringLiteral("rule")).toString().isEmpty());
        const QString project = m_home.filePath(QDir(folder).dirName() + QStringLiteral(".moewb"));
        QFile::remove(project);
        QCOMPARE(run(folder, {QStringLiteral("init"), project}).exitCode, 0);
        for (const QJsonValue& step : s.value(QStringLiteral("steps")).toArray()) {
            QStringList args{QStringLiteral("--project"), project};
            for (const QJsonValue& a : step.toArray())
                args << a.toString();
            const CliResult r = run(folder, args);
            QVERIFY2(r.exitCode == 0, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
        }
        QJsonObject check = s.value(QStringLiteral("check")).toObject();
        while (!check.isEmpty()) {
            verify(folder, project, check);
            if (QTest::currentTestFailed())
                return;
            check = check.value(QStringLiteral("then")).toObject();
        }
    }

private:
    // One check: the command's exit code, status, reasons, keys and table size.
    void verify(const QString& folder, const QString& project, const QJsonObject& check) {
        QStringList args{QStringLiteral("--project"), project, QStringLiteral("--json")};
        for (const QJsonValue& a : check.value(QStringLiteral("command")).toArray())
            args << a.toString();
        const CliResult r = run(folder, args);
        QCOMPARE(r.exitCode, check.value(QStringLiteral("exit")).toInt());
        const QJsonObject out = r.json();
        QCOMPARE(out.value(QStringLiteral("status")).toString(), check.value(QStringLiteral("status")).toString());
        const QJsonObject keys = check.value(QStringLiteral("key_contains")).toObject();
        for (auto it = keys.begin(); it != keys.end(); ++it)
            QVERIFY2(out.value(it.key()).toString().contains(it.value().toString()),
                     qPrintable(it.key() + QStringLiteral(": ") + out.value(it.key()).toString()));
        if (check.contains(QStringLiteral("table_size")))
            QCOMPARE(out.value(QStringLiteral("table")).toArray().size(), check.value(QStringLiteral("table_size")).toInt());
        auto lines = [&](const QString& key) {
            QStringList l;
            for (const QJsonValue& v : out.value(key).toArray())
                l << v.toString();
            return l;
        };
        const QStringList reasons = lines(check.value(QStringLiteral("reasons_key")).toString(QStringLiteral("reasons")));
        const QStringList notes = lines(QStringLiteral("notes"));
        auto anyContains = [](const QStringList& l, const QString& want) {
            for (const QString& x : l)
                if (x.contains(want))
                    return true;
            return false;
        };
        for (const QJsonValue& want : check.value(QStringLiteral("reasons_contain")).toArray())
            QVERIFY2(anyContains(reasons, want.toString()),
                     qPrintable(want.toString() + QStringLiteral("\n  not in:\n  ") + reasons.join(QStringLiteral("\n  "))));
        for (const QJsonValue& want : check.value(QStringLiteral("notes_contain")).toArray())
            QVERIFY2(anyContains(notes, want.toString()),
                     qPrintable(want.toString() + QStringLiteral("\n  not in:\n  ") + notes.join(QStringLiteral("\n  "))));
        for (const QJsonValue& unwanted : check.value(QStringLiteral("reasons_lack")).toArray())
            QVERIFY2(!anyContains(reasons, unwanted.toString()),
                     qPrintable(unwanted.toString() + QStringLiteral("\n  in:\n  ") + reasons.join(QStringLiteral("\n  "))));
    }
};

QTEST_GUILESS_MAIN(TestMethodScenarios)
#include "test_method_scenarios.moc"
