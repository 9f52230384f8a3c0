// The real `moewb import DIR --run NAME` of a training folder the collector wrote into
// (tests/fixtures/runs/collect-4ranks: train.log, record.json, tokens_per_expert/ with
// "experts_scope": "all", moewb_collect/), then `moewb --json stage 3 --preview`: one run,
// the drop rate and the busiest-device share measured, equal to a brute-force computation
// here over the sidecar lines.
#include "../MoewbCli.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

namespace {

QString tree() { return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/collect-4ranks"); }

QList<QJsonObject> lines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    QList<QJsonObject> out;
    for (const QByteArray& l : f.readAll().split('\n'))
        if (!l.trimmed().isEmpty())
            out << QJsonDocument::fromJson(l).object();
    return out;
}

} // namespace

class TestMoewbImportCollect : public QObject {
    Q_OBJECT
    QTemporaryDir m_home;

    CliResult run(const QStringList& args) { return runMoewb(m_home.path(), args, 120000); }

private slots:
    void folderImportsAsOneRunAndStageThreeShowsTheMeasuredShare() {
        QVERIFY(m_home.isValid());
        const QString p = m_home.filePath(QStringLiteral("p.moewb"));
        QCOMPARE(run({QStringLiteral("init"), p}).exitCode, 0);
        CliResult r = run({QStringLiteral("--project"), p, QStringLiteral("record"), QStringLiteral("add"),
                           tree() + QStringLiteral("/record.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("import"), tree(),
                 QStringLiteral("--run"), QStringLiteral("cf1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonArray runs = r.json().value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 1);
        const QJsonObject plan = runs.first().toObject().value(QStringLiteral("plan")).toObject();
        QCOMPARE(plan.value(QStringLiteral("files")).toArray().size(), 9);
        int sidecars = 0;
        for (const QJsonValue& f : plan.value(QStringLiteral("files")).toArray())
            sidecars += f.toObject().value(QStringLiteral("format")).toString() == QStringLiteral("moewb-collect-jsonl");
        QCOMPARE(sidecars, 4);

        r = run({QStringLiteral("--project"), p, QStringLiteral("--json"), QStringLiteral("stage"), QStringLiteral("3"),
                 QStringLiteral("--preview")});
        const QJsonObject out = r.json();
        const QJsonArray table = out.value(QStringLiteral("table")).toArray();
        QVERIFY2(table.size() == 1, qPrintable(r.out + r.err));
        const QJsonObject row = table.first().toObject();
        const qint64 first = row.value(QStringLiteral("window_first_step")).toInteger();
        const qint64 last = row.value(QStringLiteral("window_last_step")).toInteger();

        // Brute force: per step over ranks and layers, then the mean over the window's steps.
        struct Acc {
            qint64 t = 0, d = 0;
            int timed = 0;
            bool measured = true;
            double bestZ = -1, share = 0;
        };
        std::map<qint64, Acc> acc;
        for (int rank = 0; rank < 4; ++rank)
            for (const QJsonObject& o : lines(tree() + QStringLiteral("/moewb_collect/rank%1.jsonl").arg(rank))) {
                if (o.contains(QStringLiteral("format")))
                    continue;
                Acc& a = acc[o.value(QStringLiteral("step")).toInteger()];
                if (o.value(QStringLiteral("kind")).toString() == QStringLiteral("drops")) {
                    a.t += o.value(QStringLiteral("tokens")).toInteger();
                    a.d += o.value(QStringLiteral("dropped_tokens")).toInteger();
                    continue;
                }
                ++a.timed;
                const QJsonValue z = o.value(QStringLiteral("compute_s"));
                if (z.isNull()) {
                    a.measured = false;
                } else if (z.toDouble() > a.bestZ) {
                    a.bestZ = z.toDouble();
                    a.share = (z.toDouble() + o.value(QStringLiteral("a2a_s")).toDouble()) /
                              o.value(QStringLiteral("step_s")).toDouble();
                }
            }
        double dropSum = 0, shareSum = 0;
        int dropN = 0, shareN = 0;
        for (const auto& [step, a] : acc) {
            if (step < first || step > last)
                continue;
            dropSum += double(a.d) / double(a.t);
            ++dropN;
            if (a.measured && a.timed == 4) {
                shareSum += std::min(1.0, a.share);
                ++shareN;
            }
        }
        QVERIFY(dropN >= 2 && shareN >= 2 && shareN < dropN); // step 6 has no share
        QVERIFY(dropSum > 0);
        QCOMPARE(row.value(QStringLiteral("drop_rate")).toDouble(), dropSum / dropN);
        QVERIFY(row.value(QStringLiteral("drop_rate_source")).toString().startsWith(QStringLiteral("measured")));
        QCOMPARE(row.value(QStringLiteral("busiest_device_share")).toDouble(), shareSum / shareN);
        QCOMPARE(row.value(QStringLiteral("busiest_device_share_estimated")).toBool(), false);
        bool noted = false;
        for (const QJsonValue& n : out.value(QStringLiteral("notes")).toArray())
            noted = noted || n.toString().contains(QStringLiteral("measured by the collector"));
        QVERIFY2(noted, qPrintable(r.out));
    }

    void aMissingRankStoresNothing() {
        const QString copy = m_home.filePath(QStringLiteral("tree"));
        QDirIterator it(tree(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString src = it.next();
            const QString rel = QDir(tree()).relativeFilePath(src);
            if (rel == QStringLiteral("moewb_collect/rank1.jsonl"))
                continue;
            QDir().mkpath(QFileInfo(copy + QLatin1Char('/') + rel).absolutePath());
            QVERIFY(QFile::copy(src, copy + QLatin1Char('/') + rel));
        }
        const QString p = m_home.filePath(QStringLiteral("q.moewb"));
        QCOMPARE(run({QStringLiteral("init"), p}).exitCode, 0);
        QCOMPARE(run({QStringLiteral("--project"), p, QStringLiteral("record"), QStringLiteral("add"),
                      copy + QStringLiteral("/record.json")})
                     .exitCode,
                 0);
        const CliResult r = run({QStringLiteral("--project"), p, QStringLiteral("import"), copy, QStringLiteral("--run"),
                                 QStringLiteral("x")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("moewb_collect/rank1.jsonl missing of the 4 ranks")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("nothing stored")));
    }
};

QTEST_GUILESS_MAIN(TestMoewbImportCollect)
#include "test_moewb_import_collect.moc"
