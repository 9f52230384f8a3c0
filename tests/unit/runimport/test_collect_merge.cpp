// The collector's sidecars of one training merged into its per-step metrics
// (runimport::mergeCollectorFiles), and a training folder with train.log,
// tokens_per_expert/ ("experts_scope": "all"), moewb_collect/ and record.json planned as
// ONE run (runimport::planImport). Expected figures are computed here by brute force
// from the fixture's lines (tests/fixtures/runs/collect-4ranks, made by
// make_collect_run.py) with QJsonDocument.
#include "importers/MoewbCollectImporter.h"
#include "record/RecordJson.h"
#include "runimport/CollectMerge.h"
#include "runimport/RunImport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace moewb;

namespace {

QString tree() { return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/collect-4ranks"); }

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

QList<QJsonObject> lines(const QString& path) {
    QList<QJsonObject> out;
    for (const QByteArray& l : readAll(path).split('\n'))
        if (!l.trimmed().isEmpty())
            out << QJsonDocument::fromJson(l).object();
    return out;
}

record::ConfigRecord fixtureRecord() {
    const record::ParsedRecord p = record::parseRecord(readAll(tree() + QStringLiteral("/record.json")));
    if (!p.issues.isEmpty())
        qFatal("record.json does not parse");
    return p.record;
}

struct BruteForce {
    std::map<qint64, double> dropRate, assignmentRate, dropped, droppedAssignments, share;
};

// Over every rank and layer: Σ D / Σ T, Σ DA / Σ A; the share of the rank with the
// largest compute time (lowest rank on ties) where every rank measured it.
BruteForce bruteForce(int world) {
    struct Acc {
        qint64 t = 0, a = 0, d = 0, da = 0;
        int timed = 0;
        bool allMeasured = true;
        double bestZ = -1, bestShare = 0;
    };
    std::map<qint64, Acc> acc;
    for (int r = 0; r < world; ++r) {
        for (const QJsonObject& o : lines(tree() + QStringLiteral("/moewb_collect/rank%1.jsonl").arg(r))) {
            if (o.contains(QStringLiteral("format")))
                continue;
            Acc& s = acc[o.value(QStringLiteral("step")).toInteger()];
            if (o.value(QStringLiteral("kind")).toString() == QStringLiteral("drops")) {
                s.t += o.value(QStringLiteral("tokens")).toInteger();
                s.a += o.value(QStringLiteral("assignments")).toInteger();
                s.d += o.value(QStringLiteral("dropped_tokens")).toInteger();
                s.da += o.value(QStringLiteral("dropped_assignments")).toInteger();
                continue;
            }
            ++s.timed;
            const QJsonValue z = o.value(QStringLiteral("compute_s"));
            if (z.isNull()) {
                s.allMeasured = false;
                continue;
            }
            if (z.toDouble() > s.bestZ) { // ranks in increasing order: a tie keeps the lower rank
                s.bestZ = z.toDouble();
                s.bestShare = (z.toDouble() + o.value(QStringLiteral("a2a_s")).toDouble()) /
                              o.value(QStringLiteral("step_s")).toDouble();
            }
        }
    }
    BruteForce e;
    for (const auto& [step, s] : acc) {
        e.dropRate[step] = double(s.d) / double(s.t);
        e.assignmentRate[step] = double(s.da) / double(s.a);
        e.dropped[step] = double(s.d);
        e.droppedAssignments[step] = double(s.da);
        if (s.allMeasured && s.timed == world)
            e.share[step] = std::min(1.0, s.bestShare);
    }
    return e;
}

std::map<qint64, double> metricOf(const QVector<store::StepMetric>& metrics, const QString& name) {
    std::map<qint64, double> out;
    for (const auto& m : metrics)
        if (m.name == name)
            out[m.step] = m.value;
    return out;
}

bool sameMaps(const std::map<qint64, double>& a, const std::map<qint64, double>& b) {
    if (a.size() != b.size())
        return false;
    for (const auto& [k, v] : a) {
        const auto it = b.find(k);
        if (it == b.end() || std::fabs(it->second - v) > 1e-12)
            return false;
    }
    return true;
}

QList<runimport::CollectRankFile> rankFiles(const QList<int>& ranks) {
    QList<runimport::CollectRankFile> out;
    for (int r : ranks) {
        const QString path = tree() + QStringLiteral("/moewb_collect/rank%1.jsonl").arg(r);
        auto d = importers::MoewbCollectImporter::importFile(path);
        if (!d)
            qFatal("%s", qPrintable(d.error().text()));
        const QJsonObject& env = d->environment;
        out << runimport::CollectRankFile{QStringLiteral("moewb_collect/rank%1.jsonl").arg(r), r,
                                          env.value(QStringLiteral("world")).toInteger(),
                                          env.value(QStringLiteral("experts")).toInteger(),
                                          env.value(QStringLiteral("top_k")).toInteger(), d->collectorSteps};
    }
    return out;
}

} // namespace

class TestCollectMerge : public QObject {
    Q_OBJECT
private slots:
    void fourRanksGiveTheTrainingsDropRateAndBusiestShare() {
        const BruteForce e = bruteForce(4);
        auto merged = runimport::mergeCollectorFiles(rankFiles({3, 1, 0, 2}), fixtureRecord(), false);
        QVERIFY2(merged.hasValue(), merged.hasValue() ? "" : qPrintable(merged.error().first().text()));
        const auto& m = merged.value().metrics;
        QVERIFY(sameMaps(metricOf(m, QStringLiteral("drop_rate")), e.dropRate));
        QVERIFY(sameMaps(metricOf(m, QStringLiteral("assignment_drop_rate")), e.assignmentRate));
        QVERIFY(sameMaps(metricOf(m, QStringLiteral("dropped_tokens")), e.dropped));
        QVERIFY(sameMaps(metricOf(m, QStringLiteral("dropped_assignments")), e.droppedAssignments));
        QVERIFY(sameMaps(metricOf(m, QStringLiteral("busiest_device_share")), e.share));
        // Six steps written; rank 2 did not measure its compute in step 6.
        QCOMPARE(e.dropRate.size(), size_t(6));
        QCOMPARE(e.share.size(), size_t(5));
        QVERIFY(!e.share.count(6));
        QCOMPARE(merged.value().shareSteps, 5);
        // Step 4: rank 0 computes longest (in a long step), rank 3 has the larger share of its
        // own step: the busiest device is rank 0, (0.09 + 0.01) / 0.2.
        QCOMPARE(metricOf(m, QStringLiteral("busiest_device_share")).at(4), (0.09 + 0.01) / 0.2);
        double anyDrop = 0;
        for (const auto& [step, v] : e.dropped)
            anyDrop += v;
        QVERIFY(anyDrop > 0);
    }

    void aMissingRankIsNamed() {
        auto merged = runimport::mergeCollectorFiles(rankFiles({0, 1, 3}), fixtureRecord(), false);
        QVERIFY(!merged.hasValue());
        const QString text = merged.error().first().text();
        QVERIFY2(text.contains(QStringLiteral("moewb_collect/rank2.jsonl missing of the 4 ranks")), qPrintable(text));
    }

    void headersOfTwoTrainingsAndTheRecordDisagreeing() {
        auto files = rankFiles({0, 1, 2, 3});
        files[2].topk = 4;
        auto merged = runimport::mergeCollectorFiles(files, std::nullopt, false);
        QVERIFY(!merged.hasValue());
        QVERIFY2(merged.error().first().text().contains(QStringLiteral("topk = 4")), qPrintable(merged.error().first().text()));
        record::ConfigRecord rec = fixtureRecord();
        rec.moe.experts = 16;
        merged = runimport::mergeCollectorFiles(rankFiles({0, 1, 2, 3}), rec, false);
        QVERIFY(!merged.hasValue());
        QVERIFY(merged.error().first().text().contains(QStringLiteral("moe.experts = 16")));
    }

    void partialStepsRefusedOrLeftOut() {
        auto files = rankFiles({0, 1, 2, 3});
        files[1].steps.removeLast(); // rank 1 lacks step 12
        auto merged = runimport::mergeCollectorFiles(files, fixtureRecord(), false);
        QVERIFY(!merged.hasValue());
        QVERIFY(merged.error().first().text().contains(QStringLiteral("rank1.jsonl lacks 1 step(s): 12")));
        merged = runimport::mergeCollectorFiles(files, fixtureRecord(), true);
        QVERIFY(merged.hasValue());
        QVERIFY(!metricOf(merged.value().metrics, QStringLiteral("drop_rate")).count(12));
    }

    // The folder a training with the collector leaves: one run, the sidecars' metrics,
    // the all-experts counts summed over ranks, the console log's loss, record.json skipped.
    void trainingFolderIsOneRun() {
        runimport::ImportOptions options;
        auto collected = runimport::collectImportFiles({tree()}, options);
        QVERIFY(collected.hasValue());
        auto plan = runimport::planImport(collected.value(), fixtureRecord(), options);
        QVERIFY2(plan.hasValue(), plan.hasValue() ? "" : qPrintable(plan.error().first().text()));
        const runimport::ImportPlan& p = plan.value();
        QCOMPARE(p.files.size(), 9); // train.log + 4 + 4
        bool recordSkipped = false;
        for (const auto& s : p.skipped)
            recordSkipped = recordSkipped || s.path == QStringLiteral("record.json");
        QVERIFY(recordSkipped);

        const BruteForce e = bruteForce(4);
        QVERIFY(sameMaps(metricOf(p.stepMetrics, QStringLiteral("drop_rate")), e.dropRate));
        QVERIFY(sameMaps(metricOf(p.stepMetrics, QStringLiteral("busiest_device_share")), e.share));
        QCOMPARE(metricOf(p.stepMetrics, QStringLiteral("lm_loss")).size(), size_t(6));
        QCOMPARE(p.environment.value(QStringLiteral("busiest_device_share_source")).toString(),
                 QStringLiteral("moewb-collect"));

        // Expert load: Σ over ranks of each rank's all-experts counts, per (step, layer).
        std::map<std::pair<qint64, int>, QVector<quint32>> load;
        for (int r = 0; r < 4; ++r)
            for (const QJsonObject& o : lines(tree() + QStringLiteral("/tokens_per_expert/rank%1.jsonl").arg(r))) {
                QVector<quint32>& v = load[{o.value(QStringLiteral("iter")).toInteger(), o.value(QStringLiteral("layer")).toInt()}];
                const QJsonArray tpe = o.value(QStringLiteral("tpe")).toArray();
                v.resize(tpe.size());
                for (qsizetype i = 0; i < tpe.size(); ++i)
                    v[i] += quint32(tpe[i].toInt());
            }
        QCOMPARE(p.expertLoad.size(), qsizetype(load.size()));
        for (const auto& b : p.expertLoad)
            QCOMPARE(b.tokensPerExpert, (load[{b.step, b.layer}]));
        // ... and those counts are the kept assignments: Σ tpe = Σ A − Σ DA per step.
        std::map<qint64, double> kept;
        for (const auto& b : p.expertLoad)
            for (quint32 c : b.tokensPerExpert)
                kept[b.step] += c;
        for (const auto& [step, k] : kept)
            QCOMPARE(k, 4.0 * 2 * 64 * 2 - e.droppedAssignments.at(step)); // ranks × layers × tokens × topk
    }

    void scopedAndUnscopedTpeFilesAreNotMixed() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QDirIterator it(tree(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString src = it.next();
            const QString dst = dir.filePath(QDir(tree()).relativeFilePath(src));
            QDir().mkpath(QFileInfo(dst).absolutePath());
            QVERIFY(QFile::copy(src, dst));
        }
        // Rank 3's counts as Megatron's own writer gives them: the local experts of its EP rank.
        QFile f(dir.filePath(QStringLiteral("tokens_per_expert/rank3.jsonl")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"iter\": 2, \"block\": \"decoder\", \"layer\": 0, \"tpe\": [[3, 4]]}\n");
        f.close();
        runimport::ImportOptions options;
        auto plan = runimport::planImport(runimport::collectImportFiles({dir.path()}, options).value(), fixtureRecord(),
                                          options);
        QVERIFY(!plan.hasValue());
        const QString text = plan.error().first().text();
        QVERIFY2(text.contains(QStringLiteral("experts_scope")) && text.contains(QStringLiteral("separate runs")),
                 qPrintable(text));

        // Without rank 3's tokens-per-expert file, the all-experts files are incomplete.
        QVERIFY(QFile::remove(f.fileName()));
        plan = runimport::planImport(runimport::collectImportFiles({dir.path()}, options).value(), fixtureRecord(), options);
        QVERIFY(!plan.hasValue());
        QVERIFY2(plan.error().first().text().contains(QStringLiteral("rank3.jsonl")),
                 qPrintable(plan.error().first().text()));
    }
};

QTEST_GUILESS_MAIN(TestCollectMerge)
#include "test_collect_merge.moc"
