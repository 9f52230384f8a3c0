#pragma once
// Shared by the stage 1 sweep tests: a project with the fixture record and a cluster,
// a small request (fast on 2 cores), and an event recorder.
#include "SshdCluster.h"
#include "launch/StageOneSweep.h"
#include "store/ProjectStore.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QMutex>
#include <QTest>

#include <memory>

namespace stage1test {

inline const QString kRecord = QStringLiteral("moe-64e-top8");

inline QJsonObject fixtureRecord() {
    QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("no fixture record");
    return QJsonDocument::fromJson(f.readAll()).object();
}

// A project file with the fixture record and (when nodes are given) a cluster.
inline QString makeProject(const QString& path, const QString& cluster = {}, const QStringList& nodes = {}) {
    auto opened = moewb::store::ProjectStore::open(path);
    if (!opened)
        qFatal("%s", qPrintable(opened.error().text()));
    auto& p = *opened.value();
    if (!p.addConfigRecord(kRecord, fixtureRecord(), true))
        qFatal("cannot add the fixture record");
    if (!cluster.isEmpty()) {
        QList<moewb::store::NodeRow> rows;
        for (const QString& n : nodes)
            rows << moewb::store::NodeRow{0, 0, n, 0, {}};
        if (!p.addCluster(moewb::store::ClusterRow{0, cluster, 0, {}, {}}, rows))
            qFatal("cannot add the cluster");
    }
    return path;
}

inline QString probeBundle() { return QStringLiteral(MOEWB_PROBE_BUNDLE_DIR); }
inline QString realProbe() { return QStringLiteral(MOEWB_PROBE_BUNDLE_DIR "/moe-probe"); }

inline moewb::remote::StageOneRequest smallRequest(const SshdCluster& c, const QString& project) {
    moewb::remote::StageOneRequest r;
    c.configure(r);
    r.projectPath = project;
    r.recordName = kRecord;
    r.nodes = c.addresses();
    r.nodeCounts = {c.size()};
    r.messageSizes = {64u << 10};
    r.repeats = 2;
    r.iterations = 3;
    r.warmup = 1;
    r.probeTimeoutS = 10;
    r.commandTimeoutMs = 60000;
    r.probeBundleDir = probeBundle();
    r.runNamePrefix = QStringLiteral("t");
    return r;
}

struct Recorder {
    QMutex mutex;
    QElapsedTimer clock;
    const bool trace = qEnvironmentVariableIsSet("MOEWB_TEST_TRACE");
    qint64 runningAt = -1;  // ms on clock when the first probe started
    qint64 lastPointAt = -1;
    QString runningWhat;
    Recorder() { clock.start(); }
    // ms since the first probe started (the part a fault's timeout bounds).
    qint64 sinceRunning() {
        QMutexLocker l(&mutex);
        return runningAt < 0 ? -1 : clock.elapsed() - runningAt;
    }
    QStringList progress;  // "node|what"
    QStringList logs;      // "node|stream|text"
    moewb::remote::StageOneEvents events() {
        moewb::remote::StageOneEvents e;
        e.progress = [this](const QString& node, double, const QString& what) {
            QMutexLocker l(&mutex);
            if (trace)
                qInfo("%6lld ms %s %s", clock.elapsed(), qPrintable(node), qPrintable(what));
            if (what.startsWith(QLatin1String("running")) && what != runningWhat) {
                if (runningAt < 0)
                    runningAt = clock.elapsed();
                runningWhat = what;
                lastPointAt = clock.elapsed();  // the start of the latest sweep point
            }
            progress << node + QLatin1Char('|') + what;
        };
        e.log = [this](const QString& node, moewb::remote::LogStream s, const QString& text) {
            QMutexLocker l(&mutex);
            if (trace)
                qInfo("%6lld ms %s: %s", clock.elapsed(), qPrintable(node), qPrintable(text));
            logs << node + QLatin1Char('|') + QString::number(int(s)) + QLatin1Char('|') + text;
        };
        return e;
    }
    int countProgress(const QString& what) {
        QMutexLocker l(&mutex);
        int n = 0;
        for (const QString& p : progress)
            n += p.section(QLatin1Char('|'), 1) == what ? 1 : 0;
        return n;
    }
    bool sawProgressContaining(const QString& text) {
        QMutexLocker l(&mutex);
        for (const QString& p : progress)
            if (p.contains(text))
                return true;
        return false;
    }
};

inline int runCount(const QString& project) {
    auto opened = moewb::store::ProjectStore::open(project, moewb::store::OpenMode::MustExist);
    return opened ? int(opened.value()->runs().size()) : -1;
}

inline QString failureText(const moewb::remote::StageOneFailure& f) { return f.summary(); }

} // namespace stage1test
