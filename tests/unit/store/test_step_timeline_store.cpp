// Table step_timeline (schema v8, docs/store.md "Step timeline"): timelines saved with a
// run read back interval for interval, one step at a time; replacing or removing the run
// takes them along; and the blob decoder refuses hostile blobs (a frame claiming more
// than the bounds, counts past the bytes, classes and label indices out of range, a
// blob cut at every byte) without reading past them.
#include "store/ProjectStore.h"
#include "store/TimelineCodec.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <zstd.h>

using namespace moewb::store;

namespace {

RankStepTimeline sample(qint64 step, int rank, int intervals) {
    RankStepTimeline t;
    t.step = step;
    t.rank = rank;
    t.stepStartNs = 1000 * rank;
    t.stepEndNs = 16'000'000 + 1000 * rank;
    t.labels = {QStringLiteral("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"),
                QStringLiteral("7 · EXPERT_MODEL_PARALLEL_GROUP"), QStringLiteral("专家并行 dispatch")};
    for (int i = 0; i < intervals; ++i) {
        TimelineInterval v;
        v.startNs = qint64(i) * 1000 + rank;
        v.endNs = v.startNs + 500 + i % 7;
        v.cls = TimelineClass(i % kTimelineClasses);
        v.callClass = v.cls == TimelineClass::Waiting ? TimelineClass::Combine : v.cls;
        v.name = i % 3 == 0 ? -1 : i % 3 - 1 + (i % 2);
        v.group = i % 2 ? 1 : -1;
        v.bytes = i % 5 ? qint64(i) << 20 : -1;
        v.seq = i % 4 ? i : -1;
        t.intervals << v;
    }
    t.dropped = rank == 2 ? 12345 : 0;
    return t;
}

QByteArray zstd(const QByteArray& raw) {
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(raw.size()))), Qt::Uninitialized);
    const std::size_t n = ZSTD_compress(out.data(), std::size_t(out.size()), raw.constData(), std::size_t(raw.size()), 1);
    out.truncate(qsizetype(n));
    return out;
}

QByteArray unzstd(const QByteArray& blob) {
    QByteArray raw(qsizetype(ZSTD_getFrameContentSize(blob.constData(), std::size_t(blob.size()))), Qt::Uninitialized);
    ZSTD_decompress(raw.data(), std::size_t(raw.size()), blob.constData(), std::size_t(blob.size()));
    return raw;
}

template <typename T> void poke(QByteArray& raw, qsizetype at, T v) {
    qToLittleEndian(v, raw.data() + at);
}

bool decodes(const QByteArray& blob, QString* why = nullptr) {
    RankStepTimeline t;
    QString w;
    const bool ok = decodeTimeline(blob, t, &w);
    if (why)
        *why = w;
    return ok;
}

} // namespace

class TestStepTimelineStore : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void savedWithTheRunAndReadOneStepAtATime() {
        const QString path = m_dir.filePath(QStringLiteral("timeline.moewb"));
        auto opened = ProjectStore::open(path);
        QVERIFY(opened);
        ProjectStore& s = **opened;
        QVERIFY(s.addConfigRecord(QStringLiteral("r"), {}, false));
        RunData run;
        run.name = QStringLiteral("traced");
        run.kind = RunKind::Imported;
        run.recordName = QStringLiteral("r");
        for (qint64 step : {5, 6})
            for (int rank = 0; rank < 3; ++rank) {
                RankStepAnatomy row;
                row.step = step;
                row.rank = rank;
                row.stepUs = 16000;
                run.anatomy.rows << row;
                run.anatomy.timeline << sample(step, rank, step == 5 ? 2000 : kTimelineMaxIntervals);
            }
        const auto id = s.saveRun(run);
        QVERIFY2(id, qPrintable(id ? QString() : id.error().text()));
        QCOMPARE(s.timelineExtent(*id).steps, QVector<qint64>({5, 6}));
        QCOMPARE(s.timelineExtent(*id).droppedTotal, qint64(2 * 12345));
        for (qint64 step : {5, 6}) {
            QString problem;
            const QVector<RankStepTimeline> back = s.stepTimeline(*id, step, &problem);
            QVERIFY(problem.isEmpty());
            QCOMPARE(back, run.anatomy.timeline.mid(step == 5 ? 0 : 3, 3));
        }
        QCOMPARE(s.stepTimeline(*id).size(), qsizetype(6));
        QVERIFY(s.stepTimeline(*id, 7).isEmpty());
        // The run's summaries come without the timeline (read a step at a time).
        QVERIFY(s.runAnatomy(*id).timeline.isEmpty());

        // A damaged row is left out and said; the others still read.
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("UPDATE step_timeline SET data = X'28B52FFD' WHERE step = 5 AND rank = 1")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        QString problem;
        const QVector<RankStepTimeline> damaged = s.stepTimeline(*id, 5, &problem);
        QCOMPARE(damaged.size(), qsizetype(2));
        QVERIFY2(problem.contains(QStringLiteral("rank 1 at step 5")), qPrintable(problem));

        // Saved again without a timeline (replaced): none left; removed: none left.
        run.anatomy.timeline.clear();
        const auto again = s.replaceRun(run);
        QVERIFY2(again, qPrintable(again ? QString() : again.error().text()));
        QVERIFY(s.timelineExtent(*id).steps.isEmpty());
        run.anatomy.timeline = {sample(5, 0, 10)};
        QVERIFY(s.replaceRun(run));
        QCOMPARE(s.timelineExtent(*id).steps.size(), qsizetype(1));
        QVERIFY(s.removeRun(QStringLiteral("traced")));
        QVERIFY(s.stepTimeline(*id).isEmpty());
    }

    void overTheBoundIsRefusedOnWrite() {
        auto opened = ProjectStore::open(m_dir.filePath(QStringLiteral("bound.moewb")));
        QVERIFY(opened);
        ProjectStore& s = **opened;
        QVERIFY(s.addConfigRecord(QStringLiteral("r"), {}, false));
        RunData run;
        run.name = QStringLiteral("too-many");
        run.kind = RunKind::Imported;
        run.recordName = QStringLiteral("r");
        run.anatomy.rows << RankStepAnatomy{};
        run.anatomy.timeline << sample(0, 0, kTimelineMaxIntervals + 1);
        const auto id = s.saveRun(run);
        QVERIFY(!id);
        QVERIFY2(id.error().text().contains(QStringLiteral("bound")), qPrintable(id.error().text()));
    }

    void hostileBlobsAreRefused() {
        const QByteArray good = encodeTimeline(sample(5, 1, 40));
        QVERIFY(decodes(good));
        const QByteArray raw = unzstd(good);
        // Layout: "MWT1", u32 labels, labels..., u32 count, 42-byte records.
        const qsizetype labelsAt = 4;
        qsizetype countAt = 8;
        for (int i = 0; i < 3; ++i)
            countAt += 4 + qFromLittleEndian<quint32>(raw.constData() + countAt);
        QCOMPARE(qFromLittleEndian<quint32>(raw.constData() + countAt), 40u);
        const qsizetype firstRecord = countAt + 4;
        QCOMPARE(raw.size(), firstRecord + 40 * 42);

        QString why;
        QVERIFY(!decodes(QByteArray("not zstd"), &why));
        QVERIFY(!decodes(QByteArray(), &why));
        // A frame that claims more than the bounds allow (its header only: nothing follows).
        {
            // Frame header: magic, descriptor 0xE0 (single segment, 8-byte content size), the size 2^40.
            QByteArray huge = QByteArray::fromHex("28b52ffd") + char(0xE0) + QByteArray(8, 0);
            poke<quint64>(huge, 5, quint64(1) << 40);
            QVERIFY(!decodes(huge, &why));
            QVERIFY2(why.contains(QStringLiteral("claims")), qPrintable(why));
        }
        auto tampered = [&](auto change) {
            QByteArray r = raw;
            change(r);
            return zstd(r);
        };
        QVERIFY(!decodes(tampered([](QByteArray& r) { r[0] = 'X'; })));
        QVERIFY(!decodes(tampered([&](QByteArray& r) { poke<quint32>(r, labelsAt, 0xFFFFFFFFu); })));
        QVERIFY(!decodes(tampered([&](QByteArray& r) { poke<quint32>(r, labelsAt + 4, 0x7FFFFFFFu); })));
        QVERIFY(!decodes(tampered([&](QByteArray& r) { poke<quint32>(r, countAt, 41u); })));
        QVERIFY(!decodes(tampered([&](QByteArray& r) { poke<quint32>(r, countAt, 0xFFFFFFFFu); })));
        QVERIFY(!decodes(tampered([&](QByteArray& r) { r[firstRecord + 16] = char(kTimelineClasses); })));
        QVERIFY(!decodes(tampered([&](QByteArray& r) { poke<qint32>(r, firstRecord + 18, 3); })));  // name: 3 labels
        QVERIFY(!decodes(tampered([&](QByteArray& r) { poke<qint32>(r, firstRecord + 22, -2); })));  // group
        QVERIFY(!decodes(tampered([&](QByteArray& r) { poke<qint64>(r, firstRecord + 8, -5); })));   // end < start
        // Cut at every byte: refused, never read past.
        for (qsizetype n = 0; n < raw.size(); ++n)
            QVERIFY2(!decodes(zstd(raw.left(n))), qPrintable(QStringLiteral("cut at %1").arg(n)));
        // And the compressed frame cut at every byte.
        for (qsizetype n = 0; n < good.size(); ++n)
            QVERIFY(!decodes(good.left(n)));
    }
};

QTEST_GUILESS_MAIN(TestStepTimelineStore)
#include "test_step_timeline_store.moc"
