// A project file from someone else is hostile input (docs/store.md, "Reading a project
// from someone else"): real project files, written by the store and then altered row
// by row with SQL as an attacker would, read back through ProjectStore. Every damaged
// chunk, summary or totals row is left out and named (layer, steps, why) — never an
// abort, never a huge allocation — and the rest of the run reads as before; text is
// capped on reading; the expert totals fall back to the chunks when their rows are gone.
#include "store/ExpertLoadCodec.h"
#include "store/NameRules.h"
#include "store/ProjectStore.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <zstd.h>

#include <functional>

using namespace moewb::store;

namespace {

constexpr int kLayers = 3;
constexpr int kExperts = 8;
constexpr int kSteps = 600; // three chunks per layer: steps 0–255, 256–511, 512–599

quint32 tokens(qint64 step, int layer, int expert) {
    return quint32((step * 31 + layer * 17 + expert * 7) % 1000);
}

RunData loadRun(const QString& name) {
    RunData run;
    run.name = name;
    run.kind = RunKind::Training;
    run.recordName = QStringLiteral("rec");
    run.environment = QJsonObject{{"framework", "megatron"}};
    for (int s = 0; s < kSteps; ++s)
        for (int l = 0; l < kLayers; ++l) {
            ExpertLoadBlock b{s, l, QVector<quint32>(kExperts)};
            for (int e = 0; e < kExperts; ++e)
                b.tokensPerExpert[e] = tokens(s, l, e);
            run.expertLoad.append(b);
        }
    return run;
}

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

// Changes the file through a connection of its own, as the sqlite3 shell would.
void alter(const QString& path, const std::function<void(QSqlDatabase&)>& change) {
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("attacker"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        change(db);
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("attacker"));
}

void exec(QSqlDatabase& db, const QString& sql, const QVariantList& values = {}) {
    QSqlQuery q(db);
    QVERIFY2(q.prepare(sql), qPrintable(sql));
    for (int i = 0; i < values.size(); ++i)
        q.bindValue(i, values[i]);
    QVERIFY2(q.exec(), qPrintable(sql));
}

} // namespace

class TestStoreBounds : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_n = 0;
    QString m_runName = QStringLiteral("train-a");

    // A fresh project with one run of kLayers × kSteps × kExperts; its path.
    QString project() {
        const QString path = m_dir.filePath(QStringLiteral("p%1.moewb").arg(++m_n));
        auto opened = ProjectStore::open(path);
        if (!opened)
            return {};
        auto& store = *opened;
        if (!store->addConfigRecord(QStringLiteral("rec"), QJsonObject{{"top_k", 2}}, true) ||
            !store->saveRun(loadRun(m_runName)))
            return {};
        return path;
    }
    std::unique_ptr<ProjectStore> open(const QString& path) {
        auto opened = ProjectStore::open(path, OpenMode::MustExist);
        return opened ? std::move(*opened) : nullptr;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8());
    }

    void intactRunReadsWhole() {
        const QString path = project();
        QVERIFY(!path.isEmpty());
        auto store = open(path);
        const auto run = store->run(m_runName);
        QVERIFY(run);
        QStringList problems;
        QCOMPARE(store->expertLoad(run->id, {}, {}, &problems).size(), kSteps * kLayers);
        QCOMPARE(store->expertLoadSummary(run->id, {}, {}, &problems).size(), kSteps * kLayers);
        const ExpertLoadTotals totals = store->expertLoadTotals(run->id, {}, {}, nullptr, &problems);
        QCOMPARE(totals.steps, kSteps);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    // Each way a chunk row or blob can lie: the chunk is left out and named, the other
    // chunks of the run read as before, and nothing is allocated for the lie.
    void damagedChunkIsNamedAndLeftOut_data() {
        QTest::addColumn<QString>("set");      // SQL SET clause for the chunk at layer 1, steps 256–511
        QTest::addColumn<QByteArray>("blob");  // replaces its counts when not empty
        QTest::addColumn<QString>("why");
        const QByteArray ones = zigzag(1).repeated(300);
        QTest::newRow("2^31-1 steps") << QStringLiteral("steps = 2147483647") << frame(varint(2147483647) + varint(8) + ones)
                                      << QStringLiteral("it claims 2147483647 steps (1 to 256)");
        QTest::newRow("2^31-1 experts") << QStringLiteral("experts = 2147483647")
                                        << frame(varint(256) + varint(2147483647) + ones)
                                        << QStringLiteral("it claims 2147483647 experts (1 to 65536)");
        QTest::newRow("2^30 experts") << QStringLiteral("experts = 1073741824")
                                      << frame(varint(256) + varint(1073741824) + ones)
                                      << QStringLiteral("it claims 1073741824 experts (1 to 65536)");
        QTest::newRow("2^40 steps") << QStringLiteral("steps = 1099511627776") << QByteArray()
                                    << QStringLiteral("it claims 1099511627776 steps (1 to 256)");
        QTest::newRow("negative experts") << QStringLiteral("experts = -1") << QByteArray()
                                          << QStringLiteral("it claims -1 experts (1 to 65536)");
        QTest::newRow("steps as text") << QStringLiteral("steps = 'many'") << QByteArray()
                                       << QStringLiteral("its row holds a value that is not a whole number");
        QTest::newRow("zstd bomb") << QString() << QByteArray() << QStringLiteral("claims 2147483648 bytes");
        QTest::newRow("counts as text") << QStringLiteral("counts = 'abc'") << QByteArray()
                                        << QStringLiteral("not one whole zstd frame");
        QTest::newRow("steps out of its row") << QStringLiteral("first_step = 1000, last_step = 1255") << QByteArray()
                                              << QStringLiteral("its steps 256–511 are not its row's");
        QTest::newRow("a span too short") << QStringLiteral("last_step = 300") << QByteArray()
                                          << QStringLiteral("its row's steps 256–300 cannot hold 256 steps");
        QTest::newRow("unknown codec") << QStringLiteral("codec = 7") << QByteArray()
                                       << QStringLiteral("its encoding 7 is unknown");
    }
    void damagedChunkIsNamedAndLeftOut() {
        QFETCH(QString, set);
        QFETCH(QByteArray, blob);
        QFETCH(QString, why);
        const QString path = project();
        QVERIFY(!path.isEmpty());
        if (QString(QTest::currentDataTag()) == QLatin1String("zstd bomb")) {
            // 2 GB of zeros, declared in the frame, in a few KB.
            ZSTD_CCtx* c = ZSTD_createCCtx();
            ZSTD_CCtx_setPledgedSrcSize(c, std::uint64_t(2) << 30);
            std::vector<char> zeros(std::size_t(1) << 20), out(ZSTD_CStreamOutSize());
            for (int i = 0; i < 2048; ++i) {
                ZSTD_inBuffer in{zeros.data(), zeros.size(), 0};
                for (;;) {
                    ZSTD_outBuffer o{out.data(), out.size(), 0};
                    const std::size_t left = ZSTD_compressStream2(c, &o, &in, i == 2047 ? ZSTD_e_end : ZSTD_e_continue);
                    blob.append(out.data(), qsizetype(o.pos));
                    if (i == 2047 ? left == 0 : in.pos == in.size)
                        break;
                }
            }
            ZSTD_freeCCtx(c);
            QVERIFY(blob.size() < 256 * 1024);
        }
        alter(path, [&](QSqlDatabase& db) {
            const QString where = QStringLiteral(" WHERE layer = 1 AND first_step = 256");
            if (!set.isEmpty())
                exec(db, QStringLiteral("UPDATE expert_load_chunk SET ") + set + where);
            if (!blob.isEmpty())
                exec(db, QStringLiteral("UPDATE expert_load_chunk SET counts = ?") + where, {blob});
        });
        auto store = open(path);
        QVERIFY(store);
        const auto run = store->run(m_runName);
        QVERIFY(run);
        QStringList problems;
        const QVector<ExpertLoadBlock> blocks = store->expertLoad(run->id, {}, {}, &problems);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().startsWith(QLatin1String("the expert load of layer 1, steps ")), qPrintable(problems.first()));
        QVERIFY2(problems.first().contains(why), qPrintable(problems.first()));
        // Every other chunk: 3 layers × 600 steps less the 256 of the damaged one.
        QCOMPARE(blocks.size(), kSteps * kLayers - 256);
        for (const ExpertLoadBlock& b : blocks)
            QVERIFY(!(b.layer == 1 && b.step >= 256 && b.step <= 511));
        // Reading one step elsewhere reads no damaged chunk and says nothing.
        problems.clear();
        QCOMPARE(store->expertLoad(run->id, 100, {}, &problems).size(), kLayers);
        QVERIFY(problems.isEmpty());
        // The totals decode the chunks the window cuts: a window through the damaged
        // chunk names it (a chunk moved away from its totals row: as missing).
        problems.clear();
        store->expertLoadTotals(run->id, 300, 400, nullptr, &problems);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(why) || problems.first().endsWith(QStringLiteral(
                                                       "steps 256–511 cannot be read: it is missing (its totals row is there)")),
                 qPrintable(problems.first()));
    }

    void damagedSummaryIsNamedAndLeftOut_data() {
        QTest::addColumn<QString>("set");
        QTest::addColumn<QByteArray>("blob");
        QTest::addColumn<QString>("why");
        // Step differences of 1; a sum, a max and an argmax no 8 experts can have.
        QByteArray huge = varint(256) + varint(0);
        for (int i = 0; i < 256; ++i)
            huge += zigzag(i == 0 ? 256 : 1) + zigzag(i == 0 ? (std::int64_t(1) << 62) : 0) + zigzag(0) + varint(0);
        QTest::newRow("huge sum") << QString() << frame(huge) << QStringLiteral("impossible for 8 experts");
        QTest::newRow("2^31-1 rows") << QStringLiteral("steps = 2147483647") << QByteArray()
                                     << QStringLiteral("it claims 2147483647 steps (1 to 256)");
        QTest::newRow("layer 2^31-1") << QStringLiteral("layer = 2147483647") << QByteArray()
                                      << QStringLiteral("its layer 2147483647 is outside 0 to 65535");
        QTest::newRow("ep 2^40") << QStringLiteral("ep = 1099511627776") << QByteArray()
                                 << QStringLiteral("its expert-parallel size 1099511627776 is outside 1 to 65536");
        QTest::newRow("summary of other experts") << QStringLiteral("experts = 2") << QByteArray()
                                                  << QStringLiteral("impossible for 2 experts");
    }
    void damagedSummaryIsNamedAndLeftOut() {
        QFETCH(QString, set);
        QFETCH(QByteArray, blob);
        QFETCH(QString, why);
        const QString path = project();
        QVERIFY(!path.isEmpty());
        alter(path, [&](QSqlDatabase& db) {
            const QString where = QStringLiteral(" WHERE layer = 1 AND first_step = 256");
            if (!set.isEmpty())
                exec(db, QStringLiteral("UPDATE expert_load_summary SET ") + set + where);
            if (!blob.isEmpty())
                exec(db, QStringLiteral("UPDATE expert_load_summary SET data = ?") + where, {blob});
        });
        auto store = open(path);
        const auto run = store->run(m_runName);
        QVERIFY(run);
        QStringList problems;
        const auto rows = store->expertLoadSummary(run->id, {}, {}, &problems);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().startsWith(QLatin1String("the load summary of layer ")), qPrintable(problems.first()));
        QVERIFY2(problems.first().contains(why), qPrintable(problems.first()));
        QCOMPARE(rows.size(), kSteps * kLayers - 256);
        // Whatever the file says, no row the reader hands on has a layer outside the format's.
        for (const ExpertLoadSummaryRow& r : rows)
            QVERIFY(r.layer >= 0 && r.layer <= kMaxLayer && r.max <= r.sum);
    }

    void totalsFallBackToTheChunks() {
        // The totals rows gone (or some of them): the same sums, from the chunks.
        const QString path = project();
        QVERIFY(!path.isEmpty());
        ExpertLoadTotals whole, window;
        {
            auto store = open(path);
            const qint64 id = store->run(m_runName)->id;
            whole = store->expertLoadTotals(id, {}, {});
            window = store->expertLoadTotals(id, 100, 520);
        }
        QCOMPARE(whole.steps, kSteps);
        for (const QString& del : {QStringLiteral("DELETE FROM expert_load_totals WHERE layer = 2"),
                                   QStringLiteral("DELETE FROM expert_load_totals"),
                                   QStringLiteral("UPDATE expert_load_totals SET totals = x'00', steps = 9999")}) {
            const QString copy = m_dir.filePath(QStringLiteral("totals-%1.moewb").arg(++m_n));
            QVERIFY(QFile::copy(path, copy));
            alter(copy, [&](QSqlDatabase& db) { exec(db, del); });
            auto store = open(copy);
            const qint64 id = store->run(m_runName)->id;
            const qint64 before = ProjectStore::expertLoadChunksDecoded();
            QStringList problems;
            const ExpertLoadTotals t = store->expertLoadTotals(id, {}, {}, nullptr, &problems);
            QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
            QCOMPARE(t.perLayer, whole.perLayer);
            QCOMPARE(t.steps, whole.steps);
            QCOMPARE(t.firstStep, whole.firstStep);
            QCOMPARE(t.lastStep, whole.lastStep);
            QVERIFY(ProjectStore::expertLoadChunksDecoded() > before);
            const ExpertLoadTotals w = store->expertLoadTotals(id, 100, 520, nullptr, &problems);
            QVERIFY(problems.isEmpty());
            QCOMPARE(w.perLayer, window.perLayer);
            QCOMPARE(w.steps, window.steps);
        }
    }

    void legalBombsRunOutOfAllowance() {
        // Chunks of a legal shape, 256 steps × 60,000 experts of zeros: 59 MiB of counts
        // each from about 2 KB. A store keeps at most 256 MiB of data that inflates more
        // than 64 times: four such chunks fit, the next ones are refused, named.
        const QString path = project();
        QVERIFY(!path.isEmpty());
        alter(path, [&](QSqlDatabase& db) {
            QByteArray stream = varint(256) + varint(60000) + zigzag(1000);
            for (int i = 1; i < 256; ++i)
                stream += zigzag(1);
            stream += QByteArray(256 * 60000, '\0');
            const QByteArray blob = frame(stream);
            QVERIFY(blob.size() < 64 * 1024);
            for (int layer = 10; layer < 16; ++layer)
                exec(db,
                     QStringLiteral("INSERT INTO expert_load_chunk SELECT id, ?, 1000, 1255, 256, 60000, 1, ? FROM run"),
                     {layer, blob});
        });
        auto store = open(path);
        const qint64 id = store->run(m_runName)->id;
        QStringList problems;
        const auto blocks = store->expertLoadRange(id, 1000, {}, {}, &problems);
        QCOMPARE(blocks.size(), 4 * 256);
        QCOMPARE(problems.size(), 2);
        QVERIFY2(problems.first().contains(QLatin1String("a decompression bomb?")), qPrintable(problems.first()));
        QVERIFY2(problems.first().startsWith(QStringLiteral("the expert load of layer 14, steps 1000–1255")),
                 qPrintable(problems.first()));
        // Real data read afterwards is not charged.
        problems.clear();
        QCOMPARE(store->expertLoadRange(id, {}, 599, {}, &problems).size(), kSteps * kLayers);
        QVERIFY(problems.isEmpty());
        // One step of a bomb chunk keeps little, and is read.
        QCOMPARE(store->expertLoad(id, 1100, 15, &problems).size(), 1);
        QVERIFY(problems.isEmpty());
        // A fresh store on the same file has its own allowance.
        store.reset();
        store = open(path);
        QCOMPARE(store->expertLoadRange(id, 1000, {}, 12, &problems).size(), 256);
        QVERIFY(problems.isEmpty());
    }

    void textIsCappedOnReading() {
        const QString path = project();
        QVERIFY(!path.isEmpty());
        const QString longName = QString(65536, QLatin1Char('n'));
        alter(path, [&](QSqlDatabase& db) {
            exec(db, QStringLiteral("UPDATE run SET name = ?, source_file = ?, environment = ?"),
                 {longName, QString(1 << 20, QLatin1Char('f')),
                  QStringLiteral("{\"framework\": \"%1\", \"nested\": [{\"x\": \"%1\"}]}").arg(QString(10000, 'e'))});
            exec(db, QStringLiteral("UPDATE config_record SET name = ?"), {QString(300, QLatin1Char('r'))});
            exec(db, QStringLiteral("INSERT INTO override (stage, justification, author, created) VALUES (1, ?, ?, "
                                    "'2024-01-01T00:00:00.000Z')"),
                 {QString(1 << 20, QLatin1Char('j')), QString(1000, QLatin1Char('a'))});
            exec(db, QStringLiteral("INSERT OR REPLACE INTO verdict (stage, status, reasons, decided, basis) VALUES (1, "
                                    "'stop', ?, '2024-01-01T00:00:00.000Z', ?)"),
                 {QStringLiteral("[\"%1\", \"short\"]").arg(QString(1 << 20, 'w')),
                  QStringLiteral("{\"selection\": \"named\", \"runs\": [{\"name\": \"%1\", \"id\": 1}]}").arg(longName)});
        });
        auto store = open(path);
        const QList<RunRow> runs = store->runs();
        QCOMPARE(runs.size(), 1);
        const RunRow& r = runs.first();
        QCOMPARE(r.name.size(), kMaxNameLength);
        QVERIFY(r.name.endsWith(QChar(0x2026)));
        QCOMPARE(r.name.left(kMaxNameLength - 1), longName.left(kMaxNameLength - 1));
        QCOMPARE(r.recordName.size(), kMaxNameLength);
        QCOMPARE(r.sourceFile.size(), 4096);
        QCOMPARE(r.environment.value(QLatin1String("framework")).toString().size(), 4096);
        QCOMPARE(r.environment.value(QLatin1String("nested")).toArray().first().toObject().value("x").toString().size(),
                 4096);
        // The cut name still finds the run (and its record), so it can be renamed.
        QVERIFY(store->run(r.name));
        QVERIFY(store->configRecord(r.recordName));
        QVERIFY(store->renameRun(r.name, QStringLiteral("renamed")));
        QVERIFY(store->run(QStringLiteral("renamed")));
        const QList<OverrideRow> overrides = store->overrides();
        QCOMPARE(overrides.size(), 1);
        QCOMPARE(overrides.first().justification.size(), 4096);
        QVERIFY(overrides.first().justification.endsWith(QChar(0x2026)));
        QCOMPARE(overrides.first().author.size(), kMaxNameLength);
        const auto v = store->verdict(1);
        QVERIFY(v);
        QCOMPARE(v->reasons.size(), 2);
        QCOMPARE(v->reasons.at(0).toString().size(), 4096);
        QCOMPARE(v->reasons.at(1).toString(), QStringLiteral("short"));
        QCOMPARE(v->basis.value("runs").toArray().first().toObject().value("name").toString().size(), kMaxNameLength);
    }

    // Hidden characters in names and texts an older version (or someone else) wrote come
    // back escaped, one rule for every surface; the escaped name still finds its row.
    void hiddenCharactersAreEscapedOnReading() {
        const QString path = project();
        QVERIFY(!path.isEmpty());
        const QString rtl = QStringLiteral("rtl-invoice") + QChar(0x202E) + QStringLiteral("txt.exe") + QChar(0x202C);
        alter(path, [&](QSqlDatabase& db) {
            exec(db, QStringLiteral("UPDATE run SET name = ?"), {rtl});
            exec(db, QStringLiteral("INSERT INTO override (stage, justification, author, created) VALUES (1, ?, ?, "
                                    "'2024-01-01T00:00:00.000Z')"),
                 {QStringLiteral("line one\nline") + QChar(0x200F) + QStringLiteral(" two"),
                  QStringLiteral("a") + QChar(0x061C) + QStringLiteral("b")});
        });
        auto store = open(path);
        const QList<RunRow> runs = store->runs();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().name, QStringLiteral("rtl-invoice\\u{202e}txt.exe\\u{202c}"));
        QVERIFY(store->run(runs.first().name));
        const QList<OverrideRow> overrides = store->overrides();
        QCOMPARE(overrides.size(), 1);
        QCOMPARE(overrides.first().justification, QStringLiteral("line one\nline\\u{200f} two"));
        QCOMPARE(overrides.first().author, QStringLiteral("a\\u{061c}b"));
        QVERIFY(store->renameRun(runs.first().name, QStringLiteral("invoice-renamed")));
        QVERIFY(store->run(QStringLiteral("invoice-renamed")));
    }

    void hugeJsonReadsAsEmpty() {
        const QString path = project();
        QVERIFY(!path.isEmpty());
        alter(path, [&](QSqlDatabase& db) {
            exec(db, QStringLiteral("UPDATE run SET environment = ?"),
                 {QStringLiteral("{\"a\": [%1 0]}").arg(QStringLiteral("0,").repeated(3 << 20))});
        });
        auto store = open(path);
        const QList<RunRow> runs = store->runs();
        QCOMPARE(runs.size(), 1);
        QVERIFY(runs.first().environment.isEmpty());
        // The run's data still reads.
        QCOMPARE(store->expertLoad(runs.first().id, 5).size(), kLayers);
    }

    void anatomyRowsOutOfRangeAreLeftOut() {
        const QString path = project();
        QVERIFY(!path.isEmpty());
        alter(path, [&](QSqlDatabase& db) {
            const QString insert = QStringLiteral("INSERT INTO step_anatomy SELECT id, ?, ?, 10, 5, 1, 0, 0, 0, 0, 0, 1, 9 FROM run");
            exec(db, insert, {1, 0});
            exec(db, insert, {1, 2147483647});    // a rank no world has
            exec(db, insert, {-5, 1});            // a step before the first
            exec(db, insert, {qint64(1) << 62, 2}); // a step no training reaches
            exec(db, QStringLiteral("INSERT INTO step_anatomy SELECT id, 2, 3, -1, 5, 1, 0, 0, 0, 0, 0, 1, 9 FROM run"));
            exec(db, QStringLiteral("UPDATE run SET environment = ?"),
                 {QStringLiteral("{\"trace_world_size\": 1e300, \"trace_ranks\": [0, -1, 1e12, 5]}")});
        });
        auto store = open(path);
        const RunAnatomy a = store->runAnatomy(store->run(m_runName)->id);
        QCOMPARE(a.rows.size(), 1);
        QCOMPARE(a.rows.first().rank, 0);
        QCOMPARE(a.worldSize, 0);
        QCOMPARE(a.ranksTraced, (QVector<int>{0, 5}));
    }

    void theSinkRefusesWhatTheReadersWouldRefuse() {
        const QString path = m_dir.filePath(QStringLiteral("sink.moewb"));
        auto opened = ProjectStore::open(path);
        QVERIFY(opened);
        auto& store = *opened;
        QVERIFY(store->addConfigRecord(QStringLiteral("rec"), QJsonObject{}, true));
        RunData run = loadRun(QStringLiteral("bad-layer"));
        run.expertLoad = {{0, kMaxLayer + 1, {1, 2}}};
        const auto saved = store->saveRun(run);
        QVERIFY(!saved);
        QVERIFY2(saved.error().message.contains(QLatin1String("layers are 0 to 65535")), qPrintable(saved.error().message));
        run.expertLoad = {{0, kMaxLayer, {1, 2}}};
        QVERIFY(store->saveRun(run));
    }
};

QTEST_GUILESS_MAIN(TestStoreBounds)
#include "test_store_bounds.moc"
