#include "store/ProjectStore.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace moewb::store;

namespace {

QString pragma(const QString& path, const QString& name) {
    QString value;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("peek"));
        db.setDatabaseName(path);
        db.open();
        QSqlQuery q(db);
        if (q.exec(QStringLiteral("PRAGMA %1").arg(name)) && q.next())
            value = q.value(0).toString();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("peek"));
    return value;
}

RunData smallRun(const QString& name) {
    RunData run;
    run.name = name;
    run.kind = RunKind::Probe;
    run.recordName = QStringLiteral("rec-a");
    run.clusterName = QStringLiteral("lab");
    run.sourceFile = QStringLiteral("/tmp/probe.json");
    run.environment = QJsonObject{{"nccl", "2.21.5"}, {"hosts", QJsonArray{"n1", "n2"}}};
    run.commSamples = {{1048576, 1, 0, 52.5}, {8, 0, 0, 3.25}, {8, 0, 1, 3.5}, {1048576, 0, 0, 50.0}};
    run.stepMetrics = {{1, QStringLiteral("lm_loss"), 7.5},
                       {0, QStringLiteral("lm_loss"), 8.0},
                       {0, QStringLiteral("val_loss"), 8.25},
                       {2, QStringLiteral("lm_loss"), std::numeric_limits<double>::quiet_NaN()}};
    run.expertLoad = {{0, 0, {1, 2, 3, 4}}, {0, 1, {5, 6, 7, 8}}, {1, 0, {0, 0, 4294967295u, 9}}};
    return run;
}

} // namespace

class TestProjectStore : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString freshPath() { return m_dir.filePath(QStringLiteral("p%1.moewb").arg(++m_n)); }

    std::unique_ptr<ProjectStore> openWithRecordAndCluster(const QString& path) {
        auto store = ProjectStore::open(path);
        if (!store)
            return nullptr;
        auto s = std::move(*store);
        if (!s->addConfigRecord(QStringLiteral("rec-a"), QJsonObject{{"top_k", 2}}, true) ||
            !s->addCluster(ClusterRow{0, QStringLiteral("lab"), 8, QString(), {}}, {}))
            return nullptr;
        return s;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        // Never the user's real data dir.
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8());
    }

    void defaultProjectPathFollowsXdg() {
        QCOMPARE(ProjectStore::defaultProjectPath(),
                 m_dir.filePath(QStringLiteral("xdg/moe-workbench/default.moewb")));
        auto store = ProjectStore::open(ProjectStore::defaultProjectPath());
        QVERIFY2(store, qPrintable(store ? QString() : store.error().text()));
        QVERIFY(QFile::exists(ProjectStore::defaultProjectPath()));

        const QByteArray saved = qgetenv("XDG_DATA_HOME");
        qunsetenv("XDG_DATA_HOME");
        QCOMPARE(ProjectStore::defaultProjectPath(),
                 QDir::homePath() + "/.local/share/moe-workbench/default.moewb");
        qputenv("XDG_DATA_HOME", "relative/paths/are/ignored");
        QCOMPARE(ProjectStore::defaultProjectPath(),
                 QDir::homePath() + "/.local/share/moe-workbench/default.moewb");
        qputenv("XDG_DATA_HOME", saved);
    }

    void newProjectHasSchemaPragmasAndPlaceholders() {
        const QString path = freshPath();
        {
            auto store = ProjectStore::open(path);
            QVERIFY(store);
            QCOMPARE((*store)->schemaVersion(), ProjectStore::kSchemaVersion);
            QCOMPARE((*store)->path(), QFileInfo(path).absoluteFilePath());
            const QList<ThresholdRow> t = (*store)->thresholds();
            QCOMPARE(t.size(), placeholderThresholds().size());
            for (const ThresholdRow& row : t)
                QCOMPARE(row.source, ThresholdSource::Placeholder);
            QCOMPARE((*store)->threshold(QStringLiteral("stage1.cv_max"))->value, 0.10);
            QCOMPARE((*store)->threshold(QStringLiteral("stage3.load_ratio_max"))->value, 1.5);
            QVERIFY((*store)->integrityProblems()->isEmpty());
        }
        QCOMPARE(pragma(path, "journal_mode"), QStringLiteral("wal"));
        // New projects use 16 KiB pages (docs/store.md, "Durability"); the file's header
        // says so too (big-endian page size at offset 16).
        QCOMPARE(pragma(path, "page_size").toInt(), 16384);
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray header = file.read(100);
            QCOMPARE(header.left(16), QByteArray("SQLite format 3\0", 16));
            QCOMPARE((quint8(header[16]) << 8) | quint8(header[17]), 16384);
        }
        QCOMPARE(pragma(path, "user_version").toInt(), ProjectStore::kSchemaVersion);
        QCOMPARE(pragma(path, "application_id").toInt(), ProjectStore::kApplicationId);
    }

    void mustExistRefusesMissingFile() {
        const QString path = freshPath();
        auto store = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY(!store);
        QCOMPARE(store.error().file, path);
        QVERIFY(store.error().text().contains(path));
        QVERIFY(!QFile::exists(path));
    }

    void refusesNonSqliteFile() {
        const QString path = freshPath();
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name,value\nlm_loss,2.5\n");
        f.close();
        auto store = ProjectStore::open(path);
        QVERIFY(!store);
        QVERIFY(store.error().text().startsWith(path));
        QVERIFY2(store.error().message.contains(QStringLiteral("not an SQLite database")),
                 qPrintable(store.error().text()));
    }

    void refusesForeignSqliteFile() {
        const QString path = freshPath();
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("foreign"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE bookmarks (url TEXT)")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("foreign"));
        auto store = ProjectStore::open(path);
        QVERIFY(!store);
        QCOMPARE(store.error().file, path);
        QVERIFY2(store.error().message.contains(QStringLiteral("not a MoE Workbench project")),
                 qPrintable(store.error().text()));
    }

    void refusesNewerSchema() {
        const QString path = freshPath();
        QVERIFY(ProjectStore::open(path));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("future"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = %1").arg(ProjectStore::kSchemaVersion + 1)));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("future"));
        auto store = ProjectStore::open(path);
        QVERIFY(!store);
        QCOMPARE(store.error().file, path);
        QVERIFY2(store.error().message.contains(QStringLiteral("newer MoE Workbench")),
                 qPrintable(store.error().text()));
        QVERIFY(store.error().message.contains(QString::number(ProjectStore::kSchemaVersion + 1)));
    }

    void configRecordsRoundTripAndNamesAreUnique() {
        auto store = ProjectStore::open(freshPath());
        QVERIFY(store);
        auto& s = **store;
        const QJsonObject json{
            {"moe", QJsonObject{{"experts", 64}, {"top_k", 2}, {"capacity_factor", 1.25}}}};
        const auto id = s.addConfigRecord(QStringLiteral("baseline"), json, false);
        QVERIFY(id);
        QVERIFY(*id > 0);
        const auto dup = s.addConfigRecord(QStringLiteral("baseline"), {}, true);
        QVERIFY(!dup);
        QVERIFY2(
            dup.error().message.contains(QStringLiteral("a config record named baseline already exists")),
            qPrintable(dup.error().text()));
        QVERIFY(!s.addConfigRecord(QStringLiteral("  "), {}, true));

        auto row = s.configRecord(QStringLiteral("baseline"));
        QVERIFY(row);
        QCOMPARE(row->id, *id);
        QCOMPARE(row->json, json);
        QCOMPARE(row->complete, false);
        QVERIFY(qAbs(row->created.secsTo(QDateTime::currentDateTimeUtc())) < 60);
        QVERIFY(s.updateConfigRecord(QStringLiteral("baseline"), QJsonObject{{"x", 1}}, true));
        QCOMPARE(s.configRecord(QStringLiteral("baseline"))->complete, true);
        QVERIFY(!s.updateConfigRecord(QStringLiteral("nope"), {}, true));
        QVERIFY(!s.configRecord(QStringLiteral("nope")));
        QVERIFY(s.addConfigRecord(QStringLiteral("another"), {}, true));
        QCOMPARE(s.configRecords().size(), 2);
    }

    void clustersAndNodesRoundTrip() {
        auto store = ProjectStore::open(freshPath());
        QVERIFY(store);
        auto& s = **store;
        const QJsonObject facts{{"fabric", "IB NDR"}};
        const auto id =
            s.addCluster(ClusterRow{0, QStringLiteral("lab"), 8, QStringLiteral("~/.ssh/id_ed25519"), facts},
                         {NodeRow{0, 0, QStringLiteral("gpu01"), 8, {}},
                          NodeRow{0, 0, QStringLiteral("alice@10.0.0.2:2222"), 8, QJsonObject{{"rail", 1}}}});
        QVERIFY2(id, qPrintable(id ? QString() : id.error().text()));
        QCOMPARE(s.clusters().size(), 1);
        QCOMPARE(s.clusters()[0].facts, facts);
        QCOMPARE(s.clusters()[0].identityFile, QStringLiteral("~/.ssh/id_ed25519"));
        const QList<NodeRow> nodes = s.nodes(*id);
        QCOMPARE(nodes.size(), 2);
        QCOMPARE(nodes[1].address, QStringLiteral("alice@10.0.0.2:2222"));
        QCOMPARE(nodes[1].clusterId, *id);
        QCOMPARE(nodes[1].facts.value("rail").toInt(), 1);

        QVERIFY(!s.addCluster(ClusterRow{0, QStringLiteral("lab"), 4, {}, {}}, {}));
        // A bad node leaves no cluster behind.
        QVERIFY(!s.addCluster(
            ClusterRow{0, QStringLiteral("other"), 4, {}, {}},
            {NodeRow{0, 0, QStringLiteral("a"), 4, {}}, NodeRow{0, 0, QStringLiteral("a"), 4, {}}}));
        QCOMPARE(s.clusters().size(), 1);
    }

    void runRoundTrip() {
        auto s = openWithRecordAndCluster(freshPath());
        QVERIFY(s);
        const RunData data = smallRun(QStringLiteral("probe-2n"));
        QList<double> fractions;
        const auto id = s->saveRun(data, [&](double f) {
            fractions << f;
            return true;
        });
        QVERIFY2(id, qPrintable(id ? QString() : id.error().text()));
        QCOMPARE(fractions.first(), 0.0);
        QCOMPARE(fractions.last(), 1.0);

        const auto row = s->run(QStringLiteral("probe-2n"));
        QVERIFY(row);
        QCOMPARE(row->id, *id);
        QCOMPARE(row->kind, RunKind::Probe);
        QCOMPARE(row->recordName, QStringLiteral("rec-a"));
        QCOMPARE(row->clusterName, QStringLiteral("lab"));
        QCOMPARE(row->sourceFile, data.sourceFile);
        QCOMPARE(row->environment, data.environment);
        QCOMPARE(row->commSampleCount, 4);
        QCOMPARE(row->stepCount, 3);
        QCOMPARE(row->expertLoadBlocks, 3);
        QCOMPARE(s->runs().size(), 1);

        const QVector<CommSample> comm = s->commSamples(*id);
        QCOMPARE(comm.size(), 4);
        QCOMPARE(comm[0].bytesPerRank, 8ull); // ordered by size, repeat, iteration
        QCOMPARE(comm[1].iteration, 1);
        QCOMPARE(comm[1].timeUs, 3.5);
        QCOMPARE(comm[3].bytesPerRank, 1048576ull);
        QCOMPARE(comm[3].repeat, 1);

        const QVector<StepMetric> loss = s->stepMetrics(*id, QStringLiteral("lm_loss"));
        QCOMPARE(loss.size(), 3);
        QCOMPARE(loss[0].step, 0);
        QCOMPARE(loss[0].value, 8.0);
        QCOMPARE(loss[1].value, 7.5);
        QVERIFY(std::isnan(loss[2].value)); // a diverged step stays NaN
        QCOMPARE(s->stepMetrics(*id).size(), 4);
        QCOMPARE(s->stepMetricNames(*id), QStringList({"lm_loss", "val_loss"}));
        QVERIFY(s->stepMetrics(*id, QStringLiteral("nope")).isEmpty());

        const QVector<ExpertLoadBlock> load = s->expertLoad(*id);
        QCOMPARE(load.size(), 3);
        QCOMPARE(load[2].tokensPerExpert, QVector<quint32>({0, 0, 4294967295u, 9}));
        QCOMPARE(s->expertLoad(*id, 0).size(), 2);
        QCOMPARE(s->expertLoad(*id, {}, 0).size(), 2);
        const auto one = s->expertLoad(*id, 0, 1);
        QCOMPARE(one.size(), 1);
        QCOMPARE(one[0].tokensPerExpert, QVector<quint32>({5, 6, 7, 8}));

        QVERIFY(s->removeRun(QStringLiteral("probe-2n")));
        QVERIFY(s->runs().isEmpty());
        QVERIFY(s->expertLoad(*id).isEmpty());
        QVERIFY(s->commSamples(*id).isEmpty());
        QVERIFY(!s->removeRun(QStringLiteral("probe-2n")));
    }

    void streamedExpertLoadIsOneRunWithItsSummary() {
        // Rows streamed through the sink (an import reading as it writes), layers
        // interleaved, 600 steps (three chunks per layer), 6 experts under EP 3 (the
        // record's): counts, block count and summary read back as computed here.
        const QString path = freshPath();
        auto store = ProjectStore::open(path);
        QVERIFY(store);
        ProjectStore& s = **store;
        QVERIFY(s.addConfigRecord(QStringLiteral("ep3"),
                                  QJsonObject{{"parallelism", QJsonObject{{"ep", 3}, {"dp", 3}}}}, true));
        auto tokens = [](qint64 step, int layer, int e) {
            return quint32((step * 131 + layer * 71 + e * e * 37) % 1009 + (e == step % 6 ? 500 : 0));
        };
        RunData run;
        run.name = QStringLiteral("streamed");
        run.recordName = QStringLiteral("ep3");
        run.expertLoadStream = [&](ExpertLoadSink& sink, const std::function<bool()>&, QString* error) {
            std::vector<quint32> counts(6);
            for (qint64 step = 1; step <= 600; ++step)
                for (int layer = 0; layer < 2; ++layer) {
                    for (int e = 0; e < 6; ++e)
                        counts[std::size_t(e)] = tokens(step, layer, e);
                    if (!sink.add(step, layer, counts)) {
                        *error = sink.error();
                        return false;
                    }
                }
            return true;
        };
        const auto id = s.saveRun(run);
        QVERIFY2(id, qPrintable(id ? QString() : id.error().text()));
        QCOMPARE(s.run(QStringLiteral("streamed"))->expertLoadBlocks, 1200);
        const auto load = s.expertLoad(*id);
        QCOMPARE(load.size(), 1200);
        for (const ExpertLoadBlock& b : load)
            for (int e = 0; e < 6; ++e)
                QCOMPARE(b.tokensPerExpert[e], tokens(b.step, b.layer, e));
        QCOMPARE(load[1199].step, 600);
        QCOMPARE(load[1199].layer, 1);
        const auto summary = s.expertLoadSummary(*id, 1);
        QCOMPARE(summary.size(), 600);
        for (const ExpertLoadSummaryRow& r : summary) {
            quint64 sum = 0, best = 0;
            quint32 mx = 0;
            int arg = 0;
            for (int e = 0; e < 6; ++e) {
                const quint32 t = tokens(r.step, 1, e);
                sum += t;
                if (t > mx)
                    mx = t, arg = e;
            }
            for (int rank = 0; rank < 3; ++rank)
                best = std::max<quint64>(best, quint64(tokens(r.step, 1, 2 * rank)) + tokens(r.step, 1, 2 * rank + 1));
            QCOMPARE(r.sum, sum);
            QCOMPARE(r.max, mx);
            QCOMPARE(r.argmax, arg);
            QCOMPARE(r.expertParallel, 3);
            QCOMPARE(r.busiestRankTokens.value_or(0), best);
            QCOMPARE(r.loadRatio(), double(mx) * 6.0 / double(sum));
        }

        // A layer going back in steps fails the save, which leaves nothing behind.
        RunData bad;
        bad.name = QStringLiteral("backwards");
        bad.recordName = QStringLiteral("ep3");
        bad.expertLoadStream = [](ExpertLoadSink& sink, const std::function<bool()>&, QString* error) {
            const std::vector<quint32> c{1, 2, 3};
            if (sink.add(5, 0, c) && sink.add(6, 1, c) && sink.add(4, 0, c))
                return true;
            *error = sink.error();
            return false;
        };
        const auto refused = s.saveRun(bad);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("goes back from step 5 to step 4")),
                 qPrintable(refused.error().text()));
        QVERIFY(!s.run(QStringLiteral("backwards")));
        QCOMPARE(s.runs().size(), 1);
    }

    void runsSurviveReopening() {
        const QString path = freshPath();
        {
            auto s = openWithRecordAndCluster(path);
            QVERIFY(s);
            QVERIFY(s->saveRun(smallRun(QStringLiteral("r1"))));
        }
        auto store = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY(store);
        const auto row = (*store)->run(QStringLiteral("r1"));
        QVERIFY(row);
        QCOMPARE((*store)->expertLoad(row->id).size(), 3);
    }

    void badRunsWriteNothing() {
        auto s = openWithRecordAndCluster(freshPath());
        QVERIFY(s);
        QVERIFY(s->saveRun(smallRun(QStringLiteral("r1"))));

        auto dup = s->saveRun(smallRun(QStringLiteral("r1")));
        QVERIFY(!dup);
        QVERIFY2(dup.error().message.contains(QStringLiteral("a run named r1 already exists")),
                 qPrintable(dup.error().text()));

        RunData noRecord = smallRun(QStringLiteral("r2"));
        noRecord.recordName = QStringLiteral("missing-record");
        auto e1 = s->saveRun(noRecord);
        QVERIFY(!e1);
        QVERIFY2(e1.error().message.contains(QStringLiteral("no config record named missing-record")),
                 qPrintable(e1.error().text()));

        RunData noCluster = smallRun(QStringLiteral("r3"));
        noCluster.clusterName = QStringLiteral("missing-cluster");
        auto e2 = s->saveRun(noCluster);
        QVERIFY(!e2);
        QVERIFY(e2.error().message.contains(QStringLiteral("no cluster named missing-cluster")));

        RunData emptyRecord = smallRun(QStringLiteral("r4"));
        emptyRecord.recordName.clear();
        QVERIFY(!s->saveRun(emptyRecord));

        // A duplicate expert-load block fails late, after rows were written: all rolled back.
        RunData late = smallRun(QStringLiteral("r5"));
        late.expertLoad.append(late.expertLoad.first());
        auto e3 = s->saveRun(late);
        QVERIFY(!e3);
        QVERIFY2(e3.error().message.contains(QStringLiteral("expert load at step 0, layer 0")),
                 qPrintable(e3.error().text()));

        QCOMPARE(s->runs().size(), 1);
        QVERIFY(s->integrityProblems()->isEmpty());
        // Only r1's rows exist.
        QCOMPARE(s->commSamples(s->run("r1")->id).size(), 4);
        QVERIFY(s->saveRun(smallRun(QStringLiteral("r5")))); // the name is free again
    }

    void cancelRollsBack() {
        auto s = openWithRecordAndCluster(freshPath());
        QVERIFY(s);
        RunData big = smallRun(QStringLiteral("big"));
        for (int step = 2; step < 5000; ++step)
            big.expertLoad.append(ExpertLoadBlock{step, 0, QVector<quint32>(8, 1)});
        int calls = 0;
        const auto saved = s->saveRun(big, [&](double f) {
            ++calls;
            return f < 0.5;
        });
        QVERIFY(!saved);
        QCOMPARE(saved.error().message, QStringLiteral("cancelled"));
        QVERIFY(calls > 1);
        QVERIFY(s->runs().isEmpty());
        QVERIFY(s->saveRun(big)); // and the same run saves fine afterwards
        QCOMPARE(s->run(QStringLiteral("big"))->expertLoadBlocks, 5001);
    }

    void thresholdsCarryTheirSource() {
        auto store = ProjectStore::open(freshPath());
        QVERIFY(store);
        auto& s = **store;
        const QDateTime when = QDateTime(QDate(2026, 3, 1), QTime(12, 30, 15, 250), Qt::UTC);
        QVERIFY(s.setThreshold(ThresholdRow{QStringLiteral("stage1.cv_max"), 0.05, ThresholdSource::Team,
                                            QStringLiteral("agreed 2026-03"), when}));
        QVERIFY(s.setThreshold(ThresholdRow{QStringLiteral("stage1.p99_over_median_max"),
                                            1.7,
                                            ThresholdSource::Suggested,
                                            QStringLiteral("from run probe-2n"),
                                            {}}));
        const auto cv = s.threshold(QStringLiteral("stage1.cv_max"));
        QVERIFY(cv);
        QCOMPARE(cv->value, 0.05);
        QCOMPARE(cv->source, ThresholdSource::Team);
        QCOMPARE(cv->note, QStringLiteral("agreed 2026-03"));
        QCOMPARE(cv->updated, when);
        QCOMPARE(s.threshold(QStringLiteral("stage1.p99_over_median_max"))->source,
                 ThresholdSource::Suggested);
        QVERIFY(s.threshold(QStringLiteral("stage1.p99_over_median_max"))->updated.isValid());
        QCOMPARE(s.thresholds().size(), placeholderThresholds().size());
        QVERIFY(!s.setThreshold(ThresholdRow{
            QStringLiteral("x"), std::numeric_limits<double>::infinity(), ThresholdSource::Team, {}, {}}));
        QVERIFY(!s.setThreshold(ThresholdRow{QString(), 1.0, ThresholdSource::Team, {}, {}}));
    }

    void verdictsAndOverrides() {
        auto store = ProjectStore::open(freshPath());
        QVERIFY(store);
        auto& s = **store;
        const QJsonArray reasons{QStringLiteral("CV 0.14 at 1 MiB above 0.10")};
        QVERIFY(s.saveVerdict(VerdictRow{1, QStringLiteral("stop"), reasons, {}, {}}));
        QVERIFY(s.saveVerdict(VerdictRow{2, QStringLiteral("stale"), {}, {}, {}}));
        // Replaces stage 1's.
        QVERIFY(s.saveVerdict(VerdictRow{1, QStringLiteral("overridden"), reasons, {}, {}}));
        QCOMPARE(s.verdicts().size(), 2);
        QCOMPARE(s.verdict(1)->status, QStringLiteral("overridden"));
        QCOMPARE(s.verdict(1)->reasons, reasons);
        QVERIFY(!s.verdict(3));
        QVERIFY(!s.saveVerdict(VerdictRow{5, QStringLiteral("pass"), {}, {}, {}}));
        QVERIFY(!s.saveVerdict(VerdictRow{1, QString(), {}, {}, {}}));

        const auto blank =
            s.addOverride(OverrideRow{0, 1, QStringLiteral("  \n"), QStringLiteral("lead"), {}});
        QVERIFY(!blank);
        QVERIFY(blank.error().message.contains(QStringLiteral("justification")));
        const auto id = s.addOverride(
            OverrideRow{0,
                        1,
                        QStringLiteral("P99 tail from a known flaky switch, replaced next week"),
                        QStringLiteral("lead"),
                        {}});
        QVERIFY(id);
        QCOMPARE(s.overrides().size(), 1);
        QCOMPARE(s.overrides()[0].id, *id);
        QCOMPARE(s.overrides()[0].author, QStringLiteral("lead"));
        QVERIFY(s.overrides()[0].created.isValid());
    }

    void assessmentSheetRoundTripsInOneTransaction() {
        const QString path = freshPath();
        auto s = openWithRecordAndCluster(path);
        QVERIFY(s);
        QVERIFY(s->saveRun(smallRun(QStringLiteral("probe-a"))));
        QVERIFY(s->assessment().dimensions.isEmpty());

        AssessmentSheetRow sheet;
        sheet.author = QStringLiteral("carol");
        sheet.dimensions = {
            {QStringLiteral("observability"),
             QStringLiteral("strong"),
             QStringLiteral("drop rate and load per expert logged"),
             {{EvidenceKind::Stage, {}, 3, QStringLiteral("load ratio table")},
              {EvidenceKind::Run, QStringLiteral("probe-a"), 0, {}}}},
            {QStringLiteral("completeness"), QStringLiteral("partial"), {}, {}},
        };
        sheet.costs = {{QStringLiteral("communication"), QStringLiteral("2x IB upgrade"),
                        QStringLiteral("all-to-all at EP 16"), QStringLiteral("quote pending")}};
        const auto saved = s->saveAssessment(sheet);
        QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().text()));
        {
            const AssessmentSheetRow back = s->assessment();
            QCOMPARE(back.dimensions, sheet.dimensions); // order as saved, evidence in order
            QCOMPARE(back.costs, sheet.costs);
            QCOMPARE(back.author, QStringLiteral("carol"));
            QVERIFY(back.updated.isValid());
        }

        // Refusals change nothing: a link to a missing run, a stage out of range, a
        // repeated key.
        AssessmentSheetRow bad = sheet;
        bad.dimensions[1].evidence = {{EvidenceKind::Run, QStringLiteral("no-such-run"), 0, {}}};
        auto refused = s->saveAssessment(bad);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("no-such-run")),
                 qPrintable(refused.error().text()));
        bad.dimensions[1].evidence = {{EvidenceKind::Stage, {}, 5, {}}};
        QVERIFY(!s->saveAssessment(bad));
        bad.dimensions[1] = bad.dimensions[0];
        refused = s->saveAssessment(bad);
        QVERIFY(!refused);
        QVERIFY(refused.error().message.contains(QStringLiteral("twice")));
        QCOMPARE(s->assessment().dimensions, sheet.dimensions);

        // A second save replaces the whole sheet.
        AssessmentSheetRow smaller;
        smaller.dimensions = {{QStringLiteral("security"), QStringLiteral("not_applicable"), {}, {}}};
        QVERIFY(s->saveAssessment(smaller));
        QCOMPARE(s->assessment().dimensions, smaller.dimensions);
        QVERIFY(s->assessment().costs.isEmpty());

        // Removing a run removes the links to it (and nothing else).
        QVERIFY(s->saveAssessment(sheet));
        QVERIFY(s->removeRun(QStringLiteral("probe-a")));
        const AssessmentSheetRow after = s->assessment();
        QCOMPARE(after.dimensions[0].evidence.size(), 1);
        QCOMPARE(after.dimensions[0].evidence[0].kind, EvidenceKind::Stage);
        QVERIFY(s->integrityProblems()->isEmpty());
        QCOMPARE(evidenceKindFromName(evidenceKindName(EvidenceKind::Run)), EvidenceKind::Run);
        QVERIFY(!evidenceKindFromName(QStringLiteral("bogus")));
    }

    void twoStoresOnOneFile() {
        // One store per thread (here two in one thread): distinct connections, and
        // the second sees what the first committed.
        const QString path = freshPath();
        auto a = openWithRecordAndCluster(path);
        QVERIFY(a);
        auto b = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY(b);
        QVERIFY(a->saveRun(smallRun(QStringLiteral("from-a"))));
        QVERIFY((*b)->run(QStringLiteral("from-a")));
        QVERIFY((*b)->addConfigRecord(QStringLiteral("from-b"), {}, false));
        QVERIFY(a->configRecord(QStringLiteral("from-b")));
    }

    void namesOfKindsAndSources() {
        for (RunKind k : {RunKind::Probe, RunKind::Training, RunKind::Imported})
            QCOMPARE(runKindFromName(runKindName(k)), k);
        QCOMPARE(runKindName(RunKind::Training), QStringLiteral("training"));
        QVERIFY(!runKindFromName(QStringLiteral("bogus")));
        for (ThresholdSource t :
             {ThresholdSource::Placeholder, ThresholdSource::Team, ThresholdSource::Suggested})
            QCOMPARE(thresholdSourceFromName(thresholdSourceName(t)), t);
        QCOMPARE((StoreError{QStringLiteral("/a.moewb"), QStringLiteral("boom")}.text()),
                 QStringLiteral("/a.moewb: boom"));
        QCOMPARE((StoreError{QString(), QStringLiteral("boom")}.text()), QStringLiteral("boom"));
    }
};

QTEST_GUILESS_MAIN(TestProjectStore)
#include "test_project_store.moc"
