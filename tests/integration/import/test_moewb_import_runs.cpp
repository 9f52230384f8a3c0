// `moewb import PATH... --run NAME` / `--into NAME` on training trees laid out as
// Megatron-Core writes them (tests/fixtures/runs, made by make_runs.py): one run from
// a --save folder's per-rank tokens_per_expert files and the console log, merged into
// the global expert view. Every expected figure is recomputed here from the fixture
// files by brute force with the layout written out by hand (no code under test).
#include "../MoewbCli.h"
#include "stages/StageInputs.h"
#include "stages/StageThreeGate.h"
#include "store/ProjectStore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>
#include <map>
#include <tuple>

using moewb::store::ProjectStore;

namespace {

// (step, layer) -> counts over all experts.
using LoadMap = std::map<std::pair<qint64, int>, QVector<quint64>>;

QString runs(const QString& rel) { return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/") + rel; }

QList<QJsonObject> jsonLines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    QList<QJsonObject> out;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.trimmed().isEmpty())
            out << QJsonDocument::fromJson(line).object();
    return out;
}

void addInto(QVector<quint64>& v, qsizetype at, quint64 n, qsizetype width) {
    if (v.isEmpty())
        v.fill(0, width);
    v[at] += n;
}

// Megatron tokens-per-expert files. expertRank(r) gives (etp, ep, pp) of global rank r
// as written out by the caller for its layout; only etp 0 is counted (twins hold the
// same tokens); layer = pp × layersPerStage + N; MTP layers get mtpBase + mtp layer.
template <typename Coords>
LoadMap bruteForceTpe(const QString& folder, int world, int local, int experts, int layersPerStage, int mtpBase,
                      Coords expertRank) {
    LoadMap load;
    for (int r = 0; r < world; ++r) {
        const auto [etp, ep, pp] = expertRank(r);
        if (etp != 0)
            continue;
        for (const QJsonObject& o : jsonLines(folder + QStringLiteral("/rank%1.jsonl").arg(r))) {
            const bool mtp = o.value(QStringLiteral("block")).toString() == QStringLiteral("mtp");
            const int n = o.value(QStringLiteral("layer")).toInt();
            const int layer = mtp ? mtpBase + n : pp * layersPerStage + n;
            QVector<quint64>& v = load[{o.value(QStringLiteral("iter")).toInteger(), layer}];
            for (const QJsonValue& mb : o.value(QStringLiteral("tpe")).toArray()) {
                const QJsonArray counts = mb.toArray();
                if (counts.size() != local)
                    qFatal("%s: a micro-batch of %d experts, expected %d", qPrintable(folder), int(counts.size()), local);
                for (int j = 0; j < local; ++j)
                    addInto(v, ep * local + j, quint64(counts[j].toInteger()), experts);
            }
        }
    }
    return load;
}

double maxOverMean(const QVector<quint64>& v) {
    quint64 total = 0, most = 0;
    for (quint64 c : v) {
        total += c;
        most = std::max(most, c);
    }
    return double(most) / (double(total) / double(v.size()));
}

} // namespace

class TestMoewbImportRuns : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    int m_projects = 0;

    CliResult run(const QStringList& args) { return runMoewb(m_home.path(), args, 120000); }
    QString project(const QString& recordFile) {
        const QString path = m_home.filePath(QStringLiteral("p%1.moewb").arg(++m_projects));
        if (run({QStringLiteral("init"), path}).exitCode != 0)
            qFatal("init failed");
        const CliResult r = run({QStringLiteral("--project"), path, QStringLiteral("record"), QStringLiteral("add"), recordFile});
        if (r.exitCode != 0)
            qFatal("record add failed: %s", qPrintable(r.err));
        return path;
    }
    CliResult import(const QString& projectPath, const QStringList& args) {
        return run(QStringList{QStringLiteral("--project"), projectPath, QStringLiteral("--json"), QStringLiteral("import")} + args);
    }
    static int runCount(const QString& projectPath) {
        auto store = ProjectStore::open(projectPath, moewb::store::OpenMode::MustExist);
        return store ? int(store.value()->runs().size()) : -1;
    }
    static LoadMap stored(const QString& projectPath, const QString& runName) {
        LoadMap out;
        auto store = ProjectStore::open(projectPath, moewb::store::OpenMode::MustExist);
        if (!store)
            return out;
        const auto row = store.value()->run(runName);
        if (!row)
            return out;
        for (const auto& b : store.value()->expertLoad(row->id)) {
            QVector<quint64>& v = out[{b.step, b.layer}];
            for (quint32 c : b.tokensPerExpert)
                v.append(c);
        }
        return out;
    }
    // A copy of a fixture tree to break.
    QString copyTree(const QString& from) {
        const QString to = m_home.filePath(QStringLiteral("tree%1").arg(++m_projects));
        QDir().mkpath(to);
        QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString src = it.next();
            const QString dst = to + QLatin1Char('/') + QDir(from).relativeFilePath(src);
            QDir().mkpath(QFileInfo(dst).absolutePath());
            QFile::copy(src, dst);
        }
        return to;
    }
    static void rewrite(const QString& path, const std::function<QByteArray(QByteArray)>& edit) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        f.close();
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(edit(text));
    }

private slots:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    // Done-when of the issue: a Megatron-Core save folder of 8 ranks (EP 4, MTP on) plus
    // its console log, one command, one run of 64 experts; stage 3 equals a brute-force
    // sum with the loss beside it.
    void saveFolderAndConsoleLogAreOneRun() {
        const QString tree = runs(QStringLiteral("megatron-ep4-mtp"));
        const QString p = project(tree + QStringLiteral("/record.json"));
        CliResult r = import(p, {tree + QStringLiteral("/save"), tree + QStringLiteral("/train.log"), QStringLiteral("--run"),
                                 QStringLiteral("ep4")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject out = r.json().value(QStringLiteral("runs")).toArray().first().toObject();
        QCOMPARE(out.value(QStringLiteral("name")).toString(), QStringLiteral("ep4"));
        const QJsonObject plan = out.value(QStringLiteral("plan")).toObject();
        QCOMPARE(plan.value(QStringLiteral("files")).toArray().size(), 9); // 8 rank files + the log
        QStringList skipped;
        for (const QJsonValue& s : plan.value(QStringLiteral("skipped")).toArray())
            skipped << s.toObject().value(QStringLiteral("file")).toString();
        QVERIFY2(skipped.contains(QStringLiteral("latest_checkpointed_iteration.txt")), qPrintable(skipped.join(',')));
        QVERIFY2(skipped.contains(QStringLiteral("iter_0000040/")), qPrintable(skipped.join(',')));
        for (const QJsonValue& f : plan.value(QStringLiteral("files")).toArray()) {
            const QJsonObject o = f.toObject();
            if (o.value(QStringLiteral("format")).toString() == QStringLiteral("megatron-tpe-jsonl")) {
                const int rank = o.value(QStringLiteral("rank")).toInt(-1);
                QVERIFY(rank >= 0 && rank < 8);
                QVERIFY2(o.value(QStringLiteral("role")).toString().contains(QStringLiteral("EP rank %1").arg(rank % 4)),
                         qPrintable(o.value(QStringLiteral("role")).toString()));
            }
        }

        // Expert load: rank r is EP rank r % 4, expert-DP rank r / 4 (etp 1, pp 1);
        // 4 decoder layers, the MTP layer after them as layer 4.
        const LoadMap expected = bruteForceTpe(tree + QStringLiteral("/save/tokens_per_expert"), 8, 16, 64, 4, 4,
                                               [](int r) { return std::make_tuple(0, r % 4, 0); });
        const LoadMap got = stored(p, QStringLiteral("ep4"));
        QCOMPARE(got.size(), expected.size());
        QCOMPARE(got.size(), size_t(4 * 5));
        QVERIFY(got == expected);
        for (const auto& [key, counts] : got)
            QCOMPARE(counts.size(), 64);

        auto store = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
        QVERIFY(store.hasValue());
        const auto row = store.value()->run(QStringLiteral("ep4"));
        const QJsonArray mtp = row->environment.value(QStringLiteral("mtp_layers")).toArray();
        QCOMPARE(mtp.size(), 1);
        QCOMPARE(mtp[0].toObject().value(QStringLiteral("layer")).toInt(), 4);
        QCOMPARE(row->environment.value(QStringLiteral("experts")).toInt(), 64);

        // The loss from the console log, read here with a regular expression.
        QFile log(tree + QStringLiteral("/train.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        std::map<qint64, double> loss;
        const QRegularExpression re(QStringLiteral(R"(iteration\s+(\d+)/.*\| lm loss: ([0-9.E+-]+) \|)"));
        for (const QByteArray& line : log.readAll().split('\n')) {
            const auto m = re.match(QString::fromUtf8(line));
            if (m.hasMatch())
                loss[m.captured(1).toLongLong()] = m.captured(2).toDouble();
        }
        QCOMPARE(loss.size(), size_t(4));
        const auto lossStored = store.value()->stepMetrics(row->id, QStringLiteral("lm_loss"));
        QCOMPARE(lossStored.size(), 4);
        for (const auto& m : lossStored)
            QCOMPARE(m.value, loss.at(m.step));

        // Stage 3 over the merged run (the gate's own evaluation; stages 1 and 2 are not
        // the point here, so the figures are read from the stage 3 evaluation directly).
        auto inputs = moewb::stages::loadStageThreeInputs(*store.value(), {QStringLiteral("ep4")});
        QVERIFY(inputs.hasValue());
        const auto result = moewb::stages::evaluateStageThree(
            inputs.value(), moewb::stages::ThresholdSet(store.value()->thresholds()));
        QCOMPARE(result.runs.size(), 1);
        const auto& s = result.runs.first();
        QCOMPARE(s.experts, 64);
        QCOMPARE(s.layers, 5);
        double ratioMax = 0, ratioSum = 0;
        for (const auto& [key, counts] : expected) {
            ratioMax = std::max(ratioMax, maxOverMean(counts));
            ratioSum += maxOverMean(counts);
        }
        QVERIFY(qAbs(s.windowMaxRatio - ratioMax) < 1e-9);
        QVERIFY(qAbs(s.windowMeanRatio - ratioSum / double(expected.size())) < 1e-9);
        double lossMean = 0;
        for (const auto& [step, v] : loss)
            lossMean += v / double(loss.size());
        QVERIFY(s.windowLoss.has_value());
        QVERIFY(qAbs(*s.windowLoss - lossMean) < 1e-9);
        // The busiest-device share under EP 4, recomputed: the busiest EP rank's 16 experts.
        double shareSum = 0;
        for (const auto& [key, counts] : expected) {
            quint64 total = 0, busiest = 0;
            for (int e = 0; e < 4; ++e) {
                quint64 rank = 0;
                for (int j = 0; j < 16; ++j)
                    rank += counts[e * 16 + j];
                busiest = std::max(busiest, rank);
                total += rank;
            }
            shareSum += double(busiest) / double(total);
        }
        QVERIFY(s.busiestDeviceShare.has_value());
        QVERIFY(qAbs(*s.busiestDeviceShare - shareSum / double(expected.size())) < 1e-9);
        // The drop rate beside the loss: estimated from the load at capacity factor 1.25
        // (capacity = ⌈1.25 × assignments / 64⌉ per layer and step; overflow dropped).
        quint64 routed = 0, over = 0;
        for (const auto& [key, counts] : expected) {
            quint64 total = 0;
            for (quint64 c : counts)
                total += c;
            const auto capacity = quint64(std::ceil(1.25 * double(total) / 64.0 - 1e-9));
            for (quint64 c : counts)
                over += c > capacity ? c - capacity : 0;
            routed += total;
        }
        QVERIFY(s.dropRate.has_value());
        QVERIFY(qAbs(*s.dropRate - double(over) / double(routed)) < 1e-12);

        // Misjudgment 3 (only the mean load reported) does not fire on the merged run.
        store.value().reset();
        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("checks")});
        QVERIFY2(!r.out.contains(QStringLiteral("Run ep4 has training metrics")), qPrintable(r.out));
    }

    // Expert-TP 2 and PP 2: twins counted once, stages own different layers.
    void expertTensorParallelAndPipelineStages() {
        const QString tree = runs(QStringLiteral("megatron-etp2-pp2"));
        const QString p = project(tree + QStringLiteral("/record.json"));
        const CliResult r = import(p, {tree + QStringLiteral("/save"), QStringLiteral("--run"), QStringLiteral("etp")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        // Expert grid tp-cp-ep-dp-pp with etp 2, ep 4, edp 1, pp 2: etp fastest.
        const LoadMap expected = bruteForceTpe(tree + QStringLiteral("/save/tokens_per_expert"), 16, 4, 16, 2, 4,
                                               [](int r) { return std::make_tuple(r % 2, (r / 2) % 4, r / 8); });
        QCOMPARE(expected.size(), size_t(2 * 4));
        QVERIFY(stored(p, QStringLiteral("etp")) == expected);
    }

    void routingTraceOverTwoRanks() {
        const QString tree = runs(QStringLiteral("megatron-trace-2ranks"));
        const QString p = project(tree + QStringLiteral("/record.json"));
        const CliResult r = import(p, {tree + QStringLiteral("/traces"), QStringLiteral("--run"), QStringLiteral("trace")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        LoadMap expected;
        for (int rank = 0; rank < 2; ++rank)
            for (const QJsonObject& o : jsonLines(tree + QStringLiteral("/traces/router_trace_rank%1.jsonl").arg(rank))) {
                const bool mtp = o.contains(QStringLiteral("mtp_idx"));
                const int layer = mtp ? 2 + o.value(QStringLiteral("layer")).toInt() : o.value(QStringLiteral("layer")).toInt();
                // Stored at step + 1: the tracer numbers a step before the iteration counter advances.
                QVector<quint64>& v = expected[{o.value(QStringLiteral("step")).toInteger() + 1, layer}];
                for (const QJsonValue& token : o.value(QStringLiteral("top_indices")).toArray())
                    for (const QJsonValue& e : token.toArray())
                        addInto(v, e.toInt(), 1, 8);
            }
        QCOMPARE(expected.size(), size_t(3 * 3));
        QVERIFY(stored(p, QStringLiteral("trace")) == expected);
    }

    void brokenTreesStoreNothing() {
        const QString good = runs(QStringLiteral("megatron-ep4-mtp"));
        const QString p = project(good + QStringLiteral("/record.json"));
        auto importSave = [&](const QString& tree, const QStringList& extra = {}) {
            return import(p, QStringList{tree + QStringLiteral("/save"), QStringLiteral("--run"), QStringLiteral("x")} + extra);
        };
        // A missing rank.
        QString tree = copyTree(good);
        QVERIFY(QFile::remove(tree + QStringLiteral("/save/tokens_per_expert/rank5.jsonl")));
        CliResult r = importSave(tree);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("incomplete")) && r.err.contains(QStringLiteral("rank5.jsonl")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("nothing stored")));
        // A rank with another expert count.
        tree = copyTree(good);
        {
            QFile f(tree + QStringLiteral("/save/tokens_per_expert/rank3.jsonl"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QString text = QString::fromUtf8(f.readAll());
            f.close();
            text.replace(QRegularExpression(QStringLiteral(R"(, \d+\])")), QStringLiteral("]")); // drop each micro-batch's last expert
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text.toUtf8());
        }
        r = importSave(tree);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("rank3.jsonl")) && r.err.contains(QStringLiteral("15 experts")), qPrintable(r.err));
        // An MTP record without mtp_idx: named by file, line and field.
        tree = copyTree(good);
        const QList<QJsonObject> lines = jsonLines(good + QStringLiteral("/save/tokens_per_expert/rank2.jsonl"));
        int mtpLine = 0;
        for (int i = 0; i < lines.size() && !mtpLine; ++i)
            if (lines[i].value(QStringLiteral("block")).toString() == QStringLiteral("mtp"))
                mtpLine = i + 1;
        QVERIFY(mtpLine > 0);
        rewrite(tree + QStringLiteral("/save/tokens_per_expert/rank2.jsonl"), [](QByteArray t) {
            const qsizetype at = t.indexOf("\"mtp_idx\": 0, ");
            return t.remove(at, int(strlen("\"mtp_idx\": 0, ")));
        });
        r = importSave(tree);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("rank2.jsonl:%1: mtp_idx").arg(mtpLine)), qPrintable(r.err));
        // A cut line.
        tree = copyTree(good);
        rewrite(tree + QStringLiteral("/save/tokens_per_expert/rank6.jsonl"), [](QByteArray t) { return t.left(t.size() - 40); });
        r = importSave(tree);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("rank6.jsonl:%1:").arg(lines.size())), qPrintable(r.err));
        // A step that one rank lacks: refused, or the complete steps with --allow-partial-steps.
        tree = copyTree(good);
        rewrite(tree + QStringLiteral("/save/tokens_per_expert/rank1.jsonl"), [](QByteArray t) {
            QList<QByteArray> keep;
            for (const QByteArray& l : t.split('\n'))
                if (!l.startsWith("{\"iter\": 40,"))
                    keep << l;
            return keep.join('\n');
        });
        r = importSave(tree);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("--allow-partial-steps")) && r.err.contains(QStringLiteral("40")), qPrintable(r.err));
        QCOMPARE(runCount(p), 0);
        r = importSave(tree, {QStringLiteral("--allow-partial-steps")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(stored(p, QStringLiteral("x")).size(), size_t(3 * 5));
        // A file in the folder that fits no format stops the import and says how to leave it out.
        tree = copyTree(good);
        {
            QFile notes(tree + QStringLiteral("/save/NOTES.txt"));
            QVERIFY(notes.open(QIODevice::WriteOnly));
            notes.write("remember to rerun with a bigger batch\n");
        }
        r = importSave(tree, {QStringLiteral("--run"), QStringLiteral("z")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("NOTES.txt")) && r.err.contains(QStringLiteral("--exclude NOTES.txt")),
                 qPrintable(r.err));
        r = importSave(tree, {QStringLiteral("--exclude"), QStringLiteral("NOTES.txt"), QStringLiteral("--run"), QStringLiteral("w")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(runCount(p), 2);
        // Two logs that disagree on the loss at the same step: both files named.
        tree = copyTree(good);
        QFile other(tree + QStringLiteral("/other.log"));
        QVERIFY(other.open(QIODevice::WriteOnly));
        QFile original(good + QStringLiteral("/train.log"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray changed = original.readAll();
        changed.replace("lm loss: 1.0", "lm loss: 2.0");
        other.write(changed);
        other.close();
        r = import(p, {tree + QStringLiteral("/train.log"), tree + QStringLiteral("/other.log"), QStringLiteral("--run"),
                       QStringLiteral("y")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("other.log")) && r.err.contains(QStringLiteral("train.log")) &&
                     r.err.contains(QStringLiteral("lm_loss")),
                 qPrintable(r.err));
        QCOMPARE(runCount(p), 2);
    }

    // A torchtitan console log imports with its tps (tokens/s per device), read back
    // here from the log's own text; a W&B export with two runs becomes two runs, or
    // the one --wandb-run names.
    void torchtitanAndWandbExports() {
        const QString p = project(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        const QString log = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/torchtitan/fp8-single-nocolor.log");
        CliResult r = import(p, {log, QStringLiteral("--run"), QStringLiteral("titan")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        std::map<qint64, double> tps;
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QRegularExpression re(QStringLiteral(R"(step:\s+(\d+)\s.*tps: ([0-9,]+))"));
        for (const QByteArray& line : f.readAll().split('\n')) {
            const auto m = re.match(QString::fromUtf8(line));
            if (m.hasMatch())
                tps[m.captured(1).toLongLong()] = m.captured(2).remove(QLatin1Char(',')).toDouble();
        }
        QVERIFY(tps.size() >= 2);
        auto store = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
        const auto row = store.value()->run(QStringLiteral("titan"));
        QVERIFY(row.has_value());
        const auto stored = store.value()->stepMetrics(row->id, QStringLiteral("tokens_per_s_per_gpu"));
        QCOMPARE(stored.size(), qsizetype(tps.size()));
        for (const auto& m : stored)
            QCOMPARE(m.value, tps.at(m.step));
        store.value().reset();

        // Megatron-DeepSpeed prints the whole job's samples per second: tokens/s per GPU
        // is derived with the record's sequence length (4096) and world (16 × 2 × 1 × 1).
        const QString ds = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/real/deepspeed_haibaraaichan-megatron-ds-moe64.log");
        r = import(p, {ds, QStringLiteral("--run"), QStringLiteral("ds")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        std::map<qint64, double> samples;
        QFile dsFile(ds);
        QVERIFY(dsFile.open(QIODevice::ReadOnly));
        const QRegularExpression sre(QStringLiteral(R"(iteration\s+(\d+)/.*\| samples per second: ([0-9.]+) \|)"));
        for (const QByteArray& line : dsFile.readAll().split('\n')) {
            const auto m = sre.match(QString::fromUtf8(line));
            if (m.hasMatch())
                samples[m.captured(1).toLongLong()] = m.captured(2).toDouble();
        }
        QVERIFY(!samples.empty());
        store = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
        const auto dsRow = store.value()->run(QStringLiteral("ds"));
        const auto derived = store.value()->stepMetrics(dsRow->id, QStringLiteral("tokens_per_s_per_gpu"));
        QCOMPARE(derived.size(), qsizetype(samples.size()));
        for (const auto& m : derived)
            QVERIFY(qAbs(m.value - samples.at(m.step) * 4096.0 / 32.0) < 1e-9 * m.value);
        QVERIFY(dsRow->environment.value(QStringLiteral("derived_metrics")).toObject().contains(QStringLiteral("tokens_per_s_per_gpu")));
        store.value().reset();

        const QString wandb = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/wandb/megatron-two-runs.csv");
        r = import(p, {wandb});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QStringList names;
        for (const QJsonValue& v : r.json().value(QStringLiteral("runs")).toArray())
            names << v.toObject().value(QStringLiteral("name")).toString();
        QCOMPARE(names, (QStringList{QStringLiteral("moe-64e-a"), QStringLiteral("moe-64e-b")}));
        r = import(p, {wandb, QStringLiteral("--wandb-run"), QStringLiteral("moe-64e-b"), QStringLiteral("--run"),
                       QStringLiteral("b-only")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(runCount(p), 5);
        r = import(p, {wandb, QStringLiteral("--wandb-run"), QStringLiteral("nope"), QStringLiteral("--run"),
                       QStringLiteral("n")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(runCount(p), 5);
    }

    void intoAddsToARunInOneTransaction() {
        const QString tree = runs(QStringLiteral("megatron-ep4-mtp"));
        const QString p = project(tree + QStringLiteral("/record.json"));
        CliResult r = import(p, {tree + QStringLiteral("/train.log"), QStringLiteral("--run"), QStringLiteral("t")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // A dry run stores nothing but shows the plan.
        r = import(p, {tree + QStringLiteral("/save"), QStringLiteral("--into"), QStringLiteral("t"), QStringLiteral("--dry-run")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.json().value(QStringLiteral("plans")).toArray().first().toObject().value(QStringLiteral("files")).toArray().size(), 8);
        QVERIFY(stored(p, QStringLiteral("t")).empty());
        r = import(p, {tree + QStringLiteral("/save"), QStringLiteral("--into"), QStringLiteral("t")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(runCount(p), 1);
        QCOMPARE(stored(p, QStringLiteral("t")).size(), size_t(4 * 5));
        auto store = ProjectStore::open(p, moewb::store::OpenMode::MustExist);
        const auto row = store.value()->run(QStringLiteral("t"));
        QCOMPARE(store.value()->stepMetrics(row->id, QStringLiteral("lm_loss")).size(), 4);
        // The same log again agrees with itself; a contradicting one changes nothing.
        QTemporaryDir other;
        QFile original(tree + QStringLiteral("/train.log"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray changed = original.readAll();
        changed.replace("lm loss: 1.0", "lm loss: 3.0");
        QFile bad(other.filePath(QStringLiteral("resumed.log")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(changed);
        bad.close();
        r = import(p, {bad.fileName(), QStringLiteral("--into"), QStringLiteral("t")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("resumed.log")) && r.err.contains(QStringLiteral("run \"t\"")), qPrintable(r.err));
        QCOMPARE(store.value()->stepMetrics(row->id, QStringLiteral("lm_loss")).size(), 4);
        QCOMPARE(stored(p, QStringLiteral("t")).size(), size_t(4 * 5));
        // --into a run that does not exist is a usage error.
        QCOMPARE(import(p, {tree + QStringLiteral("/train.log"), QStringLiteral("--into"), QStringLiteral("nope")}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestMoewbImportRuns)
#include "test_moewb_import_runs.moc"
