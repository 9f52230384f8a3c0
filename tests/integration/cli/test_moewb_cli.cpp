// The moewb binary, run as a user runs it: exit codes, help, JSON, and the project file.
#include "../MoewbCli.h"
#include "record/RecordValidation.h"
#include "store/ProjectStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestMoewbCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;

    CliResult run(const QStringList& args) {
        return runMoewb(m_home.path(), args, 30000);
    }
    QString fixture(const QString& name) const {
        return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/") + name;
    }
    QString writeFile(const QString& name, const QByteArray& bytes) {
        const QString path = m_home.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(bytes);
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void versionAndHelp() {
        auto r = run({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith(QStringLiteral("moewb " MOEWB_VERSION)));
        r = run({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        for (const char* word : {"init", "record validate", "record add", "runs list", "--project", "--json"})
            QVERIFY2(r.out.contains(QLatin1String(word)), word);
        // Every command has its own --help, exit 0, showing its synopsis.
        const QList<QStringList> commands{{QStringLiteral("init")},
                                          {QStringLiteral("record"), QStringLiteral("validate")},
                                          {QStringLiteral("record"), QStringLiteral("add")},
                                          {QStringLiteral("record"), QStringLiteral("list")},
                                          {QStringLiteral("runs"), QStringLiteral("list")}};
        for (const QStringList& words : commands) {
            r = run(words + QStringList{QStringLiteral("--help")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.contains(QStringLiteral("Usage: moewb [--project FILE] [--json] ") + words.join(QLatin1Char(' '))),
                     qPrintable(r.out));
        }
        r = run({QStringLiteral("help"), QStringLiteral("record"), QStringLiteral("add")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("--name")));
    }

    void usageErrorsExit2() {
        QCOMPARE(run({}).exitCode, 2);
        auto r = run({QStringLiteral("frobnicate")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("frobnicate")));
        QCOMPARE(run({QStringLiteral("record"), QStringLiteral("validate")}).exitCode, 2);
        QCOMPARE(run({QStringLiteral("record"), QStringLiteral("validate"), QStringLiteral("--bogus"),
                      QStringLiteral("x.json")})
                     .exitCode,
                 2);
        QCOMPARE(run({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--kind"), QStringLiteral("nope")})
                     .exitCode,
                 2);
        QCOMPARE(run({QStringLiteral("--project")}).exitCode, 2);
    }

    void validateEmptyRecordNamesEveryRequiredField() {
        const QString path = writeFile(QStringLiteral("empty.json"), "{}");
        auto r = run({QStringLiteral("record"), QStringLiteral("validate"), path});
        QCOMPARE(r.exitCode, 1);
        const auto expected = moewb::record::validateJson(QJsonObject{});
        QVERIFY(expected.size() >= 25);  // every field of SPEC §1
        for (const auto& issue : expected)
            QVERIFY2(r.out.contains(path + QStringLiteral(": ") + issue.message) && r.out.contains(issue.field),
                     qPrintable(issue.field));
        for (const char* field : {"cluster.nodes", "cluster.accelerators_per_node", "moe.experts", "moe.top_k",
                                  "moe.capacity_factor", "moe.overflow_policy", "parallelism.ep",
                                  "batch.global_batch_tokens", "batch.sequence_length", "recipe.optimizer"})
            QVERIFY2(r.out.contains(QLatin1String(field)), field);

        r = run({QStringLiteral("--json"), QStringLiteral("record"), QStringLiteral("validate"), path});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("valid")).toBool(true), false);
        QCOMPARE(doc.value(QStringLiteral("issues")).toArray().size(), expected.size());
    }

    void validateGoodAndBadFiles() {
        auto r = run({QStringLiteral("record"), QStringLiteral("validate"), fixture(QStringLiteral("moe-64e-top8.json"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("complete")));
        // A syntax error is located by line and column.
        const QString broken = writeFile(QStringLiteral("broken.json"), "{\n  \"moe\": {\n    \"top_k\": ,\n  }\n}\n");
        r = run({QStringLiteral("record"), QStringLiteral("validate"), broken});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("line 3")), qPrintable(r.out));
        // A file that cannot be read is a runtime failure.
        r = run({QStringLiteral("record"), QStringLiteral("validate"), m_home.filePath(QStringLiteral("absent.json"))});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.err.contains(QStringLiteral("absent.json")));
    }

    void initAddAndList() {
        const QString project = m_home.filePath(QStringLiteral("eval.moewb"));
        auto r = run({QStringLiteral("init"), project});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile::exists(project));
        // init never overwrites.
        QCOMPARE(run({QStringLiteral("init"), project}).exitCode, 3);

        r = run({QStringLiteral("--project"), project, QStringLiteral("record"), QStringLiteral("add"),
                 fixture(QStringLiteral("moe-64e-top8.json")), QStringLiteral("--name"), QStringLiteral("moe-a")});
        QCOMPARE(r.exitCode, 0);
        // Incomplete records are kept as written and marked incomplete.
        const QString partial = writeFile(QStringLiteral("partial.json"), "{\"moe\": {\"experts\": 64, \"top_k\": 8}}");
        r = run({QStringLiteral("--project"), project, QStringLiteral("--json"), QStringLiteral("record"),
                 QStringLiteral("add"), partial});
        QCOMPARE(r.exitCode, 0);
        QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("record")).toString(), QStringLiteral("partial"));
        QCOMPARE(doc.value(QStringLiteral("complete")).toBool(true), false);
        // A duplicate name is refused and the project is unchanged.
        r = run({QStringLiteral("--project"), project, QStringLiteral("record"), QStringLiteral("add"), partial});
        QCOMPARE(r.exitCode, 3);
        // A syntax error stores nothing.
        const QString broken = writeFile(QStringLiteral("broken2.json"), "{\"moe\": ");
        QCOMPARE(run({QStringLiteral("--project"), project, QStringLiteral("record"), QStringLiteral("add"), broken,
                      QStringLiteral("--name"), QStringLiteral("never")})
                     .exitCode,
                 1);

        auto opened = moewb::store::ProjectStore::open(project, moewb::store::OpenMode::MustExist);
        QVERIFY(opened);
        const auto rows = opened.value()->configRecords();
        QCOMPARE(rows.size(), 2);
        QVERIFY(opened.value()->configRecord(QStringLiteral("moe-a"))->complete);
        QVERIFY(!opened.value()->configRecord(QStringLiteral("partial"))->complete);
        QCOMPARE(opened.value()->configRecord(QStringLiteral("partial"))->json.value(QStringLiteral("moe")).toObject()
                     .value(QStringLiteral("experts")).toInt(),
                 64);

        // A run, then runs list in text and JSON.
        moewb::store::RunData run1;
        run1.name = QStringLiteral("probe-8n");
        run1.kind = moewb::store::RunKind::Probe;
        run1.recordName = QStringLiteral("moe-a");
        run1.commSamples = {{1024, 0, 0, 12.5}, {1024, 0, 1, 13.0}, {2048, 0, 0, 20.0}};
        QVERIFY(opened.value()->saveRun(run1));
        opened.value().reset();

        r = run({QStringLiteral("--project"), project, QStringLiteral("runs"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("probe-8n")));
        QVERIFY(r.out.contains(QStringLiteral("moe-a")));
        r = run({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--project"),
                 project});
        QCOMPARE(r.exitCode, 0);
        doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray runs = doc.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("probe"));
        QCOMPARE(runs[0].toObject().value(QStringLiteral("comm_samples")).toInt(), 3);
        r = run({QStringLiteral("--project"), project, QStringLiteral("runs"), QStringLiteral("list"),
                 QStringLiteral("--kind"), QStringLiteral("training")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!r.out.contains(QStringLiteral("probe-8n")));
    }

    void missingExplicitProjectIsNotCreated() {
        const QString project = m_home.filePath(QStringLiteral("typo.moewb"));
        auto r = run({QStringLiteral("--project"), project, QStringLiteral("runs"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.err.contains(QStringLiteral("moewb init")));
        QVERIFY(!QFile::exists(project));
        // A file that is not a project is refused by name.
        const QString junk = writeFile(QStringLiteral("junk.moewb"), "this is not sqlite");
        r = run({QStringLiteral("--project"), junk, QStringLiteral("runs"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("junk.moewb")), qPrintable(r.err));
    }

    void defaultProjectLivesUnderXdgDataHome() {
        auto r = run({QStringLiteral("--json"), QStringLiteral("runs"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        const QString path = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("project")).toString();
        QVERIFY2(path.startsWith(m_home.path() + QStringLiteral("/data/")), qPrintable(path));
        QVERIFY(QFile::exists(path));
    }
};

QTEST_GUILESS_MAIN(TestMoewbCli)
#include "test_moewb_cli.moc"
