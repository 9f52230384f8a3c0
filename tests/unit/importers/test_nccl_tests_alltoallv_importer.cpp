// alltoallv_perf with a traffic matrix (nccl-tests >= 2.19, src/alltoallv.cu): rows split
// by NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1, rows without it (count 0, the busiest rank's
// size) that need the matrix file, and a cluster script running alltoall_perf then
// alltoallv_perf. Expected figures are counted from the files here, independently of the
// importer: rows = the lines that end a row, bytes per rank = the matrix file's sum / ranks.
#include "ImporterTestSupport.h"
#include "importers/NcclTestsMatrixFile.h"
#include "importers/NcclTestsTextImporter.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>
#include <memory>

using namespace moewb::importers;
using importer_test::fixture;
using importer_test::readFixture;

namespace {

// A matrix file as numbers, by a plain split (the fixtures hold whole multiples of 16).
struct Matrix {
    int n = 0;
    std::vector<qint64> v;
    qint64 sent(int r) const {
        qint64 s = 0;
        for (int d = 0; d < n; ++d)
            s += v[size_t(r * n + d)];
        return s;
    }
    qint64 received(int r) const {
        qint64 s = 0;
        for (int src = 0; src < n; ++src)
            s += v[size_t(src * n + r)];
        return s;
    }
};
Matrix plainMatrix(const QString& relative) {
    Matrix m;
    for (const QString& t : QString::fromUtf8(readFixture(relative)).split(QRegularExpression(QStringLiteral("\\s+")),
                                                                            Qt::SkipEmptyParts))
        m.v.push_back(t.toLongLong());
    m.n = int(std::lround(std::sqrt(double(m.v.size()))));
    return m;
}

// The lines of a log that end a data row: they start with a digit and hold no '#'.
struct RowEnds {
    QList<qint64> lines; // 1-based
    QList<double> outOfPlaceUs, inPlaceUs;
};
RowEnds rowEnds(const QByteArray& bytes) {
    RowEnds r;
    const QList<QByteArray> lines = bytes.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray t = lines[i].trimmed();
        if (t.isEmpty() || !std::isdigit(static_cast<unsigned char>(t[0])) || t.contains('#'))
            continue;
        const QList<QByteArray> tokens = t.simplified().split(' ');
        r.lines << i + 1;
        // A whole row: size count type redop root time ...; a row's last piece: time algbw busbw N/A.
        r.inPlaceUs << tokens[tokens.size() - 4].toDouble();
        if (tokens.size() == 13)
            r.outOfPlaceUs << tokens[5].toDouble();
    }
    return r;
}

std::shared_ptr<const nccltests::TrafficMatrixFile> matrixFile(const QString& relative, double scale = 1.0) {
    auto m = nccltests::readTrafficMatrix(readFixture(relative), relative, scale);
    if (!m)
        qFatal("%s", qPrintable(m.error().text()));
    return std::make_shared<const nccltests::TrafficMatrixFile>(m.value());
}

} // namespace

class TestNcclTestsAlltoallvImporter : public QObject {
    Q_OBJECT

    static ImportResult parse(const QString& relative, const NcclTestsTextOptions& options = {}) {
        return NcclTestsTextImporter::parseWith(readFixture(relative), relative, options);
    }
    static NcclTestsTextOptions withMatrix(const QString& relative, double scale = 1.0) {
        NcclTestsTextOptions o;
        o.alltoallvMatrix = matrixFile(relative, scale);
        return o;
    }

private slots:
    void summaryRowsAreJoinedAndGiveTheBytesPerRank() {
        const QString log = QStringLiteral("nccl-tests/alltoallv-matrix-summary.txt");
        const QByteArray bytes = readFixture(log);
        const Matrix m = plainMatrix(QStringLiteral("nccl-tests-matrix/routed-8ranks.txt"));
        QCOMPARE(m.n, 8);
        // Counted in the file: each row is its preamble, 8 rank lines, the out-of-place
        // body, 8 rank lines and the in-place body (3 + 2 x 8 lines), the summary twice.
        const RowEnds ends = rowEnds(bytes);
        QCOMPARE(ends.lines.size(), 3);
        QCOMPARE(ends.lines[1] - ends.lines[0], qint64(3 + 2 * 8));
        QCOMPARE(bytes.count("# NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY:"), qsizetype(2 * ends.lines.size()));
        QCOMPARE(bytes.count("\n#   rank="), qsizetype(2 * 8 * ends.lines.size()));
        qint64 total = 0, busiest = 0;
        int busiestRank = 0;
        for (int r = 0; r < 8; ++r) {
            total += m.sent(r);
            if (std::max(m.sent(r), m.received(r)) > busiest) {
                busiest = std::max(m.sent(r), m.received(r));
                busiestRank = r;
            }
        }
        QCOMPARE(total % 8, qint64(0));

        auto d = parse(log);
        QVERIFY2(d, d ? "" : qPrintable(d.error().text()));
        QCOMPARE(d->rows, qint64(ends.lines.size()));
        QCOMPARE(d->commSamples.size(), ends.lines.size());
        for (int i = 0; i < ends.lines.size(); ++i) {
            QCOMPARE(d->commSamples[i].bytesPerRank, quint64(total / 8)); // the mean row sum, not the size column
            QCOMPARE(d->commSamples[i].repeat, i);                      // -N 3: three cycles of one size
        }
        // The out-of-place time: the first figure of each row's second piece.
        const QList<QByteArray> lines = bytes.split('\n');
        for (int i = 0; i < ends.lines.size(); ++i) {
            const qint64 body = ends.lines[i] - 9; // above the row's last piece: 8 rank lines, then this
            QCOMPARE(d->commSamples[i].timeUs, lines[body - 1].simplified().split(' ').first().toDouble());
            QCOMPARE(d->environment.value(QStringLiteral("in_place_time_us")).toArray()[i].toDouble(),
                     ends.inPlaceUs[i]);
        }
        const QJsonObject& env = d->environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoallv"));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 8);
        QCOMPARE(env.value(QStringLiteral("pattern")).toString(), QStringLiteral("alltoallv_perf matrix"));
        QCOMPARE(env.value(QStringLiteral("pattern_origin")).toString(),
                 QStringLiteral("alltoallv_perf matrix (8×8, scale 1.000)"));
        const QJsonObject a = env.value(QStringLiteral("alltoallv")).toObject();
        QCOMPARE(a.value(QStringLiteral("mode")).toString(), QStringLiteral("matrix"));
        QCOMPARE(a.value(QStringLiteral("summary_rows")).toInteger(), qint64(ends.lines.size()));
        QCOMPARE(a.value(QStringLiteral("bytes_per_rank")).toInteger(), total / 8);
        QCOMPARE(a.value(QStringLiteral("busiest_rank")).toInt(), busiestRank);
        QCOMPARE(a.value(QStringLiteral("busiest_rank_bytes")).toInteger(), busiest);
        const QJsonArray ranks = a.value(QStringLiteral("ranks")).toArray();
        QCOMPARE(ranks.size(), 8);
        for (int r = 0; r < 8; ++r) {
            QCOMPARE(ranks[r].toObject().value(QStringLiteral("send_bytes")).toInteger(), m.sent(r));
            QCOMPARE(ranks[r].toObject().value(QStringLiteral("recv_bytes")).toInteger(), m.received(r));
        }
        // The rows print the busiest rank's bytes as their size.
        QVERIFY(bytes.contains(QByteArray::number(busiest) + "             0     float"));
    }

    void rowsWithoutSummaryNeedTheMatrix() {
        const QString log = QStringLiteral("nccl-tests/alltoallv-matrix-plain.txt");
        const RowEnds ends = rowEnds(readFixture(log));
        QCOMPARE(ends.lines.size(), 3);
        // Alone: count 0 says a matrix ran; its size is the busiest rank's: refused, saying how.
        auto d = parse(log);
        QVERIFY(!d);
        QCOMPARE(d.error().line, ends.lines[0]);
        QCOMPARE(d.error().field, QStringLiteral("count"));
        QVERIFY(d.error().message.contains(QLatin1String("NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1")));
        QVERIFY(d.error().message.contains(QLatin1String("--alltoallv-matrix FILE")));
        // With the matrix it read: the same samples as the summary gives.
        d = parse(log, withMatrix(QStringLiteral("nccl-tests-matrix/routed-8ranks.txt")));
        QVERIFY2(d, d ? "" : qPrintable(d.error().text()));
        auto withSummary = parse(QStringLiteral("nccl-tests/alltoallv-matrix-summary.txt"));
        QVERIFY(withSummary);
        QCOMPARE(d->rows, qint64(ends.lines.size()));
        QCOMPARE(d->commSamples.size(), withSummary->commSamples.size());
        for (int i = 0; i < d->commSamples.size(); ++i) {
            QCOMPARE(d->commSamples[i].bytesPerRank, withSummary->commSamples[i].bytesPerRank);
            QCOMPARE(d->commSamples[i].timeUs, ends.outOfPlaceUs[i]);
        }
        const QJsonObject a = d->environment.value(QStringLiteral("alltoallv")).toObject();
        QCOMPARE(a.value(QStringLiteral("source")).toString(), QStringLiteral("matrix file (--alltoallv-matrix)"));
        QVERIFY(d->environment.value(QStringLiteral("pattern_origin"))
                    .toString()
                    .startsWith(QStringLiteral("alltoallv_perf matrix nccl-tests-matrix/routed-8ranks.txt (8×8")));
        // Another scale than the run's: the busiest rank's bytes no longer match the rows.
        d = parse(log, withMatrix(QStringLiteral("nccl-tests-matrix/routed-8ranks.txt"), 0.5));
        QVERIFY(!d);
        QCOMPARE(d.error().field, QStringLiteral("size"));
        QCOMPARE(d.error().line, ends.lines[0]);
        // A matrix smaller than the ranks: alltoallv_perf's own refusal, on the matrix file.
        d = parse(log, withMatrix(QStringLiteral("nccl-tests-matrix/tiny-2ranks-1M.txt")));
        QVERIFY(!d);
        QCOMPARE(d.error().file, QStringLiteral("nccl-tests-matrix/tiny-2ranks-1M.txt"));
        QVERIFY(d.error().message.contains(QLatin1String("requested nranks (8) is larger than matrix size (2)")));
    }

    void summaryIsCheckedAgainstTheMatrixGiven() {
        const QString log = QStringLiteral("nccl-tests/alltoallv-matrix-summary.txt");
        auto d = parse(log, withMatrix(QStringLiteral("nccl-tests-matrix/routed-8ranks.txt")));
        QVERIFY2(d, d ? "" : qPrintable(d.error().text()));
        QVERIFY(d->environment.value(QStringLiteral("alltoallv"))
                    .toObject()
                    .value(QStringLiteral("source"))
                    .toString()
                    .contains(QLatin1String(" + ")));
        // At scale 2 every rank would send twice as much: not the matrix this run read.
        d = parse(log, withMatrix(QStringLiteral("nccl-tests-matrix/routed-8ranks.txt"), 2.0));
        QVERIFY(!d);
        QCOMPARE(d.error().field, QStringLiteral("send_bytes"));
        const qint64 firstSummary = readFixture(log).left(readFixture(log).indexOf("NCCL_TESTS_ALLTOALLV")).count('\n') + 1;
        QCOMPARE(d.error().line, firstSummary);
    }

    void clusterScriptOfUniformThenRouted() {
        // alltoall_perf at 64 MiB per rank, then alltoallv_perf with the matrix: the first is
        // imported by default, the routed one with --collective alltoallv; both at the same
        // bytes per rank, which is what `moewb traffic compare` pairs.
        const QString log = QStringLiteral("nccl-tests/alltoall-then-alltoallv.txt");
        const QByteArray bytes = readFixture(log);
        const RowEnds ends = rowEnds(bytes);
        QCOMPARE(ends.lines.size(), 6); // 3 alltoall rows (one line each), 3 alltoallv rows
        const qint64 routedStarts = bytes.left(bytes.indexOf("Collective test starting: alltoallv_perf")).count('\n');
        auto uniform = parse(log);
        QVERIFY2(uniform, uniform ? "" : qPrintable(uniform.error().text()));
        QCOMPARE(uniform->environment.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QCOMPARE(uniform->rows, 3);
        QVERIFY(!uniform->environment.contains(QStringLiteral("pattern_origin")));
        const QJsonObject skipped = uniform->environment.value(QStringLiteral("skipped_sections")).toArray()[0].toObject();
        QCOMPARE(skipped.value(QStringLiteral("test")).toString(), QStringLiteral("alltoallv"));
        QCOMPARE(skipped.value(QStringLiteral("first_line")).toInteger(), routedStarts); // its version line
        NcclTestsTextOptions routedOnly;
        routedOnly.collective = QStringLiteral("alltoallv");
        auto routed = parse(log, routedOnly);
        QVERIFY2(routed, routed ? "" : qPrintable(routed.error().text()));
        QCOMPARE(routed->rows, 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(routed->commSamples[i].bytesPerRank, uniform->commSamples[i].bytesPerRank);
            QCOMPARE(routed->commSamples[i].bytesPerRank, quint64(64) << 20);
            QCOMPARE(uniform->commSamples[i].timeUs, ends.outOfPlaceUs[i]);
        }
        QVERIFY(routed->environment.contains(QStringLiteral("pattern_origin")));
    }

    void pastedSummaryTableGivesItsRanks() {
        // The table alone (column header to the last row), pasted: alltoallv rows never give
        // the ranks, but the summary's nranks does.
        const QByteArray bytes = readFixture(QStringLiteral("nccl-tests/alltoallv-matrix-summary.txt"));
        const QByteArray table = bytes.mid(bytes.indexOf("#       size"), bytes.indexOf("# Out of bounds") -
                                                                                  bytes.indexOf("#       size"));
        NcclTestsTextOptions given;
        given.collective = QStringLiteral("alltoallv");
        auto d = NcclTestsTextImporter::parseWith(table, QStringLiteral("pasted.txt"), given);
        QVERIFY2(d, d ? "" : qPrintable(d.error().text()));
        QCOMPARE(d->environment.value(QStringLiteral("world")).toInt(), 8);
        QVERIFY(d->environment.value(QStringLiteral("derived"))
                    .toObject()
                    .value(QStringLiteral("world"))
                    .toString()
                    .contains(QLatin1String("nranks")));
        QCOMPARE(d->rows, 3);
    }

    void brokenSummariesAreRefusedWhereTheyBreak() {
        const QByteArray bytes = readFixture(QStringLiteral("nccl-tests/alltoallv-matrix-summary.txt"));
        QList<QByteArray> lines = bytes.split('\n');
        qsizetype firstRow = -1; // 0-based: the first row's preamble, where its summary starts
        for (qsizetype i = 0; i < lines.size() && firstRow < 0; ++i)
            if (lines[i].contains("-1# NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY"))
                firstRow = i;
        QVERIFY(firstRow > 0);
        auto join = [](const QList<QByteArray>& l) { return l.join('\n'); };
        // A rank line missing: rank 4 where rank 3 belongs.
        QList<QByteArray> missing = lines;
        missing.removeAt(firstRow + 4);
        auto d = NcclTestsTextImporter::parse(join(missing), QStringLiteral("m.txt"));
        QVERIFY(!d);
        QCOMPARE(d.error().line, firstRow + 4 + 1);
        QCOMPARE(d.error().field, QStringLiteral("rank"));
        // Cut inside a row (after its first rank lines): the row never ends.
        QList<QByteArray> cut = lines.mid(0, firstRow + 3);
        d = NcclTestsTextImporter::parse(join(cut) + '\n', QStringLiteral("m.txt"));
        QVERIFY(!d);
        QCOMPARE(d.error().line, firstRow + 1);
        QCOMPARE(d.error().field, QStringLiteral("row"));
        // A summary of other ranks than the test's.
        QByteArray other = bytes;
        other.replace("nranks=8 matrix_dim=8", "nranks=4 matrix_dim=8");
        d = NcclTestsTextImporter::parse(other, QStringLiteral("m.txt"));
        QVERIFY(!d);
        QVERIFY2(d.error().field == QLatin1String("rank") || d.error().field == QLatin1String("nranks"),
                 qPrintable(d.error().text()));
    }
};

QTEST_GUILESS_MAIN(TestNcclTestsAlltoallvImporter)
#include "test_nccl_tests_alltoallv_importer.moc"
