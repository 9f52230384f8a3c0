#include "anatomy/AnatomySummary.h"

#include <QMap>

#include <algorithm>

namespace moewb::anatomy {

AnatomySummary summarize(const store::RunAnatomy& anatomy) {
    AnatomySummary out;
    QMap<qint64, QVector<const store::RankStepAnatomy*>> bySteps;
    for (const store::RankStepAnatomy& r : anatomy.rows)
        bySteps[r.step].append(&r);
    const int traced = anatomy.ranksTraced.isEmpty() ? 0 : int(anatomy.ranksTraced.size());
    QMap<int, int> busiestCount;
    for (auto it = bySteps.constBegin(); it != bySteps.constEnd(); ++it) {
        const auto& rows = it.value();
        if (traced > 0 && rows.size() < traced)
            continue; // a rank did not record this step
        StepSummary s;
        s.step = it.key();
        const store::RankStepAnatomy* busiest = nullptr;
        double shareSum = 0;
        int shares = 0;
        for (const store::RankStepAnatomy* r : rows) {
            if (!busiest || r->busyUs > busiest->busyUs || (r->busyUs == busiest->busyUs && r->rank < busiest->rank))
                busiest = r;
            if (r->stepUs > 0) {
                shareSum += r->busyUs / r->stepUs;
                ++shares;
            }
        }
        if (!busiest || busiest->stepUs <= 0 || shares == 0)
            continue;
        s.busiestRank = busiest->rank;
        s.busiestShare = busiest->busyUs / busiest->stepUs;
        s.meanShare = shareSum / shares;
        s.stepUs = busiest->stepUs;
        s.billUs = std::max(0.0, s.busiestShare - s.meanShare) * s.stepUs;
        out.steps.append(s);
        ++busiestCount[s.busiestRank];
    }
    for (auto it = busiestCount.constBegin(); it != busiestCount.constEnd(); ++it)
        out.stragglers.append(Straggler{it.key(), it.value()});
    std::stable_sort(out.stragglers.begin(), out.stragglers.end(),
                     [](const Straggler& a, const Straggler& b) { return a.timesBusiest > b.timesBusiest; });
    if (!out.steps.isEmpty()) {
        for (const StepSummary& s : std::as_const(out.steps)) {
            out.meanBusiestShare += s.busiestShare;
            out.meanMeanShare += s.meanShare;
            out.meanBillUs += s.billUs;
        }
        const double k = double(out.steps.size());
        out.meanBusiestShare /= k;
        out.meanMeanShare /= k;
        out.meanBillUs /= k;
    }
    return out;
}

} // namespace moewb::anatomy
