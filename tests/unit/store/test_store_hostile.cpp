// A project file from someone else is hostile input (docs/store.md, "What opening a
// project checks"). Projects written by the store itself, then changed with the plain
// SQLite C API as an attacker would: a trigger that rewrites verdicts, a view in place
// of a table, an endless recursive view, a foreign table, index or altered definition
// of moewb's own trigger or table. Each is refused on opening, naming what was planted,
// before anything in it runs: the file stays byte for byte as it was and the verdicts
// are not flipped. cleanProjectCopy recovers the known rows (counted against SQLite's
// own count of the source) and leaves out what moewb did not create. A failed upgrade
// leaves no backup behind, however often it is tried. Qt's "Parameter count mismatch"
// gives way to SQLite's own words.
#include "store/ProjectClean.h"
#include "store/ProjectStore.h"
#include "store/SqlSupport.h"
#include "store/StoreSchema.h"

#include "HostileFile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>


using namespace moewb::store;

namespace {

using moewb::testing::plant;
using moewb::testing::sha256;

// One integer from `path` through the C API (-1 when the query fails).
qint64 scalar(const QString& path, const QString& query) {
    bool ok = false;
    const qint64 v = moewb::testing::firstValue(path, query).toLongLong(&ok);
    return ok ? v : -1;
}

QString text(const QString& path, const QString& query) {
    return moewb::testing::firstValue(path, query);
}

// A fixture's SQL (tests/fixtures/store/), to plant into an empty file.
QByteArray fixture(const char* name) {
    QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/store/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() + '\n' : QByteArray("not a fixture");
}

QJsonObject record(const QString& name) {
    return {{QStringLiteral("name"), name},
            {QStringLiteral("moe"), QJsonObject{{QStringLiteral("experts"), 4}, {QStringLiteral("top_k"), 2}}},
            {QStringLiteral("parallelism"), QJsonObject{{QStringLiteral("ep"), 2}}}};
}

// A project with a bit of everything: two records, a cluster, three runs (samples,
// metrics, expert load), verdicts (stage 3 a stop), an override, a team threshold.
QString writeProject(const QString& path) {
    auto opened = ProjectStore::open(path);
    if (!opened)
        return opened.error().text();
    ProjectStore& s = **opened;
    if (!s.addConfigRecord(QStringLiteral("rec-a"), record(QStringLiteral("rec-a")), true) ||
        !s.addConfigRecord(QStringLiteral("rec-b"), record(QStringLiteral("rec-b")), false))
        return QStringLiteral("records");
    ClusterRow cluster;
    cluster.name = QStringLiteral("lab");
    cluster.gpusPerNode = 8;
    if (!s.addCluster(cluster, {NodeRow{0, 0, QStringLiteral("gpu1"), 8, {}}, NodeRow{0, 0, QStringLiteral("gpu2"), 8, {}}}))
        return QStringLiteral("cluster");
    for (int r = 0; r < 3; ++r) {
        RunData run;
        run.name = QStringLiteral("run-%1").arg(r);
        run.kind = r == 0 ? RunKind::Probe : RunKind::Training;
        run.recordName = r == 2 ? QStringLiteral("rec-b") : QStringLiteral("rec-a");
        run.environment = {{QStringLiteral("source_format"), QStringLiteral("test")}};
        for (int i = 0; i < 6; ++i)
            run.commSamples.append(CommSample{quint64(1) << (20 + i % 3), i / 3, 0, 10.0 + i});
        for (int step = 1; step <= 40; ++step) {
            run.stepMetrics.append(StepMetric{step, QStringLiteral("lm_loss"), 3.0 - step * 0.01});
            for (int layer = 0; layer < 2; ++layer)
                run.expertLoad.append(
                    ExpertLoadBlock{step, layer, {quint32(10 + step), quint32(20 + layer), 30, quint32(40 + r)}});
        }
        if (auto saved = s.saveRun(run); !saved)
            return saved.error().text();
    }
    if (!s.saveVerdict(VerdictRow{1, QStringLiteral("pass"), {}, {}, {}}) ||
        !s.saveVerdict(VerdictRow{3, QStringLiteral("stop"), QJsonArray{QStringLiteral("load ratio 2.1 > 1.5")}, {}, {}}))
        return QStringLiteral("verdicts");
    OverrideRow o;
    o.stage = 1;
    o.justification = QStringLiteral("accepted by the fabric team");
    if (!s.addOverride(o))
        return QStringLiteral("override");
    ThresholdRow t{QStringLiteral("stage1.cv_max"), 0.07, ThresholdSource::Team, QStringLiteral("agreed"), {}};
    if (!s.setThreshold(t))
        return QStringLiteral("threshold");
    return {};
}

// The trigger of the issue: every saved stop becomes a pass.
const char* const kFlipTrigger =
    "CREATE TRIGGER zz_flip AFTER INSERT ON verdict BEGIN "
    "UPDATE verdict SET status = 'pass' WHERE stage = new.stage AND status = 'stop'; END;"
    "CREATE TRIGGER zz_flip_update AFTER UPDATE ON verdict BEGIN "
    "UPDATE verdict SET status = 'pass' WHERE stage = new.stage AND status = 'stop'; END;";

} // namespace

class TestStoreHostile : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_clean; // a project written by the store, never changed
    int m_files = 0;

    // A fresh copy of the clean project.
    QString copy() {
        const QString path = m_dir.filePath(QStringLiteral("p%1.moewb").arg(++m_files));
        QFile::copy(m_clean, path);
        return path;
    }

    // Opens `path` and expects a refusal for its schema naming `what`; the file is left
    // byte for byte as it was, and no -wal or -shm file stays behind.
    void expectRefused(const QString& path, const QString& what) {
        const QByteArray before = sha256(path);
        QElapsedTimer t;
        t.start();
        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
        QVERIFY2(!opened, qPrintable(path));
        QVERIFY(isForeignSchemaRefusal(opened.error()));
        QVERIFY2(opened.error().message.contains(what), qPrintable(opened.error().message));
        QVERIFY2(opened.error().message.endsWith(QStringLiteral("it may have been altered — not opened")),
                 qPrintable(opened.error().message));
        QCOMPARE(sha256(path), before);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_clean = m_dir.filePath(QStringLiteral("clean.moewb"));
        const QString error = writeProject(m_clean);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // The store's own file opens, and again (no schema departure after its writes).
        QVERIFY(ProjectStore::open(m_clean, OpenMode::MustExist));
        QCOMPARE(text(m_clean, QStringLiteral("SELECT status FROM verdict WHERE stage = 3")), QStringLiteral("stop"));
    }

    void knownSchemaIsBuiltFromTheCode() {
        // Every version's schema comes from the statements and migrations themselves.
        QString error;
        for (int v = 1; v <= ProjectStore::kSchemaVersion; ++v) {
            const schema::KnownSchema* known = schema::knownSchema(v, &error);
            QVERIFY2(known, qPrintable(error));
            QVERIFY(known->contains(QStringLiteral("table run")));
        }
        const schema::KnownSchema* latest = schema::knownSchema(ProjectStore::kSchemaVersion, &error);
        QVERIFY(latest->contains(QStringLiteral("trigger expert_load_totals_follow_chunk")));
        QVERIFY(latest->contains(QStringLiteral("index run_record")));
        QVERIFY(!latest->contains(QStringLiteral("table expert_load")));      // dropped by version 5
        QVERIFY(schema::knownSchema(4, &error)->contains(QStringLiteral("table expert_load")));
        // Layout, case and quoting do not matter; a literal does.
        QCOMPARE(schema::normalizedSql(QStringLiteral("CREATE TABLE \"threshold\" (\n  key TEXT)")),
                 schema::normalizedSql(QStringLiteral("create   table threshold(key text)")));
        QVERIFY(schema::normalizedSql(QStringLiteral("CHECK (kind IN ('probe'))")) !=
                schema::normalizedSql(QStringLiteral("CHECK (kind IN ('Probe'))")));
    }

    void plantedTriggerIsRefusedAndFlipsNothing() {
        const QString path = copy();
        QCOMPARE(plant(path, kFlipTrigger), QString());
        expectRefused(path, QStringLiteral("this project contains a trigger zz_flip that moewb did not create, a "
                                           "trigger zz_flip_update that moewb did not create; it may have been "
                                           "altered — not opened")
                                .replace(QStringLiteral(", a trigger zz_flip_update"),
                                         QStringLiteral(" and a trigger zz_flip_update")));
        QCOMPARE(text(path, QStringLiteral("SELECT status FROM verdict WHERE stage = 3")), QStringLiteral("stop"));
    }

    void singleTriggerMessageReadsAsTheIssueAsks() {
        const QString path = copy();
        QCOMPARE(plant(path, "CREATE TRIGGER zz_flip AFTER INSERT ON verdict BEGIN "
                             "UPDATE verdict SET status = 'pass'; END;"),
                 QString());
        expectRefused(path, QStringLiteral("this project contains a trigger zz_flip that moewb did not create; it may "
                                           "have been altered — not opened"));
    }

    void viewInPlaceOfATableIsRefused() {
        const QString path = copy();
        // A view of the issue: a 500 MB name from a 3 MB file.
        QCOMPARE(plant(path, "PRAGMA foreign_keys = OFF; DROP TABLE run; "
                             "CREATE VIEW run AS SELECT 1 AS id, hex(randomblob(250000000)) AS name, 'imported' AS kind, "
                             "1 AS record_id, NULL AS cluster_id, '' AS source_file, '{}' AS environment, '' AS created, "
                             "0 AS comm_sample_count, 0 AS step_count, 0 AS expert_load_blocks, '' AS updated;"),
                 QString());
        expectRefused(path, QStringLiteral("a view run in place of moewb's table run"));
    }

    void endlessRecursiveViewIsRefusedAtOnce() {
        const QString path = copy();
        QCOMPARE(plant(path, "CREATE VIEW zz_forever AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                             "SELECT x FROM c;"),
                 QString());
        expectRefused(path, QStringLiteral("a view zz_forever that moewb did not create"));
    }

    void foreignTableAndIndexAreRefused() {
        const QString path = copy();
        QCOMPARE(plant(path, "CREATE TABLE zz_extra (x); CREATE INDEX zz_by_name ON run(name, kind);"), QString());
        expectRefused(path, QStringLiteral("a table zz_extra that moewb did not create"));
        expectRefused(path, QStringLiteral("an index zz_by_name that moewb did not create"));
    }

    void alteredKnownTriggerIsRefused() {
        const QString path = copy();
        QCOMPARE(plant(path, "DROP TRIGGER expert_load_totals_follow_chunk; "
                             "CREATE TRIGGER expert_load_totals_follow_chunk AFTER DELETE ON expert_load_chunk BEGIN "
                             "DELETE FROM expert_load_totals; DELETE FROM verdict; END;"),
                 QString());
        expectRefused(path, QStringLiteral("the trigger expert_load_totals_follow_chunk with a definition that moewb "
                                           "does not give it"));
    }

    void alteredTableAndMissingIndexAreRefused() {
        const QString path = copy();
        QCOMPARE(plant(path, "ALTER TABLE run ADD COLUMN zz TEXT GENERATED ALWAYS AS (upper(name)) VIRTUAL; "
                             "DROP INDEX run_record;"),
                 QString());
        expectRefused(path, QStringLiteral("the table run with a definition that moewb does not give it"));
        expectRefused(path, QStringLiteral("no index run_record (moewb creates one)"));
    }

    void hostileNamesAreShownEscaped() {
        const QString path = copy();
        // A right-to-left override and a line break in the planted object's name.
        QCOMPARE(plant(path, "CREATE TABLE \"zz\xe2\x80\xaetxt.exe\n\" (x);"), QString());
        expectRefused(path, QStringLiteral("a table zz\\u{202e}txt.exe\\x0a that moewb did not create"));
    }

    void cleanCopyKeepsTheKnownRowsOnly() {
        const QString source = copy();
        // Planted objects, a table replaced by a view, and rows of the wrong shape.
        QCOMPARE(plant(source, "CREATE TRIGGER zz_flip AFTER INSERT ON verdict BEGIN UPDATE verdict SET status = 'pass'; "
                               "END; "
                               "CREATE TABLE zz_extra (x); INSERT INTO zz_extra VALUES (1), (2); "
                               "CREATE VIEW zz_forever AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                               "SELECT x FROM c; "
                               "PRAGMA foreign_keys = OFF; DROP TABLE cost_estimate; "
                               "CREATE VIEW cost_estimate AS SELECT * FROM zz_forever; "
                               "INSERT INTO config_record (name, json, complete, created) VALUES "
                               "(X'00ff', '{}', 1, 'x'), ('blob-json', X'7b7d', 1, 'x'); "
                               "INSERT INTO override (stage, justification, author, created) VALUES "
                               "('one', 'typed badly', '', 'x'); "
                               "INSERT INTO run (name, kind, record_id, created) VALUES ('orphan', 'imported', 99, 'x');"),
                 QString());
        const QByteArray before = sha256(source);
        // The counts SQLite itself gives for the source (no moewb involved).
        QMap<QString, qint64> sourceCounts;
        for (const QString& t : {QStringLiteral("config_record"), QStringLiteral("cluster"), QStringLiteral("node"),
                                 QStringLiteral("run"), QStringLiteral("comm_sample"), QStringLiteral("metric_name"),
                                 QStringLiteral("step_metric"), QStringLiteral("threshold"), QStringLiteral("verdict"),
                                 QStringLiteral("override"), QStringLiteral("expert_load_chunk"),
                                 QStringLiteral("expert_load_summary"), QStringLiteral("expert_load_totals")})
            sourceCounts[t] = scalar(source, QStringLiteral("SELECT count(*) FROM %1").arg(t));

        const QString target = m_dir.filePath(QStringLiteral("cleaned.moewb"));
        auto cleaned = cleanProjectCopy(source, target);
        QVERIFY2(cleaned, qPrintable(cleaned ? QString() : cleaned.error().text()));
        const CleanReport& r = cleaned.value();
        QCOMPARE(sha256(source), before); // the source is only read
        QCOMPARE(r.sourceVersion, ProjectStore::kSchemaVersion);
        QCOMPARE(r.targetVersion, ProjectStore::kSchemaVersion);
        const QString leftOut = r.leftOut.join(QLatin1Char('\n'));
        QVERIFY2(leftOut.contains(QStringLiteral("a trigger zz_flip that moewb did not create")), qPrintable(leftOut));
        QVERIFY2(leftOut.contains(QStringLiteral("a table zz_extra")), qPrintable(leftOut));
        QVERIFY2(leftOut.contains(QStringLiteral("a view cost_estimate in place of moewb's table cost_estimate")),
                 qPrintable(leftOut));
        QMap<QString, CleanTable> byName;
        for (const CleanTable& t : r.tables)
            byName[t.table] = t;
        QVERIFY(byName.contains(QStringLiteral("cost_estimate")));
        QVERIFY(!byName[QStringLiteral("cost_estimate")].notRead.isEmpty());
        // Every known row came over, the badly typed and orphaned ones did not.
        for (auto it = sourceCounts.constBegin(); it != sourceCounts.constEnd(); ++it) {
            const qint64 bad = it.key() == QLatin1String("config_record") ? 2
                               : it.key() == QLatin1String("override") || it.key() == QLatin1String("run") ? 1
                                                                                                          : 0;
            QVERIFY2(byName.contains(it.key()), qPrintable(it.key()));
            QCOMPARE(byName[it.key()].copied, it.value() - bad);
            QCOMPARE(byName[it.key()].skipped, bad);
            QCOMPARE(scalar(target, QStringLiteral("SELECT count(*) FROM %1").arg(it.key())), it.value() - bad);
        }
        QVERIFY2(byName[QStringLiteral("config_record")].skippedRows.join(QLatin1Char('\n')).contains(
                     QStringLiteral("json: a blob where moewb stores text")),
                 qPrintable(byName[QStringLiteral("config_record")].skippedRows.join(QLatin1Char('\n'))));
        QVERIFY2(byName[QStringLiteral("run")].skippedRows.value(0).contains(QStringLiteral("FOREIGN KEY")),
                 qPrintable(byName[QStringLiteral("run")].skippedRows.value(0)));
        QCOMPARE(r.skipped(), qint64(4));

        // The copy is moewb's own file: it opens, and holds what the source held.
        auto opened = ProjectStore::open(target, OpenMode::MustExist);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        ProjectStore& s = **opened;
        QCOMPARE(s.runs().size(), 3);
        QCOMPARE(s.verdict(3)->status, QStringLiteral("stop"));
        const auto run = s.run(QStringLiteral("run-1"));
        QVERIFY(run);
        QCOMPARE(s.commSamples(run->id).size(), 6);
        QCOMPARE(s.expertLoad(run->id).size(), 80);
        QCOMPARE(s.expertLoadTotals(run->id, {}, {}).perLayer.value(1).at(1), quint64(21 * 40));
        QCOMPARE(s.threshold(QStringLiteral("stage1.cv_max"))->value, 0.07);
        QCOMPARE(s.overrides().size(), 1);
        // What the clean copy writes never overwrites a file.
        QVERIFY(!cleanProjectCopy(source, target));
    }

    void cleanCopyOfAnOlderVersionIsUpgraded() {
        const QString source = m_dir.filePath(QStringLiteral("old-v3.moewb"));
        QCOMPARE(plant(source, fixture("schema-v3.sql").constData()), QString());
        QCOMPARE(plant(source, "CREATE TABLE zz_extra (x);"), QString());
        QVERIFY(!ProjectStore::open(source, OpenMode::MustExist));
        QVERIFY(!QFile::exists(source + QStringLiteral(".v3.bak"))); // refused before any backup
        const QString target = m_dir.filePath(QStringLiteral("old-v3-clean.moewb"));
        auto cleaned = cleanProjectCopy(source, target);
        QVERIFY2(cleaned, qPrintable(cleaned ? QString() : cleaned.error().text()));
        QCOMPARE(cleaned->sourceVersion, 3);
        QCOMPARE(cleaned->targetVersion, ProjectStore::kSchemaVersion);
        QVERIFY(cleaned->skipped() == 0);
        QVERIFY(QDir(m_dir.path()).entryList({QStringLiteral("old-v3-clean.moewb.v*")}).isEmpty());
        auto opened = ProjectStore::open(target, OpenMode::MustExist);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        QCOMPARE(opened.value()->runs().size(), 1);
        QCOMPARE(opened.value()->overrides().size(), 1);
    }

    void failedUpgradesLeaveNoBackups() {
        // A chunk that is not a zstd frame: the 5 -> 6 step fails, each time.
        const QString path = m_dir.filePath(QStringLiteral("broken-v5.moewb"));
        const QByteArray script =
            fixture("schema-v5.sql") + "INSERT INTO expert_load_chunk VALUES (3, 1, 1, 1, 1, 4, 1, X'0102');";
        QCOMPARE(plant(path, script.constData()), QString());
        for (int attempt = 0; attempt < 4; ++attempt) {
            auto opened = ProjectStore::open(path, OpenMode::MustExist);
            QVERIFY(!opened);
            QVERIFY2(opened.error().message.contains(QStringLiteral("from schema version 5 to 6")),
                     qPrintable(opened.error().message));
            QVERIFY2(opened.error().message.contains(QStringLiteral("run 3, layer 1 from step 1")),
                     qPrintable(opened.error().message));
        }
        QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("broken-v5.moewb.v*")}), QStringList());
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")), 5);
        QCOMPARE(scalar(path, QStringLiteral("SELECT count(*) FROM expert_load_chunk")), 10);
    }

    void sqliteSaysWhatWentWrong() {
        // A statement SQLite refuses to prepare, run with a bound value: its own words,
        // not Qt's "Parameter count mismatch".
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("words"));
            db.setDatabaseName(QStringLiteral(":memory:"));
            QVERIFY(db.open());
            QString err;
            QVERIFY(sql::hardenConnection(db, &err));
            QSqlQuery q(db);
            q.prepare(QStringLiteral("INSERT INTO nowhere (x) VALUES (?)"));
            q.bindValue(0, 1);
            QVERIFY(!sql::exec(q, &err));
            QVERIFY2(err.contains(QStringLiteral("no such table")), qPrintable(err));
            QVERIFY(sql::exec(db, QStringLiteral("CREATE TABLE t (x)"), &err));
            QSqlQuery v(db);
            v.prepare(QStringLiteral("SELECT load_extension(?)"));
            v.bindValue(0, QStringLiteral("/nonexistent"));
            QVERIFY(!sql::exec(v, &err));
            QVERIFY2(!err.contains(QStringLiteral("Parameter count mismatch")), qPrintable(err));
            QVERIFY2(err.contains(QStringLiteral("not authorized")) || err.contains(QStringLiteral("load_extension")),
                     qPrintable(err));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("words"));
    }

    void chunksDeletedWithTheirTotalsWithoutTheTrigger() {
        // The schema's trigger does not run on moewb's connections: replacing a run
        // deletes the old chunks' totals in code.
        const QString path = copy();
        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY(opened);
        RunData run;
        run.name = QStringLiteral("run-0");
        run.kind = RunKind::Training;
        run.recordName = QStringLiteral("rec-a");
        run.expertLoad.append(ExpertLoadBlock{500, 0, {1, 2, 3, 4}});
        QVERIFY(opened.value()->replaceRun(run));
        const qint64 id = opened.value()->run(QStringLiteral("run-0"))->id;
        opened.value().reset();
        QCOMPARE(scalar(path, QStringLiteral("SELECT count(*) FROM expert_load_totals WHERE run_id = %1").arg(id)),
                 scalar(path, QStringLiteral("SELECT count(*) FROM expert_load_chunk WHERE run_id = %1").arg(id)));
        QCOMPARE(scalar(path, QStringLiteral("SELECT count(*) FROM expert_load_chunk WHERE run_id = %1").arg(id)), 1);
    }
};

QTEST_GUILESS_MAIN(TestStoreHostile)
#include "test_store_hostile.moc"
