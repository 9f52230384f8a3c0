// NcclTestsTextImporter: the real nccl-tests outputs (old and new layouts), -I columns,
// exponent forms, repeated sweeps, and the files it must refuse.
#include "ImporterTestSupport.h"
#include "importers/NcclTestsTextImporter.h"

#include <QJsonArray>

#include <cmath>

using namespace moewb::importers;
using importer_test::fixture;

class TestNcclTestsTextImporter : public QObject {
    Q_OBJECT

    static ImportedData load(const QString& relative) {
        auto r = NcclTestsTextImporter::importFile(fixture(relative));
        if (!r.hasValue())
            qFatal("%s", qPrintable(r.error().text()));
        return r.value();
    }

private slots:
    void oldLayoutSuperbenchA100() {
        // `error` column (N/A), no root, an empty redop, 8 ranks in one process, five 0-byte rows.
        const ImportedData d = load(QStringLiteral("real/nccltests_alltoall_superbench_a100.txt"));
        QCOMPARE(d.format, QStringLiteral("nccl-tests"));
        QCOMPARE(d.kind, moewb::store::RunKind::Imported);
        QCOMPARE(d.rows, 34);
        QCOMPARE(d.commSamples.size(), 34);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(d.commSamples[i].bytesPerRank, quint64(0));
            QCOMPARE(d.commSamples[i].repeat, i); // the size's occurrence
            QCOMPARE(d.commSamples[i].iteration, 0);
        }
        QCOMPARE(d.commSamples[0].timeUs, 1.63);
        QCOMPARE(d.commSamples[4].timeUs, 1.34);
        QCOMPARE(d.commSamples[5].bytesPerRank, quint64(32));
        QCOMPARE(d.commSamples[5].timeUs, 89.00);
        QCOMPARE(d.commSamples[33].bytesPerRank, quint64(8589934592));
        QCOMPARE(d.commSamples[33].repeat, 0);
        QCOMPARE(d.commSamples[33].timeUs, 33508.0);
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QVERIFY(env.value(QStringLiteral("collective_source")).toString().startsWith(QStringLiteral("assumed")));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 8);
        QCOMPARE(env.value(QStringLiteral("hostnames")).toArray(), QJsonArray{QStringLiteral("localhost")});
        QCOMPARE(env.value(QStringLiteral("gpu_models")).toArray(), QJsonArray{QStringLiteral("A100-SXM4-40GB")});
        QCOMPARE(env.value(QStringLiteral("avg_busbw_gbps")).toDouble(), 58.6481);
        QCOMPARE(env.value(QStringLiteral("options")).toObject().value(QStringLiteral("iters")).toInt(), 20);
        const QJsonArray inPlace = env.value(QStringLiteral("in_place_time_us")).toArray();
        QCOMPARE(inPlace.size(), 34);
        QCOMPARE(inPlace[33].toDouble(), 33234.0);
    }

    void newLayoutOciGb300WithCutRankList() {
        // root + #wrong, "Collective test starting" lines, a bare "..." in the rank list,
        // a "# Truncated" comment inside the table, 64 ranks, two rows.
        const ImportedData d = load(QStringLiteral("real/nccltests_alltoall_oci-gb300-16hosts.txt"));
        QCOMPARE(d.rows, 2);
        QCOMPARE(d.commSamples[0].bytesPerRank, quint64(8589934592));
        QCOMPARE(d.commSamples[0].timeUs, 13028.0);
        QCOMPARE(d.commSamples[1].bytesPerRank, quint64(17179869184));
        QCOMPARE(d.commSamples[1].timeUs, 25357.0);
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QCOMPARE(env.value(QStringLiteral("collective_source")).toString(), QStringLiteral("named by the file"));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 64);
        QCOMPARE(env.value(QStringLiteral("ranks_listed")).toInt(), 4);
        QCOMPARE(env.value(QStringLiteral("rank_list_complete")).toBool(), false);
        QCOMPARE(env.value(QStringLiteral("nccl_version")).toString(), QStringLiteral("2.28.7+cuda13.0"));
        QCOMPARE(env.value(QStringLiteral("avg_busbw_gbps")).toDouble(), 370.718);
        QCOMPARE(env.value(QStringLiteral("hostnames")).toArray(),
                 (QJsonArray{QStringLiteral("GPU-5705"), QStringLiteral("GPU-6569")}));
    }

    void perIterationColumnsAndExponentTimes() {
        const ImportedData d = load(QStringLiteral("nccl-tests/alltoallv-per-iteration.txt"));
        QCOMPARE(d.rows, 3);
        QCOMPARE(d.commSamples[0].timeUs, 52.31);
        QCOMPARE(d.commSamples[1].timeUs, 1015.2);
        QCOMPARE(d.commSamples[2].bytesPerRank, quint64(4294967296));
        QCOMPARE(d.commSamples[2].timeUs, 61000.0); // printed 6.1e+04
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoallv"));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 4);
        QCOMPARE(env.value(QStringLiteral("nccl_tests_version")).toString(), QStringLiteral("2.17.6"));
        QCOMPARE(env.value(QStringLiteral("nccl_version_code")).toInteger(), 22705);
        QCOMPARE(env.value(QStringLiteral("nccl_version")).toString(), QStringLiteral("2.27.5+cuda12.9"));
        QCOMPARE(env.value(QStringLiteral("in_place_time_us")).toArray()[2].toDouble(), 60000.0);
        // -I: the out-of-place i_min, i_max, i_p99, i_cv% of each row (tokens 10-13 of the
        // fixture's own data lines), kept as within-run figures.
        const QJsonObject per = env.value(QStringLiteral("per_iteration")).toObject();
        int row = 0;
        for (const QByteArray& line :
             importer_test::readFixture(QStringLiteral("nccl-tests/alltoallv-per-iteration.txt")).split('\n')) {
            const QList<QByteArray> t = line.simplified().split(' ');
            if (t.size() != 21 || line.trimmed().startsWith('#'))
                continue;
            QCOMPARE(per.value(QStringLiteral("min_us")).toArray()[row].toDouble(), t[9].toDouble());
            QCOMPARE(per.value(QStringLiteral("max_us")).toArray()[row].toDouble(), t[10].toDouble());
            QCOMPARE(per.value(QStringLiteral("p99_us")).toArray()[row].toDouble(), t[11].toDouble());
            QCOMPARE(per.value(QStringLiteral("cv_pct")).toArray()[row].toDouble(), t[12].toDouble());
            ++row;
        }
        QCOMPARE(row, 3);
        QCOMPARE(per.value(QStringLiteral("cv_pct")).toArray().size(), 3);
        // Without -I nothing is invented.
        QVERIFY(!load(QStringLiteral("nccl-tests/cluster-script-five-tests.txt"))
                     .environment.contains(QStringLiteral("per_iteration")));
    }

    void twoSweepsBecomeTwoRepeats() {
        const ImportedData d = load(QStringLiteral("nccl-tests/alltoall-two-sweeps-exponent-sizes.txt"));
        QCOMPARE(d.rows, 4);
        QCOMPARE(d.commSamples[0].bytesPerRank, quint64(1048576)); // printed 1.048576e+06
        QCOMPARE(d.commSamples[0].repeat, 0);
        QCOMPARE(d.commSamples[2].bytesPerRank, quint64(1048576));
        QCOMPARE(d.commSamples[2].repeat, 1);
        QCOMPARE(d.commSamples[2].timeUs, 42.0);
        QCOMPARE(d.commSamples[3].timeUs, 69.0);
        QCOMPARE(d.environment.value(QStringLiteral("world")).toInt(), 2);
    }

    void cpuTimeAndTimestampColumns() {
        // -C (cputime) and -T (a two-token timestamp after the last column).
        const ImportedData d = load(QStringLiteral("nccl-tests/alltoall-timestamps-cputime.txt"));
        QCOMPARE(d.rows, 2);
        QCOMPARE(d.commSamples[0].bytesPerRank, quint64(65536));
        QCOMPARE(d.commSamples[0].timeUs, 25.0);
        QCOMPARE(d.commSamples[1].timeUs, 30.0);
        QCOMPARE(d.environment.value(QStringLiteral("world")).toInt(), 4);
        QCOMPARE(d.environment.value(QStringLiteral("in_place_time_us")).toArray()[1].toDouble(), 29.5);
    }

    void allReduceIsRecognisedAndRefused() {
        const QString path = fixture(QStringLiteral("real/nccltests_allreduce_cscs-gh200.txt"));
        auto r = NcclTestsTextImporter::importFile(path);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(), path + QStringLiteral(":2: collective: is all_reduce, not alltoall or alltoallv; "
                                                         "only all-to-all tests are imported"));
        // Detection still calls it nccl-tests, so the message is the precise one.
        auto viaDetection = importFile(path);
        QVERIFY(!viaDetection.hasValue());
        QCOMPARE(viaDetection.error().field, QStringLiteral("collective"));
    }

    void interleavedOneRankJobsAreRefused() {
        const QString path = fixture(QStringLiteral("real/nccltests_alltoall_chausat-a800-12x1rank.txt"));
        auto r = importFile(path);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 4);
        QCOMPARE(r.error().field, QStringLiteral("header"));
        QVERIFY2(r.error().message.startsWith(QStringLiteral("holds 12 interleaved nccl-tests runs (12 \"# nThread\" "
                                                             "headers before the first table, rank 0 listed 12 times)")),
                 qPrintable(r.error().message));
    }

    void crlfLineEndings() {
        QByteArray bytes = importer_test::readFixture(QStringLiteral("nccl-tests/alltoallv-per-iteration.txt"));
        bytes.replace("\n", "\r\n");
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("crlf.txt"));
        QVERIFY(r.hasValue());
        QCOMPARE(r->rows, 3);
    }

    void truncatedRowIsNamed() {
        QByteArray bytes = importer_test::readFixture(QStringLiteral("real/nccltests_alltoall_superbench_a100.txt"));
        bytes = bytes.left(bytes.indexOf("  1189.1") + 5); // stop inside the 268435456-byte row
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("cut.txt"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(), QStringLiteral("cut.txt:44: row: the file ends inside this row (truncated)"));
    }

    void absurdHeaderIsRefused() {
        QByteArray header = "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 1 iters: 1 validation: 0\n"
                            "#  size count type redop root";
        for (int i = 0; i < 70; ++i)
            header += " time";
        auto r = NcclTestsTextImporter::parse(header + "\n", QStringLiteral("wide.txt"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 2);
        QCOMPARE(r.error().field, QStringLiteral("header"));
    }

    // ---- Pasted fragments -------------------------------------------------------
private:
    // What the test expects is computed from the fixture's own rows: nccl-tests prints
    // an alltoall's size = ranks x count x type size (src/alltoall.cu), and algbw =
    // size / time.
    struct FixtureRow {
        qint64 line = 0;
        qint64 size = 0;
        qint64 count = 0;
        QString type;
        double time = 0;
        QStringList tokens;
    };
    static QList<FixtureRow> fixtureRows(const QByteArray& bytes) {
        QList<FixtureRow> rows;
        qint64 n = 0;
        for (const QByteArray& raw : bytes.split('\n')) {
            ++n;
            const QStringList t = QString::fromUtf8(raw).simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
            if (t.size() < 6 || !t[0].front().isDigit())
                continue;
            // The out-of-place time: after size count type [redop] [root].
            const int left = t.size() == 11 ? 3 : t.size() == 12 ? 4 : 5;
            rows << FixtureRow{n, t[0].toLongLong(), t[1].toLongLong(), t[2], t[left].toDouble(), t};
        }
        return rows;
    }
    static int typeBytes(const QString& type) { return type == QLatin1String("bfloat16") ? 2 : 4; }
    static NcclTestsTextOptions given(int ranks, const char* collective) {
        return NcclTestsTextOptions{ranks, QString::fromLatin1(collective), {}};
    }

private slots:
    void pastedHeaderAndRowsDeriveTheRanks() {
        // Only the column header and the rows (from a chat): no "# nThread", no rank list,
        // no summary, and no newline after the last row.
        const QByteArray bytes = importer_test::readFixture(QStringLiteral("nccl-tests/pasted-header-and-rows.txt"));
        QVERIFY(!bytes.endsWith('\n'));
        const QList<FixtureRow> rows = fixtureRows(bytes);
        QCOMPARE(rows.size(), 4);
        const qint64 ranks = rows[0].size / (rows[0].count * typeBytes(rows[0].type));
        for (const FixtureRow& r : rows)
            QCOMPARE(r.size, ranks * r.count * typeBytes(r.type));
        QVERIFY(ranks > 1);

        // Not named: alltoall and all_gather print the same rows, so the importer asks.
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("paste.txt"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, rows[0].line);
        QCOMPARE(r.error().field, QStringLiteral("collective"));
        QVERIFY2(r.error().message.contains(QStringLiteral("--collective alltoall")), qPrintable(r.error().message));

        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("paste.txt"), given(0, "alltoall"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, rows.size());
        QCOMPARE(r->commSamples.size(), rows.size());
        for (int i = 0; i < rows.size(); ++i) {
            QCOMPARE(r->commSamples[i].bytesPerRank, quint64(rows[i].size));
            QCOMPARE(r->commSamples[i].timeUs, rows[i].time);
            QCOMPARE(r->commSamples[i].repeat, 0);
        }
        const QJsonObject& env = r->environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QCOMPARE(env.value(QStringLiteral("collective_source")).toString(), QStringLiteral("given: --collective"));
        QCOMPARE(env.value(QStringLiteral("world")).toInteger(), ranks);
        QCOMPARE(env.value(QStringLiteral("world_source")).toString(), QStringLiteral("derived"));
        QCOMPARE(env.value(QStringLiteral("fragment")).toBool(), true);
        const QJsonObject derived = env.value(QStringLiteral("derived")).toObject();
        QVERIFY2(derived.value(QStringLiteral("world")).toString().startsWith(QString::number(ranks) + QStringLiteral(" = size / (count")),
                 qPrintable(derived.value(QStringLiteral("world")).toString()));
        QVERIFY(!derived.contains(QStringLiteral("columns"))); // the header was pasted
        QCOMPARE(env.value(QStringLiteral("rank_list_complete")).toBool(true), false);
        QCOMPARE(env.value(QStringLiteral("in_place_time_us")).toArray().size(), rows.size());

        // --ranks that the rows contradict is refused at the first row; the right one is taken.
        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("paste.txt"), given(int(ranks) * 2, "alltoall"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, rows[0].line);
        QCOMPARE(r.error().field, QStringLiteral("count"));
        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("paste.txt"), given(int(ranks), "alltoall"));
        QVERIFY(r.hasValue());
        QCOMPARE(r->environment.value(QStringLiteral("world_source")).toString(), QStringLiteral("given: --ranks"));
        QVERIFY(!r->environment.contains(QStringLiteral("derived")));

        // A last row cut short (no newline, values missing) is still refused.
        QByteArray cut = bytes;
        cut.chop(20);
        r = NcclTestsTextImporter::parseWith(cut, QStringLiteral("cut.txt"), given(0, "alltoall"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, rows.last().line);
        QCOMPARE(r.error().field, QStringLiteral("row"));
    }

    void pastedRowsOnlyDeriveTheColumns() {
        // Rows only (old layout: 11 values, an empty redop), a chat line above them, two
        // sweeps of the same sizes.
        const QByteArray bytes = importer_test::readFixture(QStringLiteral("nccl-tests/pasted-rows-only.txt"));
        const QList<FixtureRow> rows = fixtureRows(bytes);
        QCOMPARE(rows.size(), 6);
        QCOMPARE(rows[0].tokens.size(), 11);
        const qint64 ranks = rows[0].size / (rows[0].count * 4);
        auto r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("rows.txt"), given(0, "alltoall"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, 6);
        for (int i = 0; i < rows.size(); ++i) {
            QCOMPARE(r->commSamples[i].bytesPerRank, quint64(rows[i].size));
            QCOMPARE(r->commSamples[i].timeUs, rows[i].time);
            QCOMPARE(r->commSamples[i].repeat, i < 3 ? 0 : 1); // the second sweep
            // The importer checked algbw = size / time against the row; so does the test.
            QVERIFY(std::abs(rows[i].tokens[4].toDouble() - rows[i].size / rows[i].time / 1e3) < 0.011);
        }
        const QJsonObject& env = r->environment;
        QCOMPARE(env.value(QStringLiteral("world")).toInteger(), ranks);
        const QJsonObject derived = env.value(QStringLiteral("derived")).toObject();
        QVERIFY(derived.contains(QStringLiteral("world")));
        QVERIFY2(derived.value(QStringLiteral("columns")).toString().contains(QStringLiteral("11-value rows")),
                 qPrintable(derived.value(QStringLiteral("columns")).toString()));
        QCOMPARE(env.value(QStringLiteral("in_place_time_us")).toArray()[0].toDouble(), rows[0].tokens[7].toDouble());

        // alltoallv's rows do not give the ranks (its sizes follow its pattern): asked for.
        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("rows.txt"), given(0, "alltoallv"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("ranks"));
        QVERIFY(r.error().message.contains(QStringLiteral("--ranks N")));
        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("rows.txt"), given(int(ranks), "alltoallv"));
        QVERIFY(r.hasValue());
        QCOMPARE(r->environment.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoallv"));
        QCOMPARE(r->environment.value(QStringLiteral("world")).toInteger(), ranks);
    }

    void everyRowLayoutIsDerived() {
        // The rows of the other fixtures without anything above them: 13 values (new
        // layout), 15 (-T timestamp), 21 (-I per-iteration columns).
        const struct {
            const char* fixture;
            int values;
            const char* collective;
        } cases[] = {{"nccl-tests/pasted-named-alltoall.txt", 13, "alltoall"},
                     {"nccl-tests/alltoall-timestamps-cputime.txt", 15, "alltoall"},
                     {"nccl-tests/alltoallv-per-iteration.txt", 21, "alltoallv"}};
        for (const auto& c : cases) {
            QByteArray rowsOnly;
            const QByteArray bytes = importer_test::readFixture(QString::fromLatin1(c.fixture));
            QList<FixtureRow> rows = fixtureRows(bytes);
            for (const QByteArray& raw : bytes.split('\n'))
                if (!raw.trimmed().isEmpty() && QChar::fromLatin1(raw.trimmed().front()).isDigit())
                    rowsOnly += raw + '\n';
            QVERIFY(!rows.isEmpty());
            QCOMPARE(rows[0].tokens.size(), c.values);
            const int ranks = int(rows[0].size / (rows[0].count * typeBytes(rows[0].type)));
            auto r = NcclTestsTextImporter::parseWith(rowsOnly, QStringLiteral("rows.txt"),
                                                      given(QLatin1String(c.collective) == QLatin1String("alltoallv") ? ranks : 0,
                                                            c.collective));
            QVERIFY2(r.hasValue(), r.hasValue() ? c.fixture : qPrintable(r.error().text()));
            QCOMPARE(r->rows, rows.size());
            for (int i = 0; i < rows.size(); ++i)
                QCOMPARE(r->commSamples[i].timeUs, rows[i].time);
            QCOMPARE(r->environment.value(QStringLiteral("world")).toInt(), ranks);
            QVERIFY(r->environment.value(QStringLiteral("derived")).toObject().value(QStringLiteral("columns"))
                        .toString()
                        .contains(QStringLiteral("%1-value rows").arg(c.values)));
        }
    }

    void pastedNamedTableNeedsNoOption() {
        // "# Collective test starting: alltoall_perf" pasted with the table: the ranks come
        // from the rows (bfloat16: 2 bytes an element).
        const QByteArray bytes = importer_test::readFixture(QStringLiteral("nccl-tests/pasted-named-alltoall.txt"));
        const QList<FixtureRow> rows = fixtureRows(bytes);
        QCOMPARE(rows[0].type, QStringLiteral("bfloat16"));
        const qint64 ranks = rows[0].size / (rows[0].count * 2);
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("named.txt"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->environment.value(QStringLiteral("collective_source")).toString(), QStringLiteral("named by the file"));
        QCOMPARE(r->environment.value(QStringLiteral("world")).toInteger(), ranks);
        QCOMPARE(r->environment.value(QStringLiteral("data_type")).toString(), QStringLiteral("bfloat16"));
        // The file names alltoall; --collective alltoallv contradicts it.
        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("named.txt"), given(0, "alltoallv"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 1);
        QCOMPARE(r.error().field, QStringLiteral("collective"));
    }

    void givenFactsAreCheckedAgainstWholeFiles() {
        // A rank list of 4: --ranks 8 contradicts it; --ranks 4 agrees.
        const QByteArray bytes = importer_test::readFixture(QStringLiteral("nccl-tests/alltoallv-per-iteration.txt"));
        auto r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("v.txt"), given(8, ""));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("ranks"));
        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("v.txt"), given(4, "alltoallv"));
        QVERIFY(r.hasValue());
        QCOMPARE(r->environment.value(QStringLiteral("world_source")).toString(), QStringLiteral("rank list"));
        QVERIFY(!r->environment.contains(QStringLiteral("fragment")));
        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("v.txt"), given(0, "all_reduce"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("collective"));
    }

    void whatCannotBeDerivedIsAskedFor() {
        const QByteArray header = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
        // Only 0-byte rows: neither the test nor the ranks can be told; both are asked for.
        const QByteArray zeros = header + "           0             0     float    none      -1     1.63    0.00    0.00      0     1.38    0.00    0.00      0\n";
        auto r = NcclTestsTextImporter::parse(zeros, QStringLiteral("z.txt"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 2);
        QVERIFY2(r.error().message.contains(QStringLiteral("--collective alltoall --ranks N")), qPrintable(r.error().message));
        r = NcclTestsTextImporter::parseWith(zeros, QStringLiteral("z.txt"), given(0, "alltoall"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("ranks"));
        r = NcclTestsTextImporter::parseWith(zeros, QStringLiteral("z.txt"), given(2, "alltoall"));
        QVERIFY(r.hasValue());
        QCOMPARE(r->environment.value(QStringLiteral("world")).toInt(), 2);
        // A type of no known size: the ranks cannot be derived.
        const QByteArray odd = header + "        4096           256    mytype    none      -1    10.00    0.41    0.31      0    10.00    0.41    0.31      0\n";
        r = NcclTestsTextImporter::parseWith(odd, QStringLiteral("t.txt"), given(0, "alltoall"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("ranks"));
        QVERIFY(r.error().message.contains(QStringLiteral("mytype")));
        // A reduction is never taken for an all-to-all, named or not.
        const QByteArray sum = header + "        4096          1024     float     sum      -1    10.00    0.41    0.41      0    10.00    0.41    0.41      0\n";
        r = NcclTestsTextImporter::parseWith(sum, QStringLiteral("s.txt"), given(0, "alltoall"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("redop"));
    }

    // ---- Logs as they are run: several tests, NCCL_DEBUG output, failures ------
private:
    // The log's tests as the test itself reads them: each "# Collective test starting: X"
    // with the "# nccl-tests version" line above it starts one; its rows are the lines
    // whose first token is a number (not "host:pid:tid") and that have 13 values.
    struct LogTest {
        QString name;
        qint64 first = 0, last = 0;
        QList<qint64> sizes;
    };
    static QList<LogTest> logTests(const QByteArray& bytes) {
        QList<LogTest> tests;
        const QList<QByteArray> lines = bytes.split('\n');
        const qint64 count = bytes.endsWith('\n') ? lines.size() - 1 : lines.size();
        for (qint64 n = 1; n <= count; ++n) {
            const QString line = QString::fromUtf8(lines[n - 1]).trimmed();
            if (line.startsWith(QLatin1String("# nccl-tests version"))) {
                if (!tests.isEmpty())
                    tests.last().last = n - 1;
                tests << LogTest{{}, n, 0, {}};
            } else if (line.startsWith(QLatin1String("# Collective test starting: "))) {
                tests.last().name = line.mid(28).remove(QLatin1String("_perf"));
            } else if (!tests.isEmpty()) {
                const QStringList t = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
                bool number = false;
                const qint64 size = t.value(0).toLongLong(&number);
                if (number && t.size() == 13)
                    tests.last().sizes << size;
            }
        }
        tests.last().last = count;
        return tests;
    }
    static QJsonObject entryFor(const QJsonArray& sections, const QString& test) {
        for (const QJsonValue& v : sections)
            if (v.toObject().value(QStringLiteral("test")).toString() == test)
                return v.toObject();
        return {};
    }

private slots:
    void clusterScriptLogImportsItsAllToAll() {
        // all_reduce, all_gather, reduce_scatter, alltoall, sendrecv run into one log.
        const QByteArray bytes =
            importer_test::readFixture(QStringLiteral("nccl-tests/cluster-script-five-tests.txt"));
        const QList<LogTest> tests = logTests(bytes);
        QCOMPARE(tests.size(), 5);
        const LogTest& a2a = tests[3];
        QCOMPARE(a2a.name, QStringLiteral("alltoall"));
        QVERIFY(a2a.sizes.size() > 1);
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("five.txt"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, a2a.sizes.size());
        QCOMPARE(r->commSamples.size(), a2a.sizes.size());
        for (int i = 0; i < a2a.sizes.size(); ++i) {
            QCOMPARE(r->commSamples[i].bytesPerRank, quint64(a2a.sizes[i]));
            QCOMPARE(r->commSamples[i].repeat, 0);
        }
        const QJsonObject& env = r->environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 8);
        QCOMPARE(
            env.value(QStringLiteral("options")).toObject().value(QStringLiteral("min_bytes")).toInteger(),
            1048576);
        const QJsonArray skipped = env.value(QStringLiteral("skipped_sections")).toArray();
        QCOMPARE(skipped.size(), 4);
        for (const LogTest& t : tests) {
            if (t.name == QLatin1String("alltoall"))
                continue;
            const QJsonObject o = entryFor(skipped, t.name);
            QVERIFY2(!o.isEmpty(), qPrintable(t.name));
            QCOMPARE(o.value(QStringLiteral("first_line")).toInteger(), t.first);
            QCOMPARE(o.value(QStringLiteral("last_line")).toInteger(), t.last);
            QCOMPARE(o.value(QStringLiteral("line")).toInteger(),
                     t.first + 1); // its "Collective test starting" line
            QCOMPARE(o.value(QStringLiteral("reason")).toString(),
                     QStringLiteral("is %1, not alltoall or alltoallv; only all-to-all tests are imported")
                         .arg(t.name));
        }
        const QJsonArray read = env.value(QStringLiteral("sections_read")).toArray();
        QCOMPARE(read.size(), 1);
        QCOMPARE(read[0].toObject().value(QStringLiteral("first_line")).toInteger(), a2a.first);
        QCOMPARE(read[0].toObject().value(QStringLiteral("last_line")).toInteger(), a2a.last);
        QCOMPARE(read[0].toObject().value(QStringLiteral("rows")).toInteger(), a2a.sizes.size());
        // Detection reads it as nccl-tests too.
        auto detected = importFile(fixture(QStringLiteral("nccl-tests/cluster-script-five-tests.txt")));
        QVERIFY(detected.hasValue());
        QCOMPARE(detected->rows, a2a.sizes.size());
    }

    void firstAllToAllOfSeveralIsTakenOrTheOneAskedFor() {
        // The same log with all_gather_perf renamed alltoallv_perf (its rows fit an
        // alltoall's too): two all-to-all tests with data.
        QByteArray bytes =
            importer_test::readFixture(QStringLiteral("nccl-tests/cluster-script-five-tests.txt"));
        bytes.replace("all_gather_perf", "alltoallv_perf");
        const QList<LogTest> tests = logTests(bytes);
        QCOMPARE(tests[1].name, QStringLiteral("alltoallv"));
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("two.txt"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->environment.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoallv"));
        QCOMPARE(r->rows, tests[1].sizes.size());
        QCOMPARE(r->commSamples[0].timeUs, 71.99); // all_gather's first row, as the fixture prints it
        QJsonObject other = entryFor(r->environment.value(QStringLiteral("skipped_sections")).toArray(),
                                     QStringLiteral("alltoall"));
        QCOMPARE(other.value(QStringLiteral("first_line")).toInteger(), tests[3].first);
        QVERIFY2(other.value(QStringLiteral("reason"))
                     .toString()
                     .contains(QStringLiteral("--collective alltoall")),
                 qPrintable(other.value(QStringLiteral("reason")).toString()));
        // --collective alltoall takes the other one.
        r = NcclTestsTextImporter::parseWith(bytes, QStringLiteral("two.txt"), given(0, "alltoall"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->environment.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QCOMPARE(r->rows, tests[3].sizes.size());
        other = entryFor(r->environment.value(QStringLiteral("skipped_sections")).toArray(),
                         QStringLiteral("alltoallv"));
        QCOMPARE(other.value(QStringLiteral("reason")).toString(),
                 QStringLiteral("is alltoallv, but --collective says alltoall"));
    }

    void failedAllToAllIsRefusedWithItsFailure() {
        // alltoall_perf fails right after its column header, then sendrecv_perf runs.
        const QString path = fixture(QStringLiteral("nccl-tests/alltoall-failed-then-sendrecv.txt"));
        const QByteArray bytes =
            importer_test::readFixture(QStringLiteral("nccl-tests/alltoall-failed-then-sendrecv.txt"));
        const QList<LogTest> tests = logTests(bytes);
        QCOMPARE(tests.size(), 2);
        QVERIFY(tests[0].sizes.isEmpty());
        const QByteArray failure =
            "gpu-a018: Test NCCL failure common.cu:401 'remote process exited or there was a network error'";
        const qint64 failureLine = bytes.left(bytes.indexOf(failure)).count('\n') + 1;
        auto r = NcclTestsTextImporter::importFile(path);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, failureLine);
        QVERIFY2(
            r.error().message.contains(QStringLiteral("alltoall (lines %1-%2): failed at line %3: \"%4\"")
                                           .arg(tests[0].first)
                                           .arg(tests[0].last)
                                           .arg(failureLine)
                                           .arg(QString::fromLatin1(failure))),
            qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(
                     QStringLiteral("sendrecv (lines %1-%2): line %3: is sendrecv, not alltoall")
                         .arg(tests[1].first)
                         .arg(tests[1].last)
                         .arg(tests[1].first + 1)),
                 qPrintable(r.error().message));
        QVERIFY(
            r.error().message.startsWith(QStringLiteral("no all-to-all test with data among the 2 tests")));
        // The alltoall alone: its own failure.
        r = NcclTestsTextImporter::parse(bytes.left(bytes.indexOf("# nccl-tests version", 10)),
                                         QStringLiteral("a.txt"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(), QStringLiteral("a.txt:%1: the alltoall test failed: \"%2\"")
                                       .arg(failureLine)
                                       .arg(QString::fromLatin1(failure)));
    }

    void manyTestsAreListedThenCountedPerName() {
        // The five-test log with its sendrecv test run 20 more times: 24 tests left out,
        // the first 12 named with their lines, the other 12 counted per name.
        QByteArray bytes =
            importer_test::readFixture(QStringLiteral("nccl-tests/cluster-script-five-tests.txt"));
        if (!bytes.endsWith('\n'))
            bytes += '\n';
        const QList<LogTest> tests = logTests(bytes);
        QCOMPARE(tests[4].name, QStringLiteral("sendrecv"));
        const QList<QByteArray> lines = bytes.split('\n');
        QByteArray sendrecv;
        for (qint64 n = tests[4].first; n <= tests[4].last; ++n)
            sendrecv += lines[n - 1] + '\n';
        QByteArray many = bytes;
        for (int k = 0; k < 20; ++k)
            many += sendrecv;
        const QList<LogTest> all = logTests(many);
        QCOMPARE(all.size(), 25);
        auto r = NcclTestsTextImporter::parse(many, QStringLiteral("many.txt"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const QJsonArray skipped = r->environment.value(QStringLiteral("skipped_sections")).toArray();
        QCOMPARE(skipped.size(), 12);
        // The 12 listed are the first 12 left out, in file order: every test but alltoall.
        QList<LogTest> leftOut;
        for (const LogTest& t : all)
            if (t.name != QLatin1String("alltoall"))
                leftOut << t;
        QCOMPARE(leftOut.size(), 24);
        for (int i = 0; i < 12; ++i)
            QCOMPARE(skipped[i].toObject().value(QStringLiteral("first_line")).toInteger(), leftOut[i].first);
        const QJsonObject more = r->environment.value(QStringLiteral("skipped_sections_more")).toObject();
        QCOMPARE(more.value(QStringLiteral("count")).toInteger(), 12);
        QCOMPARE(more.value(QStringLiteral("tests")).toString(), QStringLiteral("sendrecv ×12"));
        // With its alltoall renamed too, the refusal names 12 tests and counts the rest.
        many.replace("alltoall_perf", "broadcast_perf");
        r = NcclTestsTextImporter::parse(many, QStringLiteral("many.txt"));
        QVERIFY(!r.hasValue());
        const QString message = r.error().message;
        QVERIFY2(message.startsWith(QStringLiteral("no all-to-all test with data among the 25 tests")),
                 qPrintable(message));
        QCOMPARE(message.count(QStringLiteral(" (lines ")), 12);
        QVERIFY2(message.endsWith(QStringLiteral("13 more: sendrecv ×13")), qPrintable(message));
    }

    void ncclDebugLinesAreNeverRows() {
        // NCCL_DEBUG=INFO in containers whose host names start with digits.
        const QByteArray bytes =
            importer_test::readFixture(QStringLiteral("nccl-tests/alltoall-nccl-debug-info.txt"));
        const QList<LogTest> tests = logTests(bytes);
        QCOMPARE(tests.size(), 1);
        qint64 debug = 0, digitDebug = 0, blank = 0;
        for (const QByteArray& raw : bytes.split('\n')) {
            if (raw.contains(" NCCL INFO ") || raw.contains(" NCCL WARN ")) {
                ++debug;
                digitDebug += QChar::fromLatin1(raw.front()).isDigit() ? 1 : 0;
            }
            blank += raw.trimmed().isEmpty() ? 1 : 0;
        }
        QVERIFY(digitDebug > 5);
        QVERIFY(blank > 2);
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("debug.txt"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, tests[0].sizes.size());
        for (int i = 0; i < tests[0].sizes.size(); ++i)
            QCOMPARE(r->commSamples[i].bytesPerRank, quint64(tests[0].sizes[i]));
        QCOMPARE(r->environment.value(QStringLiteral("nccl_debug_lines")).toInteger(), debug);
        QCOMPARE(r->environment.value(QStringLiteral("hostnames")).toArray(),
                 (QJsonArray{QStringLiteral("22f64f592750"), QStringLiteral("7a1c0e9b4d23")}));
        QVERIFY(!r->environment.contains(QStringLiteral("skipped_sections")));
        // Without the version and test-name lines (an older nccl-tests): the same rows.
        QByteArray old;
        for (const QByteArray& raw : bytes.split('\n'))
            if (!raw.startsWith("# nccl-tests version") && !raw.startsWith("# Collective test"))
                old += raw + '\n';
        old.chop(1);
        r = NcclTestsTextImporter::parse(old, QStringLiteral("old.txt"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, tests[0].sizes.size());
        // Detection: a debug line first does not hide the format.
        auto detected = importFile(fixture(QStringLiteral("nccl-tests/alltoall-nccl-debug-info.txt")));
        QVERIFY2(detected.hasValue(), detected.hasValue() ? "" : qPrintable(detected.error().text()));
        QCOMPARE(detected->rows, tests[0].sizes.size());
    }

    MOEWB_IMPORTER_CORPUS_TESTS("nccl-tests", NcclTestsTextImporter)
};

QTEST_GUILESS_MAIN(TestNcclTestsTextImporter)
#include "test_nccl_tests_text_importer.moc"
