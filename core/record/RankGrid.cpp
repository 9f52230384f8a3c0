#include "record/RankGrid.h"

#include <QCoreApplication>
#include <QStringList>

namespace moewb::record {

namespace {

const std::array<const char*, 5> kNames{"tp", "cp", "ep", "dp", "pp"};

int axisOf(const QString& name) {
    for (int i = 0; i < 5; ++i)
        if (name == QLatin1String(kNames[std::size_t(i)]))
            return i;
    return -1;
}

class RankGridTr {
    Q_DECLARE_TR_FUNCTIONS(RankGrid)
};

} // namespace

QString parallelismOrderProblem(const QString& order) {
    const QStringList names = order.split(QLatin1Char('-'));
    QList<int> seen;
    for (const QString& n : names) {
        const int axis = axisOf(n);
        if (axis < 0)
            return RankGridTr::tr("must be names out of tp, cp, ep, dp, pp joined by '-' (e.g. \"tp-cp-ep-dp-pp\"), got "
                      "\"%1\"")
                .arg(order);
        if (seen.contains(axis))
            return RankGridTr::tr("names %1 twice in \"%2\"").arg(n, order);
        seen << axis;
    }
    return {};
}

Expected<RankGrid, QString> RankGrid::make(const std::array<qint64, 5>& sizes, const QString& order) {
    const QString problem = parallelismOrderProblem(order);
    if (!problem.isEmpty())
        return unexpected(QStringLiteral("parallelism.order ") + problem);
    RankGrid g;
    g.m_sizes = sizes;
    int filled = 0;
    std::array<bool, 5> used{};
    for (const QString& n : order.split(QLatin1Char('-'))) {
        const int axis = axisOf(n);
        used[std::size_t(axis)] = true;
        g.m_order[std::size_t(filled++)] = ParallelAxis(axis);
    }
    for (int i = 0; i < 5; ++i) {
        if (sizes[std::size_t(i)] < 1)
            return unexpected(RankGridTr::tr("the %1 size must be at least 1, got %2").arg(QLatin1String(kNames[std::size_t(i)])).arg(sizes[std::size_t(i)]));
        if (used[std::size_t(i)])
            continue;
        if (sizes[std::size_t(i)] != 1)
            return unexpected(RankGridTr::tr("parallelism.order \"%1\" leaves out %2, whose size is %3 (only names of size 1 "
                                 "may be left out)")
                                  .arg(order, QLatin1String(kNames[std::size_t(i)]))
                                  .arg(sizes[std::size_t(i)]));
        g.m_order[std::size_t(filled++)] = ParallelAxis(i);
    }
    g.m_world = 1;
    for (qint64 s : sizes)
        g.m_world *= s;
    return g;
}

Expected<RankGrid, QString> RankGrid::expertGrid(const ParallelismRecord& p) {
    if (!p.dp || !p.tp || !p.pp)
        return unexpected(RankGridTr::tr("the record's parallelism.dp, tp and pp are needed to map ranks to experts"));
    const qint64 world = *p.dp * *p.tp * *p.pp * p.cpOrDefault();
    const qint64 etp = p.etpOrDefault(), ep = p.epOrDefault(), pp = *p.pp;
    if (etp < 1 || ep < 1 || world % (etp * ep * pp) != 0)
        return unexpected(RankGridTr::tr("expert tensor-parallel × expert-parallel × pipeline-parallel (%1 × %2 × %3) does not "
                             "divide the world size %4")
                              .arg(etp)
                              .arg(ep)
                              .arg(pp)
                              .arg(world));
    return make({etp, 1, ep, world / (etp * ep * pp), pp}, p.orderOrDefault());
}

Expected<RankGrid, QString> RankGrid::decoderGrid(const ParallelismRecord& p) {
    if (!p.dp || !p.tp || !p.pp)
        return unexpected(RankGridTr::tr("the record's parallelism.dp, tp and pp are needed to map ranks to pipeline stages"));
    return make({*p.tp, p.cpOrDefault(), 1, *p.dp, *p.pp}, p.orderOrDefault());
}

qint64 RankGrid::coordinate(qint64 rank, ParallelAxis axis) const {
    for (ParallelAxis a : m_order) {
        const qint64 s = m_sizes[std::size_t(a)];
        if (a == axis)
            return rank % s;
        rank /= s;
    }
    return 0;
}

} // namespace moewb::record
