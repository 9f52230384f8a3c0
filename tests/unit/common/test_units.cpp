#include "common/Units.h"

#include <QtTest>

using namespace moewb::units;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void bytes() {
        QCOMPARE(formatBytes(0), QStringLiteral("0 B"));
        QCOMPARE(formatBytes(512), QStringLiteral("512 B"));
        QCOMPARE(formatBytes(64 * 1024), QStringLiteral("64 KiB"));
        QCOMPARE(formatBytes(1.5 * 1024 * 1024), QStringLiteral("1.5 MiB"));
        QCOMPARE(formatBytes(8.0 * 1024 * 1024 * 1024), QStringLiteral("8 GiB"));
    }
    void bandwidth() {
        QCOMPARE(formatBandwidth(123.456e9), QStringLiteral("123.46 GB/s"));
    }
    void duration() {
        QCOMPARE(formatDuration(850), QStringLiteral("850 µs"));
        QCOMPARE(formatDuration(12300), QStringLiteral("12.3 ms"));
        QCOMPARE(formatDuration(4.2e6), QStringLiteral("4.20 s"));
    }
    void parse() {
        QCOMPARE(parseBytes(QStringLiteral("8")).value(), 8ull);
        QCOMPARE(parseBytes(QStringLiteral("64K")).value(), 65536ull);
        QCOMPARE(parseBytes(QStringLiteral("1M")).value(), 1048576ull);
        QCOMPARE(parseBytes(QStringLiteral("2G")).value(), 2147483648ull);
        QCOMPARE(parseBytes(QStringLiteral("1.5KiB")).value(), 1536ull);
        QVERIFY(!parseBytes(QStringLiteral("-1")));
        QVERIFY(!parseBytes(QStringLiteral("1.3")));
        QVERIFY(!parseBytes(QStringLiteral("abc")));
        QVERIFY(!parseBytes(QString()));
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "test_units.moc"
