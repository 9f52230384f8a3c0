#include "RunMeasurements.h"

#include "plotspec/AnatomyPlots.h"
#include "plotspec/StagePlots.h"
#include "record/ConfigRecord.h"
#include "stages/StageInputs.h"

namespace moewb::gui {

namespace {
// The store's sentences about a run's unreadable expert load: the first, and how many more.
QString unreadableText(const QStringList& unreadable) {
    return unreadable.size() <= 1 ? unreadable.value(0)
                                  : QStringLiteral("%1 (+%2)").arg(unreadable.first()).arg(unreadable.size() - 1);
}
} // namespace

LoadedRuns readRunMeasurements(const QString& projectPath, const QStringList& runNames, const RunReadOptions& options) {
    LoadedRuns out;
    auto opened = store::ProjectStore::open(projectPath, store::OpenMode::MustExist);
    if (!opened) {
        out.error = opened.error().text();
        return out;
    }
    const store::ProjectStore& project = **opened;
    const stages::ThresholdSet thresholds = stages::loadThresholds(project);
    out.loadRatioLimit = thresholds.get(QStringLiteral("stage3.load_ratio_max")).value;
    for (const QString& name : runNames) {
        const auto row = project.run(name);
        if (!row)
            continue;
        RunMeasurements m;
        m.row = *row;
        if (options.allMetrics) {
            m.metrics = project.stepMetrics(row->id);
        } else {
            m.metrics = project.stepMetrics(row->id, QStringLiteral("lm_loss"));
            m.metrics += project.stepMetrics(row->id, QStringLiteral("val_loss"));
        }
        if (row->commSampleCount > 0) {
            const auto in = stages::loadStageOneInputs(project, {name});
            if (in && !in->isEmpty())
                m.comm = stages::stageOneTable(in->first());
            else if (!in)
                m.problem = in.error().message;
        }
        if (row->expertLoadBlocks > 0) {
            // The same summary stage 3 computes, from the store's per-step summary and
            // the gate window's counts only (released at the end of this block); the
            // heatmap reads only the last step's blocks.
            const auto in = stages::loadStageThreeInputs(project, {name}, stages::ExpertLoadCounts::Window);
            if (in && !in->isEmpty() && !in->first().unreadable.isEmpty()) {
                // The damage, named; nothing drawn from what is left (the rest of the page stays).
                m.problem = unreadableText(in->first().unreadable);
            } else if (in && !in->isEmpty()) {
                m.load = stages::summarizeStageThreeRun(in->first(), thresholds);
                if (options.heatmap && !m.load->ratioOverSteps.isEmpty()) {
                    const qint64 last = m.load->ratioOverSteps.constLast().step;
                    stages::ExpertLoadRunInput atLast;
                    atLast.runName = name;
                    atLast.environment = row->environment;
                    QStringList unreadable;
                    atLast.blocks = project.expertLoad(row->id, last, {}, &unreadable);
                    if (unreadable.isEmpty())
                        m.heatmap = plots::layerExpertHeatmap(atLast, last, true);
                    else
                        m.problem = unreadableText(unreadable);
                }
            } else if (!in) {
                m.problem = in.error().message;
            }
        }
        if (options.anatomy) {
            m.stepAnatomy = project.runAnatomy(row->id);
            if (!m.stepAnatomy.empty()) {
                m.anatomySummary = anatomy::summarize(m.stepAnatomy);
                m.a2aBaseline = anatomy::compareWithBaseline(project, *row, m.stepAnatomy);
                m.timelineExtent = project.timelineExtent(row->id);
                if (const auto rec = project.configRecord(row->recordName)) {
                    const record::ConfigRecord r = record::ConfigRecord::fromJson(rec->json, nullptr);
                    m.ranksPerNode = plots::ranksPerNode(r.cluster.acceleratorsPerNode, r.worldSize(), m.stepAnatomy);
                }
            }
        }
        out.runs << m;
    }
    return out;
}

} // namespace moewb::gui
