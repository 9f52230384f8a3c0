#include "traffic/RoutingComparison.h"

#include "stats/Statistics.h"

#include <QMap>
#include <vector>

namespace moewb::traffic {

namespace {

QMap<quint64, std::vector<double>> timesBySize(const QVector<store::CommSample>& samples) {
    QMap<quint64, std::vector<double>> m;
    for (const store::CommSample& s : samples)
        m[s.bytesPerRank].push_back(s.timeUs);
    return m;
}

} // namespace

QList<SizeComparison> compareRoutingTimes(const QVector<store::CommSample>& uniform,
                                          const QVector<store::CommSample>& measured) {
    const auto u = timesBySize(uniform);
    const auto m = timesBySize(measured);
    QList<SizeComparison> out;
    for (auto it = u.cbegin(); it != u.cend(); ++it) {
        const auto other = m.constFind(it.key());
        if (other == m.cend())
            continue;
        SizeComparison c;
        c.bytesPerRank = it.key();
        c.uniformMedianUs = stats::median(it.value());
        c.measuredMedianUs = stats::median(*other);
        c.ratio = c.uniformMedianUs > 0 ? c.measuredMedianUs / c.uniformMedianUs : 0;
        out << c;
    }
    return out;
}

QList<RoutingPair> findRoutingPairs(const store::ProjectStore& project, const QList<store::RunRow>& runs) {
    const auto origin = [](const store::RunRow& r) {
        return r.environment.value(QStringLiteral("pattern_origin")).toString();
    };
    const auto isUniform = [&](const store::RunRow& r) {
        const QJsonValue pattern = r.environment.value(QStringLiteral("pattern"));
        return r.commSampleCount > 0 && origin(r).isEmpty() &&
               (pattern.isUndefined() || pattern.toString() == QLatin1String("uniform"));
    };
    QList<RoutingPair> out;
    for (const store::RunRow& routed : runs) {
        if (routed.commSampleCount == 0 || origin(routed).isEmpty())
            continue;
        const store::RunRow* partner = nullptr;
        for (const store::RunRow& u : runs)
            if (isUniform(u) && u.clusterName == routed.clusterName &&
                u.environment.value(QStringLiteral("world")) == routed.environment.value(QStringLiteral("world")) &&
                (!partner || u.id > partner->id))
                partner = &u;
        if (!partner)
            continue;
        RoutingPair pair{*partner, routed, origin(routed), {}};
        pair.sizes = compareRoutingTimes(project.commSamples(partner->id), project.commSamples(routed.id));
        if (!pair.sizes.isEmpty())
            out << pair;
    }
    return out;
}

} // namespace moewb::traffic
