// A child importing a large run is SIGKILLed at random moments inside its
// transaction; each time the file must pass integrity_check and hold the whole
// run or none of it. A negative control runs the same checker against a child
// that commits in pieces, to show the checker does catch a partial run.
#include "LargeRunFixture.h"
#include "SqlScript.h"
#include "store/ProjectStore.h"

#include <QCryptographicHash>
#include <QFile>

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace moewb::store;

namespace {

constexpr int kSteps = 800; // 25,600 expert-load blobs, 3,200 metrics, 1,600 samples per run
constexpr int kKills = 20;

struct ChildResult {
    bool begun = false;
    bool committed = false;
    bool killed = false;
    qint64 importMs = -1;
    QString output;
};

// Starts the child, waits for "begun" (and, with killAtFraction, for the child to
// say it passed that fraction of its import), sleeps delayUs (when >= 0) and SIGKILLs it.
ChildResult runChild(const QString& project, const QString& runName, int delayUs, bool splitCommits = false,
                     double killAtFraction = -1) {
    ChildResult r;
    QProcess child;
    QStringList args{project, runName, QString::number(kSteps)};
    if (splitCommits)
        args << QStringLiteral("--split-commits");
    if (killAtFraction >= 0)
        args << QStringLiteral("--announce-at") << QString::number(killAtFraction, 'f', 4);
    child.start(QStringLiteral(MOEWB_STORE_IMPORT_CHILD), args);
    if (!child.waitForStarted(10000))
        return r;
    QByteArray out;
    QElapsedTimer waited;
    waited.start();
    while (!out.contains("begun\n") && waited.elapsed() < 60000 && child.state() == QProcess::Running) {
        child.waitForReadyRead(100);
        out += child.readAllStandardOutput();
    }
    r.begun = out.contains("begun\n");
    if (r.begun && killAtFraction >= 0) {
        while (!out.contains("at\n") && waited.elapsed() < 60000 && child.state() == QProcess::Running) {
            child.waitForReadyRead(5);
            out += child.readAllStandardOutput();
        }
    }
    if (r.begun && delayUs >= 0) {
        QThread::usleep(ulong(delayUs));
        child.kill(); // SIGKILL on Unix
    }
    child.waitForFinished(120000);
    out += child.readAllStandardOutput();
    r.output = QString::fromUtf8(out) + QString::fromUtf8(child.readAllStandardError());
    r.killed = child.exitStatus() == QProcess::CrashExit;
    const int at = out.indexOf("committed ");
    r.committed = at >= 0;
    if (r.committed)
        r.importMs = out.mid(at + 10).trimmed().toLongLong();
    return r;
}

qint64 count(QSqlDatabase& db, const QString& statement, qint64 runId) {
    QSqlQuery q(db);
    q.prepare(statement);
    if (runId >= 0)
        q.addBindValue(runId);
    if (!q.exec() || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

// Runs fn on a plain connection to path (not through ProjectStore).
template <typename Fn> void withRaw(const QString& path, Fn fn) {
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        if (db.open())
            fn(db);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
}

// A version-4 file's expert_load, hashed in key order: what a failed upgrade must leave.
QByteArray v4LoadDigest(QSqlDatabase& db) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT run_id, step, layer, codec, counts FROM expert_load ORDER BY run_id, step, layer")))
        return {};
    while (q.next()) {
        for (int c = 0; c < 4; ++c)
            hash.addData(QByteArray::number(q.value(c).toLongLong()) + ',');
        hash.addData(q.value(4).toByteArray());
    }
    return hash.result();
}

// A version-5 file's chunks, hashed in key order: what a failed 5 -> 6 upgrade must leave.
QByteArray v5ChunkDigest(QSqlDatabase& db) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT run_id, layer, first_step, last_step, steps, experts, codec, counts FROM "
                               "expert_load_chunk ORDER BY run_id, layer, first_step")))
        return {};
    while (q.next()) {
        for (int c = 0; c < 7; ++c)
            hash.addData(QByteArray::number(q.value(c).toLongLong()) + ',');
        hash.addData(q.value(7).toByteArray());
    }
    return hash.result();
}

// Starts `store_import_child FILE --open` (opening upgrades the file), SIGKILLs it
// delayUs after it said "begun" (never when delayUs < 0); the child's output.
ChildResult openInChild(const QString& project, int delayUs) {
    ChildResult r;
    QProcess child;
    child.start(QStringLiteral(MOEWB_STORE_IMPORT_CHILD), {project, QStringLiteral("--open")});
    if (!child.waitForStarted(10000))
        return r;
    QByteArray out;
    QElapsedTimer waited;
    waited.start();
    while (!out.contains("begun\n") && waited.elapsed() < 60000 && child.state() == QProcess::Running) {
        child.waitForReadyRead(100);
        out += child.readAllStandardOutput();
    }
    r.begun = out.contains("begun\n");
    if (r.begun && delayUs >= 0) {
        QThread::usleep(ulong(delayUs));
        child.kill();
    }
    child.waitForFinished(120000);
    out += child.readAllStandardOutput();
    r.output = QString::fromUtf8(out) + QString::fromUtf8(child.readAllStandardError());
    r.killed = child.exitStatus() == QProcess::CrashExit;
    const int at = out.indexOf("opened ");
    r.committed = at >= 0;
    if (r.committed)
        r.importMs = out.mid(at + 7).trimmed().toLongLong();
    return r;
}

// Everything wrong with the file after a kill; empty when it is sound and every
// run in it is complete. committedRuns must be present.
QStringList checkAllOrNothing(const QString& project, const QStringList& committedRuns) {
    QStringList problems;
    auto store = ProjectStore::open(project, OpenMode::MustExist);
    if (!store)
        return {store.error().text()};
    const auto integrity = (*store)->integrityProblems();
    if (!integrity)
        return {integrity.error().text()};
    problems += *integrity;

    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("checker"));
    {
        db.setDatabaseName(project);
        db.open();
        QSqlQuery ic(db);
        if (!ic.exec(QStringLiteral("PRAGMA integrity_check")) || !ic.next() ||
            ic.value(0).toString() != "ok")
            problems << QStringLiteral("integrity_check on a fresh connection is not ok");
        ic.finish();
        qint64 comm = 0, metrics = 0, blocks = 0;
        for (const RunRow& run : (*store)->runs()) {
            const qint64 c =
                count(db, QStringLiteral("SELECT count(*) FROM comm_sample WHERE run_id = ?"), run.id);
            const qint64 m =
                count(db, QStringLiteral("SELECT count(*) FROM step_metric WHERE run_id = ?"), run.id);
            const qint64 b =
                count(db, QStringLiteral("SELECT coalesce(sum(steps), 0) FROM expert_load_chunk WHERE run_id = ?"), run.id);
            comm += c, metrics += m, blocks += b;
            if (c != testing::commRowsPerRun() || m != testing::metricRowsPerRun(kSteps) ||
                b != testing::expertBlocksPerRun(kSteps))
                problems << QStringLiteral("run %1 is partial: %2 samples, %3 metrics, %4 expert-load blocks")
                                .arg(run.name)
                                .arg(c)
                                .arg(m)
                                .arg(b);
            if (run.expertLoadBlocks != b || run.commSampleCount != c)
                problems << QStringLiteral("run %1's counts disagree with its rows").arg(run.name);
            const auto last = (*store)->expertLoad(run.id, kSteps - 1, testing::kLayers - 1);
            if (last.size() != 1 || last[0].tokensPerExpert.size() != testing::kExperts ||
                last[0].tokensPerExpert[5] != testing::tokensAt(kSteps - 1, testing::kLayers - 1, 5))
                problems << QStringLiteral("run %1's last expert-load block is wrong").arg(run.name);
        }
        // Rows that belong to no listed run would be a half-written run too.
        if (count(db, QStringLiteral("SELECT count(*) FROM comm_sample"), -1) != comm ||
            count(db, QStringLiteral("SELECT count(*) FROM step_metric"), -1) != metrics ||
            count(db, QStringLiteral("SELECT coalesce(sum(steps), 0) FROM expert_load_chunk"), -1) != blocks ||
            count(db, QStringLiteral("SELECT coalesce(sum(steps), 0) FROM expert_load_summary"), -1) != blocks ||
            count(db, QStringLiteral("SELECT coalesce(sum(steps), 0) FROM expert_load_totals"), -1) != blocks)
            problems << QStringLiteral("measurement rows without a run");
        // Every chunk has its totals, and no totals are left without their chunk.
        const qint64 chunks = count(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk"), -1);
        if (count(db, QStringLiteral("SELECT count(*) FROM expert_load_totals"), -1) != chunks ||
            count(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk JOIN expert_load_totals USING (run_id, "
                                     "layer, first_step, last_step, steps, experts)"), -1) != chunks)
            problems << QStringLiteral("chunks and their totals disagree");
        for (const QString& name : committedRuns)
            if (!(*store)->run(name))
                problems << QStringLiteral("committed run %1 is missing").arg(name);
        db.close();
    }
    db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("checker"));
    return problems;
}

} // namespace

class TestStoreCrashSafety : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_project;

    void createProject(const QString& path) {
        auto store = ProjectStore::open(path);
        QVERIFY2(store, qPrintable(store ? QString() : store.error().text()));
        QVERIFY((*store)->addConfigRecord(QStringLiteral("rec"), QJsonObject{{"experts", 64}}, true));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(QStringLiteral("crash.moewb"));
        createProject(m_project);
    }

    void killMidImportLeavesAllOrNothing() {
        // Calibrate: how long does the transaction stay open on this machine?
        const ChildResult calibration = runChild(m_project, QStringLiteral("calibration"), -1);
        QVERIFY2(calibration.committed, qPrintable(calibration.output));
        QVERIFY(checkAllOrNothing(m_project, {QStringLiteral("calibration")}).isEmpty());
        const qint64 windowUs = std::max<qint64>(calibration.importMs * 1000, 20000);
        // MOEWB_STORE_KILL_SEED replays a failing run's kill delays.
        bool fixed = false;
        const quint32 fixedSeed = qEnvironmentVariable("MOEWB_STORE_KILL_SEED").toUInt(&fixed);
        const quint32 seed = fixed ? fixedSeed : QRandomGenerator::global()->generate();
        QRandomGenerator random(seed);
        qInfo("import transaction open for %lld ms; seed %u", calibration.importMs, seed);

        // Even iterations kill at a random point of the import's progress (always inside
        // the transaction, whatever the machine's load); odd ones after a random time,
        // which may also fall after the commit.
        int midTransaction = 0, kept = 0, pointKillsInside = 0;
        for (int i = 0; i < kKills; ++i) {
            const QString name = QStringLiteral("kill-%1").arg(i);
            const bool byProgress = i % 2 == 0;
            const double fraction = byProgress ? 0.02 + 0.93 * random.generateDouble() : -1.0;
            const int delayUs = byProgress ? 0 : int(random.bounded(windowUs * 9 / 10));
            const ChildResult r = runChild(m_project, name, delayUs, false, fraction);
            QVERIFY2(r.begun,
                     qPrintable(QStringLiteral("iteration %1: child never began: %2").arg(i).arg(r.output)));
            QStringList mustHave{QStringLiteral("calibration")};
            if (r.committed)
                mustHave << name;
            const QStringList problems = checkAllOrNothing(m_project, mustHave);
            QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("iteration %1 (kill %2): %3")
                                                        .arg(i)
                                                        .arg(byProgress ? QStringLiteral("at %1 of the import").arg(fraction)
                                                                        : QStringLiteral("after %1 µs").arg(delayUs))
                                                        .arg(problems.join(QStringLiteral("; ")))));
            // Keep the file small: drop a run that made it in.
            auto store = ProjectStore::open(m_project, OpenMode::MustExist);
            QVERIFY(store);
            if ((*store)->run(name)) {
                ++kept;
                QVERIFY((*store)->removeRun(name));
            } else if (r.killed) {
                // Killed, and the run is absent: the kill landed inside the transaction.
                ++midTransaction;
                pointKillsInside += byProgress ? 1 : 0;
            }
        }
        qInfo("%d of %d kills landed inside the transaction; %d runs were complete at the kill",
              midTransaction, kKills, kept);
        // Every progress-point kill must land inside the transaction.
        QVERIFY2(pointKillsInside == kKills / 2,
                 qPrintable(QStringLiteral("only %1 of %2 progress-point kills landed mid-transaction")
                                .arg(pointKillsInside)
                                .arg(kKills / 2)));
    }

    void killDuringUpgradeLeavesTheOldFile() {
        // A version-4 file (tests/fixtures/store/schema-v4.sql) with 51,200 more blobs, so
        // the 4 -> 5 upgrade takes a while; the child opening it is killed at random
        // moments. Each time the file must be version 4 with every blob as it was,
        // version 5 with every block in chunks, or version 6 or 7 with every chunk's totals
        // too; and it must open.
        const QString base = m_dir.filePath(QStringLiteral("v4-base.moewb"));
        QFile fixture(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/store/schema-v4.sql"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        constexpr qint64 kExtra = 51200, kBlocks = 315 + kExtra;
        QString scriptError = QStringLiteral("not run");
        QByteArray digest;
        withRaw(base, [&](QSqlDatabase& db) {
            scriptError = testing::runSqlScript(
                db, QString::fromUtf8(fixture.readAll()) +
                        QStringLiteral("WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < %1) "
                                       "INSERT INTO expert_load SELECT 2, 1000 + x / 32, x % 32, 64, 0, randomblob(256) "
                                       "FROM n;")
                            .arg(kExtra - 1));
            digest = v4LoadDigest(db);
        });
        QCOMPARE(scriptError, QString());
        QVERIFY(!digest.isEmpty());

        auto copyOfBase = [&](const QString& name) {
            const QString path = m_dir.filePath(name);
            QFile::remove(path);
            QFile::remove(path + QStringLiteral(".v4.bak"));
            return QFile::copy(base, path) ? path : QString();
        };
        const QString calibrationPath = copyOfBase(QStringLiteral("v4-calibration.moewb"));
        const ChildResult calibration = openInChild(calibrationPath, -1);
        QVERIFY2(calibration.committed, qPrintable(calibration.output));
        const qint64 windowUs = std::max<qint64>(calibration.importMs * 1000, 20000);
        const quint32 seed = QRandomGenerator::global()->generate();
        QRandomGenerator random(seed);
        qInfo("upgrade of %lld blocks took %lld ms; seed %u", kBlocks, calibration.importMs, seed);

        int leftAtV4 = 0;
        constexpr int kUpgradeKills = 6;
        for (int i = 0; i < kUpgradeKills; ++i) {
            const QString path = copyOfBase(QStringLiteral("v4-kill-%1.moewb").arg(i));
            QVERIFY(!path.isEmpty());
            const int delayUs = int(random.bounded(windowUs * 9 / 10));
            const ChildResult r = openInChild(path, delayUs);
            QVERIFY2(r.begun, qPrintable(r.output));
            qint64 version = -1, blocks = -1;
            QByteArray after;
            withRaw(path, [&](QSqlDatabase& db) {
                QSqlQuery q(db);
                if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
                    version = q.value(0).toLongLong();
                q.finish();
                if (version == 4) {
                    after = v4LoadDigest(db);
                    blocks = count(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name LIKE "
                                                      "'expert_load_%'"), -1);
                } else {
                    blocks = count(db, QStringLiteral("SELECT coalesce(sum(steps), 0) FROM expert_load_chunk"), -1);
                    const qint64 chunks = count(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk"), -1);
                    const qint64 totals =
                        version >= 6 ? count(db, QStringLiteral("SELECT count(*) FROM expert_load_totals"), -1) : 0;
                    if (totals != (version >= 6 ? chunks : 0))
                        blocks = -2; // version 6 without every chunk's totals
                }
            });
            const QString where = QStringLiteral("kill %1 after %2 µs: ").arg(i).arg(delayUs);
            if (version == 4) {
                ++leftAtV4;
                QVERIFY2(after == digest, qPrintable(where + QStringLiteral("version 4 left with other expert load")));
                QVERIFY2(blocks == 0, qPrintable(where + QStringLiteral("version 4 left with version 5 tables")));
            } else {
                // Each step commits on its own: the kill leaves any version from 5 to the latest.
                QVERIFY2(version >= 5 && version <= ProjectStore::kSchemaVersion,
                         qPrintable(where + QStringLiteral("version %1").arg(version)));
                QVERIFY2(blocks == kBlocks, qPrintable(where + QStringLiteral("%1 blocks in chunks (-2: totals "
                                                                              "missing)").arg(blocks)));
            }
            // Either way it opens (upgrading what was left) and holds every block.
            auto store = ProjectStore::open(path, OpenMode::MustExist);
            QVERIFY2(store, qPrintable(store ? QString() : store.error().text()));
            QVERIFY((*store)->integrityProblems()->isEmpty());
            const auto run = (*store)->run(QStringLiteral("tiny-load"));
            QVERIFY(run);
            QCOMPARE(qint64((*store)->expertLoad(run->id).size()), 15 + kExtra);
        }
        qInfo("%d of %d kills left the file at version 4", leftAtV4, kUpgradeKills);
    }

    void killDuringV5UpgradeLeavesTheOldFile() {
        // A version-5 file with 448 chunks of 256 steps × 64 experts (the version-4 file
        // above, taken to version 5, its chunks repeated under 32 more layers), so that the
        // 5 -> 6 upgrade (decoding every chunk for its totals) takes a while; the child
        // opening it is killed at random moments. Each time the file must be version 5
        // with every chunk as it was and no totals, or version 6 with every chunk's
        // totals; and it opens with totals that sum as the blocks do.
        const QString base = m_dir.filePath(QStringLiteral("v5-base.moewb"));
        QFile fixture(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/store/schema-v4.sql"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QString scriptError = QStringLiteral("not run");
        withRaw(base, [&](QSqlDatabase& db) {
            scriptError = testing::runSqlScript(
                db, QString::fromUtf8(fixture.readAll()) +
                        QStringLiteral("WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 51199) "
                                       "INSERT INTO expert_load SELECT 2, 1000 + x / 32, x % 32, 64, 0, randomblob(256) "
                                       "FROM n;"));
        });
        QCOMPARE(scriptError, QString());
        QVERIFY(ProjectStore::open(base, OpenMode::MustExist)); // 4 -> 5 -> 6
        // Back to version 5 (= version 6 without expert_load_totals and its trigger), with run 2's 32
        // layers of 64 experts repeated as layers 100-131.
        QByteArray digest;
        qint64 chunks = 0;
        withRaw(base, [&](QSqlDatabase& db) {
            QSqlQuery q(db);
            for (const QString& statement :
                 {QStringLiteral("DROP TRIGGER expert_load_totals_follow_chunk"),
                  QStringLiteral("DROP TABLE expert_load_totals"),
                  QStringLiteral("DROP TABLE step_anatomy"), // version 7's
                  QStringLiteral("DROP TABLE a2a_call"),
                  QStringLiteral("DROP TABLE step_timeline"), // version 8's
                  QStringLiteral("WITH k(y) AS (SELECT 1) "
                                 "INSERT INTO expert_load_chunk SELECT run_id, layer + 100 * y, first_step, last_step, "
                                 "steps, experts, codec, counts FROM expert_load_chunk, k WHERE run_id = 2 AND experts = 64"),
                  QStringLiteral("WITH k(y) AS (SELECT 1) "
                                 "INSERT INTO expert_load_summary SELECT run_id, layer + 100 * y, first_step, last_step, "
                                 "steps, experts, ep, codec, data FROM expert_load_summary, k WHERE run_id = 2 AND "
                                 "experts = 64"),
                  QStringLiteral("UPDATE run SET expert_load_blocks = (SELECT sum(steps) FROM expert_load_chunk c "
                                 "WHERE c.run_id = run.id) WHERE id = 2"),
                  QStringLiteral("PRAGMA user_version = 5")})
                QVERIFY2(q.exec(statement), qPrintable(statement));
            q.finish();
            digest = v5ChunkDigest(db);
            chunks = count(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk"), -1);
        });
        QVERIFY(!digest.isEmpty());
        QCOMPARE(chunks, 3 + 2 * 32 * 7 + 2); // 1,600 steps of each 64-expert layer: 7 chunks

        auto copyOfBase = [&](const QString& name) {
            const QString path = m_dir.filePath(name);
            QFile::remove(path);
            QFile::remove(path + QStringLiteral(".v5.bak"));
            return QFile::copy(base, path) ? path : QString();
        };
        const ChildResult calibration = openInChild(copyOfBase(QStringLiteral("v5-calibration.moewb")), -1);
        QVERIFY2(calibration.committed, qPrintable(calibration.output));
        const qint64 windowUs = std::max<qint64>(calibration.importMs * 1000, 20000);
        const quint32 seed = QRandomGenerator::global()->generate();
        QRandomGenerator random(seed);
        qInfo("upgrade of %lld chunks took %lld ms; seed %u", chunks, calibration.importMs, seed);

        int leftAtV5 = 0;
        constexpr int kUpgradeKills = 6;
        for (int i = 0; i < kUpgradeKills; ++i) {
            const QString path = copyOfBase(QStringLiteral("v5-kill-%1.moewb").arg(i));
            QVERIFY(!path.isEmpty());
            // Up to a little past the calibrated opening: some kills land after the commit.
            const int delayUs = int(random.bounded(windowUs * 12 / 10));
            const ChildResult r = openInChild(path, delayUs);
            QVERIFY2(r.begun, qPrintable(r.output));
            qint64 version = -1, totals = -1, matched = -1;
            QByteArray after;
            withRaw(path, [&](QSqlDatabase& db) {
                QSqlQuery q(db);
                if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
                    version = q.value(0).toLongLong();
                q.finish();
                after = v5ChunkDigest(db);
                totals = count(db, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = "
                                                  "'expert_load_totals'"), -1);
                if (totals > 0) {
                    totals = count(db, QStringLiteral("SELECT count(*) FROM expert_load_totals"), -1);
                    matched = count(db, QStringLiteral("SELECT count(*) FROM expert_load_chunk JOIN expert_load_totals "
                                                       "USING (run_id, layer, first_step, last_step, steps, experts)"),
                                    -1);
                }
            });
            const QString where = QStringLiteral("kill %1 after %2 µs: ").arg(i).arg(delayUs);
            QVERIFY2(after == digest, qPrintable(where + QStringLiteral("the chunks changed")));
            if (version == 5) {
                ++leftAtV5;
                QVERIFY2(totals == 0, qPrintable(where + QStringLiteral("version 5 left with expert_load_totals")));
            } else {
                QVERIFY2(version >= 6 && version <= ProjectStore::kSchemaVersion,
                         qPrintable(where + QStringLiteral("version %1").arg(version)));
                QVERIFY2(totals == chunks && matched == chunks,
                         qPrintable(where + QStringLiteral("%1 totals (%2 matching) for %3 chunks")
                                                .arg(totals)
                                                .arg(matched)
                                                .arg(chunks)));
            }
            // Either way it opens (upgrading what was left), and the totals sum as the blocks.
            auto store = ProjectStore::open(path, OpenMode::MustExist);
            QVERIFY2(store, qPrintable(store ? QString() : store.error().text()));
            QVERIFY((*store)->integrityProblems()->isEmpty());
            const auto run = (*store)->run(QStringLiteral("tiny-load"));
            QVERIFY(run);
            // The 64-expert blocks from step 1000 on, summed here, against the totals.
            QMap<int, std::vector<quint64>> sums;
            for (const ExpertLoadBlock& b : (*store)->expertLoadRange(run->id, 1000, {})) {
                std::vector<quint64>& row = sums[b.layer];
                row.resize(std::size_t(b.tokensPerExpert.size()), 0);
                for (qsizetype e = 0; e < b.tokensPerExpert.size(); ++e)
                    row[std::size_t(e)] += b.tokensPerExpert[e];
            }
            QCOMPARE(sums.size(), 64);
            const ExpertLoadTotals t = (*store)->expertLoadTotals(run->id, 1000, {});
            QVERIFY2(t.perLayer == sums, qPrintable(where + QStringLiteral("the totals differ from the blocks' sums")));
            QCOMPARE(t.steps, 1600);
            store->reset();
            QFile::remove(path);
            QFile::remove(path + QStringLiteral(".v5.bak"));
        }
        qInfo("%d of %d kills left the file at version 5", leftAtV5, kUpgradeKills);
    }

    void checkerCatchesSplitCommits() {
        // Negative control: the same checker must flag a run written without one
        // enclosing transaction, killed half-way.
        const QString project = m_dir.filePath(QStringLiteral("split.moewb"));
        createProject(project);
        const ChildResult r = runChild(project, QStringLiteral("split"), 0, /*splitCommits=*/true);
        QVERIFY2(r.begun && r.killed && !r.committed, qPrintable(r.output));
        const QStringList problems = checkAllOrNothing(project, {});
        QVERIFY2(!problems.isEmpty(), "the checker did not notice a half-written run");
        QVERIFY2(problems.join(' ').contains(QStringLiteral("partial")), qPrintable(problems.join("; ")));
    }
};

QTEST_GUILESS_MAIN(TestStoreCrashSafety)
#include "test_store_crash_safety.moc"
