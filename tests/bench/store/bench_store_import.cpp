// Import of a training run's expert load, 10,000 steps x 32 layers x 64 experts by
// default, through ProjectStore::saveRun (schema 5: compressed chunks per layer and
// 256 steps, with their summary), against two named baselines written with the same
// Qt Sql prepared statements, pragmas and single transaction:
//   "blob-per-step-layer": schema 2-4's layout, one raw uint32 blob per (step, layer);
//   "row-per-expert":      schema 1's layout, one row per (step, layer, expert).
// Prints times, file sizes, bytes per count, MB/s of raw uint32 counts and the ratios.
//
// --pattern router (default): counts as a learned router makes them (the model of
//   tests/bench/gen/gen_tpe_jsonl.py: per-layer log-normal expert popularity drifting as
//   an AR(1) walk over steps, Poisson-like noise around each expert's share, 4,096
//   assignments per expert on average);
// --pattern random: independent uniform counts in 2048..6143 (nothing to predict: the
//   worst case for any delta coding).
//
//   bench_store_import [--steps N] [--layers L] [--experts E] [--pattern router|random]
//                      [--dir DIR] [--no-baseline]
//
// --import FILE --record RECORD.json: instead, `moewb import`'s pipeline end to end on
// FILE (runimport::collectImportFiles, planImport, toRunData, ProjectStore::saveRun
// with its commit) into a new project holding RECORD, each phase timed, with the file's
// MB/s, the project's bytes per count and the process's peak RSS (e.g. a file from
// tests/bench/gen/gen_tpe_jsonl.py and its --record). A streamed plan (one expert-load
// JSONL file, docs/formats.md "Memory") is also parsed alone, its counts summed and
// dropped (the Stream pass on one thread, nothing stored), before the import.
#include "importers/ExpertLoadJsonl.h"
#include "importers/JsonlExpertLoadImporter.h"
#include "importers/MegatronTpeJsonlImporter.h"
#include "record/RecordJson.h"
#include "runimport/RunImport.h"
#include "store/ExpertLoadCodec.h"
#include "store/ProjectStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <random>
#include <sys/resource.h>

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
        if (!store || !(*store)->addConfigRecord(QStringLiteral("bench"), QJsonObject{{"parallelism", QJsonObject{{"ep", 8}}}}, true)) {
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

Result benchBlobPerStepLayer(const QString& path, const RunData& run) {
    Result r;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("blobs"));
        db.setDatabaseName(path);
        db.open();
        QSqlQuery q(db);
        q.exec(QStringLiteral("PRAGMA journal_mode = WAL"));
        q.exec(QStringLiteral("PRAGMA synchronous = FULL"));
        q.exec(QStringLiteral("CREATE TABLE expert_load (run_id INTEGER NOT NULL, step INTEGER NOT NULL, "
                              "layer INTEGER NOT NULL, experts INTEGER NOT NULL, codec INTEGER NOT NULL DEFAULT 0, "
                              "counts BLOB NOT NULL, PRIMARY KEY (run_id, step, layer)) WITHOUT ROWID"));
        QElapsedTimer t;
        t.start();
        q.exec(QStringLiteral("BEGIN IMMEDIATE"));
        QSqlQuery insert(db);
        insert.prepare(QStringLiteral("INSERT INTO expert_load VALUES (1, ?, ?, ?, 0, ?)"));
        for (const ExpertLoadBlock& b : run.expertLoad) {
            insert.bindValue(0, b.step);
            insert.bindValue(1, b.layer);
            insert.bindValue(2, int(b.tokensPerExpert.size()));
            insert.bindValue(3, encodeExpertLoad(b.tokensPerExpert));
            if (!insert.exec()) {
                std::fprintf(stderr, "blob baseline insert failed\n");
                std::exit(1);
            }
        }
        q.exec(QStringLiteral("COMMIT"));
        r.writeS = t.nsecsElapsed() / 1e9;
        t.start();
        QSqlQuery read(db);
        read.setForwardOnly(true);
        read.exec(QStringLiteral("SELECT step, layer, counts FROM expert_load WHERE run_id = 1 ORDER BY step, layer"));
        qsizetype n = 0;
        while (read.next())
            n += decodeExpertLoad(0, read.value(2).toByteArray()) ? 1 : 0;
        r.readS = t.nsecsElapsed() / 1e9;
        if (n != run.expertLoad.size()) {
            std::fprintf(stderr, "blob baseline read back differs\n");
            std::exit(1);
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("blobs"));
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

long peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

int benchImport(const QString& file, const QString& recordPath, const QString& dir) {
    QFile recordFile(recordPath);
    if (!recordFile.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(recordPath));
        return 1;
    }
    const moewb::record::ParsedRecord parsed = moewb::record::parseRecord(recordFile.readAll());
    if (!parsed.issues.isEmpty()) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(recordPath), qPrintable(parsed.issues.first().message));
        return 1;
    }
    const QString project = dir + QStringLiteral("/import.moewb");
    auto store = ProjectStore::open(project);
    if (!store || !(*store)->addConfigRecord(QStringLiteral("rec"), parsed.record.toJson(), true)) {
        std::fprintf(stderr, "cannot create %s\n", qPrintable(project));
        return 1;
    }
    const qint64 fileBytes_ = QFileInfo(file).size();
    QElapsedTimer total, t;
    total.start();
    t.start();
    moewb::runimport::ImportOptions options;
    auto collected = moewb::runimport::collectImportFiles({file}, options);
    if (!collected) {
        std::fprintf(stderr, "%s\n", qPrintable(collected.error().text()));
        return 1;
    }
    auto plan = moewb::runimport::planImport(*collected, parsed.record, options);
    if (!plan) {
        std::fprintf(stderr, "%s\n", qPrintable(plan.error().first().text()));
        return 1;
    }
    const double planS = t.nsecsElapsed() / 1e9;
    const long planRss = peakRssMiB();
    qint64 counts = plan->expertLoadRows() * plan->expertLoadWidth();
    double parseS = -1;
    quint64 parsedSum = 0;
    if (plan->streamedLoad) {
        namespace im = moewb::importers;
        const bool tpe = plan->streamedLoad->format == QLatin1String(im::MegatronTpeJsonlImporter::kFormat);
        const im::ExpertLoadJsonlLayout layout =
            tpe ? im::ExpertLoadJsonlLayout{im::MegatronTpeJsonlImporter::kFormat, "iter", "tpe", true, true}
                : im::ExpertLoadJsonlLayout{im::JsonlExpertLoadImporter::kFormat, "step", "tokens", false};
        im::ExpertLoadJsonlPass pass;
        pass.mode = im::ExpertLoadJsonlPass::Mode::Stream;
        pass.rows = plan->streamedLoad->rows;
        pass.experts = plan->streamedLoad->experts;
        pass.dropped = plan->streamedLoad->droppedLines;
        pass.row = [&](qint64, int, std::span<const quint32> row) {
            for (quint32 v : row)
                parsedSum += v;
            return true;
        };
        QFile in(file);
        if (!in.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "cannot read %s\n", qPrintable(file));
            return 1;
        }
        QElapsedTimer p;
        p.start();
        const auto parsedAlone = im::parseExpertLoadJsonl(in, in.size(), file, layout, pass);
        parseS = p.nsecsElapsed() / 1e9;
        if (!parsedAlone) {
            std::fprintf(stderr, "%s\n", qPrintable(parsedAlone.error().text()));
            return 1;
        }
        total.start(); // the import's own time from here (the plan's is added below)
    }
    const qint64 planNs = qint64(planS * 1e9);
    t.start();
    const RunData run = moewb::runimport::toRunData(std::move(*plan), QStringLiteral("bench"), QStringLiteral("rec"));
    const auto id = (*store)->saveRun(run);
    const double saveS = t.nsecsElapsed() / 1e9;
    const double totalS = parseS >= 0 ? (total.nsecsElapsed() + planNs) / 1e9 : total.nsecsElapsed() / 1e9;
    if (!id) {
        std::fprintf(stderr, "%s\n", qPrintable(id.error().text()));
        return 1;
    }
    (*store).reset(); // closing checkpoints the WAL into the file
    const qint64 bytes = fileBytes(project);
    std::printf("import %s: %.1f MB, %lld counts\n", qPrintable(file), double(fileBytes_) / 1e6, counts);
    std::printf("  parse + merge (planImport): %.2f s (%.0f MB/s), peak RSS so far %ld MiB\n", planS,
                double(fileBytes_) / 1e6 / planS, planRss);
    if (parseS >= 0)
        std::printf("  streamed: parse alone (Stream pass, one thread, counts summed: %llu): %.2f s (%.0f MB/s)\n",
                    static_cast<unsigned long long>(parsedSum), parseS, double(fileBytes_) / 1e6 / parseS);
    std::printf("  store + commit (saveRun%s): %.2f s\n", parseS >= 0 ? ", the counts streamed from the file" : "",
                saveS);
    std::printf("  end to end: %.2f s = %.0f MB/s; project %.1f MiB = %.2f bytes/count; peak RSS %ld MiB\n", totalS,
                double(fileBytes_) / 1e6 / totalS, mib(bytes), double(bytes) / double(std::max<qint64>(counts, 1)),
                peakRssMiB());
    return 0;
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
         {QStringLiteral("pattern"), QStringLiteral("router (default) or random"), QStringLiteral("P"),
          QStringLiteral("router")},
         {QStringLiteral("dir"), QStringLiteral("folder for the files (default: a temporary one)"),
          QStringLiteral("DIR")},
         {QStringLiteral("no-baseline"), QStringLiteral("skip both baselines")},
         {QStringLiteral("import"), QStringLiteral("import FILE end to end instead"), QStringLiteral("FILE")},
         {QStringLiteral("record"), QStringLiteral("the config record (JSON) for --import"), QStringLiteral("RECORD")},
         {QStringLiteral("no-row-baseline"), QStringLiteral("skip the minute-long row-per-expert baseline")}});
    parser.process(app);
    const int steps = parser.value(QStringLiteral("steps")).toInt();
    const int layers = parser.value(QStringLiteral("layers")).toInt();
    const int experts = parser.value(QStringLiteral("experts")).toInt();

    QTemporaryDir tmp;
    const QString dir =
        parser.isSet(QStringLiteral("dir")) ? parser.value(QStringLiteral("dir")) : tmp.path();

    if (parser.isSet(QStringLiteral("import")))
        return benchImport(parser.value(QStringLiteral("import")), parser.value(QStringLiteral("record")), dir);

    RunData run;
    run.name = QStringLiteral("bench");
    run.kind = RunKind::Training;
    run.recordName = QStringLiteral("bench");
    run.expertLoad.reserve(qsizetype(steps) * layers);
    const bool random = parser.value(QStringLiteral("pattern")) == QLatin1String("random");
    quint32 x = 2463534242u; // xorshift: counts that do not compress to nothing
    std::mt19937_64 rng(1);
    std::normal_distribution<double> normal(0.0, 1.0);
    // Router pattern: per layer a spread of popularity (log-normal, sigma 0.2-0.6), a
    // few hot experts in a third of the layers, each expert's log-popularity an AR(1)
    // walk over steps; counts = share x 4096 x E with sqrt-of-mean noise.
    std::vector<double> logPop(std::size_t(layers) * std::size_t(experts));
    std::vector<double> sigma(static_cast<std::size_t>(layers));
    for (int l = 0; l < layers; ++l) {
        sigma[std::size_t(l)] = 0.2 + 0.4 * double(l % 7) / 6.0;
        for (int e = 0; e < experts; ++e)
            logPop[std::size_t(l) * experts + e] =
                sigma[std::size_t(l)] * normal(rng) + (l % 3 == 0 && e < 1 + l % 3 ? std::log(3.0) : 0.0);
    }
    std::vector<double> share(static_cast<std::size_t>(experts));
    const double assignments = 4096.0 * experts;
    for (int s = 0; s < steps; ++s)
        for (int l = 0; l < layers; ++l) {
            ExpertLoadBlock b{s, l, QVector<quint32>(experts)};
            if (random) {
                for (int e = 0; e < experts; ++e) {
                    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                    b.tokensPerExpert[e] = 2048 + x % 4096;
                }
            } else {
                double total = 0;
                for (int e = 0; e < experts; ++e) {
                    double& z = logPop[std::size_t(l) * experts + e];
                    z = 0.995 * z + 0.01 * sigma[std::size_t(l)] * normal(rng);
                    share[std::size_t(e)] = std::exp(z);
                    total += share[std::size_t(e)];
                }
                for (int e = 0; e < experts; ++e) {
                    const double mean = assignments * share[std::size_t(e)] / total;
                    b.tokensPerExpert[e] = quint32(std::max(0.0, std::round(mean + std::sqrt(mean) * normal(rng))));
                }
            }
            run.expertLoad.append(std::move(b));
        }
    const qint64 counts = qint64(steps) * layers * experts;
    std::printf("expert load: %d steps x %d layers x %d experts = %lld counts (%.1f MiB raw uint32)\n", steps,
                layers, experts, counts, mib(counts * 4));

    const double rawMB = double(counts) * 4 / 1e6;
    std::printf("pattern: %s\n", random ? "random (uniform 2048..6143)" : "router (drifting popularity, Poisson-like noise)");
    const Result chunk = benchBlobs(dir + QStringLiteral("/chunks.moewb"), run);
    std::printf("chunks (ProjectStore::saveRun, schema 5): write %.2f s (%.0f MB/s raw uint32), read %.2f s, "
                "file %.1f MiB (%.2f bytes/count)\n",
                chunk.writeS, rawMB / chunk.writeS, chunk.readS, mib(chunk.bytes), double(chunk.bytes) / double(counts));
    if (parser.isSet(QStringLiteral("no-baseline")))
        return 0;
    const Result blob = benchBlobPerStepLayer(dir + QStringLiteral("/blob.moewb"), run);
    std::printf("baseline blob-per-step-layer (schema 4): write %.2f s (%.0f MB/s), read %.2f s, file %.1f MiB "
                "(%.2f bytes/count)\n",
                blob.writeS, rawMB / blob.writeS, blob.readS, mib(blob.bytes), double(blob.bytes) / double(counts));
    std::printf("chunks vs blob-per-step-layer: write %.1fx faster, read %.1fx faster, file %.1fx smaller\n",
                blob.writeS / chunk.writeS, blob.readS / chunk.readS, double(blob.bytes) / double(chunk.bytes));
    if (parser.isSet(QStringLiteral("no-row-baseline")))
        return 0;
    const Result rows = benchRowPerExpert(dir + QStringLiteral("/rows.moewb"), run);
    std::printf("baseline row-per-expert (schema 1):      write %.2f s (%.0f MB/s), read %.2f s, file %.1f MiB (%.2f "
                "bytes/count)\n",
                rows.writeS, rawMB / rows.writeS, rows.readS, mib(rows.bytes), double(rows.bytes) / double(counts));
    std::printf("chunks vs row-per-expert: write %.1fx faster, read %.1fx faster, file %.1fx smaller\n",
                rows.writeS / chunk.writeS, rows.readS / chunk.readS, double(rows.bytes) / double(chunk.bytes));
    return 0;
}
