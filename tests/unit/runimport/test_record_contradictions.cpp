// A file that contradicts its config record says so in the plan and keeps the warning on
// the run (RecordContradictions.h): another accelerator model, another world size, host
// names repeated across nodes. The file's facts are counted here from its own lines.
#include "record/ConfigRecord.h"
#include "runimport/RecordContradictions.h"
#include "runimport/RunImport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

record::ConfigRecord recordWith(qint64 nodes, qint64 perNode, const QString& model) {
    QJsonObject json =
        QJsonDocument::fromJson(readAll(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json")))
            .object();
    QJsonObject cluster = json.value(QStringLiteral("cluster")).toObject();
    cluster.insert(QStringLiteral("nodes"), nodes);
    cluster.insert(QStringLiteral("accelerators_per_node"), perNode);
    cluster.insert(QStringLiteral("accelerator_model"), model);
    json.insert(QStringLiteral("cluster"), cluster);
    QList<record::FieldIssue> issues;
    record::ConfigRecord r = record::ConfigRecord::fromJson(json, &issues);
    if (!issues.isEmpty())
        qFatal("bad record");
    return r;
}

// The rank lines of an nccl-tests log: (host, device text), counted by hand.
struct RankLines {
    int ranks = 0;
    QSet<QString> hosts;
};
RankLines rankLines(const QByteArray& log) {
    RankLines out;
    for (const QByteArray& line : log.split('\n')) {
        const QList<QByteArray> t = line.simplified().split(' ');
        // "# Rank 0 Group 0 Pid 1718 on HOST device 0 [...] MODEL"
        if (t.size() > 9 && t[0] == "#" && t[1] == "Rank" && t[7] == "on") {
            ++out.ranks;
            out.hosts.insert(QString::fromUtf8(t[8]));
        }
    }
    return out;
}

} // namespace

class TestRecordContradictions : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // The plan's warnings and the run's record_warnings for this log under this record.
    QStringList planWarnings(const QByteArray& log, const record::ConfigRecord& r, QStringList* stored) {
        const QString path = m_dir.filePath(QStringLiteral("a2a.txt"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(log) != log.size())
            qFatal("cannot write");
        f.close();
        auto files = runimport::collectImportFiles({path}, {});
        if (!files)
            qFatal("%s", qPrintable(files.error().text()));
        auto plan = runimport::planImport(files.value(), r, {});
        if (!plan)
            qFatal("%s", qPrintable(plan.error().first().text()));
        QStringList warnings;
        for (const QString& n : plan->notes)
            if (n.startsWith(QStringLiteral("Warning: ")))
                warnings << n.mid(9);
        for (const QJsonValue& v : plan->environment.value(QStringLiteral("record_warnings")).toArray())
            *stored << v.toString();
        return warnings;
    }

private slots:
    void modelNames() {
        QCOMPARE(runimport::acceleratorModels(QStringLiteral("NVIDIA H100 80GB HBM3")), QStringList{"H100"});
        QCOMPARE(runimport::acceleratorModels(QStringLiteral("H100 SXM5 80GB")), QStringList{"H100"});
        QCOMPARE(runimport::acceleratorModels(QStringLiteral("AMD Instinct MI355X")), QStringList{"MI355X"});
        QCOMPARE(runimport::acceleratorModels(QStringLiteral("NVIDIA A800-SXM4-80GB")), QStringList{"A800"});
        QCOMPARE(runimport::acceleratorModels(QStringLiteral("NVIDIA GB200")), QStringList{"GB200"});
        QCOMPARE(runimport::acceleratorModels(QStringLiteral("NVIDIA L40S")), QStringList{"L40S"});
        QVERIFY(runimport::acceleratorModels(QStringLiteral("NVIDIA GeForce RTX 4090")).isEmpty());
    }

    void anotherModelWorldAndRepeatedHostsAreWarned() {
        QVERIFY(m_dir.isValid());
        const QByteArray log =
            readAll(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/nccl-tests/alltoall-nccl-debug-info.txt"));
        const RankLines lines = rankLines(log);
        QCOMPARE(lines.ranks, 8);
        QCOMPARE(lines.hosts.size(), 2);
        // The record's cluster as the file ran: nothing to say.
        QStringList stored;
        QCOMPARE(planWarnings(log, recordWith(2, 4, QStringLiteral("H100 SXM5 80GB")), &stored), QStringList());
        QVERIFY(stored.isEmpty());
        // Another model: named with both sides, in the plan and on the run.
        QByteArray amd = log;
        amd.replace("NVIDIA H100 80GB HBM3", "AMD Instinct MI355X");
        QStringList w = planWarnings(amd, recordWith(2, 4, QStringLiteral("H100 SXM5 80GB")), &stored);
        const QString shown = m_dir.filePath(QStringLiteral("a2a.txt")); // a file given is shown as given
        QCOMPARE(w, QStringList{shown + QStringLiteral(
                                    ": the devices are AMD Instinct MI355X, but the record's cluster says H100 SXM5 80GB")});
        QCOMPARE(stored, w);
        // Another world size.
        stored.clear();
        w = planWarnings(log, recordWith(4, 8, QStringLiteral("H100 SXM5 80GB")), &stored);
        QCOMPARE(w, QStringList{shown + QStringLiteral(": it ran on %1 ranks, but the record's cluster has 32 "
                                                       "accelerators (4 nodes × 8)")
                                            .arg(lines.ranks)});
        // Every container calling itself the same: 8 ranks on one name, 4 per node.
        QByteArray oneName = log;
        oneName.replace("7a1c0e9b4d23", "22f64f592750");
        QCOMPARE(rankLines(oneName).hosts.size(), 1);
        stored.clear();
        w = planWarnings(oneName, recordWith(2, 4, QStringLiteral("H100 SXM5 80GB")), &stored);
        QCOMPARE(w.size(), 1);
        QVERIFY2(w[0].startsWith(shown + QStringLiteral(": 8 ranks name 1 host")), qPrintable(w[0]));
        QVERIFY2(w[0].contains(QStringLiteral("host names repeat across nodes")), qPrintable(w[0]));
    }
};

QTEST_GUILESS_MAIN(TestRecordContradictions)
#include "test_record_contradictions.moc"
