#include "store/ExpertLoadCodec.h"

#include <QtTest>

#include <zstd.h>

#include <cstdint>
#include <vector>

using namespace moewb::store;

namespace {

// The format written by hand, independently of the encoder (docs/store.md, "Expert
// load"): LEB128 varints, signed values zigzag-coded, the whole stream one zstd frame.
struct Stream {
    QByteArray bytes;
    Stream& u(std::uint64_t v) {
        while (v >= 0x80) {
            bytes += char(std::uint8_t(v | 0x80));
            v >>= 7;
        }
        bytes += char(std::uint8_t(v));
        return *this;
    }
    Stream& s(std::int64_t v) { return u((std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63)); }
    Stream& raw(const QByteArray& b) {
        bytes += b;
        return *this;
    }
    QByteArray frame() const {
        QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(bytes.size()))), Qt::Uninitialized);
        const std::size_t n = ZSTD_compress(out.data(), std::size_t(out.size()), bytes.constData(),
                                            std::size_t(bytes.size()), 3);
        out.truncate(qsizetype(n));
        return out;
    }
};

// `size` zero bytes through zstd's streaming compressor, a MiB at a time: a frame that
// declares (or, with declare = false, does not declare) gigabytes in a few KB.
QByteArray zeroBomb(std::uint64_t size, bool declare) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
    if (declare)
        ZSTD_CCtx_setPledgedSrcSize(c, size);
    const std::vector<char> zeros(std::size_t(1) << 20, 0);
    std::vector<char> out(ZSTD_CStreamOutSize());
    QByteArray frame;
    for (std::uint64_t done = 0; done < size;) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(zeros.size(), size - done));
        ZSTD_inBuffer in{zeros.data(), n, 0};
        done += n;
        const ZSTD_EndDirective mode = done == size ? ZSTD_e_end : ZSTD_e_continue;
        for (;;) {
            ZSTD_outBuffer o{out.data(), out.size(), 0};
            const std::size_t left = ZSTD_compressStream2(c, &o, &in, mode);
            frame.append(out.data(), qsizetype(o.pos));
            if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size)
                break;
        }
    }
    ZSTD_freeCCtx(c);
    return frame;
}

constexpr int kCodec = int(ExpertLoadCodec::DeltaVarintZstd);

} // namespace

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
        // 256 steps, the most a chunk holds (gaps and a jump included) x 5 experts, with 0
        // and UINT32_MAX beside small values: every count back, in place.
        QVector<qint64> steps;
        for (int i = 0; i < kChunkSteps; ++i)
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
    void chunkReadByHand() {
        // 2 steps (5, 7) x 3 experts, counts [[10, 0, 4294967295], [12, 3, 0]]: expert
        // columns of differences from the step before, the first row from 0.
        const QByteArray blob = Stream()
                                    .u(2).u(3)
                                    .s(5).s(2)
                                    .s(10).s(2)
                                    .s(0).s(3)
                                    .s(4294967295LL).s(-4294967295LL)
                                    .frame();
        QString why;
        const auto back = decodeExpertLoadChunk(kCodec, blob, 2, 3, &why);
        QVERIFY2(back, qPrintable(why));
        QCOMPARE(back->steps, (QVector<qint64>{5, 7}));
        QCOMPARE(back->counts, (QVector<quint32>{10, 0, 4294967295u, 12, 3, 0}));
    }
    void chunkShapeRefusedBeforeAnyAllocation() {
        // What the row (and the header inside) claim is checked first: 2^31 - 1 steps or
        // 2^30 experts never reach an allocation, whatever the blob.
        const QByteArray blob = Stream().u(2147483647).u(2).frame();
        QString why;
        QVERIFY(!decodeExpertLoadChunk(kCodec, blob, 2147483647, 2, &why));
        QVERIFY2(why.contains(QLatin1String("2147483647 steps (1 to 256)")), qPrintable(why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1073741824).frame(), 1, 1073741824, &why));
        QVERIFY2(why.contains(QLatin1String("1073741824 experts (1 to 65536)")), qPrintable(why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, blob, 0, 2, &why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, blob, -1, 2, &why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, blob, 2, 0, &why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, blob, 257, 2, &why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, blob, 1, 65537, &why));
        QCOMPARE(chunkShapeProblem(65536, 1, 1), QStringLiteral("its layer 65536 is outside 0 to 65535"));
        QCOMPARE(chunkShapeProblem(-1, 1, 1), QStringLiteral("its layer -1 is outside 0 to 65535"));
        QVERIFY(chunkShapeProblem(65535, 256, 65536).isEmpty());
        // The header inside the frame must say what the row says.
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(2147483647).u(1).s(1).s(1).frame(), 1, 1, &why));
        QVERIFY2(why.contains(QLatin1String("header says 2147483647 steps")), qPrintable(why));
    }
    void zstdBombsCostNothing() {
        // 2 GB of zeros in a few KB, declared: refused from the frame header alone,
        // quickly, for every shape (the largest chunk inflates to 80 MiB at most).
        QElapsedTimer t;
        const QByteArray bomb = zeroBomb(std::uint64_t(2) << 30, true);
        QVERIFY(bomb.size() < 256 * 1024);
        t.start();
        QString why;
        QVERIFY(!decodeExpertLoadChunk(kCodec, bomb, 256, 65536, &why));
        QVERIFY2(why.contains(QLatin1String("claims 2147483648 bytes")), qPrintable(why));
        QVERIFY(!decodeLoadSummary(kCodec, bomb, 256, 65536, &why));
        QVERIFY(!decodeExpertTotals(kCodec, bomb, 256, 65536, &why));
        QVERIFY(t.elapsed() < 1000);
        // The same without a declared size: refused unread.
        const QByteArray undeclared = zeroBomb(std::uint64_t(64) << 20, false);
        QVERIFY(!decodeExpertLoadChunk(kCodec, undeclared, 256, 65536, &why));
        QVERIFY2(why.contains(QLatin1String("does not declare its size")), qPrintable(why));
        // A frame the size of its shape but too small for it (2 bytes, not 2 + 1 + 1):
        // refused before inflating.
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1).frame(), 1, 1, &why));
        QVERIFY2(why.contains(QLatin1String("where its shape allows 4 to")), qPrintable(why));
    }
    void framesThatLieOrCarryMoreAreRefused() {
        const QByteArray good = Stream().u(1).u(1).s(3).s(9).frame();
        QVERIFY(decodeExpertLoadChunk(kCodec, good, 1, 1));
        QString why;
        // Two frames one after the other: the first declares its size, the blob holds more.
        QVERIFY(!decodeExpertLoadChunk(kCodec, good + good, 1, 1, &why));
        QVERIFY2(why.contains(QLatin1String("not one whole zstd frame")), qPrintable(why));
        QByteArray cut = good;
        cut.chop(1);
        QVERIFY(!decodeExpertLoadChunk(kCodec, cut, 1, 1, &why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, QByteArray(), 1, 1, &why));
        // A frame whose declared content size was changed (the single-segment frame of a
        // small input keeps it in the byte after the frame header descriptor): it
        // inflates to something else, refused.
        QByteArray lying = Stream().u(1).u(2).s(3).s(9).s(8).raw(QByteArray(40, 'x')).frame();
        const unsigned long long declared = ZSTD_getFrameContentSize(lying.constData(), std::size_t(lying.size()));
        QCOMPARE(declared, 45ull);
        QCOMPARE(int(std::uint8_t(lying[5])), 45);
        lying[5] = char(7);
        QCOMPARE(ZSTD_getFrameContentSize(lying.constData(), std::size_t(lying.size())), 7ull);
        QVERIFY(!decodeExpertLoadChunk(kCodec, lying, 1, 2, &why));
    }
    void varintsAreBounded() {
        QString why;
        // Eleven bytes, or a tenth byte with more than bit 63: not a varint.
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1).s(1).raw(QByteArray(10, char(0x80)) + char(0)).frame(), 1,
                                       1, &why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1).s(1).raw(QByteArray(9, char(0xFF)) + char(0x02)).frame(),
                                       1, 1, &why));
        // The largest varint is read whole (and then refused as a count).
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1).s(1).raw(QByteArray(9, char(0xFF)) + char(0x01)).frame(),
                                       1, 1, &why));
        QVERIFY2(why.contains(QLatin1String("impossible count")), qPrintable(why));
        // Ends in the middle of a varint; bytes after the last value.
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1).s(1).raw(QByteArray(1, char(0x80))).frame(), 1, 1, &why));
        QVERIFY2(why.contains(QLatin1String("ends before its last value")), qPrintable(why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1).s(1).s(1).u(0).frame(), 1, 1, &why));
        QVERIFY2(why.contains(QLatin1String("1 bytes after its last value")), qPrintable(why));
    }
    void stepsAndCountsAreChecked() {
        QString why;
        // Steps must strictly increase, and their sum must not overflow.
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(2).u(1).s(5).s(0).s(1).s(1).frame(), 2, 1, &why));
        QVERIFY2(why.contains(QLatin1String("steps do not increase")), qPrintable(why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(2).u(1).s(INT64_MAX).s(1).s(1).s(1).frame(), 2, 1, &why));
        QVERIFY2(why.contains(QLatin1String("steps do not increase")), qPrintable(why));
        // A count below 0 or above 2^32 - 1, or a difference no two counts can have.
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1).s(1).s(-1).frame(), 1, 1, &why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(1).u(1).s(1).s(4294967296LL).frame(), 1, 1, &why));
        QVERIFY(!decodeExpertLoadChunk(kCodec, Stream().u(2).u(1).s(1).s(1).s(5).s(INT64_MIN).frame(), 2, 1, &why));
        QVERIFY2(why.contains(QLatin1String("expert 0 has an impossible count")), qPrintable(why));
    }
    void summaryReadByHand() {
        // Flags 3 (busiest and dropped known). Steps 4, 6; sums 100, 40; max 60, 10;
        // argmax 1, 3; busiest 70 (+1), unknown (0); dropped unknown (0), 5 (+1).
        const QByteArray blob = Stream()
                                    .u(2).u(3)
                                    .s(4).s(100).s(60).u(1).u(71).u(0)
                                    .s(2).s(-60).s(-50).u(3).u(0).u(6)
                                    .frame();
        QString why;
        const auto back = decodeLoadSummary(kCodec, blob, 2, 4, &why);
        QVERIFY2(back, qPrintable(why));
        QCOMPARE((*back)[0].step, 4);
        QCOMPARE((*back)[0].sum, 100u);
        QCOMPARE((*back)[0].max, 60u);
        QCOMPARE((*back)[0].argmax, 1);
        QCOMPARE((*back)[0].busiestRankTokens, std::optional<std::uint64_t>(70));
        QCOMPARE((*back)[0].droppedTokens, std::optional<qint64>());
        QCOMPARE((*back)[1].step, 6);
        QCOMPARE((*back)[1].sum, 40u);
        QCOMPARE((*back)[1].max, 10u);
        QCOMPARE((*back)[1].argmax, 3);
        QCOMPARE((*back)[1].busiestRankTokens, std::optional<std::uint64_t>());
        QCOMPARE((*back)[1].droppedTokens, std::optional<qint64>(5));
        // The same figures are impossible for 3 experts (argmax 3).
        QVERIFY(!decodeLoadSummary(kCodec, blob, 2, 3, &why));
        QVERIFY2(why.contains(QLatin1String("impossible for 3 experts")), qPrintable(why));
    }
    void summaryWithHugeCountsIsRefused() {
        QString why;
        const auto refused = [&why](const Stream& stream, int rows, int experts) {
            return !decodeLoadSummary(kCodec, stream.frame(), rows, experts, &why);
        };
        // Rows: 2^31 - 1 in the row, in the header; unknown flags.
        QVERIFY(refused(Stream().u(2147483647).u(0), 2147483647, 8));
        QVERIFY(refused(Stream().u(2147483647).u(0).s(1).s(1).s(1).u(0), 1, 8));
        QVERIFY(refused(Stream().u(1).u(4).s(1).s(1).s(1).u(0), 1, 8));
        // A sum no 8 experts can reach, a max above the sum, a max beyond 32 bits, a
        // busiest rank above the sum, sums that would overflow int64 on the way.
        QVERIFY(refused(Stream().u(1).u(0).s(1).s(8 * 4294967295LL + 1).s(1).u(0), 1, 8));
        QVERIFY(refused(Stream().u(1).u(0).s(1).s(5).s(6).u(0), 1, 8));
        QVERIFY(refused(Stream().u(1).u(0).s(1).s(1LL << 40).s(4294967296LL).u(0), 1, 8));
        QVERIFY(refused(Stream().u(1).u(1).s(1).s(5).s(5).u(0).u(7), 1, 8));
        QVERIFY(refused(Stream().u(2).u(0).s(1).s(INT64_MAX).s(1).u(0).s(1).s(INT64_MAX).s(0).u(0), 2, 8));
        QVERIFY(refused(Stream().u(1).u(0).s(1).s(-5).s(0).u(0), 1, 8));
        QVERIFY2(why.contains(QLatin1String("impossible for 8 experts")), qPrintable(why));
        QVERIFY(!refused(Stream().u(1).u(0).s(1).s(8 * 4294967295LL).s(4294967295LL).u(7), 1, 8));
    }
    void totalsReadByHand() {
        // Steps 10, 11, 20; totals 7, 3 * (2^32 - 1).
        const QByteArray blob = Stream().u(3).u(2).s(10).s(1).s(9).u(7).u(3 * 4294967295ULL).frame();
        QString why;
        const auto back = decodeExpertTotals(kCodec, blob, 3, 2, &why);
        QVERIFY2(back, qPrintable(why));
        QCOMPARE(back->steps, (QVector<qint64>{10, 11, 20}));
        QCOMPARE(back->totals, (std::vector<std::uint64_t>{7, 3 * 4294967295ULL}));
        QVERIFY(!decodeExpertTotals(kCodec, Stream().u(3).u(2).s(10).s(1).s(9).u(7).u(3 * 4294967295ULL + 1).frame(), 3,
                                    2, &why));
        QVERIFY2(why.contains(QLatin1String("more than 3 steps can hold")), qPrintable(why));
        QVERIFY(!decodeExpertTotals(kCodec, blob, 3, 1073741824, &why));
        QVERIFY(!decodeExpertTotals(kCodec, blob, 2147483647, 2, &why));
    }
    void refusesBadBlobs() {
        QVERIFY(!decodeExpertLoad(0, QByteArray(7, '\0')));  // not a whole number of counts
        QVERIFY(!decodeExpertLoad(42, QByteArray(8, '\0'))); // unknown codec
        QVERIFY(decodeExpertLoad(0, QByteArray(4 * 65536, '\0')));
        QVERIFY(!decodeExpertLoad(0, QByteArray(4 * 65537, '\0'))); // more experts than a row may hold
    }
};

QTEST_GUILESS_MAIN(TestExpertLoadCodec)
#include "test_expert_load_codec.moc"
