// MegatronRoutingTraceImporter: Megatron-Core's router_trace.py records (core_v0.19+),
// top-k assignments counted per (step, block, mtp_idx, layer), router calls summed.
// Every expected count is computed here from the fixture lines (QJsonDocument), never
// by the code under test.
#include "ImporterTestSupport.h"
#include "importers/MegatronRoutingTraceImporter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>
#include <set>
#include <tuple>

using namespace moewb::importers;
using importer_test::fixture;
namespace store = moewb::store;

namespace {

struct Expected {
    std::map<std::tuple<qint64, int, int>, QVector<quint32>> counts; // (step, mtp_idx or -1, layer)
    std::map<std::tuple<qint64, int, int>, int> calls;
    qint64 tokens = 0;
    qint64 records = 0;
    int maxIndex = -1;
    int topk = -1;
    int rank = -1;
    bool mtp = false;
    QStringList stages;
};

// A brute-force count over the JSON lines.
Expected bruteForce(const QByteArray& text) {
    Expected x;
    for (const QByteArray& raw : text.split('\n')) {
        if (raw.trimmed().isEmpty())
            continue;
        QJsonParseError pe{};
        const QJsonObject o = QJsonDocument::fromJson(raw, &pe).object();
        if (pe.error != QJsonParseError::NoError)
            qFatal("fixture line is not JSON: %s", raw.constData());
        ++x.records;
        const bool mtp = o.value(QStringLiteral("block")).toString() == QStringLiteral("mtp");
        x.mtp = x.mtp || mtp;
        const auto key = std::make_tuple(o.value(QStringLiteral("step")).toInteger(),
                                         mtp ? o.value(QStringLiteral("mtp_idx")).toInt() : -1,
                                         o.value(QStringLiteral("layer")).toInt());
        ++x.calls[key];
        QVector<quint32>& c = x.counts[key];
        for (const QJsonValue& row : o.value(QStringLiteral("top_indices")).toArray())
            for (const QJsonValue& e : row.toArray()) {
                const int i = e.toInt();
                if (i >= c.size())
                    c.resize(i + 1);
                ++c[i];
                x.maxIndex = std::max(x.maxIndex, i);
            }
        x.tokens += o.value(QStringLiteral("num_tokens")).toInteger();
        x.topk = o.value(QStringLiteral("topk")).toInt();
        x.rank = o.value(QStringLiteral("rank")).toInt();
        const QString stage = o.value(QStringLiteral("stage")).toString();
        if (!x.stages.contains(stage))
            x.stages << stage;
    }
    for (auto& [key, c] : x.counts)
        c.resize(x.maxIndex + 1);
    return x;
}

void verifyAgainstBruteForce(const ImportedData& d, const QByteArray& text) {
    const Expected x = bruteForce(text);
    QCOMPARE(d.format, QStringLiteral("megatron-routing-trace"));
    QCOMPARE(d.rows, x.records);
    QCOMPARE(d.expertLoad.size(), qsizetype(x.counts.size()));
    // Ordered by step, then the decoder before MTP blocks, then layer (the map's order).
    qsizetype i = 0;
    for (const auto& [key, counts] : x.counts) {
        const store::ExpertLoadBlock& b = d.expertLoad[i++];
        QCOMPARE(b.step, std::get<0>(key));
        QCOMPARE(b.mtpIndex, std::get<1>(key));
        QCOMPARE(b.layer, std::get<2>(key));
        QCOMPARE(b.tokensPerExpert, counts);
    }
    int minCalls = INT_MAX, maxCalls = 0;
    for (const auto& [key, n] : x.calls) {
        minCalls = std::min(minCalls, n);
        maxCalls = std::max(maxCalls, n);
    }
    const QJsonObject& env = d.environment;
    QCOMPARE(env.value(QStringLiteral("rank")).toInt(), x.rank);
    QCOMPARE(env.value(QStringLiteral("topk")).toInt(), x.topk);
    QCOMPARE(env.value(QStringLiteral("tokens")).toInteger(), x.tokens);
    QCOMPARE(env.value(QStringLiteral("records")).toInteger(), x.records);
    QCOMPARE(env.value(QStringLiteral("mtp")).toBool(), x.mtp);
    QCOMPARE(env.value(QStringLiteral("max_expert_index_seen")).toInt(), x.maxIndex);
    QCOMPARE(env.value(QStringLiteral("records_per_block_min")).toInt(), minCalls);
    QCOMPARE(env.value(QStringLiteral("records_per_block_max")).toInt(), maxCalls);
    QStringList stages;
    for (const QJsonValue& s : env.value(QStringLiteral("stages")).toArray())
        stages << s.toString();
    QCOMPARE(stages, x.stages);
}

QString errorOf(const QByteArray& text, const QString& name = QStringLiteral("t.jsonl")) {
    auto r = MegatronRoutingTraceImporter::parse(text, name);
    return r.hasValue() ? QString() : r.error().text();
}

QByteArray record(const char* extra, const char* indices = "[[0, 1], [2, 3]]", int tokens = 2) {
    return QByteArray("{\"step\": 1, \"stage\": \"pre_dispatch\", \"block\": \"decoder\", \"layer\": 0, \"rank\": 0, ") +
           "\"num_tokens\": " + QByteArray::number(tokens) + ", \"topk\": 2" + extra + ", \"top_indices\": " + indices +
           "}\n";
}

} // namespace

class TestMegatronRoutingTraceImporter : public QObject {
    Q_OBJECT
private slots:
    void rankFilesMatchABruteForceCount_data() {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<int>("rank");
        QTest::newRow("rank0") << QStringLiteral("megatron-routing-trace/router_trace_rank0.jsonl") << 0;
        QTest::newRow("rank1") << QStringLiteral("megatron-routing-trace/router_trace_rank1.jsonl") << 1;
    }
    void rankFilesMatchABruteForceCount() {
        QFETCH(QString, relative);
        QFETCH(int, rank);
        auto r = importFile(fixture(relative)); // detected
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const QByteArray text = importer_test::readFixture(relative);
        verifyAgainstBruteForce(r.value(), text);
        QCOMPARE(r->environment.value(QStringLiteral("rank")).toInt(), rank);
        // The fixture's shape: micro-batches summed (2 calls per block), an MTP block that
        // repeats decoder layer 0, sidecar fields skipped.
        QCOMPARE(r->environment.value(QStringLiteral("records_per_block_min")).toInt(), 2);
        QCOMPARE(r->environment.value(QStringLiteral("mtp")).toBool(), true);
        QCOMPARE(r->expertLoad.size(), 6);
        int layerZeroAtStepZero = 0;
        for (const auto& b : r->expertLoad)
            layerZeroAtStepZero += b.step == 0 && b.layer == 0 ? 1 : 0;
        QCOMPARE(layerZeroAtStepZero, 2);
        if (rank == 0)
            QVERIFY(text.contains("\"hs_offset\""));
        else // rank 1 never routed to expert 7: its width is 7, the merge checks moe.experts
            QCOMPARE(r->environment.value(QStringLiteral("max_expert_index_seen")).toInt(), 6);
    }

    void microBatchRecordsAreSummed() {
        const QByteArray text = record("") + "\r\n" + record("", "[[1, 0], [1, 4]]") +
                                record(", \"mtp_idx\": 0", "[[4, 4]]", 1).replace("\"decoder\"", "\"mtp\"");
        auto r = MegatronRoutingTraceImporter::parse(text, QStringLiteral("t.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        verifyAgainstBruteForce(r.value(), text);
        QCOMPARE(r->expertLoad.size(), 2);
        QCOMPARE(r->expertLoad[0].tokensPerExpert, (QVector<quint32>{2, 3, 1, 1, 1}));
        QCOMPARE(r->expertLoad[1].mtpIndex, 0);
        QCOMPARE(r->expertLoad[1].tokensPerExpert, (QVector<quint32>{0, 0, 0, 0, 2}));
        QCOMPARE(r->environment.value(QStringLiteral("records_per_block_max")).toInt(), 2);
        QCOMPARE(r->environment.value(QStringLiteral("records_per_block_min")).toInt(), 1);
        // A zero-token call is a record with no assignments.
        auto z = MegatronRoutingTraceImporter::parse(record("", "[]", 0) + record(""), QStringLiteral("t.jsonl"));
        QVERIFY(z.hasValue());
        QCOMPARE(z->environment.value(QStringLiteral("tokens")).toInt(), 2);
        QCOMPARE(errorOf(record("", "[]", 0)),
                 QStringLiteral("t.jsonl: no expert index in the file (every record has num_tokens 0)"));
        QCOMPARE(errorOf("\n\n"), QStringLiteral("t.jsonl: no routing-trace records found (the file is empty)"));
    }

    void checksAreLocated() {
        QCOMPARE(errorOf(record("", "[[0, 1], [2]]")),
                 QStringLiteral("t.jsonl:1: top_indices: row 1 has 1 expert indices but topk is 2"));
        QCOMPARE(errorOf(record("", "[[0, 1]]")),
                 QStringLiteral("t.jsonl:1: top_indices: has 1 rows but num_tokens is 2 (one row per token)"));
        QVERIFY(errorOf(record("", "[[0, -1], [2, 3]]")).startsWith(QStringLiteral("t.jsonl:1: top_indices: ")));
        QVERIFY(errorOf(record("", "[[0, 1.5], [2, 3]]")).startsWith(QStringLiteral("t.jsonl:1: top_indices: ")));
        QCOMPARE(errorOf(record("", "[[0, 1048576], [2, 3]]")),
                 QStringLiteral("t.jsonl:1: top_indices: expert index 1048576 is absurd (at most 1048575)"));
        QVERIFY(errorOf(record("", "[[0, 1048575], [2, 3]]")).isEmpty());
        QVERIFY(errorOf(record(", \"topk\": 3")).startsWith(QStringLiteral("t.jsonl:1: topk: appears twice")));
        QCOMPARE(errorOf(record("") + record("").replace("\"topk\": 2", "\"topk\": 3")),
                 QStringLiteral("t.jsonl:2: topk: is 3 but line 1 says 2"));
        QCOMPARE(errorOf(record("") + record("").replace("\"rank\": 0", "\"rank\": 5")),
                 QStringLiteral("t.jsonl:2: rank: is 5 but line 1 says 0 (one file is one rank's)"));
        QCOMPARE(errorOf(record(""), QStringLiteral("/x/router_trace_rank2.jsonl")),
                 QStringLiteral("/x/router_trace_rank2.jsonl:1: rank: is 0 but the file name says rank 2"));
        QVERIFY(errorOf(record(""), QStringLiteral("/x/router_trace_rank0.jsonl")).isEmpty());
        QVERIFY(errorOf(record("").replace("\"rank\": 0, ", "")).startsWith(QStringLiteral("t.jsonl:1: rank: is missing")));
        QVERIFY(errorOf(record("").replace("\"block\": \"decoder\", ", ""))
                    .startsWith(QStringLiteral("t.jsonl:1: block: is missing")));
        QCOMPARE(errorOf(record("").replace("\"decoder\"", "\"mtp\"")),
                 QStringLiteral("t.jsonl:1: mtp_idx: is missing (block is \"mtp\")"));
        QVERIFY(errorOf(record(", \"mtp_idx\": 0")).startsWith(QStringLiteral("t.jsonl:1: mtp_idx: is given but")));
        QCOMPARE(errorOf(record("").replace("\"decoder\"", "\"encoder\"")),
                 QStringLiteral("t.jsonl:1: block: must be \"decoder\" or \"mtp\", not \"encoder\""));
        QVERIFY(errorOf(record("").replace("\"topk\": 2", "\"topk\": [[0, 1]]"))
                    .startsWith(QStringLiteral("t.jsonl:1: topk: must be a number")));
        QVERIFY(errorOf(record("").replace("\"step\": 1", "\"step\": NaN")).startsWith(QStringLiteral("t.jsonl:1: step: ")));
        QVERIFY(errorOf(record("").chopped(3)).startsWith(QStringLiteral("t.jsonl:1: top_indices: ")));
        QVERIFY(errorOf(record("").chopped(2)).startsWith(QStringLiteral("t.jsonl:1: the line ends inside the object")));
        // Sidecar fields of any shape are skipped.
        QVERIFY(errorOf(record(", \"hs_offset\": 0, \"hs_bytes\": 64, \"hs_shape\": [2, 16], \"logit_offset\": 0, "
                               "\"logit_bytes\": 32, \"logit_shape\": [2, 8]"))
                    .isEmpty());
    }

    void countsAreBounded() {
        // 2^27 counts at most: 128 blocks of 1048576 experts fit, a 129th does not.
        QByteArray text;
        for (int step = 0; step < 129; ++step)
            text += "{\"step\": " + QByteArray::number(step) +
                    ", \"block\": \"decoder\", \"layer\": 0, \"rank\": 0, \"num_tokens\": 1, \"topk\": 2, "
                    "\"top_indices\": [[1048575, 0]]}\n";
        auto r = MegatronRoutingTraceImporter::parse(text, QStringLiteral("t.jsonl"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 129);
        QCOMPARE(r.error().field, QStringLiteral("top_indices"));
    }

    void detection() {
        // Both Megatron-Core rank files, the old routing-trace-jsonl still its own format,
        // and a first record longer than the 64 KiB detection reads.
        for (const char* rel : {"megatron-routing-trace/router_trace_rank0.jsonl",
                                "megatron-routing-trace/router_trace_rank1.jsonl"}) {
            auto f = detectFormat(importer_test::readFixture(QString::fromLatin1(rel)), QString::fromLatin1(rel));
            QVERIFY(f.hasValue());
            QCOMPARE(f.value(), QStringLiteral("megatron-routing-trace"));
        }
        auto old = detectFormat(importer_test::readFixture(QStringLiteral("routing/routing-trace.jsonl")), QStringLiteral("r"));
        QCOMPARE(old.value(), QStringLiteral("routing-trace-jsonl"));
        auto noIndices = detectFormat("{\"step\": 0, \"layer\": 0, \"topk\": 2}\n", QStringLiteral("r"));
        QCOMPARE(noIndices.value(), QStringLiteral("megatron-routing-trace"));

        QByteArray rows;
        const int tokens = 20000;
        for (int t = 0; t < tokens; ++t)
            rows += (t ? ", [" : "[") + QByteArray::number(t % 64) + ", " + QByteArray::number((t + 7) % 64) + "]";
        const QByteArray big = "{\"step\": 0, \"stage\": \"pre_dispatch\", \"block\": \"decoder\", \"layer\": 3, \"rank\": 0, "
                               "\"num_tokens\": " + QByteArray::number(tokens) + ", \"topk\": 2, \"top_indices\": [" + rows +
                               "]}\n";
        QVERIFY(big.size() > (1 << 16));
        auto f = detectFormat(big, QStringLiteral("big.jsonl"));
        QVERIFY2(f.hasValue(), f.hasValue() ? "" : qPrintable(f.error().text()));
        QCOMPARE(f.value(), QStringLiteral("megatron-routing-trace"));
        auto r = importBytes(big, QStringLiteral("big.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        verifyAgainstBruteForce(r.value(), big);
    }

    MOEWB_IMPORTER_CORPUS_TESTS("megatron-routing-trace", MegatronRoutingTraceImporter)
};

QTEST_GUILESS_MAIN(TestMegatronRoutingTraceImporter)
#include "test_megatron_routing_trace_importer.moc"
