// A project file from someone else is hostile input (issue 29, item 2; docs/store.md,
// "Reading a project from someone else"). Crafted copies of the demo project — real
// SQLite files changed with plain SQL, as someone would change them — go through the
// real `moewb` under `prlimit --as=1 GiB` and `timeout 60`: a chunk whose header claims
// 2^31 − 1 steps or 2^30 experts, a summary with impossible counts, a zstd bomb (2 GB of
// zeros in a few KB) in one chunk and in 120, 120 bombs of legal shape, a 64 KiB run
// name, a 1 MiB justification, and a project whose totals rows are gone. Every command
// ends with its exit code and a message that names the run, the layer and the steps;
// none aborts, none runs out of memory or time; and the file is left byte for byte as
// it was.
#include "../MoewbCli.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <zstd.h>

#include <functional>
#include <vector>

namespace {

QByteArray varint(std::uint64_t v) {
    QByteArray out;
    while (v >= 0x80) {
        out += char(std::uint8_t(v | 0x80));
        v >>= 7;
    }
    out += char(std::uint8_t(v));
    return out;
}
QByteArray zigzag(std::int64_t v) {
    return varint((std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63));
}
QByteArray frame(const QByteArray& stream) {
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(stream.size()))), Qt::Uninitialized);
    out.truncate(qsizetype(ZSTD_compress(out.data(), std::size_t(out.size()), stream.constData(),
                                         std::size_t(stream.size()), 1)));
    return out;
}
// 2 GB of zeros through zstd's streaming compressor, the size declared: a few KB.
QByteArray zeroBomb() {
    static const QByteArray bomb = [] {
        const std::uint64_t size = std::uint64_t(2) << 30;
        ZSTD_CCtx* c = ZSTD_createCCtx();
        ZSTD_CCtx_setPledgedSrcSize(c, size);
        std::vector<char> zeros(std::size_t(1) << 20), out(ZSTD_CStreamOutSize());
        QByteArray frame;
        const int pieces = int(size / zeros.size());
        for (int i = 0; i < pieces; ++i) {
            ZSTD_inBuffer in{zeros.data(), zeros.size(), 0};
            const ZSTD_EndDirective mode = i + 1 == pieces ? ZSTD_e_end : ZSTD_e_continue;
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
    }();
    return bomb;
}

QByteArray sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

// `moewb args` as someone runs it on a file they were sent, with 1 GiB of address
// space and 60 s: a crash, a kill for memory or time comes back as a negative code or
// 124/137.
CliResult boundedMoewb(const QString& home, const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("MOEWB_LANG"), QStringLiteral("en"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("prlimit"), QStringList{QStringLiteral("--as=1073741824"), QStringLiteral("timeout"),
                                                   QStringLiteral("60"), QStringLiteral(MOEWB_CLI)} +
                                           args);
    if (!p.waitForFinished(90000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    if (p.exitStatus() != QProcess::NormalExit)
        return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestMoewbHostileBlobs : public QObject {
    Q_OBJECT
    QTemporaryDir m_home;
    QString m_demo;
    int m_n = 0;
    // The demo's first run with expert load, and its chunk of layer 0 holding the last
    // step (inside stage 3's window).
    QString m_run;
    qint64 m_runId = 0;
    qint64 m_first = 0, m_last = 0;
    int m_rows = 0;

    QString copyOfDemo(const std::function<void(QSqlDatabase&)>& change) {
        const QString path = m_home.filePath(QStringLiteral("case-%1.moewb").arg(++m_n));
        if (!QFile::copy(m_demo, path))
            return {};
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("attacker"));
            db.setDatabaseName(path);
            if (!db.open())
                return {};
            change(db);
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("attacker"));
        return path;
    }
    static void exec(QSqlDatabase& db, const QString& sql, const QVariantList& values = {}) {
        QSqlQuery q(db);
        QVERIFY2(q.prepare(sql), qPrintable(sql));
        for (int i = 0; i < values.size(); ++i)
            q.bindValue(i, values[i]);
        QVERIFY2(q.exec(), qPrintable(sql));
    }
    QString chunkWhere() const {
        return QStringLiteral(" WHERE run_id = %1 AND layer = 0 AND first_step = %2").arg(m_runId).arg(m_first);
    }
    QString steps() const { return QStringLiteral("steps %1–%2").arg(m_first).arg(m_last); }

    // Each command on `path`: its exit code, every message in the bounds, the file unchanged.
    struct Expect {
        QStringList args;
        int exitCode; // kAnyExit: any of moewb's own (0 to 3), in the bounds
        QString message; // in stdout or stderr (empty: none asked for)
    };
    static constexpr int kAnyExit = 99;
    void runAll(const QString& path, const QList<Expect>& commands) {
        QVERIFY(!path.isEmpty());
        const QByteArray before = sha256(path);
        for (const Expect& e : commands) {
            QElapsedTimer t;
            t.start();
            const CliResult r = boundedMoewb(m_home.path(), QStringList{QStringLiteral("--project"), path} + e.args);
            const QString shown = e.args.join(' ') + QStringLiteral(" -> ") + QString::number(r.exitCode) +
                                  QStringLiteral(" in ") + QString::number(t.elapsed()) + QStringLiteral(" ms\n") +
                                  r.out.left(3000) + QStringLiteral("\n") + r.err.left(3000);
            QVERIFY2(e.exitCode == kAnyExit ? r.exitCode >= 0 && r.exitCode <= 3 : r.exitCode == e.exitCode,
                     qPrintable(shown));
            QVERIFY2(e.message.isEmpty() || r.out.contains(e.message) || r.err.contains(e.message), qPrintable(shown));
            QVERIFY2(!r.err.contains(QLatin1String("bad_alloc")) && !r.err.contains(QLatin1String("AddressSanitizer")),
                     qPrintable(shown));
        }
        QCOMPARE(sha256(path), before);
    }
    QString report() { return m_home.filePath(QStringLiteral("report-%1.pdf").arg(m_n)); }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        m_demo = m_home.filePath(QStringLiteral("demo.moewb"));
        const CliResult demo = runMoewb(m_home.path(), {QStringLiteral("demo"), QStringLiteral("-o"), m_demo});
        QVERIFY2(demo.exitCode == 0, qPrintable(demo.err));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("look"));
            db.setDatabaseName(m_demo);
            QVERIFY(db.open());
            QSqlQuery q(db);
            // A run whose record drops tokens over a capacity: stage 3 then reads its
            // window's counts (the drop rate estimated from them), not only the summary.
            QVERIFY(q.exec(QStringLiteral(
                "SELECT r.id, r.name, c.first_step, c.last_step, c.steps FROM run r JOIN config_record k ON k.id = "
                "r.record_id JOIN expert_load_chunk c ON c.run_id = r.id WHERE c.layer = 0 AND "
                "json_extract(k.json, '$.moe.overflow_policy') = 'drop' ORDER BY r.id, c.first_step DESC LIMIT 1")));
            QVERIFY(q.next());
            m_runId = q.value(0).toLongLong();
            m_run = q.value(1).toString();
            m_first = q.value(2).toLongLong();
            m_last = q.value(3).toLongLong();
            m_rows = q.value(4).toInt();
            QVERIFY(m_rows > 1);
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("look"));
    }

    void chunkClaimingHugeShapes_data() {
        QTest::addColumn<QString>("set");
        QTest::addColumn<QByteArray>("blob");
        QTest::addColumn<QString>("why");
        const QByteArray ones = zigzag(1).repeated(600);
        QTest::newRow("2^31-1 steps") << QStringLiteral("steps = 2147483647")
                                      << frame(varint(2147483647) + varint(16) + ones)
                                      << QStringLiteral("it claims 2147483647 steps (1 to 256)");
        QTest::newRow("2^31-1 experts") << QStringLiteral("experts = 2147483647")
                                        << frame(varint(m_rows) + varint(2147483647) + ones)
                                        << QStringLiteral("it claims 2147483647 experts (1 to 65536)");
        QTest::newRow("2^30 experts") << QStringLiteral("experts = 1073741824")
                                      << frame(varint(m_rows) + varint(1073741824) + ones)
                                      << QStringLiteral("it claims 1073741824 experts (1 to 65536)");
        QTest::newRow("zstd bomb") << QString() << zeroBomb() << QStringLiteral("its zstd frame claims 2147483648 bytes");
    }
    void chunkClaimingHugeShapes() {
        QFETCH(QString, set);
        QFETCH(QByteArray, blob);
        QFETCH(QString, why);
        const QString path = copyOfDemo([&](QSqlDatabase& db) {
            if (!set.isEmpty())
                exec(db, QStringLiteral("UPDATE expert_load_chunk SET ") + set + chunkWhere());
            exec(db, QStringLiteral("UPDATE expert_load_chunk SET counts = ?") + chunkWhere(), {blob});
        });
        const QString named = QStringLiteral("run %1: the expert load of layer 0, %2 cannot be read: ").arg(m_run, steps());
        QList<Expect> commands{
            // Stage 3 reads the window's counts (the run's record drops tokens): the run
            // is named and not judged; the other runs are.
            {{QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")}, 1,
             named + why},
            // The whole run sums the chunks' stored totals (intact); a window that cuts
            // the damaged chunk decodes it.
            {{QStringLiteral("traffic"), m_run}, 0, {}},
            {{QStringLiteral("traffic"), m_run, QStringLiteral("--steps"), QString::number(m_first + 1) + '-'}, 3,
             named + why},
            {{QStringLiteral("placement"), m_run, QStringLiteral("--steps"), QString::number(m_first + 1) + '-'}, 3,
             named + why},
            {{QStringLiteral("status")}, 0, {}},
            {{QStringLiteral("runs"), QStringLiteral("list")}, 0, m_run},
        };
#ifdef MOEWB_HAS_REPORT
        commands.append({{QStringLiteral("report"), QStringLiteral("-o"), report(), QStringLiteral("--no-plots")}, 0, {}});
#endif
        runAll(path, commands);
    }

    void summaryWithHugeCounts() {
        // Rows claiming sums of 2^62 tokens, then 2^31 - 1 rows in the row.
        QByteArray huge = varint(m_rows) + varint(0);
        for (int i = 0; i < m_rows; ++i)
            huge += zigzag(i == 0 ? m_first : 1) + zigzag(i == 0 ? (std::int64_t(1) << 62) : 0) + zigzag(0) + varint(0);
        for (const QString& set : {QString(), QStringLiteral("steps = 2147483647")}) {
            const QString path = copyOfDemo([&](QSqlDatabase& db) {
                exec(db, QStringLiteral("UPDATE expert_load_summary SET data = ?") + chunkWhere(), {frame(huge)});
                if (!set.isEmpty())
                    exec(db, QStringLiteral("UPDATE expert_load_summary SET ") + set + chunkWhere());
            });
            const QString named =
                QStringLiteral("run %1: the load summary of layer 0, %2 cannot be read: ").arg(m_run, steps());
            QList<Expect> commands{
                {{QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")}, 1,
                 named + (set.isEmpty() ? QStringLiteral("its figures at step") : QStringLiteral("it claims 2147483647 steps"))},
                {{QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")}, 1,
                 QStringLiteral("is not judged")},
                // The demo's stage 3 is locked: its preview names what it could not read too.
                {{QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")}, 1,
                 QStringLiteral("Not read (the run is left out): ") + named},
            };
#ifdef MOEWB_HAS_REPORT
            commands.append({{QStringLiteral("report"), QStringLiteral("-o"), report(), QStringLiteral("--no-plots")}, 0, {}});
#endif
            runAll(path, commands);
        }
    }

    void bombsInManyChunks() {
        // The 2 GB bomb in 120 chunks (and their summaries) of the run.
        const QString path = copyOfDemo([&](QSqlDatabase& db) {
            const QString pick = QStringLiteral(" WHERE run_id = %1 AND (layer, first_step) IN (SELECT layer, first_step "
                                                "FROM expert_load_chunk WHERE run_id = %1 ORDER BY layer, first_step "
                                                "LIMIT 120)")
                                     .arg(m_runId);
            exec(db, QStringLiteral("UPDATE expert_load_chunk SET counts = ?") + pick, {zeroBomb()});
            exec(db, QStringLiteral("UPDATE expert_load_summary SET data = ?") + pick, {zeroBomb()});
        });
        const QString named = QStringLiteral("run %1: the load summary of layer 0, steps ").arg(m_run);
        QList<Expect> commands{
            {{QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")}, 1,
             named},
            // The whole run reads from the totals (intact); a window that cuts chunks
            // decodes them.
            {{QStringLiteral("traffic"), m_run}, 0, {}},
            {{QStringLiteral("traffic"), m_run, QStringLiteral("--steps"), QString::number(m_first + 1) + '-'}, 3,
             QStringLiteral("claims 2147483648 bytes")},
        };
#ifdef MOEWB_HAS_REPORT
        commands.append({{QStringLiteral("report"), QStringLiteral("-o"), report()}, 0, {}});
#endif
        runAll(path, commands);
    }

    void legalShapedBombs() {
        // 120 chunks of 256 steps × 65,536 experts of zeros, each 64 MiB of counts from
        // about 2 KB, in the window of every reader: at most 256 MiB of such data is read
        // per project opened, the rest refused and named.
        const QString path = copyOfDemo([&](QSqlDatabase& db) {
            QByteArray stream = varint(256) + varint(65536) + zigzag(m_last + 2);
            for (int i = 1; i < 256; ++i)
                stream += zigzag(1);
            stream += QByteArray(256 * 65536, '\0');
            QByteArray summary = varint(256) + varint(0) + zigzag(m_last + 2) + zigzag(0) + zigzag(0) + varint(0);
            for (int i = 1; i < 256; ++i)
                summary += zigzag(1) + zigzag(0) + zigzag(0) + varint(0);
            const QByteArray blob = frame(stream), data = frame(summary);
            QVERIFY(blob.size() < 64 * 1024);
            db.transaction();
            for (int layer = 100; layer < 220; ++layer) {
                const QVariantList key{m_runId, layer, m_last + 2, m_last + 257};
                exec(db, QStringLiteral("INSERT INTO expert_load_chunk VALUES (?, ?, ?, ?, 256, 65536, 1, ?)"),
                     key + QVariantList{blob});
                exec(db, QStringLiteral("INSERT INTO expert_load_summary VALUES (?, ?, ?, ?, 256, 65536, NULL, 1, ?)"),
                     key + QVariantList{data});
            }
            db.commit();
        });
        QList<Expect> commands{
            {{QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")}, 1,
             QStringLiteral("a decompression bomb?")},
            // Sums keep nothing of what they inflate: read in the bounds, whatever the
            // traffic then says of 65,536 experts.
            {{QStringLiteral("traffic"), m_run, QStringLiteral("--steps"), QString::number(m_last + 2) + '-'}, kAnyExit,
             {}},
        };
#ifdef MOEWB_HAS_REPORT
        commands.append({{QStringLiteral("report"), QStringLiteral("-o"), report()}, 0, {}});
#endif
        runAll(path, commands);
    }

    void longTextFromAnOlderVersion() {
        // A 64 KiB run name and a 1 MiB override justification: capped on reading, so
        // every command ends in seconds with the name cut to 256 characters.
        const QString path = copyOfDemo([&](QSqlDatabase& db) {
            exec(db, QStringLiteral("UPDATE run SET name = ? WHERE id = ?"), {QString(65536, QLatin1Char('n')), m_runId});
            exec(db, QStringLiteral("INSERT INTO override (stage, justification, author, created) VALUES (1, ?, 'me', "
                                    "'2030-01-01T00:00:00.000Z')"),
                 {QString(1 << 20, QLatin1Char('j'))});
        });
        const QString cut = QString(255, QLatin1Char('n')) + QChar(0x2026);
        QList<Expect> commands{
            {{QStringLiteral("--json"), QStringLiteral("runs"), QStringLiteral("list")}, 0, cut},
            {{QStringLiteral("runs"), QStringLiteral("list")}, 0, {}},
            {{QStringLiteral("status")}, 0, {}},
            {{QStringLiteral("stage"), QStringLiteral("3"), QStringLiteral("--preview")}, kAnyExit, {}},
            {{QStringLiteral("traffic"), cut}, 0, QStringLiteral("Run ") + cut + QStringLiteral(", steps")},
        };
#ifdef MOEWB_HAS_REPORT
        commands.append({{QStringLiteral("report"), QStringLiteral("-o"), report()}, 0, {}});
#endif
        runAll(path, commands);
        for (const QString& json : {QStringLiteral("--json"), QStringLiteral("--project")}) {
            QStringList args{QStringLiteral("--project"), path, QStringLiteral("runs"), QStringLiteral("list")};
            if (json == QLatin1String("--json"))
                args.prepend(json);
            const CliResult list = boundedMoewb(m_home.path(), args);
            QVERIFY(!list.out.contains(QString(257, QLatin1Char('n'))));
        }
    }

    void hiddenCharactersInNamesShowEscaped() {
        // A run name with a right-to-left override and a right-to-left mark (which would
        // show "rtl-invoice<RLO>txt.exe" as "rtl-invoiceexe.txt") and an override whose
        // author holds the Arabic letter mark: the CLI and the PDF show them escaped, the
        // same way, and the escaped name still names the run.
        const QString rtl = QStringLiteral("rtl-invoice") + QChar(0x202E) + QStringLiteral("txt.exe") + QChar(0x200F);
        const QString path = copyOfDemo([&](QSqlDatabase& db) {
            exec(db, QStringLiteral("UPDATE run SET name = ? WHERE id = ?"), {rtl, m_runId});
            exec(db, QStringLiteral("INSERT INTO override (stage, justification, author, created) VALUES (1, 'ok', ?, "
                                    "'2030-01-01T00:00:00.000Z')"),
                 {QStringLiteral("ev") + QChar(0x061C) + QStringLiteral("e")});
        });
        const QString shown = QStringLiteral("rtl-invoice\\u{202e}txt.exe\\u{200f}");
        QList<Expect> commands{
            {{QStringLiteral("runs"), QStringLiteral("list")}, 0, shown},
            {{QStringLiteral("--json"), QStringLiteral("runs"), QStringLiteral("list")}, 0, {}},
            {{QStringLiteral("traffic"), shown}, 0, QStringLiteral("Run ") + shown},
        };
#ifdef MOEWB_HAS_REPORT
        commands.append({{QStringLiteral("report"), QStringLiteral("-o"), report()}, 0, {}});
#endif
        runAll(path, commands);
        const CliResult json = boundedMoewb(m_home.path(), {QStringLiteral("--json"), QStringLiteral("--project"), path,
                                                            QStringLiteral("runs"), QStringLiteral("list")});
        QVERIFY2(json.out.contains(QStringLiteral("rtl-invoice\\\\u{202e}txt.exe\\\\u{200f}")), qPrintable(json.out));
        QVERIFY(!json.out.contains(QChar(0x202E)) && !json.out.contains(QChar(0x200F)));
#ifdef MOEWB_HAS_REPORT
        QProcess text;
        text.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), report(), QStringLiteral("-")});
        QVERIFY(text.waitForFinished(60000));
        const QString pdf = QString::fromUtf8(text.readAllStandardOutput());
        QString flat = pdf; // pdftotext breaks lines where the layout does
        flat.remove(QRegularExpression(QStringLiteral("\\s")));
        QVERIFY2(flat.contains(shown), qPrintable(pdf.left(4000)));
        QVERIFY(!pdf.contains(QChar(0x202E)) && !pdf.contains(QChar(0x200F)) && !pdf.contains(QChar(0x061C)));
#endif
    }

    void trafficWithoutTotalsRows() {
        // The totals rows gone: the same traffic as the intact demo, from the chunks.
        const QString intact = copyOfDemo([](QSqlDatabase&) {});
        const QString path = copyOfDemo([](QSqlDatabase& db) { exec(db, QStringLiteral("DELETE FROM expert_load_totals")); });
        const CliResult want = boundedMoewb(m_home.path(), {QStringLiteral("--project"), intact, QStringLiteral("traffic"), m_run});
        QCOMPARE(want.exitCode, 0);
        runAll(path, {{{QStringLiteral("traffic"), m_run}, 0, {}}});
        const CliResult got = boundedMoewb(m_home.path(), {QStringLiteral("--project"), path, QStringLiteral("traffic"), m_run});
        QCOMPARE(got.out, want.out);
        const QStringList window{QStringLiteral("--steps"), QStringLiteral("100-1500"), QStringLiteral("--layer"),
                                 QStringLiteral("all")};
        QCOMPARE(boundedMoewb(m_home.path(), QStringList{QStringLiteral("--project"), path, QStringLiteral("traffic"), m_run} + window).out,
                 boundedMoewb(m_home.path(), QStringList{QStringLiteral("--project"), intact, QStringLiteral("traffic"), m_run} + window).out);
    }
};

QTEST_GUILESS_MAIN(TestMoewbHostileBlobs)
#include "test_moewb_hostile_blobs.moc"
