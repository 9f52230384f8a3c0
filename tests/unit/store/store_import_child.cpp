// Child process of test_store_crash_safety: imports one large run and reports
// on stdout "begun" right after its transaction started, "at" once the import's
// progress passes the fraction given with --announce-at, and "committed <ms>"
// after the commit; the parent SIGKILLs it somewhere in between.
//
//   store_import_child <project> <run-name> <steps> [--split-commits] [--announce-at F]
//   store_import_child <project> --open     (opens the project: an older file is upgraded;
//                                            prints "opened <ms>" when done)
//
// --split-commits writes the same rows WITHOUT one enclosing transaction (a
// commit every 1000 rows), the broken design the parent's checker must catch.
#include "LargeRunFixture.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <cstdio>
#include <span>
#include <unistd.h>

using namespace moewb::store;

namespace {

void say(const QByteArray& line) {
    const QByteArray l = line + '\n';
    // unbuffered: the parent acts on this line at once
    [[maybe_unused]] const ssize_t n = ::write(STDOUT_FILENO, l.constData(), size_t(l.size()));
}

int splitCommits(const QString& path, const RunData& run) {
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("split"));
    db.setDatabaseName(path);
    if (!db.open())
        return 2;
    QSqlQuery q(db);
    q.exec(QStringLiteral("PRAGMA journal_mode = WAL"));
    q.exec(QStringLiteral("BEGIN IMMEDIATE"));
    q.prepare(
        QStringLiteral("INSERT INTO run (name, kind, record_id, created, comm_sample_count, step_count, "
                       "expert_load_blocks) SELECT ?, 'training', id, '2026-01-01T00:00:00Z', ?, ?, ? "
                       "FROM config_record WHERE name = ?"));
    q.addBindValue(run.name);
    q.addBindValue(qint64(run.commSamples.size()));
    q.addBindValue(qint64(run.stepMetrics.size() / testing::kMetricNames.size()));
    q.addBindValue(qint64(run.expertLoad.size()));
    q.addBindValue(run.recordName);
    if (!q.exec())
        return 3;
    const qint64 runId = q.lastInsertId().toLongLong();
    // The chunks go through the store's own sink, but committed every 1000 blocks.
    ExpertLoadSink sink(db, runId, 0);
    int n = 0;
    for (const ExpertLoadBlock& b : run.expertLoad) {
        if (!sink.add(b.step, b.layer,
                      std::span<const quint32>(b.tokensPerExpert.constData(), std::size_t(b.tokensPerExpert.size()))))
            return 4;
        if (++n % 1000 == 0) {
            if (!sink.finish())
                return 4;
            q.exec(QStringLiteral("COMMIT"));
            if (n == 1000)
                say("begun");
            q.exec(QStringLiteral("BEGIN IMMEDIATE"));
        }
    }
    if (!sink.finish())
        return 4;
    q.exec(QStringLiteral("COMMIT"));
    say("committed 0");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 3 && args[2] == QLatin1String("--open")) {
        QElapsedTimer opening;
        opening.start();
        say("begun");
        auto opened = ProjectStore::open(args[1], OpenMode::MustExist);
        if (!opened) {
            std::fprintf(stderr, "%s\n", qPrintable(opened.error().text()));
            return 1;
        }
        say("opened " + QByteArray::number(opening.elapsed()));
        return 0;
    }
    if (args.size() < 4) {
        std::fprintf(stderr, "usage: store_import_child <project> (<run-name> <steps> [--split-commits] | --open)\n");
        return 64;
    }
    const RunData run = testing::makeLargeRun(args[2], QStringLiteral("rec"), args[3].toInt());
    if (args.contains(QStringLiteral("--split-commits")))
        return splitCommits(args[1], run);

    auto store = ProjectStore::open(args[1], OpenMode::MustExist);
    if (!store) {
        std::fprintf(stderr, "%s\n", qPrintable(store.error().text()));
        return 1;
    }
    // A kill point given as a fraction of the import, not as a time, lands inside
    // the transaction however fast or loaded the machine is.
    const qsizetype at = args.indexOf(QStringLiteral("--announce-at"));
    const double announceAt = at > 0 && at + 1 < args.size() ? args[at + 1].toDouble() : 2.0;
    QElapsedTimer timer;
    bool announced = false;
    bool reachedPoint = false;
    auto saved = (*store)->saveRun(run, [&](double fraction) {
        if (!announced) { // the first call comes right after BEGIN
            announced = true;
            timer.start();
            say("begun");
        }
        if (!reachedPoint && fraction >= announceAt) {
            reachedPoint = true;
            say("at");
        }
        return true;
    });
    if (!saved) {
        std::fprintf(stderr, "%s\n", qPrintable(saved.error().text()));
        return 1;
    }
    say("committed " + QByteArray::number(timer.elapsed()));
    return 0;
}
