// The moewb binary, run as a user runs it: exit codes, help, JSON, and the project file.
#include "Translations.h"
#include "../MoewbCli.h"
#include "record/RecordValidation.h"
#include "stages/StageEvaluation.h"
#include "store/ProjectStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPair>
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
    void initTestCase() {
        QVERIFY(m_home.isValid());
        // The sentences computed here in-process read as moewb prints them: English with
        // its plural forms ("57 sizes", not "57 size(s)").
        QVERIFY(moewb::i18n::installTranslations(*QCoreApplication::instance(), QStringLiteral("en")) > 0);
    }

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

    // `moewb --help` and every command's --help fit an 80-column terminal: the command
    // table's summaries are wrapped under each command, not padded to column 165.
    void helpFitsEightyColumns() {
        const QList<QStringList> asks{{QStringLiteral("--help")},
                                      {QStringLiteral("import"), QStringLiteral("--help")},
                                      {QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--help")},
                                      {QStringLiteral("threshold"), QStringLiteral("set"), QStringLiteral("--help")},
                                      {QStringLiteral("threshold"), QStringLiteral("suggest"), QStringLiteral("--help")},
                                      {QStringLiteral("help"), QStringLiteral("threshold")}};
        for (const QStringList& args : asks) {
            const auto r = run(args);
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.count(QLatin1Char('\n')) > 3);
            for (const QString& line : r.out.split(QLatin1Char('\n')))
                QVERIFY2(line.size() <= 80, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + line));
        }
        const auto r = run({QStringLiteral("--help")});
        // Each command on its own line, its summary indented below it.
        QVERIFY2(r.out.contains(QStringLiteral("\n  init [FILE]\n      create a project file\n")), qPrintable(r.out));
        for (const char* word : {"--demo", "threshold list", "threshold set KEY VALUE", "threshold suggest N", "-b SIZE",
                                 "--pattern"})
            QVERIFY2(r.out.contains(QLatin1String(word)), word);
    }

    // --demo: a fresh copy of the bundled demo project for one call; the user's default
    // project is neither created nor changed, and the copy is gone afterwards.
    void demoRunsOnAFreshCopy() {
        const QString defaultProject = m_home.filePath(QStringLiteral("data/moe-workbench/default.moewb"));
        const bool existed = QFile::exists(defaultProject);
        QByteArray before;
        if (existed) {
            QFile f(defaultProject);
            QVERIFY(f.open(QIODevice::ReadOnly));
            before = f.readAll();
        }
        auto r = run({QStringLiteral("--demo"), QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 0); // the demo's stage 1 passes (docs/demo.md)
        QCOMPARE(r.json().value(QStringLiteral("stage")).toInt(), 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("pass"));
        QVERIFY(!r.json().value(QStringLiteral("table")).toArray().isEmpty());
        // A second call starts from the demo again: it sees no verdict the first one saved.
        r = run({QStringLiteral("--demo"), QStringLiteral("--json"), QStringLiteral("runs"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        const QString copy = r.json().value(QStringLiteral("project")).toString();
        QVERIFY2(copy.contains(QStringLiteral("moewb-demo-")), qPrintable(copy));
        QVERIFY2(!QFile::exists(copy), qPrintable(copy)); // removed at exit
        QVERIFY(!QFileInfo::exists(QFileInfo(copy).absolutePath()));
        QVERIFY(!r.json().value(QStringLiteral("runs")).toArray().isEmpty());
        QCOMPARE(QFile::exists(defaultProject), existed);
        if (existed) {
            QFile f(defaultProject);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before);
        }
        // --demo with --project is a usage error.
        r = run({QStringLiteral("--demo"), QStringLiteral("--project"), m_home.filePath(QStringLiteral("x.moewb")),
                 QStringLiteral("stage"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("--demo")));
    }

    // threshold list / set / suggest through the real project file.
    void thresholdsRoundTrip() {
        const QString project = m_home.filePath(QStringLiteral("thresholds.moewb"));
        QCOMPARE(run({QStringLiteral("init"), project}).exitCode, 0);
        auto moewbAt = [&](const QStringList& args) { return run(QStringList{QStringLiteral("--project"), project} + args); };
        auto r = moewbAt({QStringLiteral("--json"), QStringLiteral("threshold"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        QJsonArray listed = r.json().value(QStringLiteral("thresholds")).toArray();
        QStringList keys;
        for (const auto& t : listed)
            keys << t.toObject().value(QStringLiteral("key")).toString();
        for (const auto& p : moewb::store::placeholderThresholds())
            QVERIFY2(keys.contains(p.key), qPrintable(p.key));

        r = moewbAt({QStringLiteral("threshold"), QStringLiteral("set"), QStringLiteral("stage1.cv_max"), QStringLiteral("0.07"),
                     QStringLiteral("--note"), QStringLiteral("agreed on 3 May")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        {
            auto opened = moewb::store::ProjectStore::open(project, moewb::store::OpenMode::MustExist);
            QVERIFY(opened);
            const auto t = opened.value()->threshold(QStringLiteral("stage1.cv_max"));
            QVERIFY(t);
            QCOMPARE(t->value, 0.07);
            QCOMPARE(t->source, moewb::store::ThresholdSource::Team);
            QCOMPARE(t->note, QStringLiteral("agreed on 3 May"));
        }
        r = moewbAt({QStringLiteral("threshold"), QStringLiteral("set"), QStringLiteral("stage3.drop_rate_max"),
                     QStringLiteral("0.02"), QStringLiteral("--source"), QStringLiteral("suggested")});
        QCOMPARE(r.exitCode, 0);
        r = moewbAt({QStringLiteral("threshold"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("agreed on 3 May")));
        QVERIFY(r.out.startsWith(QStringLiteral("key")));
        for (const char* col : {"value", "source", "updated", "note"})
            QVERIFY2(r.out.section(QLatin1Char('\n'), 0, 0).contains(QLatin1String(col)), col);
        r = moewbAt({QStringLiteral("--json"), QStringLiteral("threshold"), QStringLiteral("list")});
        for (const auto& t : r.json().value(QStringLiteral("thresholds")).toArray()) {
            const QJsonObject o = t.toObject();
            if (o.value(QStringLiteral("key")).toString() == QLatin1String("stage3.drop_rate_max")) {
                QCOMPARE(o.value(QStringLiteral("value")).toDouble(), 0.02);
                QCOMPARE(o.value(QStringLiteral("source")).toString(), QStringLiteral("suggested"));
                QVERIFY(!o.value(QStringLiteral("updated")).toString().isEmpty());
            }
        }

        // Usage errors: unknown key (the known ones listed), not a finite number, a bad source.
        r = moewbAt({QStringLiteral("threshold"), QStringLiteral("set"), QStringLiteral("stage1.cv"), QStringLiteral("0.1")});
        QCOMPARE(r.exitCode, 2);
        for (const auto& p : moewb::store::placeholderThresholds())
            QVERIFY2(r.err.contains(p.key), qPrintable(r.err));
        for (const char* bad : {"abc", "nan", "inf", ""})
            QCOMPARE(moewbAt({QStringLiteral("threshold"), QStringLiteral("set"), QStringLiteral("stage1.cv_max"),
                              QString::fromLatin1(bad)})
                         .exitCode,
                     2);
        QCOMPARE(moewbAt({QStringLiteral("threshold"), QStringLiteral("set"), QStringLiteral("stage1.cv_max"),
                          QStringLiteral("0.1"), QStringLiteral("--source"), QStringLiteral("placeholder")})
                     .exitCode,
                 2);
        // Nothing to suggest from an empty project (exit 1); only stage 1 suggests.
        QCOMPARE(moewbAt({QStringLiteral("threshold"), QStringLiteral("suggest"), QStringLiteral("1")}).exitCode, 1);
        QCOMPARE(moewbAt({QStringLiteral("threshold"), QStringLiteral("suggest"), QStringLiteral("2")}).exitCode, 2);
        QCOMPARE(moewbAt({QStringLiteral("threshold"), QStringLiteral("suggest"), QStringLiteral("x")}).exitCode, 2);

        // Suggestions from the demo's stage 1 runs: printed, stored only with --apply, and
        // the same figures the core computes for the window's "Suggest thresholds".
        const QString demo = m_home.filePath(QStringLiteral("demo-thresholds.moewb"));
        QCOMPARE(run({QStringLiteral("demo"), QStringLiteral("-o"), demo}).exitCode, 0);
        QList<moewb::stages::SuggestedThreshold> expected;
        QList<moewb::store::ThresholdRow> storedBefore;
        {
            auto opened = moewb::store::ProjectStore::open(demo, moewb::store::OpenMode::MustExist);
            QVERIFY(opened);
            auto e = moewb::stages::evaluateStage(*opened.value(), 1);
            QVERIFY(e && e->stageOne());
            expected = e->stageOne()->suggestions;
            storedBefore = opened.value()->thresholds();
        }
        QVERIFY(!expected.isEmpty());
        r = run({QStringLiteral("--project"), demo, QStringLiteral("--json"), QStringLiteral("threshold"),
                 QStringLiteral("suggest"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray suggested = r.json().value(QStringLiteral("suggestions")).toArray();
        QCOMPARE(suggested.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QCOMPARE(suggested[i].toObject().value(QStringLiteral("key")).toString(), expected[i].key);
            QCOMPARE(suggested[i].toObject().value(QStringLiteral("value")).toDouble(), expected[i].value);
        }
        QCOMPARE(r.json().value(QStringLiteral("applied")).toBool(true), false);
        {
            auto opened = moewb::store::ProjectStore::open(demo, moewb::store::OpenMode::MustExist);
            for (const auto& s : expected)
                QCOMPARE(opened.value()->threshold(s.key)->source, [&] {
                    for (const auto& b : storedBefore)
                        if (b.key == s.key)
                            return b.source;
                    return moewb::store::ThresholdSource::Placeholder;
                }());
        }
        r = run({QStringLiteral("--project"), demo, QStringLiteral("threshold"), QStringLiteral("suggest"), QStringLiteral("1"),
                 QStringLiteral("--apply")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(expected[0].key));
        auto opened = moewb::store::ProjectStore::open(demo, moewb::store::OpenMode::MustExist);
        QVERIFY(opened);
        for (const auto& s : expected) {
            const auto t = opened.value()->threshold(s.key);
            QVERIFY(t);
            QCOMPARE(t->value, s.value);
            QCOMPARE(t->source, moewb::store::ThresholdSource::Suggested);
            QCOMPARE(t->note, s.basis);
        }
    }

    // run stage1's sweep options are checked before anything connects (exit 2, naming
    // the option); the sweep itself is tested in tests/integration/run_stage1.
    void runStage1OptionErrors() {
        const QStringList base{QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"),
                               QStringLiteral("lab"), QStringLiteral("--record"), QStringLiteral("r")};
        const QString matrix = writeFile(QStringLiteral("ragged.txt"), "1K 2K\n3K\n");
        const QList<QPair<QStringList, QString>> cases{
            {{QStringLiteral("-b"), QStringLiteral("1Q")}, QStringLiteral("-b/--minbytes")},
            {{QStringLiteral("-e"), QStringLiteral("0")}, QStringLiteral("-e/--maxbytes")},
            {{QStringLiteral("-b"), QStringLiteral("4K"), QStringLiteral("-e"), QStringLiteral("1K")}, QStringLiteral("larger")},
            {{QStringLiteral("-f"), QStringLiteral("1")}, QStringLiteral("-f")},
            {{QStringLiteral("-f"), QStringLiteral("2.5")}, QStringLiteral("-f")},
            {{QStringLiteral("--sizes"), QStringLiteral("1M"), QStringLiteral("-b"), QStringLiteral("1K")}, QStringLiteral("--sizes")},
            {{QStringLiteral("-n"), QStringLiteral("0")}, QStringLiteral("-n/--iterations")},
            {{QStringLiteral("-w"), QStringLiteral("x")}, QStringLiteral("-w/--warmup")},
            {{QStringLiteral("-R"), QStringLiteral("0")}, QStringLiteral("-R/--repeats")},
            {{QStringLiteral("--pattern"), QStringLiteral("hot:0:2")}, QStringLiteral("hot:K")},
            {{QStringLiteral("--pattern"), QStringLiteral("hot:2")}, QStringLiteral("hot:K:F")},
            {{QStringLiteral("--pattern"), QStringLiteral("zipf:-1")}, QStringLiteral("zipf:S")},
            {{QStringLiteral("--pattern"), QStringLiteral("skewed")}, QStringLiteral("unknown pattern")},
            {{QStringLiteral("--pattern"), QStringLiteral("matrix:") + m_home.filePath(QStringLiteral("none.txt"))},
             QStringLiteral("cannot be read")},
            {{QStringLiteral("--pattern"), QStringLiteral("matrix:") + matrix}, QStringLiteral("entries")}};
        for (const auto& [args, says] : cases) {
            const auto r = run(base + args);
            QVERIFY2(r.exitCode == 2, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
            QVERIFY2(r.err.contains(says), qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
        }
    }

    // A pasted nccl-tests table: `import` asks for the missing fact by option, then
    // stores the run with what it derived (--ranks / --collective reach the importer).
    void importPastedTableAsksForMissingFacts() {
        const QString project = m_home.filePath(QStringLiteral("pasted.moewb"));
        QCOMPARE(run({QStringLiteral("init"), project}).exitCode, 0);
        auto moewbAt = [&](const QStringList& args) { return run(QStringList{QStringLiteral("--project"), project} + args); };
        QCOMPARE(moewbAt({QStringLiteral("record"), QStringLiteral("add"), fixture(QStringLiteral("moe-64e-top8.json"))}).exitCode, 0);
        const QString pasted = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/nccl-tests/pasted-header-and-rows.txt");
        const QStringList import{QStringLiteral("import"), pasted, QStringLiteral("--format"), QStringLiteral("nccl-tests")};
        auto r = moewbAt(import);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("--collective alltoall")), qPrintable(r.err));
        QCOMPARE(moewbAt(import + QStringList{QStringLiteral("--collective"), QStringLiteral("all_gather")}).exitCode, 2);
        QCOMPARE(moewbAt(import + QStringList{QStringLiteral("--ranks"), QStringLiteral("0")}).exitCode, 2);
        // --ranks the rows contradict: refused, naming the row's count.
        r = moewbAt(import + QStringList{QStringLiteral("--collective"), QStringLiteral("alltoall"), QStringLiteral("--ranks"),
                                         QStringLiteral("16")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral(":4: count:")), qPrintable(r.err));
        r = moewbAt(import + QStringList{QStringLiteral("--collective"), QStringLiteral("alltoall"), QStringLiteral("--run"),
                                         QStringLiteral("pasted")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto opened = moewb::store::ProjectStore::open(project, moewb::store::OpenMode::MustExist);
        QVERIFY(opened);
        const auto stored = opened.value()->run(QStringLiteral("pasted"));
        QVERIFY(stored);
        // 1 MiB per rank with a count of 32768 floats per peer: 1048576 / (32768 x 4) ranks.
        QCOMPARE(stored->environment.value(QStringLiteral("world")).toInt(), 1048576 / (32768 * 4));
        QCOMPARE(stored->environment.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QVERIFY(stored->environment.value(QStringLiteral("derived")).toObject().contains(QStringLiteral("world")));
        QCOMPARE(stored->commSampleCount, 4);
    }
};

QTEST_GUILESS_MAIN(TestMoewbCli)
#include "test_moewb_cli.moc"
