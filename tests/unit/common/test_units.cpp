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
    // One way to write a number (shares as %, ratios as ×, whole numbers grouped).
    void percentRatioInteger() {
        QCOMPARE(formatPercent(0.1433), QStringLiteral("14.3 %"));
        QCOMPARE(formatPercent(0.01357), QStringLiteral("1.36 %"));
        QCOMPARE(formatPercent(1.0), QStringLiteral("100 %"));
        QCOMPARE(formatPercent(0.125), QStringLiteral("12.5 %"));
        QCOMPARE(formatPercent(0.0032), QStringLiteral("0.32 %"));
        QCOMPARE(formatPercent(0.0), QStringLiteral("0 %"));
        QCOMPARE(formatPercent(0.00001), QStringLiteral("< 0.01 %"));
        QCOMPARE(formatPercent(-0.082), QStringLiteral("-8.2 %"));
        QCOMPARE(formatPercent(2.5), QStringLiteral("250 %"));
        QCOMPARE(formatPercent(0.0123, 2), QStringLiteral("1.23 %"));
        QCOMPARE(formatRatio(1.6), QStringLiteral("1.6×"));
        QCOMPARE(formatRatio(2.4), QStringLiteral("2.4×"));
        QCOMPARE(formatRatio(1.0), QStringLiteral("1×"));
        QCOMPARE(formatRatio(1.183), QStringLiteral("1.18×"));
        QCOMPARE(formatInteger(99808), QStringLiteral("99,808"));
        QCOMPARE(formatInteger(999), QStringLiteral("999"));
        QCOMPARE(formatInteger(1000), QStringLiteral("1,000"));
        QCOMPARE(formatInteger(-1234567), QStringLiteral("-1,234,567"));
        QCOMPARE(formatInteger(18386.6), QStringLiteral("18,387"));
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
