// moewb anatomy RUN [--step N [--timeline]]: where each profiled step's time went, per
// rank, from the run's PyTorch profiler traces (docs/anatomy.md): the busiest rank and
// its share of the step (seed 000's busiest-device share), the mean device's share, the
// imbalance bill, the stragglers, and the training's all-to-all against stage 1's
// baseline; with --timeline the step's stored timeline (bounded: 50,000 intervals a rank).
// Exit 0 success, 2 usage, 3 runtime.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextTable.h"
#include "anatomy/A2aBaseline.h"
#include "anatomy/AnatomySummary.h"
#include "common/Units.h"
#include "stages/StageInputs.h"
#include "store/NameRules.h"

#include <QJsonArray>

namespace moewb::cli {

namespace {

using units::formatBandwidth;
using units::formatBytes;
using units::formatPercent;

QString ms(double us) {
    return QString::number(us / 1000.0, 'f', 3);
}

// "rank 5 (node 1, local rank 1)" when the record says accelerators per node.
QString rankName(int rank, const record::ConfigRecord& rec) {
    const qint64 perNode = rec.cluster.acceleratorsPerNode.value_or(0);
    if (perNode <= 0)
        return Cli::tr("rank %1").arg(rank);
    return Cli::tr("rank %1 (node %2, local rank %3)").arg(rank).arg(rank / perNode).arg(rank % perNode);
}

QJsonObject rowJson(const store::RankStepAnatomy& r) {
    return QJsonObject{{QStringLiteral("rank"), r.rank},
                       {QStringLiteral("step_us"), r.stepUs},
                       {QStringLiteral("compute_us"), r.computeUs},
                       {QStringLiteral("a2a_us"), r.a2aUs},
                       {QStringLiteral("a2a_wait_us"), r.a2aWaitUs},
                       {QStringLiteral("other_comm_us"), r.otherCommUs},
                       {QStringLiteral("other_comm_wait_us"), r.otherCommWaitUs},
                       {QStringLiteral("exposed_comm_us"), r.exposedCommUs},
                       {QStringLiteral("memcpy_us"), r.memcpyUs},
                       {QStringLiteral("idle_us"), r.idleUs},
                       {QStringLiteral("busy_us"), r.busyUs},
                       {QStringLiteral("busy_share"), r.stepUs > 0 ? r.busyUs / r.stepUs : 0.0}};
}

QString className(store::TimelineClass c) {
    static const char* const names[] = {"compute", "all_to_all", "dispatch", "combine", "other_comm", "waiting", "memcpy"};
    return QString::fromLatin1(names[int(c)]);
}

// One rank's stored timeline of a step (store/StepTimelineRows.h) as JSON.
QJsonObject timelineJson(const store::RankStepTimeline& t) {
    QJsonArray intervals;
    for (const store::TimelineInterval& i : t.intervals) {
        QJsonObject o{{QStringLiteral("start_ns"), i.startNs},
                      {QStringLiteral("end_ns"), i.endNs},
                      {QStringLiteral("class"), className(i.cls)}};
        if (i.cls == store::TimelineClass::Waiting)
            o.insert(QStringLiteral("call_class"), className(i.callClass));
        if (i.name >= 0)
            o.insert(QStringLiteral("kernel"), t.labels.value(i.name));
        if (i.group >= 0)
            o.insert(QStringLiteral("group"), t.labels.value(i.group));
        if (i.bytes >= 0)
            o.insert(QStringLiteral("bytes"), i.bytes);
        if (i.seq >= 0)
            o.insert(QStringLiteral("seq"), i.seq);
        intervals.append(o);
    }
    return QJsonObject{{QStringLiteral("rank"), t.rank},
                       {QStringLiteral("step_start_ns"), t.stepStartNs},
                       {QStringLiteral("step_end_ns"), t.stepEndNs},
                       {QStringLiteral("left_out"), t.dropped},
                       {QStringLiteral("intervals"), intervals}};
}

int runAnatomy(CliContext& ctx, const Command& self, const QStringList& args) {
    const QString words = QStringLiteral("anatomy");
    QCommandLineParser parser;
    const QCommandLineOption stepOption(QStringLiteral("step"), Cli::tr("only this profiled step (ProfilerStep#N)"),
                                        QStringLiteral("N"));
    parser.addOption(stepOption);
    const QCommandLineOption timelineOption(
        QStringLiteral("timeline"), Cli::tr("with --step: the step's timeline per rank (the intervals, in ns from the step's start)"));
    parser.addOption(timelineOption);
    parser.addPositionalArgument(QStringLiteral("RUN"), Cli::tr("a run imported with its profiler traces"));
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (parser.positionalArguments().size() != 1)
        return ctx.usageError(Cli::tr("give one run"), words);
    std::optional<qint64> onlyStep;
    if (parser.isSet(stepOption)) {
        bool ok = false;
        const qint64 s = parser.value(stepOption).toLongLong(&ok);
        if (!ok || s < 0)
            return ctx.usageError(Cli::tr("--step takes a step number ≥ 0"), words);
        onlyStep = s;
    }
    if (parser.isSet(timelineOption) && !onlyStep)
        return ctx.usageError(Cli::tr("--timeline needs --step N"), words);
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const QString name = parser.positionalArguments().first();
    const auto run = project->run(name);
    if (!run)
        return ctx.runtimeError(Cli::tr("no run named %1").arg(store::printableName(name)));
    store::RunAnatomy anatomy = project->runAnatomy(run->id);
    if (anatomy.empty())
        return ctx.runtimeError(Cli::tr("run %1 has no profiler traces: import the ranks' trace files with the run "
                                        "(moewb import torch_profile/ … --run %1, or --into %1 for a run without them)")
                                    .arg(store::printableName(name)));
    const record::ConfigRecord rec = stages::recordOfRun(*project, *run);
    const anatomy::AnatomySummary summary = anatomy::summarize(anatomy);
    const anatomy::A2aBaselineReport baseline = anatomy::compareWithBaseline(*project, *run, anatomy);
    if (onlyStep) {
        const bool known = std::any_of(anatomy.rows.cbegin(), anatomy.rows.cend(),
                                       [&](const store::RankStepAnatomy& r) { return r.step == *onlyStep; });
        if (!known) {
            QStringList steps;
            for (const store::RankStepAnatomy& r : std::as_const(anatomy.rows))
                if (!steps.contains(QString::number(r.step)))
                    steps << QString::number(r.step);
            return ctx.runtimeError(Cli::tr("run %1 has no profiled step %2 (steps: %3)")
                                        .arg(store::printableName(name))
                                        .arg(*onlyStep)
                                        .arg(steps.join(QStringLiteral(", "))));
        }
    }
    QVector<store::RankStepTimeline> timeline;
    if (parser.isSet(timelineOption)) {
        const store::TimelineExtent extent = project->timelineExtent(run->id);
        if (extent.steps.isEmpty())
            return ctx.runtimeError(Cli::tr("run %1 was imported before timelines were kept: import its traces again, "
                                            "into a new run, to keep them")
                                        .arg(store::printableName(name)));
        if (!extent.steps.contains(*onlyStep))
            return ctx.runtimeError(Cli::tr("run %1 keeps the timelines of its first %2 profiled steps (%3 to %4), not "
                                            "of step %5")
                                        .arg(store::printableName(name))
                                        .arg(extent.steps.size())
                                        .arg(extent.steps.front())
                                        .arg(extent.steps.back())
                                        .arg(*onlyStep));
        QString problem;
        timeline = project->stepTimeline(run->id, *onlyStep, &problem);
        if (!problem.isEmpty())
            ctx.err() << problem << Qt::endl;
    }
    auto summaryOf = [&](qint64 step) -> const anatomy::StepSummary* {
        for (const anatomy::StepSummary& s : summary.steps)
            if (s.step == step)
                return &s;
        return nullptr;
    };
    QList<qint64> steps;
    for (const store::RankStepAnatomy& r : std::as_const(anatomy.rows))
        if ((!onlyStep || r.step == *onlyStep) && !steps.contains(r.step))
            steps << r.step;

    if (ctx.json) {
        QJsonArray ranks, stepArray, stragglers, a2a, missing;
        for (int r : std::as_const(anatomy.ranksTraced))
            ranks.append(r);
        for (qint64 step : std::as_const(steps)) {
            QJsonArray rows;
            for (const store::RankStepAnatomy& r : std::as_const(anatomy.rows))
                if (r.step == step)
                    rows.append(rowJson(r));
            QJsonObject o{{QStringLiteral("step"), step}, {QStringLiteral("ranks"), rows}};
            if (!timeline.isEmpty()) {
                QJsonArray perRank;
                for (const store::RankStepTimeline& t : std::as_const(timeline))
                    perRank.append(timelineJson(t));
                o.insert(QStringLiteral("timeline"), perRank);
            }
            if (const auto* s = summaryOf(step)) {
                o.insert(QStringLiteral("busiest_rank"), s->busiestRank);
                o.insert(QStringLiteral("busiest_share"), s->busiestShare);
                o.insert(QStringLiteral("mean_share"), s->meanShare);
                o.insert(QStringLiteral("imbalance_us"), s->billUs);
            } else {
                o.insert(QStringLiteral("busiest_rank"), QJsonValue::Null);
                o.insert(QStringLiteral("busiest_share"), QJsonValue::Null);
                o.insert(QStringLiteral("mean_share"), QJsonValue::Null);
            }
            stepArray.append(o);
        }
        for (const anatomy::Straggler& s : summary.stragglers)
            stragglers.append(QJsonObject{{QStringLiteral("rank"), s.rank}, {QStringLiteral("times_busiest"), s.timesBusiest}});
        for (const anatomy::A2aVsBaseline& b : baseline.rows) {
            QJsonObject o{{QStringLiteral("kind"), b.kind},
                          {QStringLiteral("bytes_per_rank"), b.bytesPerRank},
                          {QStringLiteral("calls"), b.calls},
                          {QStringLiteral("training_us"), b.trainingUs},
                          {QStringLiteral("training_gbps"), b.trainingGBps},
                          {QStringLiteral("baseline_run"), b.baselineRun},
                          {QStringLiteral("note"), b.note},
                          {QStringLiteral("splits_cut"), b.splitsCut}};
            o.insert(QStringLiteral("baseline_us"), b.baselineUs ? QJsonValue(*b.baselineUs) : QJsonValue::Null);
            o.insert(QStringLiteral("baseline_gbps"), b.baselineGBps ? QJsonValue(*b.baselineGBps) : QJsonValue::Null);
            o.insert(QStringLiteral("ratio"), b.ratio ? QJsonValue(*b.ratio) : QJsonValue::Null);
            a2a.append(o);
        }
        QJsonObject out{{QStringLiteral("run"), run->name},
                        {QStringLiteral("ranks_traced"), ranks},
                        {QStringLiteral("world_size"), anatomy.worldSize > 0 ? QJsonValue(anatomy.worldSize) : QJsonValue::Null},
                        {QStringLiteral("format"), anatomy.format},
                        {QStringLiteral("steps"), stepArray},
                        {QStringLiteral("stragglers"), stragglers},
                        {QStringLiteral("a2a_vs_baseline"), a2a}};
        if (!summary.steps.isEmpty()) {
            out.insert(QStringLiteral("mean_busiest_share"), summary.meanBusiestShare);
            out.insert(QStringLiteral("mean_mean_share"), summary.meanMeanShare);
            out.insert(QStringLiteral("mean_imbalance_us"), summary.meanBillUs);
        }
        ctx.printJson(out);
        return Success;
    }

    QTextStream& o = ctx.out();
    o << Cli::tr("Run %1: profiler traces of %n rank(s)", "", int(anatomy.ranksTraced.size())).arg(store::printableName(run->name));
    if (anatomy.worldSize > 0 && anatomy.ranksTraced.size() < anatomy.worldSize)
        o << Cli::tr(" of %1 (the busiest device is the busiest among the ranks traced)").arg(anatomy.worldSize);
    o << Qt::endl;
    for (qint64 step : std::as_const(steps)) {
        o << Qt::endl;
        if (const auto* s = summaryOf(step))
            o << Cli::tr("Step %1: busiest %2 at %3 of its step; the mean device %4; the others wait %5 ms per step "
                         "for it")
                     .arg(step)
                     .arg(rankName(s->busiestRank, rec), formatPercent(s->busiestShare, 1),
                          formatPercent(s->meanShare, 1), ms(s->billUs))
              << Qt::endl;
        else
            o << Cli::tr("Step %1: not recorded by every traced rank").arg(step) << Qt::endl;
        TextTable t;
        t.addColumn(Cli::tr("RANK"), TextTable::Align::Right);
        for (const QString& h : {Cli::tr("STEP ms"), Cli::tr("COMPUTE"), Cli::tr("A2A"), Cli::tr("A2A WAIT"),
                                 Cli::tr("OTHER COMM"), Cli::tr("ITS WAIT"), Cli::tr("EXPOSED"), Cli::tr("IDLE"),
                                 Cli::tr("BUSY")})
            t.addColumn(h, TextTable::Align::Right);
        for (const store::RankStepAnatomy& r : std::as_const(anatomy.rows))
            if (r.step == step)
                t.addRow({QString::number(r.rank), ms(r.stepUs), ms(r.computeUs), ms(r.a2aUs), ms(r.a2aWaitUs),
                          ms(r.otherCommUs), ms(r.otherCommWaitUs), ms(r.exposedCommUs), ms(r.idleUs),
                          r.stepUs > 0 ? formatPercent(r.busyUs / r.stepUs, 1) : QStringLiteral("-")});
        o << t.render();
        if (!timeline.isEmpty()) {
            o << Qt::endl << Cli::tr("Timeline (ms from the step's start, on the ranks' common clock):") << Qt::endl;
            TextTable tl;
            for (const QString& h : {Cli::tr("RANK"), Cli::tr("FROM"), Cli::tr("TO"), Cli::tr("INTERVALS"),
                                     Cli::tr("WAITING"), Cli::tr("LEFT OUT")})
                tl.addColumn(h, TextTable::Align::Right);
            for (const store::RankStepTimeline& r : std::as_const(timeline)) {
                qint64 waiting = 0;
                for (const store::TimelineInterval& i : r.intervals)
                    if (i.cls == store::TimelineClass::Waiting)
                        waiting += i.endNs - i.startNs;
                tl.addRow({QString::number(r.rank), ms(r.stepStartNs / 1000.0), ms(r.stepEndNs / 1000.0),
                           QString::number(r.intervals.size()), ms(waiting / 1000.0), QString::number(r.dropped)});
            }
            o << tl.render() << Cli::tr("(--json prints each interval: class, kernel, group, bytes, seq)") << Qt::endl;
        }
    }
    if (!onlyStep && !summary.steps.isEmpty()) {
        o << Qt::endl
          << Cli::tr("Over %n step(s): busiest-device share %1, the mean device %2; imbalance %3 ms per step.", "",
                     int(summary.steps.size()))
                 .arg(formatPercent(summary.meanBusiestShare, 1), formatPercent(summary.meanMeanShare, 1),
                      ms(summary.meanBillUs))
          << Qt::endl;
        QStringList named;
        for (const anatomy::Straggler& s : summary.stragglers)
            named << Cli::tr("%1 busiest in %n step(s)", "", s.timesBusiest).arg(rankName(s.rank, rec));
        o << Cli::tr("Stragglers: %1").arg(named.join(QStringLiteral("; "))) << Qt::endl;
    }
    if (!baseline.rows.isEmpty()) {
        o << Qt::endl << Cli::tr("The training's all-to-all against stage 1:") << Qt::endl;
        TextTable t;
        t.addColumn(Cli::tr("KIND"));
        t.addColumn(Cli::tr("PER RANK"), TextTable::Align::Right);
        t.addColumn(Cli::tr("CALLS"), TextTable::Align::Right);
        t.addColumn(Cli::tr("TRAINING"), TextTable::Align::Right);
        t.addColumn(Cli::tr("STAGE 1"), TextTable::Align::Right);
        t.addColumn(Cli::tr("SHARE"), TextTable::Align::Right);
        t.addColumn(Cli::tr("NOTE"));
        for (const anatomy::A2aVsBaseline& b : baseline.rows)
            t.addRow({b.kind, formatBytes(double(b.bytesPerRank)), QString::number(b.calls),
                      formatBandwidth(b.trainingGBps * 1e9, 1),
                      b.baselineGBps ? formatBandwidth(*b.baselineGBps * 1e9, 1) : QStringLiteral("-"),
                      b.ratio ? formatPercent(*b.ratio, 0) : QStringLiteral("-"), b.note});
        o << t.render();
    }
    return Success;
}

} // namespace

QList<Command> anatomyCommands() {
    Command anatomy;
    anatomy.words = {QStringLiteral("anatomy")};
    anatomy.synopsis = QStringLiteral("RUN [--step N [--timeline]]");
    anatomy.summary = Cli::tr("where each profiled step's time went, per rank, from the run's profiler traces: the "
                              "busiest device's share, the stragglers, the all-to-all against stage 1");
    anatomy.run = [anatomy](CliContext& ctx, const QStringList& a) { return runAnatomy(ctx, anatomy, a); };
    return {anatomy};
}

} // namespace moewb::cli
