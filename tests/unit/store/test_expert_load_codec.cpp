#include "store/ExpertLoadCodec.h"

#include <QtTest>

using namespace moewb::store;

class TestExpertLoadCodec : public QObject {
    Q_OBJECT
private slots:
    void rawIsLittleEndianUInt32() {
        const QByteArray blob = encodeExpertLoad({1, 0x01020304u, 0xFFFFFFFFu});
        QCOMPARE(blob, QByteArray::fromHex("01000000"
                                           "04030201"
                                           "ffffffff"));
    }
    void roundTrip() {
        QVector<quint32> counts(64);
        for (int e = 0; e < counts.size(); ++e)
            counts[e] = quint32(e * 1000003u);
        const auto back = decodeExpertLoad(int(ExpertLoadCodec::RawUInt32LE), encodeExpertLoad(counts));
        QVERIFY(back);
        QCOMPARE(*back, counts);
        QCOMPARE(decodeExpertLoad(0, QByteArray())->size(), 0);
    }
    void chunkRoundTripsEveryCount() {
        // 300 steps (gaps and a jump included) x 5 experts, with 0 and UINT32_MAX beside
        // small values: every count back, in place.
        QVector<qint64> steps;
        for (int i = 0; i < 300; ++i)
            steps << (i < 200 ? qint64(i) * 10 : 100000 + i);
        const int experts = 5;
        std::vector<quint32> counts(std::size_t(steps.size()) * experts);
        for (qsizetype r = 0; r < steps.size(); ++r)
            for (int e = 0; e < experts; ++e)
                counts[std::size_t(r) * experts + e] =
                    e == 0 ? (r % 2 ? 0u : 0xFFFFFFFFu) : quint32((r * 7919 + e * 104729) % 4099);
        const QByteArray blob = encodeExpertLoadChunk(steps, counts, experts);
        QVERIFY(!blob.isEmpty());
        const auto back = decodeExpertLoadChunk(int(ExpertLoadCodec::DeltaVarintZstd), blob, int(steps.size()), experts);
        QVERIFY(back);
        QCOMPARE(back->steps, steps);
        QCOMPARE(back->counts.size(), qsizetype(counts.size()));
        for (std::size_t i = 0; i < counts.size(); ++i)
            QCOMPARE(back->counts[qsizetype(i)], counts[i]);
    }
    void chunkRefusesAWrongShapeOrDamage() {
        const QVector<qint64> steps{1, 2};
        const std::vector<quint32> counts{1, 2, 3, 4};
        const QByteArray blob = encodeExpertLoadChunk(steps, counts, 2);
        const int codec = int(ExpertLoadCodec::DeltaVarintZstd);
        QVERIFY(decodeExpertLoadChunk(codec, blob, 2, 2));
        QVERIFY(!decodeExpertLoadChunk(codec, blob, 3, 2)); // the row says another shape
        QVERIFY(!decodeExpertLoadChunk(codec, blob, 2, 4));
        QVERIFY(!decodeExpertLoadChunk(0, blob, 2, 2)); // another codec
        QByteArray cut = blob;
        cut.chop(3);
        QVERIFY(!decodeExpertLoadChunk(codec, cut, 2, 2));
        QVERIFY(!decodeExpertLoadChunk(codec, QByteArray("not zstd at all"), 2, 2));
    }
    void summaryOfABlock() {
        // Sum, max, first argmax, and the busiest of EP groups of contiguous experts.
        const std::vector<quint32> counts{5, 9, 1, 9, 0, 2, 7, 3};
        const LoadSummaryValues v = summarizeCounts(42, counts, 4); // ranks {5,9} {1,9} {0,2} {7,3}
        QCOMPARE(v.step, 42);
        QCOMPARE(v.sum, quint64(36));
        QCOMPARE(v.max, 9u);
        QCOMPARE(v.argmax, 1);
        QVERIFY(v.busiestRankTokens);
        QCOMPARE(*v.busiestRankTokens, quint64(14));
        QVERIFY(!summarizeCounts(42, counts, 0).busiestRankTokens);
    }
    void summaryRoundTrips() {
        QVector<LoadSummaryValues> rows(3);
        rows[0] = {7, 1000, 90, 3, 300, std::nullopt};
        rows[1] = {8, 0xFFFFFFFFFFull, 4000000000u, 255, std::nullopt, 12};
        rows[2] = {100, 5, 5, 0, 0, 0};
        const QByteArray blob = encodeLoadSummary(rows);
        const auto back = decodeLoadSummary(int(ExpertLoadCodec::DeltaVarintZstd), blob, 3);
        QVERIFY(back);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE((*back)[i].step, rows[i].step);
            QCOMPARE((*back)[i].sum, rows[i].sum);
            QCOMPARE((*back)[i].max, rows[i].max);
            QCOMPARE((*back)[i].argmax, rows[i].argmax);
            QCOMPARE((*back)[i].busiestRankTokens, rows[i].busiestRankTokens);
            QCOMPARE((*back)[i].droppedTokens, rows[i].droppedTokens);
        }
        QVERIFY(!decodeLoadSummary(int(ExpertLoadCodec::DeltaVarintZstd), blob, 2));
    }
    void totalsRoundTripAndAreTheColumnSums() {
        // 200 steps (a gap) x 3 experts, one expert at UINT32_MAX every step: each total
        // is the column's sum (computed here), beyond 32 bits where it must be.
        QVector<qint64> steps;
        for (int i = 0; i < 200; ++i)
            steps << (i < 100 ? qint64(i) : qint64(i) * 3);
        std::vector<quint32> counts;
        std::vector<std::uint64_t> want(3, 0);
        for (qsizetype r = 0; r < steps.size(); ++r)
            for (int e = 0; e < 3; ++e) {
                const quint32 c = e == 1 ? 0xFFFFFFFFu : quint32((r * 31 + e * 7) % 1000);
                counts.push_back(c);
                want[std::size_t(e)] += c;
            }
        QCOMPARE(chunkTotals(counts, 3), want);
        QVERIFY(want[1] > 0xFFFFFFFFull);
        const QByteArray blob = encodeExpertTotals(steps, want);
        const int codec = int(ExpertLoadCodec::DeltaVarintZstd);
        const auto back = decodeExpertTotals(codec, blob, 200, 3);
        QVERIFY(back);
        QCOMPARE(back->steps, steps);
        QCOMPARE(back->totals, want);
        QVERIFY(!decodeExpertTotals(codec, blob, 199, 3)); // the row says another shape
        QVERIFY(!decodeExpertTotals(codec, blob, 200, 4));
        QVERIFY(!decodeExpertTotals(0, blob, 200, 3));
        QByteArray cut = blob;
        cut.chop(2);
        QVERIFY(!decodeExpertTotals(codec, cut, 200, 3));
        // A total no chunk of that many rows can hold.
        QVERIFY(!decodeExpertTotals(codec, encodeExpertTotals(QVector<qint64>{5}, std::vector<std::uint64_t>{1ull << 32}),
                                    1, 1));
    }
    void refusesBadBlobs() {
        QVERIFY(!decodeExpertLoad(0, QByteArray(7, '\0')));  // not a whole number of counts
        QVERIFY(!decodeExpertLoad(42, QByteArray(8, '\0'))); // unknown codec
    }
};

QTEST_GUILESS_MAIN(TestExpertLoadCodec)
#include "test_expert_load_codec.moc"
