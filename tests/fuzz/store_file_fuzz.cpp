// libFuzzer target for the store's readers through a real project file
// (tests/fuzz/run-fuzzers.sh; docs/store.md, "Reading a project from someone else").
// Once per process a small project is written by the store itself: a config record,
// a run with expert load (2 layers × 300 steps × 4 experts: chunks, summaries and
// totals), step anatomy, a verdict with its basis and an override. Each input is a
// crafted change to a copy of that file, made with plain SQL as someone altering a
// project would make it:
//   byte 0 % 8: what to change — 0 a chunk row, 1 a summary row, 2 a totals row (each
//     its layer, first/last step, steps, experts, codec, and its blob), 3 the verdict's
//     basis and reasons (JSON text), 4 the run's environment (JSON text), 5 the run's
//     name, 6 a step-anatomy row, 7 a new chunk row beside the others;
//   byte 1: flags — bit 0 header varints in front of the blob, bit 1 the blob
//     zstd-compressed, bit 2 the totals rows deleted;
//   then the row's values (StoreFuzzInput.h: kept, small, 32- or 64-bit), then the blob
//   or text.
// Then the project is opened with ProjectStore and every reader runs: runs, expert
// load (whole, one step, one layer, a window), summary, totals, traffic's load window,
// anatomy, verdicts, overrides. Nothing may crash, and what comes back must fit the
// format's bounds.
#include "StoreFuzzInput.h"
#include "store/ExpertLoadCodec.h"
#include "store/NameRules.h"
#include "store/ProjectStore.h"
#include "traffic/LoadWindow.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cmath>
#include <cstdlib>
#include <memory>

using namespace moewb;

namespace {

struct Base {
    std::unique_ptr<QCoreApplication> app;
    std::unique_ptr<QTemporaryDir> dir;
    QByteArray file; // the project, as the store wrote it
    QString work;
};

void quiet(QtMsgType, const QMessageLogContext&, const QString&) {}

Base& base() {
    static Base b = [] {
        Base b;
        static int argc = 1;
        static char name[] = "store_file_fuzz";
        static char* argv[] = {name, nullptr};
        b.app = std::make_unique<QCoreApplication>(argc, argv);
        qInstallMessageHandler(quiet); // the readers log what they leave out
        // In memory where the system has it: every input writes the file anew, and
        // SQLite's syncs then cost nothing.
        b.dir = QDir(QStringLiteral("/dev/shm")).exists()
                    ? std::make_unique<QTemporaryDir>(QStringLiteral("/dev/shm/store_file_fuzz-XXXXXX"))
                    : std::make_unique<QTemporaryDir>();
        const QString path = b.dir->filePath(QStringLiteral("base.moewb"));
        {
            auto opened = store::ProjectStore::open(path);
            if (!opened)
                abort();
            auto& s = *opened;
            if (!s->addConfigRecord(QStringLiteral("rec"), QJsonObject{{"parallelism", QJsonObject{{"ep", 2}}}}, true))
                abort();
            store::RunData run;
            run.name = QStringLiteral("run-a");
            run.kind = store::RunKind::Training;
            run.recordName = QStringLiteral("rec");
            run.environment = QJsonObject{{"trace_ranks", QJsonArray{0, 1}}, {"trace_world_size", 2}};
            for (int step = 0; step < 300; ++step)
                for (int layer = 0; layer < 2; ++layer)
                    run.expertLoad.append(store::ExpertLoadBlock{
                        step, layer,
                        {quint32(step % 7), quint32(layer + 3), quint32((step * layer) % 11), quint32(step / 3)}});
            for (int step = 0; step < 4; ++step)
                for (int rank = 0; rank < 2; ++rank)
                    run.anatomy.rows.append(store::RankStepAnatomy{step, rank, 10, 6, 2, 1, 1, 0, 1, 0, 1, 8});
            run.anatomy.a2a.append(store::A2aCallRow{1, QStringLiteral("ep"), 2, 4096, 1.5, 2.0, QStringLiteral("all_to_all"), false});
            if (!s->saveRun(run))
                abort();
            const auto id = s->run(run.name)->id;
            if (!s->saveVerdict({3, QStringLiteral("stop"), QJsonArray{QStringLiteral("a reason")}, {},
                                 QJsonObject{{"selection", "default"},
                                             {"runs", QJsonArray{QJsonObject{{"name", "run-a"}, {"id", id}}}}}}) ||
                !s->addOverride({0, 3, QStringLiteral("we go on"), QStringLiteral("me"), {}}))
                abort();
        }
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            abort();
        b.file = f.readAll();
        b.work = b.dir->filePath(QStringLiteral("work.moewb"));
        return b;
    }();
    return b;
}

void change(const QString& path, fuzz::StoreInput& in) {
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("fuzz"));
    db.setDatabaseName(path);
    if (!db.open())
        abort();
    QSqlQuery(db).exec(QStringLiteral("PRAGMA synchronous = OFF"));
    const std::uint8_t what = in.byte() % 8;
    const std::uint8_t flags = in.byte();
    QSqlQuery q(db);
    const auto bindValue = [&q](int i, const std::optional<std::int64_t>& v, const QVariant& otherwise) {
        q.bindValue(i, v ? QVariant(qlonglong(*v)) : otherwise);
    };
    if (what <= 2 || what == 7) {
        static const char* const tables[] = {"expert_load_chunk", "expert_load_summary", "expert_load_totals"};
        static const char* const blobs[] = {"counts", "data", "totals"};
        const int t = what == 7 ? 0 : what;
        const auto layer = in.value(), first = in.value(), last = in.value(), steps = in.value(),
                   experts = in.value(), codec = in.value();
        const QByteArray blob = fuzz::wrappedBlob(in.rest(), flags, steps.value_or(256),
                                                  t == 1 ? (flags >> 3) & 3 : experts.value_or(4));
        if (what == 7) {
            q.prepare(QStringLiteral("INSERT OR REPLACE INTO expert_load_chunk VALUES (1, ?, ?, ?, ?, ?, ?, ?)"));
            bindValue(0, layer, 5);
            bindValue(1, first, 1000);
            bindValue(2, last, 1255);
            bindValue(3, steps, 256);
            bindValue(4, experts, 4);
            bindValue(5, codec, 1);
            q.bindValue(6, blob);
        } else {
            // The second chunk of layer 1 (steps 256–299).
            q.prepare(QStringLiteral("UPDATE %1 SET layer = coalesce(?, layer), first_step = coalesce(?, first_step), "
                                     "last_step = coalesce(?, last_step), steps = coalesce(?, steps), experts = "
                                     "coalesce(?, experts), codec = coalesce(?, codec), %2 = ? WHERE layer = 1 AND "
                                     "first_step = 256")
                          .arg(QLatin1String(tables[t]), QLatin1String(blobs[t])));
            const QVariant null{QMetaType(QMetaType::LongLong)};
            bindValue(0, layer, null);
            bindValue(1, first, null);
            bindValue(2, last, null);
            bindValue(3, steps, null);
            bindValue(4, experts, null);
            bindValue(5, codec, null);
            q.bindValue(6, blob);
        }
        q.exec();
    } else if (what == 3) {
        const QString text = QString::fromUtf8(in.rest());
        q.prepare(QStringLiteral("UPDATE verdict SET basis = ?, reasons = ?"));
        q.bindValue(0, text);
        q.bindValue(1, flags & 1 ? text : QStringLiteral("[\"%1\"]").arg(text));
        q.exec();
    } else if (what == 4) {
        q.prepare(QStringLiteral("UPDATE run SET environment = ?"));
        q.bindValue(0, QString::fromUtf8(in.rest()));
        q.exec();
    } else if (what == 5) {
        const QByteArray bytes = in.rest();
        q.prepare(QStringLiteral("UPDATE run SET name = ?"));
        q.bindValue(0, flags & 1 ? QString::fromUtf8(bytes).repeated(1 + (flags >> 1)) : QString::fromUtf8(bytes));
        q.exec();
    } else {
        const auto step = in.value(), rank = in.value();
        double times[10];
        for (double& t : times) {
            const auto v = in.value();
            t = v ? double(*v) / 3.0 : 1.0;
        }
        q.prepare(QStringLiteral("INSERT OR REPLACE INTO step_anatomy VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        bindValue(0, step, 2);
        bindValue(1, rank, 5);
        for (int i = 0; i < 10; ++i)
            q.bindValue(2 + i, times[i]);
        q.exec();
    }
    if (flags & 4)
        q.exec(QStringLiteral("DELETE FROM expert_load_totals"));
    q.finish();
    db.close();
}

void check(bool ok) {
    if (!ok)
        abort();
}

void readEverything(const store::ProjectStore& s) {
    for (const store::RunRow& r : s.runs()) {
        check(r.name.size() <= store::kMaxNameLength);
        QStringList problems;
        const auto blocks = s.expertLoad(r.id, {}, {}, &problems);
        for (const store::ExpertLoadBlock& b : blocks)
            check(b.layer >= 0 && b.layer <= store::kMaxLayer && !b.tokensPerExpert.isEmpty() &&
                  b.tokensPerExpert.size() <= store::kMaxChunkExperts);
        for (const QString& p : problems)
            check(!p.isEmpty());
        s.expertLoad(r.id, 260, {}, &problems);
        s.expertLoad(r.id, {}, 1, &problems);
        s.expertLoadRange(r.id, 200, 280, {}, &problems);
        for (const store::ExpertLoadSummaryRow& row : s.expertLoadSummary(r.id, {}, {}, &problems))
            check(row.layer >= 0 && row.layer <= store::kMaxLayer && row.max <= row.sum && row.argmax < row.experts);
        const store::ExpertLoadTotals all = s.expertLoadTotals(r.id, {}, {}, nullptr, &problems);
        for (const auto& row : all.perLayer)
            check(int(row.size()) == all.experts);
        s.expertLoadTotals(r.id, 100, 270, nullptr, &problems);
        const auto loads = traffic::sumLoadWindow(s, r.id, traffic::StepWindow{});
        check(loads.hasValue() || !loads.error().isEmpty());
        const store::RunAnatomy a = s.runAnatomy(r.id);
        for (const store::RankStepAnatomy& row : a.rows)
            check(row.rank >= 0 && row.step >= 0 && std::isfinite(row.stepUs) && row.stepUs >= 0);
    }
    for (const store::VerdictRow& v : s.verdicts())
        for (const QJsonValue& reason : v.reasons)
            check(reason.toString().size() <= 4096);
    for (const store::OverrideRow& o : s.overrides())
        check(o.justification.size() <= 4096);
    s.configRecords();
    s.thresholds();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Base& b = base();
    QFile::remove(b.work + QStringLiteral("-wal"));
    QFile::remove(b.work + QStringLiteral("-shm"));
    {
        QFile f(b.work);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(b.file) != b.file.size())
            abort();
    }
    fuzz::StoreInput in(data, size);
    change(b.work, in);
    QSqlDatabase::removeDatabase(QStringLiteral("fuzz"));
    if (auto opened = store::ProjectStore::open(b.work, store::OpenMode::MustExist))
        readEverything(**opened);
    return 0;
}
