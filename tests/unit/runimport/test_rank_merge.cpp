// record::RankGrid against the layouts Megatron-Core documents, and
// runimport::mergeRankFiles on small hand-made rank files whose merged counts are
// written out here by hand.
#include "record/RankGrid.h"
#include "runimport/RankMerge.h"

#include <QtTest>

using moewb::record::ConfigRecord;
using moewb::record::ParallelAxis;
using moewb::record::RankGrid;
using moewb::runimport::mergeRankFiles;
using moewb::runimport::RankFile;
using moewb::runimport::RankFileKind;
using moewb::store::ExpertLoadBlock;

namespace {

ExpertLoadBlock block(qint64 step, int layer, QVector<quint32> counts, int mtp = -1) {
    ExpertLoadBlock b;
    b.step = step;
    b.layer = layer;
    b.tokensPerExpert = std::move(counts);
    b.mtpIndex = mtp;
    return b;
}

ConfigRecord layout(qint64 dp, qint64 tp, qint64 pp, qint64 ep, qint64 experts, qint64 layers,
                    std::optional<qint64> etp = {}) {
    ConfigRecord r;
    r.parallelism.dp = dp;
    r.parallelism.tp = tp;
    r.parallelism.pp = pp;
    r.parallelism.ep = ep;
    r.parallelism.etp = etp;
    r.moe.experts = experts;
    r.model.layers = layers;
    return r;
}

} // namespace

class TestRankMerge : public QObject {
    Q_OBJECT
private slots:
    // parallel_state.py's own example: 16 GPUs, tp 2, pp 4 (so dp 2), order
    // tp-cp-ep-dp-pp: data-parallel groups [g0, g2], [g1, g3], [g4, g6], ...; tensor
    // groups [g0, g1], [g2, g3], ...; pipeline groups [g0, g4, g8, g12], [g1, g5, g9, g13], ...
    void megatronDocumentedExample() {
        ConfigRecord r = layout(2, 2, 4, 1, 8, 8);
        auto g = RankGrid::decoderGrid(r.parallelism);
        QVERIFY(g.hasValue());
        QCOMPARE(g.value().world(), 16);
        const QList<QList<int>> dpGroups{{0, 2}, {1, 3}, {4, 6}, {5, 7}, {8, 10}, {9, 11}, {12, 14}, {13, 15}};
        const QList<QList<int>> ppGroups{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}};
        for (const auto& group : dpGroups)
            for (int i = 0; i < group.size(); ++i) {
                QCOMPARE(g.value().coordinate(group[i], ParallelAxis::Dp), i);
                QCOMPARE(g.value().coordinate(group[i], ParallelAxis::Tp), g.value().coordinate(group[0], ParallelAxis::Tp));
            }
        for (const auto& group : ppGroups)
            for (int i = 0; i < group.size(); ++i)
                QCOMPARE(g.value().coordinate(group[i], ParallelAxis::Pp), i);
        for (int rank = 0; rank < 16; rank += 2)
            QCOMPARE(g.value().coordinate(rank + 1, ParallelAxis::Tp), 1);
    }

    void ordersAreChecked() {
        QVERIFY(moewb::record::parallelismOrderProblem(QStringLiteral("tp-cp-ep-dp-pp")).isEmpty());
        QVERIFY(moewb::record::parallelismOrderProblem(QStringLiteral("tp-pp-dp")).isEmpty());
        QVERIFY(!moewb::record::parallelismOrderProblem(QStringLiteral("tp-xp-dp")).isEmpty());
        QVERIFY(!moewb::record::parallelismOrderProblem(QStringLiteral("tp-dp-tp")).isEmpty());
        // Leaving out a name whose size is not 1 is refused, as RankGenerator refuses it.
        QVERIFY(!RankGrid::make({2, 1, 1, 2, 2}, QStringLiteral("tp-dp")).hasValue());
        // "tp-pp-dp": pp varies before dp.
        auto g = RankGrid::make({2, 1, 1, 2, 2}, QStringLiteral("tp-pp-dp"));
        QVERIFY(g.hasValue());
        QCOMPARE(g.value().coordinate(2, ParallelAxis::Pp), 1);
        QCOMPARE(g.value().coordinate(2, ParallelAxis::Dp), 0);
        QCOMPARE(g.value().coordinate(4, ParallelAxis::Dp), 1);
    }

    // 4 ranks, dp 4, EP 2 (expert-DP 2), 4 experts (2 local): ranks 0 and 2 are EP rank 0.
    void localExpertsAreConcatenatedAndSummed() {
        const ConfigRecord rec = layout(4, 1, 1, 2, 4, 2);
        QList<RankFile> files;
        files << RankFile{QStringLiteral("rank0.jsonl"), 0, {block(1, 0, {1, 2}), block(1, 0, {5, 5}, 0)}}
              << RankFile{QStringLiteral("rank1.jsonl"), 1, {block(1, 0, {3, 4}), block(1, 0, {6, 6}, 0)}}
              << RankFile{QStringLiteral("rank2.jsonl"), 2, {block(1, 0, {10, 20}), block(1, 0, {7, 7}, 0)}}
              << RankFile{QStringLiteral("rank3.jsonl"), 3, {block(1, 0, {30, 40}), block(1, 0, {8, 8}, 0)}};
        auto m = mergeRankFiles(files, RankFileKind::LocalExperts, rec, false);
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : qPrintable(m.error().first().text()));
        QCOMPARE(m.value().experts, 4);
        QCOMPARE(m.value().blocks.size(), 2);
        QCOMPARE(m.value().blocks[0].layer, 0);
        QCOMPARE(m.value().blocks[0].tokensPerExpert, (QVector<quint32>{11, 22, 33, 44}));
        // The MTP layer comes after model.layers (2).
        QCOMPARE(m.value().blocks[1].layer, 2);
        QCOMPARE(m.value().blocks[1].tokensPerExpert, (QVector<quint32>{12, 12, 14, 14}));
        QCOMPARE(m.value().mtpLayers.size(), 1);

        // The record's expert count must match EP × local.
        auto wrong = mergeRankFiles(files, RankFileKind::LocalExperts, layout(4, 1, 1, 2, 8, 2), false);
        QVERIFY(!wrong.hasValue());
        QVERIFY(wrong.error().first().message.contains(QStringLiteral("moe.experts = 8")));
        // A missing EP rank names the files that could hold it.
        auto missing = mergeRankFiles(files.mid(0, 3), RankFileKind::LocalExperts, rec, false);
        QVERIFY(!missing.hasValue());
        QVERIFY2(missing.error().first().message.contains(QStringLiteral("rank3.jsonl")),
                 qPrintable(missing.error().first().message));
    }

    // Expert-TP twins must agree; pipeline stage 1's layer 0 is global layer 2.
    void twinsAndStages() {
        // world 4 = tp 2 × pp 2 (dp 1); EP 1, etp 2: ranks 0,1 stage 0, ranks 2,3 stage 1.
        const ConfigRecord rec = layout(1, 2, 2, 1, 2, 4);
        QList<RankFile> files;
        files << RankFile{QStringLiteral("rank0.jsonl"), 0, {block(5, 0, {1, 2}), block(5, 1, {3, 4})}}
              << RankFile{QStringLiteral("rank1.jsonl"), 1, {block(5, 0, {1, 2}), block(5, 1, {3, 4})}}
              << RankFile{QStringLiteral("rank2.jsonl"), 2, {block(5, 0, {5, 6}), block(5, 1, {7, 8})}}
              << RankFile{QStringLiteral("rank3.jsonl"), 3, {block(5, 0, {5, 6}), block(5, 1, {7, 8})}};
        auto m = mergeRankFiles(files, RankFileKind::LocalExperts, rec, false);
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : qPrintable(m.error().first().text()));
        QCOMPARE(m.value().blocks.size(), 4);
        QCOMPARE(m.value().blocks[2].layer, 2);
        QCOMPARE(m.value().blocks[2].tokensPerExpert, (QVector<quint32>{5, 6}));
        files[3].blocks[1].tokensPerExpert = {7, 9};
        auto differ = mergeRankFiles(files, RankFileKind::LocalExperts, rec, false);
        QVERIFY(!differ.hasValue());
        QVERIFY(differ.error().first().file == QStringLiteral("rank3.jsonl"));
        QVERIFY(differ.error().first().message.contains(QStringLiteral("expert-TP")));
    }

    void partialStepsAreRefusedOrDropped() {
        const ConfigRecord rec = layout(2, 1, 1, 2, 2, 1);
        QList<RankFile> files;
        files << RankFile{QStringLiteral("rank0.jsonl"), 0, {block(1, 0, {1}), block(2, 0, {1})}}
              << RankFile{QStringLiteral("rank1.jsonl"), 1, {block(1, 0, {2})}};
        auto refused = mergeRankFiles(files, RankFileKind::LocalExperts, rec, false);
        QVERIFY(!refused.hasValue());
        QVERIFY(refused.error().first().message.contains(QStringLiteral("rank1.jsonl lacks 1 step(s): 2")));
        auto kept = mergeRankFiles(files, RankFileKind::LocalExperts, rec, true);
        QVERIFY(kept.hasValue());
        QCOMPARE(kept.value().blocks.size(), 1);
        QCOMPARE(kept.value().blocks[0].tokensPerExpert, (QVector<quint32>{1, 2}));
    }

    // Routing traces: every rank's counts are over all experts and are summed.
    void tracesAreSummedOverRanks() {
        const ConfigRecord rec = layout(2, 1, 1, 2, 4, 1);
        QList<RankFile> files;
        files << RankFile{QStringLiteral("router_trace_rank0.jsonl"), 0, {block(0, 0, {1, 0, 2})}}
              << RankFile{QStringLiteral("router_trace_rank1.jsonl"), 1, {block(0, 0, {0, 3, 0, 4})}};
        auto m = mergeRankFiles(files, RankFileKind::GlobalExperts, rec, false);
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : qPrintable(m.error().first().text()));
        QCOMPARE(m.value().blocks[0].tokensPerExpert, (QVector<quint32>{1, 3, 2, 4}));
        auto missing = mergeRankFiles(files.mid(0, 1), RankFileKind::GlobalExperts, rec, false);
        QVERIFY(!missing.hasValue());
        QVERIFY(missing.error().first().message.contains(QStringLiteral("router_trace_rank1.jsonl")));
    }
};

QTEST_GUILESS_MAIN(TestRankMerge)
#include "test_rank_merge.moc"
