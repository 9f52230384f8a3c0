// Percentiles (numpy linear, type 7), sample variance and CV, bandwidth math.
#include "stats/Bandwidth.h"
#include "stats/Statistics.h"

#include <QtTest>
#include <cmath>

using namespace moewb::stats;

class TestStatistics : public QObject {
    Q_OBJECT

private slots:
    void percentileMatchesNumpyLinear() {
        // numpy.percentile([15, 20, 35, 40, 50], q) with method="linear"
        const std::vector<double> v{50, 15, 40, 20, 35};
        QCOMPARE(percentile(v, 0), 15.0);
        QCOMPARE(percentile(v, 40), 29.0);
        QCOMPARE(percentile(v, 50), 35.0);
        QCOMPARE(percentile(v, 100), 50.0);
        QVERIFY(std::fabs(percentile(v, 99) - 49.6) < 1e-12);
        const std::vector<double> four{1, 2, 3, 4};
        QCOMPARE(median(four), 2.5);
        QVERIFY(std::fabs(percentile(four, 99) - 3.97) < 1e-12);
        QCOMPARE(percentile(std::vector<double>{7.0}, 99), 7.0);
        QVERIFY(std::isnan(percentile(std::vector<double>{}, 50)));
    }

    void sampleVarianceAndCv() {
        const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
        QCOMPARE(mean(v), 5.0);
        QVERIFY(std::fabs(sampleVariance(v) - 32.0 / 7.0) < 1e-12);
        QVERIFY(std::fabs(coefficientOfVariation(v) - std::sqrt(32.0 / 7.0) / 5.0) < 1e-12);
        QCOMPARE(sampleVariance(std::vector<double>{3.0}), 0.0);
        QCOMPARE(coefficientOfVariation(std::vector<double>{3.0}), 0.0);
        QVERIFY(std::isnan(coefficientOfVariation(std::vector<double>{0.0, 0.0})));
        QVERIFY(std::isnan(mean(std::vector<double>{})));
    }

    void summaryOfOneSet() {
        const Summary s = summarize({4, 1, 3, 2});
        QCOMPARE(s.count, 4);
        QCOMPARE(s.mean, 2.5);
        QCOMPARE(s.median, 2.5);
        QVERIFY(std::fabs(s.p99 - 3.97) < 1e-12);
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 4.0);
    }

    void bandwidths() {
        // 1 MiB per rank in 100 µs: algbw 10.48576 GB/s; to the 7 other ranks of 8: × 7/8.
        QCOMPARE(algorithmBandwidth(1048576.0, 100.0), 1048576.0 / 1e-4);
        QCOMPARE(effectiveBandwidthUniform(1048576.0, 8, 100.0), 1048576.0 * 7.0 / 8.0 / 1e-4);
        QCOMPARE(effectiveBandwidthUniform(1048576.0, 1, 100.0), 0.0);
        QVERIFY(std::isnan(effectiveBandwidthUniform(1048576.0, 0, 100.0)));
        QVERIFY(std::isnan(algorithmBandwidth(1.0, 0.0)));
    }
};

QTEST_APPLESS_MAIN(TestStatistics)
#include "test_statistics.moc"
