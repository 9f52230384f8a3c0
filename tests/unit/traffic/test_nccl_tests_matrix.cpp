// The matrix `moewb traffic --format nccl-tests-matrix` writes, read back by nccl-tests'
// own code: the host side of alltoallv_perf (nccl-tests 2.19.6, src/alltoallv.cu lines
// 125-401 and 464-493, extracted at build time from the vendored source tarball
// ../shared/vendor/nccl-tests-src.tar.gz; never kept in this repository) is compiled here and reads
// every file — the writer's, a table of edge cases (compared value by value and message by
// message with core/importers/NcclTestsMatrixFile), and the fixtures, whose summary lines
// it prints again.
#include "importers/NcclTestsMatrixFile.h"
#include "placement/ExpertPlacement.h"
#include "traffic/DispatchTraffic.h"
#include "traffic/NcclTestsMatrixExport.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <cmath>
#include <functional>
#include <unistd.h>

// alltoallv.cu lines 115-123 (cuda_runtime.h and common.h aside: nothing below uses them).
#include <atomic>
#include <ctype.h>
#include <errno.h>
#include <mutex>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

namespace nccl_tests_host {
// common.cu: the thread that prints (PRINT); the test is that thread.
thread_local int is_main_thread = 1;
#include "alltoallv-lines-125-401.inc"
#include "alltoallv-lines-464-493.inc"
} // namespace nccl_tests_host

using namespace moewb;
using importers::nccltests::readTrafficMatrix;
using importers::nccltests::TrafficMatrixFile;

namespace {

// alltoallv_perf's state back to a fresh process's.
void resetNcclTests() {
    using namespace nccl_tests_host;
    free(traffic_matrix_data);
    traffic_matrix_data = NULL;
    traffic_matrix_dim = 0;
    traffic_matrix_file = NULL;
    traffic_matrix_scale = 1.0;
    distance_weighted_spread = 1.0;
    alltoallv_use_generated_pattern = 0;
    alltoallv_print_summary = 0;
    alltoallv_inited = 0;
    alltoallv_error_set.store(0);
}

// What f prints on stdout.
QByteArray captureStdout(const std::function<void()>& f) {
    fflush(stdout);
    QTemporaryFile out;
    if (!out.open())
        return "cannot capture";
    const int saved = dup(1);
    dup2(out.handle(), 1);
    f();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    out.seek(0);
    return out.readAll();
}

// A file as alltoallv_perf reads it with NCCL_TESTS_ALLTOALLV_MATRIX_FILE=path (and
// _MATRIX_SCALE=scale when given) on `ranks` ranks.
struct NcclRead {
    bool error = false;
    QByteArray printed;
    int dim = 0;
    std::vector<quint64> bytes;
};
NcclRead ncclTestsRead(const QString& path, int ranks = 1, const QByteArray& scale = {}) {
    using namespace nccl_tests_host;
    resetNcclTests();
    qputenv("NCCL_TESTS_ALLTOALLV_MATRIX_FILE", path.toLocal8Bit());
    if (scale.isEmpty())
        qunsetenv("NCCL_TESTS_ALLTOALLV_MATRIX_SCALE");
    else
        qputenv("NCCL_TESTS_ALLTOALLV_MATRIX_SCALE", scale);
    NcclRead r;
    r.printed = captureStdout([&] { AlltoAllvInit(ranks); });
    r.error = AlltoAllvHasError();
    if (!r.error) {
        r.dim = traffic_matrix_dim;
        for (int s = 0; s < r.dim; ++s)
            for (int d = 0; d < r.dim; ++d)
                r.bytes.push_back(AlltoAllvGetPeerBytesFromMatrix(s, d));
    }
    return r;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QString fixture(const char* relative) {
    return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/") + QLatin1String(relative);
}

} // namespace

class TestNcclTestsMatrix : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void cleanupTestCase() { resetNcclTests(); }

    void tinyRoutingReadBackByAlltoallvPerf() {
        // tests/integration/traffic's project: layer 0 loads 12 6 9 3 on 4 experts over 2
        // EP ranks, top-2, 8 tokens of 32 B: 225.28 B to rank 0 and 174.08 B to rank 1
        // from each source (test_moewb_traffic worstLayerMatrix works it out).
        const auto placement = placement::ExpertPlacement::contiguous(4, 2);
        QVERIFY(placement);
        const std::vector<double> counts{12, 6, 9, 3};
        const auto m = traffic::dispatchFromCounts(counts, *placement, {8, 2, 16, 2});
        QVERIFY(m);
        QVERIFY(std::abs(m->at(0, 0) - 225.28) < 1e-9 && std::abs(m->at(1, 1) - 174.08) < 1e-9);
        // At 1 MiB per rank: 2 x 65536 units of 16 B, 798.72 B shared out: 225.28 / 798.72 x
        // 131072 = 36969.03 units, 174.08 / 798.72 x 131072 = 28566.97; the 2 units left go to
        // the two largest remainders (.97): 36969 x 16 = 591504, 28567 x 16 = 457072.
        const auto n = traffic::ncclTestsMatrix(*m, 1 << 20);
        QVERIFY2(n, qPrintable(n ? QString() : n.error()));
        QCOMPARE(n->text(), QByteArray("591504 457072\n591504 457072\n"));
        QCOMPARE(n->bytesPerRank, quint64(1) << 20);
        QCOMPARE(n->busiestBytes(), quint64(2 * 591504)); // rank 0 receives both sources' 591504
        QCOMPARE(n->busiestRank(), 0);
        // The fixture the import tests read was written for this matrix.
        QCOMPARE(readAll(fixture("nccl-tests-matrix/tiny-2ranks-1M.txt")), n->text());

        const QString path = m_dir.filePath(QStringLiteral("tiny.txt"));
        QVERIFY(writeFile(path, n->text()));
        NcclRead r = ncclTestsRead(path, 2);
        QVERIFY2(!r.error, r.printed.constData());
        QCOMPARE(r.printed, QByteArray());
        QCOMPARE(r.dim, 2);
        QCOMPARE(r.bytes, (std::vector<quint64>{591504, 457072, 591504, 457072})); // sent as written
        // The -e alltoallv_perf needs and the size it prints: the busiest rank's bytes
        // (AlltoAllvComputeMaxCounts in float elements, x 4).
        size_t sendCount = 0, recvCount = 0;
        nccl_tests_host::AlltoAllvComputeMaxCounts(&sendCount, &recvCount, 4, 2, 0);
        QCOMPARE(quint64(std::max(sendCount, recvCount) * 4), n->busiestBytes());
        QVERIFY(traffic::alltoallvCommand(*n, path).contains(QStringLiteral("-b 1183008 -e 1183008")));
        QVERIFY(traffic::alltoallCommand(*n).contains(QStringLiteral("alltoall_perf -b 1048576 -e 1048576")));
        // Our reader agrees.
        const auto ours = readTrafficMatrix(readAll(path), path);
        QVERIFY(ours);
        QCOMPARE(ours->bytes, r.bytes);
        QCOMPARE(ours->sent(0, 2), quint64(1048576));
        QCOMPARE(ours->received(0, 2), quint64(1183008));

        // NCCL_TESTS_ALLTOALLV_MATRIX_SCALE=0.5: 295752 -> rounded down to 16: 295744;
        // 228536 -> 228528.
        r = ncclTestsRead(path, 2, "0.5");
        QVERIFY(!r.error);
        QCOMPARE(r.bytes, (std::vector<quint64>{295744, 228528, 295744, 228528}));
        QCOMPARE(readTrafficMatrix(readAll(path), path, 0.5)->bytes, r.bytes);
        // Three ranks on a 2x2 matrix: refused, in the same words.
        r = ncclTestsRead(path, 3);
        QVERIFY(r.error);
        QCOMPARE(importers::nccltests::matrixTooSmall(*ours, 3) + QLatin1Char('\n'), QString::fromUtf8(r.printed));

        // Without --bytes-per-rank: the micro-batch's own 399.36 B per rank, rounded to a
        // multiple of 16 x 2 = 32: 384. 225.28 / 798.72 x 48 units = 13.54, 174.08 -> 10.46:
        // floors 13 + 10 twice = 46, the 2 left to the .54s: 14 x 16 = 224, 10 x 16 = 160.
        QCOMPARE(traffic::defaultNcclTestsBytesPerRank(*m), quint64(384));
        QCOMPARE(traffic::ncclTestsMatrix(*m, 384)->text(), QByteArray("224 160\n224 160\n"));
        QVERIFY(!traffic::ncclTestsMatrix(*m, 100)); // not a multiple of 16
        traffic::TrafficMatrix empty;
        empty.ranks = 2;
        empty.bytes = {0, 0, 0, 0};
        QVERIFY(!traffic::ncclTestsMatrix(empty, 1024));
    }

    void largerMatrixKeepsItsShape() {
        // 8 ranks, uneven rows and columns: every value a multiple of 16, within 16 B of its
        // exact share, the whole exactly 8 x 32 MiB; read back whole, and on 6 ranks (the
        // first 6 rows and columns, as alltoallv_perf takes a larger matrix).
        traffic::TrafficMatrix m;
        m.ranks = 8;
        double total = 0;
        for (int s = 0; s < 8; ++s)
            for (int d = 0; d < 8; ++d) {
                m.bytes.push_back(1000.37 * double((s * 7 + d * 13) % 17) + 5.5 * (d == 2 ? 40 : 1));
                total += m.bytes.back();
            }
        const quint64 perRank = 32ull << 20;
        const auto n = traffic::ncclTestsMatrix(m, perRank);
        QVERIFY(n);
        unsigned long long sum = 0;
        std::vector<quint64> written;
        for (int s = 0; s < 8; ++s)
            for (int d = 0; d < 8; ++d) {
                const quint64 v = n->at(s, d);
                QCOMPARE(v % 16, quint64(0));
                const double exact = m.at(s, d) / total * double(8 * perRank);
                QVERIFY2(std::abs(double(v) - exact) < 16.0, qPrintable(QStringLiteral("%1 %2").arg(s).arg(d)));
                sum += v;
                written.push_back(v);
            }
        QCOMPARE(sum, 8 * perRank);
        const QString path = m_dir.filePath(QStringLiteral("eight.txt"));
        QVERIFY(writeFile(path, n->text()));
        NcclRead r = ncclTestsRead(path, 8);
        QVERIFY2(!r.error, r.printed.constData());
        QCOMPARE(r.bytes, written);
        r = ncclTestsRead(path, 6);
        QVERIFY(!r.error);
        size_t sendCount = 0, recvCount = 0;
        nccl_tests_host::AlltoAllvComputeMaxCounts(&sendCount, &recvCount, 1, 6, 0);
        const auto ours = readTrafficMatrix(readAll(path), path);
        quint64 most = 0;
        for (int k = 0; k < 6; ++k)
            most = std::max({most, ours->sent(k, 6), ours->received(k, 6)});
        QCOMPARE(quint64(std::max(sendCount, recvCount)), most);
    }

    void readerFollowsAlltoallvPerf_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("scale");
        const QList<std::pair<const char*, QByteArray>> cases{
            {"the example of alltoallv.cu", "100  200  150\n50   100  75\n300  150  200\n"},
            {"blank lines, tabs, CRLF", "\n16 32\r\n\n 48\t64  \r\n\n"},
            {"no last newline", "16 32\n48 64"},
            {"number forms strtod takes", "1e3 0x40 +17 .5e2\n1.5E+03 16. 0 00032\n\v1 2 3 4\f\n4 3 2 1\n"},
            {"a comment line", "# moewb traffic\n16 32\n48 64\n"},
            {"ragged rows", "1 2 3\n4 5\n6 7 8\n"},
            {"last row short", "1 2\n3"},
            {"not square", "1 2 3\n4 5 6\n"},
            {"negative", "16 -32\n48 64\n"},
            {"text after a number", "16 32abc\n48 64\n"},
            {"decimal comma", "1,5 2\n3 4\n"},
            {"too large for a double", "1e400 1\n1 1\n"},
            {"too small for a double", "1e-400 1\n1 1\n"},
            {"infinite", "inf 1\n1 1\n"},
            {"over size_t", "1e20 1\n1 1\n"},
            {"empty", ""},
            {"only blank", "  \n\n\t\n"},
            {"one value", "4096\n"},
            {"a NUL ends the text", QByteArray("16 32\n48 64\n\0garbage", 20)},
            {"non-ASCII", "16 \xc2\xa0" "32\n48 64\n"},
        };
        for (const auto& [name, text] : cases)
            for (const char* scale : {"", "0.37", "3"})
                QTest::newRow(qPrintable(QStringLiteral("%1, scale %2").arg(QLatin1String(name),
                                                                             *scale ? scale : "unset")))
                    << text << QByteArray(scale);
    }

    void readerFollowsAlltoallvPerf() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, scale);
        const QString path = m_dir.filePath(QStringLiteral("case.txt"));
        QVERIFY(writeFile(path, text));
        const NcclRead theirs = ncclTestsRead(path, 1, scale);
        const auto s = scale.isEmpty() ? std::optional<double>(1.0) : importers::nccltests::parseMatrixScale(scale);
        QVERIFY(s);
        const auto ours = readTrafficMatrix(readAll(path), path, *s);
        QCOMPARE(ours.hasValue(), !theirs.error);
        if (theirs.error) {
            // The same message, word for word (PRINT's newline aside).
            QCOMPARE(ours.error().message + QLatin1Char('\n'), QString::fromUtf8(theirs.printed));
            return;
        }
        QCOMPARE(theirs.printed, QByteArray());
        QCOMPARE(ours->dim, theirs.dim);
        QCOMPARE(ours->bytes, theirs.bytes);
    }

    void readerRefusesWhatAlltoallvPerfTakesWithUndefinedBehaviour() {
        // strtod reads "nan" and alltoallv_perf converts it to size_t: undefined; refused here.
        const auto r = readTrafficMatrix("16 nan\n32 48\n", QStringLiteral("m.txt"));
        QVERIFY(!r);
        QCOMPARE(r.error().line, qint64(1));
        QVERIFY(r.error().message.contains(QLatin1String("nan")));
        QVERIFY(!importers::nccltests::parseMatrixScale("nan"));
        QVERIFY(!importers::nccltests::parseMatrixScale("2x"));
        QCOMPARE(*importers::nccltests::parseMatrixScale("-3"), 0.0); // as alltoallv_perf clamps it
        // The line a refusal names: the value's or the row's.
        QCOMPARE(readTrafficMatrix("1 2\n\n3 x\n", QStringLiteral("m.txt")).error().line, qint64(3));
        QCOMPARE(readTrafficMatrix("1 2\n3 4 5\n", QStringLiteral("m.txt")).error().line, qint64(2));
    }

    void fixturesPrintWhatAlltoallvPerfPrints_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("matrix");
        QTest::newRow("8 ranks") << fixture("nccl-tests/alltoallv-matrix-summary.txt")
                                 << fixture("nccl-tests-matrix/routed-8ranks.txt");
        QTest::newRow("2 ranks") << fixture("nccl-tests/alltoallv-tiny-2ranks-summary.txt")
                                 << fixture("nccl-tests-matrix/tiny-2ranks-1M.txt");
        QTest::newRow("cluster script") << fixture("nccl-tests/alltoall-then-alltoallv.txt")
                                        << fixture("nccl-tests-matrix/routed-8ranks.txt");
    }

    void fixturesPrintWhatAlltoallvPerfPrints() {
        // Every summary of the generated logs, printed again by AlltoAllvPrintRankBandwidths
        // from the matrix and the time it shows: the same lines, byte for byte; and every
        // alltoallv row's size and count as alltoallv_perf computes them.
        QFETCH(QString, log);
        QFETCH(QString, matrix);
        const QList<QByteArray> lines = readAll(log).split('\n');
        QVERIFY(lines.size() > 20);
        const QByteArray mark = "# NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY:";
        int summaries = 0, rows = 0;
        bool inAlltoallv = false;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QByteArray& line = lines[i];
            if (line.startsWith("# Collective test starting:"))
                inAlltoallv = line.contains("alltoallv_perf");
            const qsizetype at = line.indexOf(mark);
            if (at < 0)
                continue;
            const QByteArray head = line.mid(at);
            const int ranks = head.mid(head.indexOf("nranks=") + 7).split(' ').first().toInt();
            const double timeUs = head.mid(head.indexOf("time_usec=") + 10).toDouble();
            QVERIFY(ranks > 0 && timeUs > 0);
            NcclRead r = ncclTestsRead(matrix, ranks);
            QVERIFY(!r.error);
            const QByteArray printed = captureStdout(
                [&] { nccl_tests_host::AlltoAllvPrintRankBandwidths(ranks, 0, timeUs / 1.0E6); });
            QByteArray shown = head + '\n';
            for (int k = 1; k <= ranks; ++k)
                shown += lines.value(i + k) + '\n';
            QCOMPARE(shown, printed);
            ++summaries;
            if (at > 0 && line.simplified().split(' ').value(1) == "0") {
                // A row's preamble: size = max(send, recv) elements of float x 4; count 0.
                QVERIFY(inAlltoallv);
                const qint64 size = line.simplified().split(' ').first().toLongLong();
                size_t sendCount = 0, recvCount = 0, paramCount = 9, a = 0, b = 0;
                nccl_tests_host::AlltoAllvGetCollByteCount(&sendCount, &recvCount, &paramCount, &a, &b,
                                                           size_t(size) / 4, 4, ranks);
                QCOMPARE(paramCount, size_t(0));
                QCOMPARE(qint64(std::max(sendCount, recvCount) * 4), size);
                ++rows;
            }
        }
        QCOMPARE(summaries, 2 * rows); // out-of-place and in-place, each row
        QCOMPARE(rows, 3);
    }
};

QTEST_GUILESS_MAIN(TestNcclTestsMatrix)
#include "test_nccl_tests_matrix.moc"
