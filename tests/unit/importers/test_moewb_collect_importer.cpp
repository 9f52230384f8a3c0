// MoewbCollectImporter: the collector's per-rank sidecar (remote/collect, moewb-collect/1,
// docs/collect.md). Expected figures are recomputed here from the fixture's lines with
// QJsonDocument, never taken from the importer.
#include "ImporterTestSupport.h"
#include "importers/MegatronTpeJsonlImporter.h"
#include "importers/MoewbCollectImporter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

using namespace moewb::importers;
using importer_test::fixture;

namespace {

const char* const kHeader = "{\"format\": \"moewb-collect/1\", \"rank\": 0, \"world\": 1, \"framework\": \"generic\", "
                            "\"experts\": 4, \"topk\": 2, \"moe_layers\": 2, \"every\": 1, \"clock\": \"monotonic\"}\n";

double metric(const ImportedData& d, const QString& name, qint64 step, bool* found = nullptr) {
    for (const auto& m : d.stepMetrics)
        if (m.name == name && m.step == step) {
            if (found)
                *found = true;
            return m.value;
        }
    if (found)
        *found = false;
    return -1;
}

struct Sums {
    qint64 t = 0, a = 0, d = 0, da = 0;
    bool timed = false;
    QJsonValue x, y, z;
};

} // namespace

class TestMoewbCollectImporter : public QObject {
    Q_OBJECT
private slots:
    void oneRankFileGivesItsStepsAndTheirMetrics() {
        const QString rel = QStringLiteral("collect/one-rank/moewb_collect/rank0.jsonl");
        auto r = importFile(fixture(rel)); // detected
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("moewb-collect-jsonl"));

        // Brute force over the lines.
        std::map<qint64, Sums> expected;
        QJsonObject header;
        qint64 dataLines = 0;
        for (const QByteArray& line : importer_test::readFixture(rel).split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.contains(QStringLiteral("format"))) {
                header = o;
                continue;
            }
            ++dataLines;
            Sums& s = expected[o.value(QStringLiteral("step")).toInteger()];
            if (o.value(QStringLiteral("kind")).toString() == QStringLiteral("drops")) {
                s.t += o.value(QStringLiteral("tokens")).toInteger();
                s.a += o.value(QStringLiteral("assignments")).toInteger();
                s.d += o.value(QStringLiteral("dropped_tokens")).toInteger();
                s.da += o.value(QStringLiteral("dropped_assignments")).toInteger();
            } else {
                s.timed = true;
                s.x = o.value(QStringLiteral("step_s"));
                s.y = o.value(QStringLiteral("a2a_s"));
                s.z = o.value(QStringLiteral("compute_s"));
            }
        }
        QCOMPARE(d.rows, dataLines);
        QCOMPARE(d.collectorSteps.size(), qsizetype(expected.size()));
        QCOMPARE(d.environment.value(QStringLiteral("world")).toInt(), header.value(QStringLiteral("world")).toInt());
        QCOMPARE(d.environment.value(QStringLiteral("experts")).toInt(), header.value(QStringLiteral("experts")).toInt());
        QCOMPARE(d.environment.value(QStringLiteral("top_k")).toInt(), header.value(QStringLiteral("topk")).toInt());
        QCOMPARE(d.environment.value(QStringLiteral("rank")).toInt(), 0);
        qsizetype i = 0;
        bool someDrops = false;
        for (const auto& [step, s] : expected) {
            const CollectorStep& c = d.collectorSteps[i++];
            QCOMPARE(c.step, step);
            QCOMPARE(qint64(c.tokens), s.t);
            QCOMPARE(qint64(c.droppedTokens), s.d);
            QCOMPARE(qint64(c.droppedAssignments), s.da);
            QCOMPARE(metric(d, QStringLiteral("dropped_tokens"), step), double(s.d));
            QCOMPARE(metric(d, QStringLiteral("dropped_assignments"), step), double(s.da));
            QCOMPARE(metric(d, QStringLiteral("drop_rate"), step), double(s.d) / double(s.t));
            QCOMPARE(metric(d, QStringLiteral("assignment_drop_rate"), step), double(s.da) / double(s.a));
            someDrops = someDrops || s.d > 0;
            // World 1: the only rank is the busiest.
            QVERIFY(s.timed);
            QCOMPARE(metric(d, QStringLiteral("busiest_device_share"), step),
                     (s.z.toDouble() + s.y.toDouble()) / s.x.toDouble());
        }
        QVERIFY2(someDrops, "the fixture drops tokens at capacity factor 1.0");
    }

    void detectedByItsHeader() {
        const QByteArray text = QByteArray(kHeader) +
                                "{\"kind\": \"time\", \"step\": 1, \"step_s\": 0.1, \"a2a_s\": null, \"compute_s\": null}\n";
        auto f = detectFormat(text, QStringLiteral("x.jsonl"));
        QVERIFY(f.hasValue());
        QCOMPARE(f.value(), QStringLiteral("moewb-collect-jsonl"));
        QVERIFY(importFormats().contains(QStringLiteral("moewb-collect-jsonl")));
        // Another "format" value is not this format.
        auto other = detectFormat("{\"format\": \"something-else\", \"step\": 1}\n", QStringLiteral("y.jsonl"));
        QVERIFY(!other.hasValue() || other.value() != QStringLiteral("moewb-collect-jsonl"));
    }

    void nullTimesGiveNoShareAndUnknownKeysAreSkipped() {
        const QByteArray text = "\xEF\xBB\xBF" + QByteArray(kHeader).replace("\"clock\"", "\"later\": [1, {\"a\": 2}], \"clock\"") +
                                "\r\n"
                                "{\"kind\": \"drops\", \"step\": 1, \"layer\": 0, \"tokens\": 10, \"assignments\": 20, "
                                "\"dropped_tokens\": 2, \"dropped_assignments\": 5, \"extra\": \"x\"}\r\n"
                                "\n"
                                "{\"kind\": \"time\", \"step\": 1, \"step_s\": 0.5, \"a2a_s\": 0.1, \"compute_s\": null}\n"
                                "{\"kind\": \"drops\", \"step\": 2, \"layer\": 1, \"tokens\": 0, \"assignments\": 0, "
                                "\"dropped_tokens\": 0, \"dropped_assignments\": 0}\n"
                                "{\"kind\": \"time\", \"step\": 2, \"step_s\": 0.4, \"a2a_s\": 0.1, \"compute_s\": 0.3}\n";
        auto r = MoewbCollectImporter::parse(text, QStringLiteral("side.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, 4);
        bool found = true;
        metric(r.value(), QStringLiteral("busiest_device_share"), 1, &found);
        QVERIFY(!found); // compute not measured
        QCOMPARE(metric(r.value(), QStringLiteral("drop_rate"), 1), 0.2);
        QCOMPARE(metric(r.value(), QStringLiteral("assignment_drop_rate"), 1), 0.25);
        // No tokens routed: counts, but no rate (0 / 0).
        QCOMPARE(metric(r.value(), QStringLiteral("dropped_tokens"), 2), 0.0);
        metric(r.value(), QStringLiteral("drop_rate"), 2, &found);
        QVERIFY(!found);
        QCOMPARE(metric(r.value(), QStringLiteral("busiest_device_share"), 2), 1.0); // (0.3 + 0.1) / 0.4
        QCOMPARE(r->collectorSteps[0].computeS, -1.0);
    }

    void clockErrorWithinSlackIsClampedToOne() {
        const QByteArray text = QByteArray(kHeader) +
                                "{\"kind\": \"time\", \"step\": 3, \"step_s\": 0.1, \"a2a_s\": 0.05, \"compute_s\": 0.0505}\n";
        auto r = MoewbCollectImporter::parse(text, QStringLiteral("side.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(metric(r.value(), QStringLiteral("busiest_device_share"), 3), 1.0);
        QCOMPARE(r->environment.value(QStringLiteral("busiest_device_share_clamped")).toInt(), 1);
    }

    void invariantsAreNamed() {
        auto refused = [](const QByteArray& line) {
            auto r = MoewbCollectImporter::parse(QByteArray(kHeader) + line + "\n", QStringLiteral("s.jsonl"));
            return r.hasValue() ? QString() : r.error().text();
        };
        QCOMPARE(refused("{\"kind\": \"drops\", \"step\": 1, \"layer\": 0, \"tokens\": 10, \"assignments\": 20, "
                         "\"dropped_tokens\": 11, \"dropped_assignments\": 20}"),
                 QStringLiteral("s.jsonl:2: dropped_tokens: is 11, more than tokens = 10"));
        QCOMPARE(refused("{\"kind\": \"drops\", \"step\": 1, \"layer\": 0, \"tokens\": 10, \"assignments\": 20, "
                         "\"dropped_tokens\": 3, \"dropped_assignments\": 5}"),
                 QStringLiteral("s.jsonl:2: dropped_assignments: is 5, fewer than dropped_tokens × topk = 3 × 2 = 6 (a "
                                "dropped token lost all its assignments)"));
        QCOMPARE(refused("{\"kind\": \"drops\", \"step\": 1, \"layer\": 0, \"tokens\": 10, \"assignments\": 20, "
                         "\"dropped_tokens\": 0, \"dropped_assignments\": 21}"),
                 QStringLiteral("s.jsonl:2: dropped_assignments: is 21, more than assignments = 20"));
        QCOMPARE(refused("{\"kind\": \"time\", \"step\": 1, \"step_s\": 0.1, \"a2a_s\": 0.1, \"compute_s\": 0.1}"),
                 QStringLiteral("s.jsonl:2: step_s: is 0.1 s, less than a2a_s + compute_s = 0.2 s: the blocks cannot "
                                "take longer than the step"));
        QVERIFY(refused("{\"kind\": \"time\", \"step\": 1, \"step_s\": 0.1, \"a2a_s\": -0.01, \"compute_s\": 0}")
                    .startsWith(QStringLiteral("s.jsonl:2: a2a_s: is -0.01 s")));
        // The rank in the header against the rank{N} file name.
        auto r = MoewbCollectImporter::parse(kHeader, QStringLiteral("out/moewb_collect/rank3.jsonl"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(),
                 QStringLiteral("out/moewb_collect/rank3.jsonl:1: rank: is 0 but the file name says rank 3"));
    }

    // A resumed training appends to the same file (docs/collect.md): run A writes steps
    // 1-4 and dies, run B resumes from the checkpoint of step 1 and writes 2-3, run C
    // resumes from 3 and writes 3 again. Expected, from the runs' own lines: A's step 1,
    // B's step 2, C's step 3; A's 2-4 and B's 3 are replaced, A's step 4 although no later
    // run reached it.
    void aResumedTrainingReplacesTheEarlierStepsFromTheResumeOn() {
        struct Written {
            int run, step, layer; // layer -1: the time line
        };
        auto tokens = [](int run, int step, int layer) { return 100 * run + 10 * step + layer; };
        auto dropped = [](int run, int step, int layer) { return (run + step + layer) % 3; };
        auto stepS = [](int run, int step) { return 0.5 + 0.01 * run + 0.001 * step; };
        QList<Written> lines;
        auto write = [&](int run, int step) {
            lines << Written{run, step, 0} << Written{run, step, 1} << Written{run, step, -1};
        };
        for (int step : {1, 2, 3, 4})
            write(1, step);
        for (int step : {2, 3})
            write(2, step);
        write(3, 3);
        QByteArray text(kHeader);
        for (const Written& w : lines) {
            QJsonObject o{{QStringLiteral("step"), w.step}};
            if (w.layer >= 0) {
                const int t = tokens(w.run, w.step, w.layer), d = dropped(w.run, w.step, w.layer);
                o.insert(QStringLiteral("kind"), QStringLiteral("drops"));
                o.insert(QStringLiteral("layer"), w.layer);
                o.insert(QStringLiteral("tokens"), t);
                o.insert(QStringLiteral("assignments"), 2 * t);
                o.insert(QStringLiteral("dropped_tokens"), d);
                o.insert(QStringLiteral("dropped_assignments"), 2 * d + 1);
            } else {
                o.insert(QStringLiteral("kind"), QStringLiteral("time"));
                o.insert(QStringLiteral("step_s"), stepS(w.run, w.step));
                o.insert(QStringLiteral("a2a_s"), 0.1);
                o.insert(QStringLiteral("compute_s"), 0.2);
            }
            text += QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
        }
        auto r = MoewbCollectImporter::parse(text, QStringLiteral("moewb_collect/rank0.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const std::map<int, int> runOfStep{{1, 1}, {2, 2}, {3, 3}};
        QCOMPARE(r->collectorSteps.size(), qsizetype(runOfStep.size()));
        qsizetype i = 0;
        for (const auto& [step, run] : runOfStep) {
            const CollectorStep& c = r->collectorSteps[i++];
            QCOMPARE(c.step, qint64(step));
            QCOMPARE(c.layers, 2);
            QCOMPARE(qint64(c.tokens), qint64(tokens(run, step, 0) + tokens(run, step, 1)));
            QCOMPARE(qint64(c.droppedTokens), qint64(dropped(run, step, 0) + dropped(run, step, 1)));
            QCOMPARE(c.stepS, stepS(run, step));
            QCOMPARE(metric(r.value(), QStringLiteral("drop_rate"), step),
                     double(dropped(run, step, 0) + dropped(run, step, 1)) /
                         double(tokens(run, step, 0) + tokens(run, step, 1)));
        }
        bool found = true;
        metric(r.value(), QStringLiteral("dropped_tokens"), 4, &found);
        QVERIFY(!found);
        QCOMPARE(r->rows, qint64(lines.size()));
        QCOMPARE(r->environment.value(QStringLiteral("resumes")).toInt(), 2);
        QCOMPARE(r->environment.value(QStringLiteral("resumed_from_steps")).toArray(), (QJsonArray{2, 3}));
        QCOMPARE(r->environment.value(QStringLiteral("replaced_steps")).toInt(), 4); // A's 2, 3, 4; B's 3

        // The last step again: a second time line, or a layer after the step's time line.
        const QByteArray drops = "{\"kind\": \"drops\", \"step\": 1, \"layer\": 0, \"tokens\": 10, \"assignments\": 20, "
                                 "\"dropped_tokens\": 1, \"dropped_assignments\": 2}\n";
        const QByteArray time = "{\"kind\": \"time\", \"step\": 1, \"step_s\": 0.5, \"a2a_s\": null, \"compute_s\": null}\n";
        r = MoewbCollectImporter::parse(QByteArray(kHeader) + drops + time + time, QStringLiteral("s.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->collectorSteps.size(), 1);
        QCOMPARE(r->collectorSteps[0].layers, 0); // the resumed run wrote only the time line
        QCOMPARE(r->environment.value(QStringLiteral("resumes")).toInt(), 1);
        r = MoewbCollectImporter::parse(QByteArray(kHeader) + drops + time + drops, QStringLiteral("s.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->collectorSteps.size(), 1);
        QCOMPARE(r->collectorSteps[0].layers, 1);
        QVERIFY(!r->collectorSteps[0].timed);
        // A layer again before the step's time line is a resume too.
        r = MoewbCollectImporter::parse(QByteArray(kHeader) + drops + drops, QStringLiteral("s.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->collectorSteps[0].tokens, quint64(10));
    }

    void hugeNumbersAndLongTextAreRefusedBriefly() {
        auto text = [](const QByteArray& line) { return QByteArray(kHeader) + line + "\n"; };
        auto r = MoewbCollectImporter::parse(text("{\"kind\": \"drops\", \"step\": 1, \"layer\": 0, \"tokens\": "
                                                  "123456789012345678901234567890, \"assignments\": 0, "
                                                  "\"dropped_tokens\": 0, \"dropped_assignments\": 0}"),
                                             QStringLiteral("s.jsonl"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 2);
        QCOMPARE(r.error().field, QStringLiteral("tokens"));
        r = MoewbCollectImporter::parse(text("{\"kind\": \"time\", \"step\": 10000000000000, \"step_s\": 1, "
                                             "\"a2a_s\": 0, \"compute_s\": 0}"),
                                        QStringLiteral("s.jsonl"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("step"));
        QVERIFY(r.error().message.contains(QStringLiteral("absurd")));
        r = MoewbCollectImporter::parse(text("{\"kind\": \"time\", \"step\": 1, \"step_s\": 1e400, \"a2a_s\": 0, "
                                             "\"compute_s\": 0}"),
                                        QStringLiteral("s.jsonl"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("step_s"));
        // A 300,000-character framework name is quoted, not echoed.
        QByteArray header(kHeader);
        header.replace("\"generic\"", "\"" + QByteArray(300000, 'g') + "\"");
        r = MoewbCollectImporter::parse(header, QStringLiteral("s.jsonl"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().field, QStringLiteral("framework"));
        QVERIFY2(r.error().text().size() < 400, qPrintable(QString::number(r.error().text().size())));
        // A key of 300,000 characters is cut in the field too.
        r = MoewbCollectImporter::parse(QByteArray(kHeader) + "{\"" + QByteArray(300000, 'k') + "\" 1}\n",
                                        QStringLiteral("s.jsonl"));
        QVERIFY(!r.hasValue());
        QVERIFY(r.error().text().size() < 1400);
    }

    // The collector's tokens-per-expert lines: "experts_scope": "all" in the environment,
    // a file of one scope only.
    void tpeExpertsScope() {
        const QString rel = QStringLiteral("collect/one-rank/tokens_per_expert/rank0.jsonl");
        auto r = importFile(fixture(rel));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->format, QStringLiteral("megatron-tpe-jsonl"));
        QCOMPARE(r->environment.value(QStringLiteral("experts_scope")).toString(), QStringLiteral("all"));
        QCOMPARE(r->environment.value(QStringLiteral("rank")).toInt(), 0);
        auto plain = MegatronTpeJsonlImporter::parse("{\"iter\": 1, \"layer\": 0, \"tpe\": [[1, 2]]}\n",
                                                     QStringLiteral("rank1.jsonl"));
        QVERIFY(plain.hasValue());
        QVERIFY(!plain->environment.contains(QStringLiteral("experts_scope")));
        auto mixed = MegatronTpeJsonlImporter::parse(
            "{\"iter\": 1, \"layer\": 0, \"tpe\": [1, 2], \"experts_scope\": \"all\"}\n"
            "{\"iter\": 1, \"layer\": 1, \"tpe\": [1, 2]}\n",
            QStringLiteral("rank1.jsonl"));
        QVERIFY(!mixed.hasValue());
        QCOMPARE(mixed.error().line, 2);
        QCOMPARE(mixed.error().field, QStringLiteral("experts_scope"));
        auto other = MegatronTpeJsonlImporter::parse(
            "{\"iter\": 1, \"layer\": 0, \"tpe\": [1, 2], \"experts_scope\": \"local\"}\n", QStringLiteral("rank1.jsonl"));
        QVERIFY(!other.hasValue());
        QCOMPARE(other.error().text(), QStringLiteral("rank1.jsonl:1: experts_scope: must be \"all\", not \"local\""));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("moewb-collect-jsonl", MoewbCollectImporter)
};

QTEST_GUILESS_MAIN(TestMoewbCollectImporter)
#include "test_moewb_collect_importer.moc"
