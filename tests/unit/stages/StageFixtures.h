#pragma once
// Builders shared by the stage gate tests: fixture records and measurements.
#include "record/ConfigRecord.h"
#include "record/RecordJson.h"
#include "stages/StageOneGate.h"
#include "stages/Verdict.h"
#include "store/ProjectStore.h"

#include <QFile>
#include <QtTest>

namespace moewb::stages::test {

inline record::ConfigRecord fixtureRecord(const QString& fileName) {
    QFile file(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/") + fileName);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(file.fileName()));
    const record::ParsedRecord parsed = record::parseRecord(file.readAll());
    if (!parsed.issues.isEmpty())
        qFatal("fixture %s has issues", qPrintable(file.fileName()));
    return parsed.record;
}
inline record::ConfigRecord moeRecord() {
    return fixtureRecord(QStringLiteral("moe-64e-top8.json"));
}
inline record::ConfigRecord denseRecord() {
    return fixtureRecord(QStringLiteral("dense-1.3b.json"));
}

// One size: one list of iteration times (µs) per repeat.
template <typename Samples> // QVector<store::CommSample> or store::CommSampleList
inline void addSize(Samples& samples, quint64 bytes, const QList<QList<double>>& repeats) {
    for (int r = 0; r < repeats.size(); ++r)
        for (int i = 0; i < repeats[r].size(); ++i)
            samples.append({bytes, r, i, repeats[r][i]});
}

// A stage 1 run (name, cluster, all-to-all ranks, nodes), its samples added after.
inline StageOneRunInput stageOneRun(const QString& name, const QString& cluster, std::optional<int> world,
                                    std::optional<int> nodes) {
    StageOneRunInput run;
    run.runName = name;
    run.clusterName = cluster;
    run.world = world;
    run.nodes = nodes;
    return run;
}

inline QList<double> repeated(double v, int n) {
    return QList<double>(n, v);
}

inline ThresholdSet teamThresholds(const QList<QPair<QString, double>>& values) {
    ThresholdSet set;
    for (const auto& [key, value] : values)
        set.set({key, value, store::ThresholdSource::Team, false});
    return set;
}

inline void addSeries(QVector<store::StepMetric>& metrics, const QString& name, qint64 from, qint64 to,
                      double value, qint64 every = 1) {
    for (qint64 s = from; s <= to; s += every)
        metrics.append({s, name, value});
}

} // namespace moewb::stages::test
