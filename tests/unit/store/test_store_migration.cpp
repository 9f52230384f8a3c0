// Files written by schema versions 1 to 5 and 7 (tests/fixtures/store/schema-v1.sql …
// schema-v5.sql, schema-v7.sql) are upgraded on open to the current version (8); their
// data survives (version 7's step anatomy, with no timeline; version 4's expert-load blobs read back count for count from the chunks version 5
// made of them; version 5's chunks get their per-expert totals, which sum as the
// fixture's formulas say), the assessment sheet works on them, and the upgraded schema
// matches a new file's. A failed or killed upgrade leaves the file at its old version,
// intact.
#include "SqlScript.h"
#include "store/ProjectStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb::store;

namespace {

// Runs fn on a plain connection to path (not through ProjectStore).
template <typename Fn> void withConnection(const QString& path, Fn fn) {
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        fn(db);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
}

QString writeFixture(const QString& path, const char* fixture, const QString& extraSql = {}) {
    QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/store/") + QLatin1String(fixture));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read the fixture %1").arg(f.fileName());
    const QString script = QString::fromUtf8(f.readAll()) + extraSql;
    QString error;
    withConnection(path, [&](QSqlDatabase& db) { error = testing::runSqlScript(db, script); });
    return error;
}

QString writeV1File(const QString& path, const QString& extraSql = {}) {
    return writeFixture(path, "schema-v1.sql", extraSql);
}

QString writeV2File(const QString& path) {
    return writeFixture(path, "schema-v2.sql");
}

// A sheet with one run link, one stage link and one cost row.
AssessmentSheetRow sampleSheet(const QString& runName) {
    AssessmentSheetRow sheet;
    sheet.author = QStringLiteral("bob");
    sheet.dimensions = {{QStringLiteral("reproducibility"),
                         QStringLiteral("adequate"),
                         QStringLiteral("trend reproduced"),
                         {{EvidenceKind::Run, runName, 0, QStringLiteral("baseline")},
                          {EvidenceKind::Stage, {}, 1, {}}}}};
    sheet.costs = {{QStringLiteral("resources"), QStringLiteral("64 GPUs x 2 weeks"), QStringLiteral("EP size"),
                    {}}};
    return sheet;
}

// The counts schema-v4.sql was written with (its header states the same formulas).
quint32 tinyTokens(qint64 step, int layer, int expert) {
    return quint32((step * 7 + layer * 13 + expert * 29) % 50 + (expert == layer ? 100 : 0));
}
quint32 longTokens(qint64 step, int expert) {
    return quint32((step * 31 + expert * 17) % 97 + (step == 150 && expert == 3 ? 70000 : 0));
}
// The counts of schema-v5.sql's run gapped-load (its header states the same formula).
quint32 gappedTokens(qint64 step, int layer, int expert) {
    return quint32((step * 11 + layer * 5 + expert * 23) % 89 + (expert == 2 && step % 300 == 0 ? 5000 : 0));
}

// A run's tokens per expert summed over the steps first..last of `steps`, per layer,
// computed from a fixture's formula.
template <typename Tokens>
QMap<int, std::vector<quint64>> formulaTotals(const QList<qint64>& steps, int layers, int experts, qint64 first,
                                              qint64 last, Tokens tokens) {
    QMap<int, std::vector<quint64>> out;
    for (qint64 step : steps) {
        if (step < first || step > last)
            continue;
        for (int layer = 0; layer < layers; ++layer) {
            std::vector<quint64>& row = out[layer];
            row.resize(std::size_t(experts), 0);
            for (int e = 0; e < experts; ++e)
                row[std::size_t(e)] += tokens(step, layer, e);
        }
    }
    return out;
}

qint64 scalar(QSqlDatabase& db, const QString& statement) {
    QSqlQuery q(db);
    return q.exec(statement) && q.next() ? q.value(0).toLongLong() : -1;
}

// Every table with its columns (name, type, not null, primary key position) and
// every explicit index: what a query can rely on, independent of how the CREATE
// text reads after ALTER TABLE.
QStringList schemaShape(const QString& path) {
    QStringList shape;
    withConnection(path, [&](QSqlDatabase& db) {
        QSqlQuery tables(db);
        QVERIFY(tables.exec(QStringLiteral("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT "
                                           "LIKE 'sqlite_%' ORDER BY type, name")));
        while (tables.next()) {
            const QString type = tables.value(0).toString(), name = tables.value(1).toString();
            if (type == QLatin1String("index")) {
                shape << QStringLiteral("index %1 on %2").arg(name, tables.value(2).toString());
                continue;
            }
            QSqlQuery cols(db);
            QVERIFY(cols.exec(QStringLiteral("PRAGMA table_info(%1)").arg(name)));
            while (cols.next())
                shape << QStringLiteral("%1.%2 %3 notnull=%4 pk=%5 default=%6")
                             .arg(name, cols.value(1).toString(), cols.value(2).toString(),
                                  cols.value(3).toString(), cols.value(5).toString(),
                                  cols.value(4).toString());
            QSqlQuery fks(db);
            QVERIFY(fks.exec(QStringLiteral("PRAGMA foreign_key_list(%1)").arg(name)));
            while (fks.next())
                shape << QStringLiteral("%1.%2 -> %3.%4 on delete %5")
                             .arg(name, fks.value(3).toString(), fks.value(2).toString(),
                                  fks.value(4).toString(), fks.value(6).toString());
        }
    });
    return shape;
}

} // namespace

class TestStoreMigration : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void upgradesV1AndKeepsData() {
        const QString path = m_dir.filePath(QStringLiteral("old.moewb"));
        QCOMPARE(writeV1File(path), QString());

        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        ProjectStore& s = **opened;
        QCOMPARE(s.schemaVersion(), 8);
        QCOMPARE(ProjectStore::kSchemaVersion, 8);
        QVERIFY(s.integrityProblems()->isEmpty());

        // Records, clusters, nodes.
        const auto record = s.configRecord(QStringLiteral("baseline-4e"));
        QVERIFY(record);
        QCOMPARE(record->json.value("moe").toObject().value("top_k").toInt(), 2);
        QCOMPARE(record->created, QDateTime(QDate(2025, 11, 2), QTime(9, 0), Qt::UTC));
        QCOMPARE(s.clusters().size(), 1);
        QCOMPARE(s.nodes(s.clusters()[0].id).size(), 2);

        // Runs, with their counts backfilled.
        const auto probe = s.run(QStringLiteral("probe-2n"));
        QVERIFY(probe);
        QCOMPARE(probe->kind, RunKind::Probe);
        QCOMPARE(probe->clusterName, QStringLiteral("lab"));
        QCOMPARE(probe->commSampleCount, 4);
        QCOMPARE(s.commSamples(probe->id)[3].timeUs, 52.5);
        const auto train = s.run(QStringLiteral("train-a"));
        QVERIFY(train);
        QCOMPARE(train->stepCount, 3);
        QCOMPARE(train->expertLoadBlocks, 4);
        QCOMPARE(s.stepMetrics(train->id, QStringLiteral("lm_loss")).size(), 3);
        QCOMPARE(s.stepMetrics(train->id, QStringLiteral("val_loss"))[0].value, 7.75);

        // Expert load: per-expert rows became one blob per (step, layer).
        const QVector<ExpertLoadBlock> load = s.expertLoad(train->id);
        QCOMPARE(load.size(), 4);
        QCOMPARE(load[0].tokensPerExpert, QVector<quint32>({10, 20, 30, 40}));
        QCOMPARE(load[2].tokensPerExpert, QVector<quint32>({4294967295u, 0, 7, 8}));
        QCOMPARE(load[3].step, 1);
        QCOMPARE(load[3].layer, 1);
        QCOMPARE(load[3].tokensPerExpert,
                 QVector<quint32>({5, 6, 7})); // absent trailing expert: v1 had no row
        QCOMPARE(s.expertLoad(train->id, 0, 1)[0].tokensPerExpert, QVector<quint32>({11, 21, 31, 41}));

        // Thresholds gained a source: placeholder where unchanged, team where changed,
        // and keys v1 lacked are seeded.
        QCOMPARE(s.threshold(QStringLiteral("stage1.cv_max"))->source, ThresholdSource::Placeholder);
        QVERIFY(!s.threshold(QStringLiteral("stage1.cv_max"))->note.isEmpty());
        const auto ratio = s.threshold(QStringLiteral("stage3.load_ratio_max"));
        QCOMPARE(ratio->value, 1.3);
        QCOMPARE(ratio->source, ThresholdSource::Team);
        QCOMPARE(ratio->updated, QDateTime(QDate(2025, 11, 4), QTime(16, 20), Qt::UTC));
        const auto window = s.threshold(QStringLiteral("stage3.load_ratio_window_fraction"));
        QVERIFY(window);
        QCOMPARE(window->value, 0.5);
        QCOMPARE(window->source, ThresholdSource::Placeholder);
        QCOMPARE(s.thresholds().size(), placeholderThresholds().size());

        QCOMPARE(s.verdict(1)->status, QStringLiteral("pass"));
        QCOMPARE(s.overrides().size(), 1);
        QCOMPARE(s.overrides()[0].stage, 3);

        // The new schema works on the upgraded file.
        QVERIFY(s.setThreshold(ThresholdRow{QStringLiteral("stage1.cv_max"),
                                            0.08,
                                            ThresholdSource::Suggested,
                                            QStringLiteral("from probe-2n"),
                                            {}}));
        QCOMPARE(s.threshold(QStringLiteral("stage1.cv_max"))->source, ThresholdSource::Suggested);
        RunData run;
        run.name = QStringLiteral("train-b");
        run.kind = RunKind::Imported;
        run.recordName = QStringLiteral("baseline-4e");
        run.expertLoad = {{0, 0, {1, 2, 3, 4}}};
        run.stepMetrics = {{0, QStringLiteral("lm_loss"), 9.0}};
        const auto id = s.saveRun(run);
        QVERIFY2(id, qPrintable(id ? QString() : id.error().text()));
        QCOMPARE(s.expertLoad(*id)[0].tokensPerExpert, QVector<quint32>({1, 2, 3, 4}));
        QVERIFY(s.removeRun(QStringLiteral("train-a"))); // cascades through the rebuilt table
        QVERIFY(s.integrityProblems()->isEmpty());

        // ... and so does the assessment sheet of version 3.
        QVERIFY(s.assessment().dimensions.isEmpty());
        const auto saved = s.saveAssessment(sampleSheet(QStringLiteral("probe-2n")));
        QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().text()));
        QCOMPARE(s.assessment().dimensions, sampleSheet(QStringLiteral("probe-2n")).dimensions);
    }

    void upgradesV2AndKeepsData() {
        const QString path = m_dir.filePath(QStringLiteral("v2.moewb"));
        QCOMPARE(writeV2File(path), QString());
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 2);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name LIKE "
                                               "'assessment%' OR name = 'cost_estimate'")),
                     0);
        });

        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        ProjectStore& s = **opened;
        QCOMPARE(s.schemaVersion(), 8);
        QVERIFY(s.integrityProblems()->isEmpty());
        QVERIFY(QFile::exists(path + QStringLiteral(".v2.bak")));

        // Everything version 2 held is still there, unchanged.
        QCOMPARE(s.configRecords().size(), 1);
        const auto probe = s.run(QStringLiteral("probe-1n"));
        QVERIFY(probe);
        QCOMPARE(probe->commSampleCount, 2);
        QCOMPARE(probe->environment.value("nodes").toInt(), 1);
        const auto train = s.run(QStringLiteral("train-8e"));
        QVERIFY(train);
        QCOMPARE(s.expertLoad(train->id)[0].tokensPerExpert, QVector<quint32>({10, 20, 30, 40}));
        QCOMPARE(s.threshold(QStringLiteral("stage1.cv_max"))->source, ThresholdSource::Team);
        QCOMPARE(s.threshold(QStringLiteral("stage1.cv_max"))->value, 0.08);
        QCOMPARE(s.overrides().size(), 1);
        QCOMPARE(s.overrides()[0].justification, QStringLiteral("load ratio accepted for the pilot"));
        QCOMPARE(s.verdict(1)->status, QStringLiteral("pass"));

        // The new tables start empty and work; the sheet survives reopening.
        QVERIFY(s.assessment().dimensions.isEmpty());
        QVERIFY(!s.assessment().updated.isValid());
        QVERIFY(s.saveAssessment(sampleSheet(QStringLiteral("probe-1n"))));
        opened->reset();
        auto again = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY(again);
        const AssessmentSheetRow back = (*again)->assessment();
        QCOMPARE(back.dimensions, sampleSheet(QStringLiteral("probe-1n")).dimensions);
        QCOMPARE(back.costs, sampleSheet(QStringLiteral("probe-1n")).costs);
        QCOMPARE(back.author, QStringLiteral("bob"));
        QVERIFY(back.updated.isValid());
        QVERIFY(!QFile::exists(path + QStringLiteral(".v2.bak.2"))); // already current: no second backup
    }

    // A file the previous release wrote (schema 3: a stop of stage 1 with its override)
    // keeps its verdict and override; the verdict does not know its runs yet, and each
    // run's last write is its creation.
    void upgradesV3AndKeepsVerdictsAndOverrides() {
        const QString path = m_dir.filePath(QStringLiteral("v3.moewb"));
        QCOMPARE(writeFixture(path, "schema-v3.sql"), QString());
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 3);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM pragma_table_info('verdict') WHERE name = 'basis'")),
                     0);
        });
        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        ProjectStore& s = **opened;
        QCOMPARE(s.schemaVersion(), 8);
        QVERIFY(s.integrityProblems()->isEmpty());
        QVERIFY(QFile::exists(path + QStringLiteral(".v3.bak")));
        const auto v = s.verdict(1);
        QVERIFY(v);
        QCOMPARE(v->status, QStringLiteral("stop"));
        QCOMPARE(v->reasons.size(), 3);
        QVERIFY(v->basis.isEmpty());
        QCOMPARE(s.overrides().size(), 1);
        QCOMPARE(s.overrides()[0].author, QStringLiteral("lead"));
        QCOMPARE(s.overrides()[0].justification, QStringLiteral("the fabric team accepts the variation"));
        const auto run = s.run(QStringLiteral("baseline-1n"));
        QVERIFY(run);
        QCOMPARE(run->commSampleCount, 9);
        QVERIFY(run->created.isValid());
        QCOMPARE(run->updated, run->created);

        // A verdict saved now keeps what it was computed on.
        VerdictRow again = *v;
        again.decided = {};
        again.basis = QJsonObject{{QStringLiteral("selection"), QStringLiteral("default")},
                                  {QStringLiteral("runs"), QJsonArray{QJsonObject{{QStringLiteral("name"),
                                                                                   QStringLiteral("baseline-1n")}}}}};
        QVERIFY(s.saveVerdict(again));
        QCOMPARE(s.verdict(1)->basis, again.basis);
    }

    void upgradedV3SchemaMatchesANewFile() {
        const QString oldPath = m_dir.filePath(QStringLiteral("shape-old-v3.moewb"));
        const QString newPath = m_dir.filePath(QStringLiteral("shape-new-v3.moewb"));
        QCOMPARE(writeFixture(oldPath, "schema-v3.sql"), QString());
        QVERIFY(ProjectStore::open(oldPath));
        QVERIFY(ProjectStore::open(newPath));
        const QStringList upgraded = schemaShape(oldPath), fresh = schemaShape(newPath);
        QVERIFY(fresh.contains(QStringLiteral("verdict.basis TEXT notnull=1 pk=0 default='{}'")));
        QCOMPARE(upgraded, fresh);
    }

    void upgradedV2SchemaMatchesANewFile() {
        const QString oldPath = m_dir.filePath(QStringLiteral("shape-old-v2.moewb"));
        const QString newPath = m_dir.filePath(QStringLiteral("shape-new-v2.moewb"));
        QCOMPARE(writeV2File(oldPath), QString());
        QVERIFY(ProjectStore::open(oldPath));
        QVERIFY(ProjectStore::open(newPath));
        const QStringList upgraded = schemaShape(oldPath), fresh = schemaShape(newPath);
        QVERIFY(fresh.contains(QStringLiteral("index assessment_evidence_run on assessment_evidence")));
        QCOMPARE(upgraded, fresh);
    }

    void keepsABackupOfTheOldFile() {
        const QString path = m_dir.filePath(QStringLiteral("backup.moewb"));
        QCOMPARE(writeV1File(path), QString());
        QVERIFY(ProjectStore::open(path));
        const QString backup = path + QStringLiteral(".v1.bak");
        QVERIFY(QFile::exists(backup));
        withConnection(backup, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 1);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load")), 15);
        });
        QVERIFY(ProjectStore::open(path)); // already current: no second backup
        QVERIFY(!QFile::exists(backup + QStringLiteral(".2")));
    }

    void upgradedSchemaMatchesANewFile() {
        const QString oldPath = m_dir.filePath(QStringLiteral("shape-old.moewb"));
        const QString newPath = m_dir.filePath(QStringLiteral("shape-new.moewb"));
        QCOMPARE(writeV1File(oldPath), QString());
        QVERIFY(ProjectStore::open(oldPath));
        QVERIFY(ProjectStore::open(newPath));
        const QStringList upgraded = schemaShape(oldPath), fresh = schemaShape(newPath);
        QVERIFY(fresh.size() > 40);
        QCOMPARE(upgraded, fresh);
    }

    void upgradesV4ExpertLoadToChunksCountForCount() {
        const QString path = m_dir.filePath(QStringLiteral("v4.moewb"));
        QCOMPARE(writeFixture(path, "schema-v4.sql"), QString());
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 4);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load")), 315);
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA page_size")), 4096);
        });
        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        ProjectStore& s = **opened;
        QCOMPARE(s.schemaVersion(), 8);
        // An existing project keeps its page size (only new files get 16 KiB pages).
        withConnection(path, [](QSqlDatabase& db) { QCOMPARE(scalar(db, QStringLiteral("PRAGMA page_size")), 4096); });
        QVERIFY(s.integrityProblems()->isEmpty());
        QVERIFY(QFile::exists(path + QStringLiteral(".v4.bak")));

        const auto tiny = s.run(QStringLiteral("tiny-load"));
        QVERIFY(tiny);
        QCOMPARE(tiny->expertLoadBlocks, 15);
        const QVector<ExpertLoadBlock> load = s.expertLoad(tiny->id);
        QCOMPARE(load.size(), 15);
        int i = 0;
        for (qint64 step : {10, 20, 30, 40, 50})
            for (int layer = 0; layer < 3; ++layer, ++i) {
                QCOMPARE(load[i].step, step);
                QCOMPARE(load[i].layer, layer);
                QCOMPARE(load[i].tokensPerExpert.size(), 8);
                for (int e = 0; e < 8; ++e)
                    QCOMPARE(load[i].tokensPerExpert[e], tinyTokens(step, layer, e));
            }
        // Filters: one step, one layer, both.
        QCOMPARE(s.expertLoad(tiny->id, 30).size(), 3);
        QCOMPARE(s.expertLoad(tiny->id, 35).size(), 0);
        const auto layer1 = s.expertLoad(tiny->id, {}, 1);
        QCOMPARE(layer1.size(), 5);
        QCOMPARE(layer1[4].step, 50);
        const auto one = s.expertLoad(tiny->id, 40, 2);
        QCOMPARE(one.size(), 1);
        QCOMPARE(one[0].tokensPerExpert[2], tinyTokens(40, 2, 2));

        // The summary, computed here from the fixture's formula: sum, max, first argmax,
        // and (EP 2 in the record) the busier half of the experts.
        const QVector<ExpertLoadSummaryRow> summary = s.expertLoadSummary(tiny->id);
        QCOMPARE(summary.size(), 15);
        i = 0;
        for (qint64 step : {10, 20, 30, 40, 50})
            for (int layer = 0; layer < 3; ++layer, ++i) {
                quint64 sum = 0, lower = 0, upper = 0;
                quint32 mx = 0;
                int arg = 0;
                for (int e = 0; e < 8; ++e) {
                    const quint32 t = tinyTokens(step, layer, e);
                    sum += t;
                    (e < 4 ? lower : upper) += t;
                    if (t > mx)
                        mx = t, arg = e;
                }
                const ExpertLoadSummaryRow& r = summary[i];
                QCOMPARE(r.step, step);
                QCOMPARE(r.layer, layer);
                QCOMPARE(r.experts, 8);
                QCOMPARE(r.sum, sum);
                QCOMPARE(r.max, mx);
                QCOMPARE(r.argmax, arg);
                QCOMPARE(r.mean(), double(sum) / 8.0);
                QCOMPARE(r.expertParallel, 2);
                QVERIFY(r.busiestRankTokens);
                QCOMPARE(*r.busiestRankTokens, std::max(lower, upper));
                QVERIFY(!r.droppedTokens);
            }
        QCOMPARE(s.expertLoadSummary(tiny->id, 2).size(), 5);
        QCOMPARE(s.expertLoadSummary(tiny->id, {}, 40).size(), 6);

        // 300 steps of one layer: two chunks (256 + 44), every count back.
        const auto longRun = s.run(QStringLiteral("long-load"));
        QVERIFY(longRun);
        const QVector<ExpertLoadBlock> longLoad = s.expertLoad(longRun->id);
        QCOMPARE(longLoad.size(), 300);
        for (int k = 0; k < 300; ++k) {
            QCOMPARE(longLoad[k].step, qint64(k + 1));
            for (int e = 0; e < 4; ++e)
                QCOMPARE(longLoad[k].tokensPerExpert[e], longTokens(k + 1, e));
        }
        QCOMPARE(s.expertLoad(longRun->id, 150)[0].tokensPerExpert[3], longTokens(150, 3));
        QCOMPARE(s.expertLoadRange(longRun->id, 250, 260).size(), 11);
        withConnection(path, [&](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'expert_load'")), 0);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk WHERE run_id = %1").arg(longRun->id)),
                     2);
            QCOMPARE(scalar(db, QStringLiteral("SELECT sum(steps) FROM expert_load_chunk")), 315);
            QCOMPARE(scalar(db, QStringLiteral("SELECT sum(steps) FROM expert_load_summary")), 315);
            // 4 -> 5 -> 6: every chunk has its totals.
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load_totals")), 5);
        });
        const ExpertLoadTotals longTotals = s.expertLoadTotals(longRun->id, {}, {});
        QList<qint64> longSteps;
        for (qint64 k = 1; k <= 300; ++k)
            longSteps << k;
        QCOMPARE(longTotals.perLayer, formulaTotals(longSteps, 1, 4, 1, 300, [](qint64 step, int, int e) {
                     return longTokens(step, e);
                 }));
        QCOMPARE(longTotals.steps, 300);

        // The rest of the file is as it was; removing a run removes its chunks.
        QCOMPARE(s.verdict(1)->status, QStringLiteral("stop"));
        QCOMPARE(s.stepMetrics(tiny->id, QStringLiteral("lm_loss")).size(), 5);
        QVERIFY(s.removeRun(QStringLiteral("long-load")));
        QVERIFY(s.expertLoad(longRun->id).isEmpty());
        QVERIFY(s.expertLoadSummary(longRun->id).isEmpty());
        QVERIFY(s.integrityProblems()->isEmpty());
    }

    void upgradedV4SchemaMatchesANewFile() {
        const QString oldPath = m_dir.filePath(QStringLiteral("shape-old-v4.moewb"));
        const QString newPath = m_dir.filePath(QStringLiteral("shape-new-v4.moewb"));
        QCOMPARE(writeFixture(oldPath, "schema-v4.sql"), QString());
        QVERIFY(ProjectStore::open(oldPath));
        QVERIFY(ProjectStore::open(newPath));
        const QStringList upgraded = schemaShape(oldPath), fresh = schemaShape(newPath);
        QVERIFY(fresh.contains(QStringLiteral("expert_load_summary.ep INTEGER notnull=0 pk=0 default=")));
        QCOMPARE(upgraded, fresh);
    }

    // Version 5's chunks (written by the version-5 program) get their per-expert totals:
    // each run's load summed over a window reads what the fixture's formulas give, for
    // windows of whole chunks and windows the chunks' edges cut.
    void upgradesV5WithEachChunksTotals() {
        const QString path = m_dir.filePath(QStringLiteral("v5.moewb"));
        QCOMPARE(writeFixture(path, "schema-v5.sql"), QString());
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 5);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk")), 9);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'expert_load_totals'")),
                     0);
        });
        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        ProjectStore& s = **opened;
        QCOMPARE(s.schemaVersion(), 8);
        QVERIFY(s.integrityProblems()->isEmpty());
        QVERIFY(QFile::exists(path + QStringLiteral(".v5.bak")));
        withConnection(path, [](QSqlDatabase& db) {
            // One totals row per chunk, with the chunk's key, steps and experts.
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load_totals")), 9);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk c JOIN expert_load_totals t "
                                               "USING (run_id, layer, first_step, last_step, steps, experts)")),
                     9);
        });

        const auto tiny = s.run(QStringLiteral("tiny-load"));
        QVERIFY(tiny);
        const QList<qint64> tinySteps{10, 20, 30, 40, 50};
        const ExpertLoadTotals tinyAll = s.expertLoadTotals(tiny->id, {}, {});
        QCOMPARE(tinyAll.experts, 8);
        QCOMPARE(tinyAll.steps, 5);
        QCOMPARE(tinyAll.firstStep, 10);
        QCOMPARE(tinyAll.lastStep, 50);
        QCOMPARE(tinyAll.perLayer, formulaTotals(tinySteps, 3, 8, 0, 1000, &tinyTokens));
        const ExpertLoadTotals tinyCut = s.expertLoadTotals(tiny->id, 15, 40);
        QCOMPARE(tinyCut.steps, 3);
        QCOMPARE(tinyCut.perLayer, formulaTotals(tinySteps, 3, 8, 15, 40, &tinyTokens));

        // gapped-load: every third step, two chunks per layer (3-768, 771-900).
        const auto gapped = s.run(QStringLiteral("gapped-load"));
        QVERIFY(gapped);
        QList<qint64> gappedSteps;
        for (qint64 step = 3; step <= 900; step += 3)
            gappedSteps << step;
        const struct {
            std::optional<qint64> first, last;
            qint64 steps;
        } windows[] = {{{}, {}, 300}, {3, 768, 256}, {771, 900, 44}, {300, 800, 167}, {768, 771, 2},
                       {600, 600, 1},  {601, 602, 0}, {899, 5000, 1}};
        for (const auto& w : windows) {
            const ExpertLoadTotals t = s.expertLoadTotals(gapped->id, w.first, w.last);
            const QString label = QStringLiteral("window %1-%2")
                                      .arg(w.first ? QString::number(*w.first) : QString())
                                      .arg(w.last ? QString::number(*w.last) : QString());
            QVERIFY2(t.steps == w.steps, qPrintable(label + QStringLiteral(": %1 steps").arg(t.steps)));
            QVERIFY2(t.perLayer == formulaTotals(gappedSteps, 2, 8, w.first.value_or(0), w.last.value_or(1 << 30),
                                                 &gappedTokens),
                     qPrintable(label));
            QCOMPARE(t.experts, w.steps > 0 ? 8 : 0);
        }
        // The hot expert: 5000 at steps 300, 600 and 900 in both layers.
        QCOMPARE(s.expertLoadTotals(gapped->id, {}, {}).perLayer.value(1)[2],
                 quint64(3 * 5000) + formulaTotals(gappedSteps, 2, 8, 0, 1000, [](qint64 step, int layer, int e) {
                     return quint32((step * 11 + layer * 5 + e * 23) % 89);
                 }).value(1)[2]);

        // A run saved now writes its totals with its chunks; removing a run removes them.
        RunData run;
        run.name = QStringLiteral("fresh");
        run.kind = RunKind::Imported;
        run.recordName = QStringLiteral("moe-tiny-ep2");
        for (qint64 step = 0; step < 300; ++step)
            run.expertLoad.append({step, 0, {quint32(step), 1, 2}});
        const auto id = s.saveRun(run);
        QVERIFY2(id, qPrintable(id ? QString() : id.error().text()));
        QCOMPARE(s.expertLoadTotals(*id, {}, {}).perLayer.value(0),
                 std::vector<quint64>({quint64(299 * 300 / 2), 300, 600}));
        QVERIFY(s.removeRun(QStringLiteral("gapped-load")));
        withConnection(path, [&](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load_totals WHERE run_id = %1").arg(gapped->id)),
                     0);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load_totals WHERE run_id = %1").arg(*id)), 2);
        });
        QVERIFY(s.integrityProblems()->isEmpty());
    }

    void upgradedV5SchemaMatchesANewFile() {
        const QString oldPath = m_dir.filePath(QStringLiteral("shape-old-v5.moewb"));
        const QString newPath = m_dir.filePath(QStringLiteral("shape-new-v5.moewb"));
        QCOMPARE(writeFixture(oldPath, "schema-v5.sql"), QString());
        QVERIFY(ProjectStore::open(oldPath));
        QVERIFY(ProjectStore::open(newPath));
        const QStringList upgraded = schemaShape(oldPath), fresh = schemaShape(newPath);
        QVERIFY(fresh.contains(QStringLiteral("expert_load_totals.totals BLOB notnull=1 pk=0 default=")));
        QVERIFY(fresh.contains(QStringLiteral("expert_load_totals.run_id -> run.id on delete CASCADE")));
        QCOMPARE(upgraded, fresh);
        // The trigger that deletes a chunk's totals with it, in both.
        for (const QString& path : {oldPath, newPath})
            withConnection(path, [](QSqlDatabase& db) {
                QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND "
                                                   "name = 'expert_load_totals_follow_chunk' AND "
                                                   "tbl_name = 'expert_load_chunk'")),
                         1);
            });
    }

    void upgradesV7KeepingTheAnatomyWithoutATimeline() {
        const QString path = m_dir.filePath(QStringLiteral("v7.moewb"));
        QCOMPARE(writeFixture(path, "schema-v7.sql"), QString());
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 7);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'step_timeline'")), 0);
        });
        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        ProjectStore& s = **opened;
        QCOMPARE(s.schemaVersion(), 8);
        QVERIFY(s.integrityProblems()->isEmpty());
        QVERIFY(QFile::exists(path + QStringLiteral(".v7.bak")));
        const auto run = s.run(QStringLiteral("traced-v7"));
        QVERIFY(run);
        // The version-7 program's summaries, as written: 3 steps × 4 ranks, 6 all-to-all calls.
        const RunAnatomy a = s.runAnatomy(run->id);
        QCOMPARE(a.rows.size(), qsizetype(12));
        QCOMPARE(a.a2a.size(), qsizetype(6));
        QCOMPARE(a.ranksTraced, QVector<int>({0, 1, 2, 3}));
        // No timeline: the view asks for the traces again.
        QVERIFY(s.timelineExtent(run->id).steps.isEmpty());
        QVERIFY(s.stepTimeline(run->id, 5).isEmpty());
        // A timeline saved now goes into the new table.
        RunData fresh;
        fresh.name = QStringLiteral("fresh-traced");
        fresh.kind = RunKind::Imported;
        fresh.recordName = QStringLiteral("moe-4rank-ep4");
        fresh.anatomy = a;
        RankStepTimeline t;
        t.step = 5;
        t.rank = 1;
        t.stepStartNs = 0;
        t.stepEndNs = 16'000'000;
        t.labels = {QStringLiteral("ncclDevKernel_SendRecv")};
        t.intervals = {{100, 900, TimelineClass::Compute}, {1000, 3000, TimelineClass::AllToAll, 0, -1, 4096, 7}};
        fresh.anatomy.timeline = {t};
        const auto id = s.saveRun(fresh);
        QVERIFY2(id, qPrintable(id ? QString() : id.error().text()));
        QCOMPARE(s.timelineExtent(*id).steps, QVector<qint64>({5}));
        QCOMPARE(s.stepTimeline(*id, 5), QVector<RankStepTimeline>({t}));
    }

    void upgradedV7SchemaMatchesANewFile() {
        const QString oldPath = m_dir.filePath(QStringLiteral("shape-old-v7.moewb"));
        const QString newPath = m_dir.filePath(QStringLiteral("shape-new-v7.moewb"));
        QCOMPARE(writeFixture(oldPath, "schema-v7.sql"), QString());
        QVERIFY(ProjectStore::open(oldPath));
        QVERIFY(ProjectStore::open(newPath));
        const QStringList upgraded = schemaShape(oldPath), fresh = schemaShape(newPath);
        QVERIFY(fresh.contains(QStringLiteral("step_timeline.data BLOB notnull=1 pk=0 default=")));
        QVERIFY(fresh.contains(QStringLiteral("step_timeline.run_id -> run.id on delete CASCADE")));
        QCOMPARE(upgraded, fresh);
    }

    void failedV5UpgradeLeavesTheFileAtV5() {
        // A chunk that is not a zstd frame: the 5 -> 6 step rolls back.
        const QString path = m_dir.filePath(QStringLiteral("broken-v5.moewb"));
        QCOMPARE(writeFixture(path, "schema-v5.sql",
                              QStringLiteral("INSERT INTO expert_load_chunk VALUES (3, 1, 1, 1, 1, 4, 1, X'0102');")),
                 QString());
        auto opened = ProjectStore::open(path);
        QVERIFY(!opened);
        QVERIFY2(opened.error().message.contains(QStringLiteral("from schema version 5 to 6")),
                 qPrintable(opened.error().text()));
        QVERIFY2(opened.error().message.contains(QStringLiteral("run 3, layer 1 from step 1")),
                 qPrintable(opened.error().text()));
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 5);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk")), 10);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'expert_load_totals'")),
                     0);
        });
    }

    // A version-5 chunk whose row claims a shape no writer makes (2^31 - 1 steps or
    // experts, a negative layer): the 5 -> 6 step refuses it by its row, before anything
    // is allocated or inflated — no abort — and the file stays at version 5.
    void hugeClaimsInAV5ChunkRefuseTheUpgrade_data() {
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("why");
        QTest::newRow("steps") << QStringLiteral("(3, 1, 1, 1, 2147483647, 4, 1, X'28B52FFD')")
                               << QStringLiteral("2147483647 steps");
        QTest::newRow("experts") << QStringLiteral("(3, 1, 1, 1, 1, 2147483647, 1, X'28B52FFD')")
                                 << QStringLiteral("2147483647 experts");
        QTest::newRow("layer") << QStringLiteral("(3, -5, 1, 1, 1, 4, 1, X'28B52FFD')") << QStringLiteral("layer -5");
    }
    void hugeClaimsInAV5ChunkRefuseTheUpgrade() {
        QFETCH(QString, row);
        QFETCH(QString, why);
        const QString path = m_dir.filePath(QStringLiteral("huge-v5-%1.moewb").arg(QTest::currentDataTag()));
        QCOMPARE(writeFixture(path, "schema-v5.sql", QStringLiteral("INSERT INTO expert_load_chunk VALUES %1;").arg(row)),
                 QString());
        auto opened = ProjectStore::open(path);
        QVERIFY(!opened);
        QVERIFY2(opened.error().message.contains(QStringLiteral("from schema version 5 to 6")),
                 qPrintable(opened.error().text()));
        QVERIFY2(opened.error().message.contains(why), qPrintable(opened.error().text()));
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 5);
        });
    }

    void failedV4UpgradeLeavesTheFileAtV4() {
        // A blob that is not a whole number of counts: the 4 -> 5 step rolls back.
        const QString path = m_dir.filePath(QStringLiteral("broken-v4.moewb"));
        QCOMPARE(writeFixture(path, "schema-v4.sql", QStringLiteral("INSERT INTO expert_load VALUES (3, 301, 0, 4, 0, X'01020304050607');")),
                 QString());
        auto opened = ProjectStore::open(path);
        QVERIFY(!opened);
        QVERIFY2(opened.error().message.contains(QStringLiteral("from schema version 4 to 5")),
                 qPrintable(opened.error().text()));
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 4);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load")), 316);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name LIKE 'expert_load_%'")), 0);
        });
    }

    void failedUpgradeLeavesTheFileAsItWas() {
        // A v1 row the migration cannot convert: the step's transaction rolls back.
        const QString path = m_dir.filePath(QStringLiteral("broken.moewb"));
        QCOMPARE(writeV1File(path, QStringLiteral("INSERT INTO expert_load VALUES (2, 5, 0, 70000, 1);")),
                 QString());
        auto opened = ProjectStore::open(path);
        QVERIFY(!opened);
        QCOMPARE(opened.error().file, path);
        QVERIFY2(opened.error().message.contains(QStringLiteral("from schema version 1 to 2")),
                 qPrintable(opened.error().text()));
        withConnection(path, [](QSqlDatabase& db) {
            QCOMPARE(scalar(db, QStringLiteral("PRAGMA user_version")), 1);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM expert_load WHERE expert IS NOT NULL")),
                     16);
            QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v2'")),
                     0);
        });
    }
};

QTEST_GUILESS_MAIN(TestStoreMigration)
#include "test_store_migration.moc"
