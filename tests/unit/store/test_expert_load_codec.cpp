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
    void refusesBadBlobs() {
        QVERIFY(!decodeExpertLoad(0, QByteArray(7, '\0')));  // not a whole number of counts
        QVERIFY(!decodeExpertLoad(42, QByteArray(8, '\0'))); // unknown codec
    }
};

QTEST_GUILESS_MAIN(TestExpertLoadCodec)
#include "test_expert_load_codec.moc"
