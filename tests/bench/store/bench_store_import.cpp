// Import of a training run's expert load, 10,000 steps x 32 layers x 64 experts by
// default, through ProjectStore::saveRun (one blob per step and layer), against
// the named baseline "row-per-expert": the same counts as one row per
// (step, layer, expert) -- schema v1's layout -- written with the same Qt Sql
// prepared statements, pragmas and single transaction. Prints times, file sizes
// and the ratios.
//
//   bench_store_import [--steps N] [--layers L] [--experts E] [--dir DIR] [--no-baseline]
#include "store/ProjectStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cstdio>

using namespace moewb::store;

namespace {

qint64 fileBytes(const QString& path) {
    qint64 total = 0;
    for (const char* suffix : {"", "-wal", "-shm"})
        total += QFileInfo(path + QLatin1String(suffix)).size();
    return total;
}

double mib(qint64 bytes) {
    return double(bytes) / (1024.0 * 1024.0);
}

struct Result {
    double writeS = 0, readS = 0;
    qint64 bytes = 0;
};

Result benchBlobs(const QString& path, const RunData& run) {
    Result r;
    {
        auto store = ProjectStore::open(path);
        if (!store || !(*store)->addConfigRecord(QStringLiteral("bench"), {}, true)) {
            std::fprintf(stderr, "cannot create %s\n", qPrintable(path));
            std::exit(1);
        }
        QElapsedTimer t;
        t.start();
        const auto id = (*store)->saveRun(run);
        r.writeS = t.nsecsElapsed() / 1e9;
        if (!id) {
            std::fprintf(stderr, "%s\n", qPrintable(id.error().text()));
            std::exit(1);
        }
        t.start();
        const QVector<ExpertLoadBlock> back = (*store)->expertLoad(*id);
        r.readS = t.nsecsElapsed() / 1e9;
        if (back.size() != run.expertLoad.size() ||
            back.last().tokensPerExpert != run.expertLoad.last().tokensPerExpert) {
            std::fprintf(stderr, "read back differs\n");
            std::exit(1);
        }
    } // closing the last connection checkpoints the WAL into the file
    r.bytes = fileBytes(path);
    return r;
}

Result benchRowPerExpert(const QString& path, const RunData& run) {
    Result r;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("baseline"));
        db.setDatabaseName(path);
        db.open();
        QSqlQuery q(db);
        q.exec(QStringLiteral("PRAGMA journal_mode = WAL"));
        q.exec(QStringLiteral("PRAGMA synchronous = FULL"));
        q.exec(QStringLiteral("CREATE TABLE expert_load (run_id INTEGER NOT NULL, step INTEGER NOT NULL, "
                              "layer INTEGER NOT NULL, expert INTEGER NOT NULL, tokens INTEGER NOT NULL, "
                              "PRIMARY KEY (run_id, step, layer, expert)) WITHOUT ROWID"));
        QElapsedTimer t;
        t.start();
        q.exec(QStringLiteral("BEGIN IMMEDIATE"));
        QSqlQuery insert(db);
        insert.prepare(QStringLiteral("INSERT INTO expert_load VALUES (1, ?, ?, ?, ?)"));
        for (const ExpertLoadBlock& b : run.expertLoad)
            for (int e = 0; e < b.tokensPerExpert.size(); ++e) {
                insert.bindValue(0, b.step);
                insert.bindValue(1, b.layer);
                insert.bindValue(2, e);
                insert.bindValue(3, qint64(b.tokensPerExpert[e]));
                if (!insert.exec()) {
                    std::fprintf(stderr, "baseline insert failed\n");
                    std::exit(1);
                }
            }
        q.exec(QStringLiteral("COMMIT"));
        r.writeS = t.nsecsElapsed() / 1e9;

        t.start();
        QSqlQuery read(db);
        read.setForwardOnly(true);
        read.exec(QStringLiteral("SELECT step, layer, expert, tokens FROM expert_load WHERE run_id = 1 "
                                 "ORDER BY step, layer, expert"));
        QVector<ExpertLoadBlock> back;
        back.reserve(run.expertLoad.size());
        while (read.next()) {
            const qint64 step = read.value(0).toLongLong();
            const int layer = read.value(1).toInt();
            if (back.isEmpty() || back.last().step != step || back.last().layer != layer)
                back.append(ExpertLoadBlock{step, layer, {}});
            back.last().tokensPerExpert.append(quint32(read.value(3).toLongLong()));
        }
        r.readS = t.nsecsElapsed() / 1e9;
        if (back.size() != run.expertLoad.size()) {
            std::fprintf(stderr, "baseline read back differs\n");
            std::exit(1);
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("baseline"));
    r.bytes = fileBytes(path);
    return r;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Expert-load import benchmark of the project store"));
    parser.addHelpOption();
    parser.addOptions(
        {{QStringLiteral("steps"), QStringLiteral("training steps"), QStringLiteral("N"),
          QStringLiteral("10000")},
         {QStringLiteral("layers"), QStringLiteral("MoE layers"), QStringLiteral("L"), QStringLiteral("32")},
         {QStringLiteral("experts"), QStringLiteral("experts per layer"), QStringLiteral("E"),
          QStringLiteral("64")},
         {QStringLiteral("dir"), QStringLiteral("folder for the files (default: a temporary one)"),
          QStringLiteral("DIR")},
         {QStringLiteral("no-baseline"), QStringLiteral("skip the row-per-expert baseline")}});
    parser.process(app);
    const int steps = parser.value(QStringLiteral("steps")).toInt();
    const int layers = parser.value(QStringLiteral("layers")).toInt();
    const int experts = parser.value(QStringLiteral("experts")).toInt();

    QTemporaryDir tmp;
    const QString dir =
        parser.isSet(QStringLiteral("dir")) ? parser.value(QStringLiteral("dir")) : tmp.path();

    RunData run;
    run.name = QStringLiteral("bench");
    run.kind = RunKind::Training;
    run.recordName = QStringLiteral("bench");
    run.expertLoad.reserve(qsizetype(steps) * layers);
    quint32 x = 2463534242u; // xorshift: counts that do not compress to nothing
    for (int s = 0; s < steps; ++s)
        for (int l = 0; l < layers; ++l) {
            ExpertLoadBlock b{s, l, QVector<quint32>(experts)};
            for (int e = 0; e < experts; ++e) {
                x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                b.tokensPerExpert[e] = 2048 + x % 4096;
            }
            run.expertLoad.append(std::move(b));
        }
    const qint64 counts = qint64(steps) * layers * experts;
    std::printf("expert load: %d steps x %d layers x %d experts = %lld counts (%.1f MiB raw uint32)\n", steps,
                layers, experts, counts, mib(counts * 4));

    const Result blob = benchBlobs(dir + QStringLiteral("/blob.moewb"), run);
    std::printf("blob-per-step-layer (ProjectStore::saveRun): write %.2f s, read %.2f s, file %.1f MiB (%.2f "
                "bytes/count)\n",
                blob.writeS, blob.readS, mib(blob.bytes), double(blob.bytes) / double(counts));
    if (parser.isSet(QStringLiteral("no-baseline")))
        return 0;
    const Result rows = benchRowPerExpert(dir + QStringLiteral("/rows.moewb"), run);
    std::printf("baseline row-per-expert:                   write %.2f s, read %.2f s, file %.1f MiB (%.2f "
                "bytes/count)\n",
                rows.writeS, rows.readS, mib(rows.bytes), double(rows.bytes) / double(counts));
    std::printf("blob vs baseline: write %.1fx faster, read %.1fx faster, file %.1fx smaller\n",
                rows.writeS / blob.writeS, rows.readS / blob.readS, double(rows.bytes) / double(blob.bytes));
    return 0;
}
