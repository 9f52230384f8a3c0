#include "traffic/LoadWindow.h"

#include "placement/PlacementTr.h"

#include <QSet>

namespace moewb::traffic {

using placement::Placement;

Expected<StepWindow, QString> parseStepWindow(const QString& text) {
    const QString t = text.trimmed();
    const auto number = [](const QString& s, std::optional<qint64>* out) {
        if (s.isEmpty())
            return true;
        bool ok = false;
        const qint64 v = s.toLongLong(&ok);
        if (!ok || v < 0)
            return false;
        *out = v;
        return true;
    };
    StepWindow w;
    const qsizetype dash = t.indexOf(QLatin1Char('-'));
    const bool ok = dash < 0 ? number(t, &w.first) && (w.last = w.first, !t.isEmpty())
                             : number(t.left(dash), &w.first) && number(t.mid(dash + 1), &w.last) &&
                                   t != QLatin1String("-");
    if (!ok || (w.first && w.last && *w.first > *w.last))
        return unexpected(
            Placement::tr("--steps \"%1\" is not a step range (A-B, A-, -B or one step)").arg(text));
    return w;
}

std::vector<double> LayerLoads::matrix() const {
    std::vector<double> m;
    for (const auto& row : perLayer)
        m.insert(m.end(), row.begin(), row.end());
    return m;
}

Expected<LayerLoads, QString> sumLoadWindow(const QVector<store::ExpertLoadBlock>& blocks,
                                            const StepWindow& window) {
    LayerLoads out;
    QSet<qint64> steps;
    for (const store::ExpertLoadBlock& b : blocks) {
        if ((window.first && b.step < *window.first) || (window.last && b.step > *window.last))
            continue;
        if (out.experts == 0)
            out.experts = int(b.tokensPerExpert.size());
        else if (int(b.tokensPerExpert.size()) != out.experts)
            return unexpected(Placement::tr("step %1, layer %2 has %3 experts, earlier blocks %4")
                                  .arg(b.step)
                                  .arg(b.layer)
                                  .arg(b.tokensPerExpert.size())
                                  .arg(out.experts));
        std::vector<double>& row = out.perLayer[b.layer];
        row.resize(static_cast<std::size_t>(out.experts), 0.0);
        for (int e = 0; e < out.experts; ++e)
            row[std::size_t(e)] += b.tokensPerExpert[e];
        if (steps.isEmpty() || b.step < out.firstStep)
            out.firstStep = b.step;
        if (steps.isEmpty() || b.step > out.lastStep)
            out.lastStep = b.step;
        steps.insert(b.step);
    }
    out.steps = steps.size();
    if (out.perLayer.isEmpty() || out.experts == 0)
        return unexpected(Placement::tr("no expert load in the chosen steps"));
    return out;
}

Expected<LayerLoads, QString> sumLoadWindow(const store::ProjectStore& project, qint64 runId,
                                            const StepWindow& window, const std::atomic<bool>* cancel) {
    QStringList unreadable;
    const store::ExpertLoadTotals totals = project.expertLoadTotals(runId, window.first, window.last, cancel, &unreadable);
    if (cancel && cancel->load(std::memory_order_relaxed))
        return unexpected(Placement::tr("cancelled"));
    // A sum that leaves a chunk out is not the run's: no sum, and what could not be read.
    const auto refused = [](const QStringList& problems) {
        return problems.size() == 1 ? problems.first()
                                    : Placement::tr("%1 (and %n more part(s) of its expert load)", "",
                                                    int(problems.size() - 1))
                                          .arg(problems.first());
    };
    if (!unreadable.isEmpty())
        return unexpected(refused(unreadable));
    // Layers of different widths: the blocks say which one differs first.
    if (totals.mixedExperts) {
        const auto blocks = project.expertLoadRange(runId, window.first, window.last, {}, &unreadable);
        if (!unreadable.isEmpty())
            return unexpected(refused(unreadable));
        return sumLoadWindow(blocks, window);
    }
    LayerLoads out;
    out.experts = totals.experts;
    out.firstStep = totals.firstStep;
    out.lastStep = totals.lastStep;
    out.steps = totals.steps;
    for (auto it = totals.perLayer.cbegin(); it != totals.perLayer.cend(); ++it)
        out.perLayer.insert(it.key(), std::vector<double>(it.value().cbegin(), it.value().cend()));
    if (out.perLayer.isEmpty() || out.experts == 0)
        return unexpected(Placement::tr("no expert load in the chosen steps"));
    return out;
}

} // namespace moewb::traffic
