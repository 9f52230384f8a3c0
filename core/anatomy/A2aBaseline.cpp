#include "anatomy/A2aBaseline.h"

#include "stats/Statistics.h"

#include <QCoreApplication>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <vector>

namespace moewb::anatomy {

namespace {

class AnatomyTr {
    Q_DECLARE_TR_FUNCTIONS(Anatomy)
};

struct Point {
    double bytes = 0, medianUs = 0;
};

// One point per measured size: the median time over every repeat and iteration.
std::vector<Point> curveOf(const QVector<store::CommSample>& samples) {
    QMap<quint64, std::vector<double>> bySize;
    for (const store::CommSample& s : samples)
        if (s.bytesPerRank > 0 && s.timeUs > 0)
            bySize[s.bytesPerRank].push_back(s.timeUs);
    std::vector<Point> out;
    for (auto it = bySize.constBegin(); it != bySize.constEnd(); ++it)
        out.push_back(Point{double(it.key()), stats::median(it.value())});
    return out;
}

// Log-log interpolation between the two measured sizes around `bytes`; none outside.
std::optional<double> timeAt(const std::vector<Point>& curve, double bytes) {
    for (std::size_t i = 0; i < curve.size(); ++i) {
        if (curve[i].bytes == bytes)
            return curve[i].medianUs;
        if (i + 1 < curve.size() && curve[i].bytes < bytes && bytes < curve[i + 1].bytes) {
            const double t = (std::log(bytes) - std::log(curve[i].bytes)) /
                             (std::log(curve[i + 1].bytes) - std::log(curve[i].bytes));
            return std::exp(std::log(curve[i].medianUs) + t * (std::log(curve[i + 1].medianUs) - std::log(curve[i].medianUs)));
        }
    }
    return std::nullopt;
}

double median(std::vector<double> v) {
    return v.empty() ? 0.0 : stats::median(v);
}

} // namespace

A2aBaselineReport compareWithBaseline(const store::ProjectStore& project, const store::RunRow& run,
                                      const store::RunAnatomy& anatomy) {
    A2aBaselineReport report;
    report.cluster = run.clusterName;
    if (anatomy.a2a.isEmpty())
        return report;

    // The baseline: a stage 1 run (communication samples) of the same record on the
    // same cluster; else of the same cluster; else of the same record (said in the note).
    std::optional<store::RunRow> chosen;
    QString how;
    const QList<store::RunRow> runs = project.runs();
    auto pick = [&](auto&& accept) {
        for (const store::RunRow& r : runs)
            if (r.commSampleCount > 0 && r.id != run.id && accept(r))
                return std::optional<store::RunRow>(r);
        return std::optional<store::RunRow>();
    };
    if (!run.clusterName.isEmpty()) {
        chosen = pick([&](const store::RunRow& r) { return r.clusterName == run.clusterName && r.recordName == run.recordName; });
        if (!chosen)
            chosen = pick([&](const store::RunRow& r) { return r.clusterName == run.clusterName; });
    }
    if (!chosen) {
        chosen = pick([&](const store::RunRow& r) { return r.recordName == run.recordName; });
        if (chosen)
            how = run.clusterName.isEmpty()
                      ? AnatomyTr::tr("the run names no cluster: stage 1 run %1 of the same record").arg(chosen->name)
                      : AnatomyTr::tr("no stage 1 run on cluster %1: run %2 of the same record on %3")
                            .arg(run.clusterName, chosen->name,
                                 chosen->clusterName.isEmpty() ? AnatomyTr::tr("no named cluster") : chosen->clusterName);
    }
    std::vector<Point> curve;
    if (chosen)
        curve = curveOf(project.commSamples(chosen->id));

    // The calls grouped by kind and size (sizes within 1 % are one size).
    struct Group {
        QString kind;
        std::vector<double> bytes, us;
        bool cut = false;
    };
    std::vector<Group> groups;
    for (const store::A2aCallRow& c : anatomy.a2a) {
        if (c.bytesPerRank <= 0 || c.transferUs <= 0)
            continue;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
            return g.kind == c.kind && std::abs(g.bytes.front() - double(c.bytesPerRank)) <= 0.01 * g.bytes.front();
        });
        if (it == groups.end()) {
            groups.push_back(Group{c.kind, {}, {}, false});
            it = groups.end() - 1;
        }
        it->bytes.push_back(double(c.bytesPerRank));
        it->us.push_back(c.transferUs);
        it->cut = it->cut || c.splitsCut;
    }
    std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        return a.kind != b.kind ? a.kind < b.kind : a.bytes.front() < b.bytes.front();
    });
    for (const Group& g : groups) {
        A2aVsBaseline row;
        row.kind = g.kind;
        row.calls = int(g.us.size());
        row.bytesPerRank = qint64(std::llround(median(g.bytes)));
        row.trainingUs = median(g.us);
        row.trainingGBps = double(row.bytesPerRank) / (row.trainingUs * 1e3);
        row.splitsCut = g.cut;
        if (!chosen) {
            row.note = AnatomyTr::tr("no stage 1 run of this record or cluster to compare with");
        } else if (const auto t = timeAt(curve, double(row.bytesPerRank))) {
            row.baselineRun = chosen->name;
            row.baselineUs = *t;
            row.baselineGBps = double(row.bytesPerRank) / (*t * 1e3);
            row.ratio = row.trainingGBps / *row.baselineGBps;
            row.note = how;
        } else {
            row.baselineRun = chosen->name;
            row.note = curve.empty() ? AnatomyTr::tr("stage 1 run %1 has no usable samples").arg(chosen->name)
                                     : AnatomyTr::tr("outside the sizes stage 1 run %1 measured (%2 to %3 bytes per "
                                                     "rank): not extrapolated")
                                           .arg(chosen->name)
                                           .arg(qint64(curve.front().bytes))
                                           .arg(qint64(curve.back().bytes));
        }
        report.rows.append(row);
    }
    return report;
}

} // namespace moewb::anatomy
