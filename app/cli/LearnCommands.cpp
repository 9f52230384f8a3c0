// moewb routing / moewb costs: the Learn tools (SPEC §6) headless. docs/routing.md and
// docs/costs.md define every number printed here. Exit 0 success, 2 usage, 3 runtime.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextTable.h"
#include "common/Units.h"
#include "costs/CostModel.h"
#include "costs/StepTimeEstimate.h"
#include "record/ConfigRecord.h"
#include "routing/RoutingLab.h"
#include "store/ProjectStore.h"

#include <QJsonArray>
#include <QJsonValue>
#include <cmath>

namespace moewb::cli {

namespace {

using routing::RouterKind;
using routing::RouterResult;

QString fixed(double v, int decimals) {
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("-");
}
QJsonValue jsonOpt(const std::optional<double>& v) {
    return v && std::isfinite(*v) ? QJsonValue(*v) : QJsonValue();
}
template <typename T> QJsonArray jsonArray(const std::vector<T>& values) {
    QJsonArray a;
    for (const T& v : values)
        a.append(double(v));
    return a;
}

QString routerTitle(RouterKind kind) {
    switch (kind) {
    case RouterKind::TopK:
        return Cli::tr("Top-K");
    case RouterKind::ExpertChoice:
        return Cli::tr("Expert-Choice");
    case RouterKind::SigmoidBias:
        return Cli::tr("Sigmoid + bias");
    }
    return {};
}

QJsonObject routerJson(const RouterResult& r) {
    QJsonObject o{{QStringLiteral("router"), routing::routerToken(r.router)},
                  {QStringLiteral("max_vio"), r.maxVio},
                  {QStringLiteral("dropped_assignments"), double(r.droppedAssignments)},
                  {QStringLiteral("tokens_without_expert"), double(r.tokensWithoutExpert)},
                  {QStringLiteral("entropy"), r.entropyBits},
                  {QStringLiteral("routing_ms"), r.routingMs},
                  {QStringLiteral("capacity"), r.capacity > 0 ? QJsonValue(double(r.capacity)) : QJsonValue()},
                  {QStringLiteral("loads"), jsonArray(r.loads)}};
    if (r.router == RouterKind::TopK) {
        o.insert(QStringLiteral("demand_loads"), jsonArray(r.demandLoads));
        o.insert(QStringLiteral("demand_max_vio"), routing::maxViolation(r.demandLoads));
    } else if (r.router == RouterKind::ExpertChoice) {
        o.insert(QStringLiteral("max_experts_per_token"), r.maxExpertsPerToken);
    } else {
        o.insert(QStringLiteral("max_vio_per_iteration"), jsonArray(r.maxVioPerIteration));
        o.insert(QStringLiteral("bias"), jsonArray(r.bias));
    }
    return o;
}

TextTable routerTable(bool withExperts) {
    TextTable t;
    if (withExperts) {
        t.addColumn(Cli::tr("experts"), TextTable::Align::Right);
        t.addColumn(Cli::tr("capacity"), TextTable::Align::Right);
    }
    t.addColumn(Cli::tr("router"));
    t.addColumn(Cli::tr("MaxVio"), TextTable::Align::Right);
    t.addColumn(Cli::tr("dropped assignments"), TextTable::Align::Right);
    t.addColumn(Cli::tr("tokens without expert"), TextTable::Align::Right);
    t.addColumn(Cli::tr("entropy (bits)"), TextTable::Align::Right);
    t.addColumn(Cli::tr("routing time"), TextTable::Align::Right);
    t.addColumn(Cli::tr("per token (ns)"), TextTable::Align::Right);
    return t;
}

QStringList routerRow(const RouterResult& r, std::int64_t tokens) {
    return {routerTitle(r.router),
            fixed(r.maxVio, 4),
            QString::number(r.droppedAssignments),
            QString::number(r.tokensWithoutExpert),
            fixed(r.entropyBits, 3),
            units::formatDuration(r.routingMs * 1e3),
            fixed(r.routingMs * 1e6 / double(tokens), 2)};
}

int runRouting(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption expertsOpt(QStringLiteral("experts"), Cli::tr("routed experts E (default 8)"),
                                        QStringLiteral("E"));
    const QCommandLineOption tokensOpt(QStringLiteral("tokens"), Cli::tr("tokens T (default 262144)"),
                                       QStringLiteral("T"));
    const QCommandLineOption topKOpt(QStringLiteral("top-k"), Cli::tr("experts per token K (default 2)"),
                                     QStringLiteral("K"));
    const QCommandLineOption factorOpt(QStringLiteral("capacity-factor"),
                                       Cli::tr("capacity = factor × K×T/E (default 1.12)"), QStringLiteral("F"));
    const QCommandLineOption scoresOpt(QStringLiteral("scores"),
                                       Cli::tr("uniform, preferential or zipf:S (default uniform)"),
                                       QStringLiteral("MODE"));
    const QCommandLineOption routerOpt(QStringLiteral("router"),
                                       Cli::tr("topk, expert-choice, sigmoid-bias or all (default all)"),
                                       QStringLiteral("ROUTER"));
    const QCommandLineOption seedOpt(QStringLiteral("seed"), Cli::tr("random seed (default 1)"), QStringLiteral("N"));
    const QCommandLineOption sweepOpt(QStringLiteral("sweep"), Cli::tr("also sweep E = 4, 8, …, 256"));
    const QCommandLineOption rateOpt(QStringLiteral("bias-rate"), Cli::tr("sigmoid-bias update rate u (default 0.001)"),
                                     QStringLiteral("U"));
    const QCommandLineOption batchesOpt(QStringLiteral("bias-batches"),
                                        Cli::tr("batches the tokens are cut into for the bias (default 16)"),
                                        QStringLiteral("N"));
    const QCommandLineOption itersOpt(QStringLiteral("bias-iterations"),
                                      Cli::tr("bias updates, one per batch (default 512)"), QStringLiteral("N"));
    parser.addOptions({expertsOpt, tokensOpt, topKOpt, factorOpt, scoresOpt, routerOpt, seedOpt, sweepOpt, rateOpt,
                       batchesOpt, itersOpt});
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QString words = QStringLiteral("routing");
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no positional arguments"), words);

    routing::RoutingSetup s;
    auto intOption = [&](const QCommandLineOption& o, auto& target) {
        if (!parser.isSet(o))
            return true;
        bool ok = false;
        const qlonglong v = parser.value(o).toLongLong(&ok);
        if (!ok)
            return false;
        target = static_cast<std::remove_reference_t<decltype(target)>>(v);
        return qlonglong(target) == v;
    };
    auto doubleOption = [&](const QCommandLineOption& o, double& target) {
        if (!parser.isSet(o))
            return true;
        bool ok = false;
        target = parser.value(o).toDouble(&ok);
        return ok;
    };
    if (!intOption(expertsOpt, s.experts) || !intOption(tokensOpt, s.tokens) || !intOption(topKOpt, s.topK) ||
        !intOption(batchesOpt, s.bias.batches) || !intOption(itersOpt, s.bias.iterations))
        return ctx.usageError(Cli::tr("--experts, --tokens, --top-k, --bias-batches and --bias-iterations take "
                                      "whole numbers"),
                              words);
    if (parser.isSet(seedOpt)) {
        bool ok = false;
        s.seed = parser.value(seedOpt).toULongLong(&ok);
        if (!ok)
            return ctx.usageError(Cli::tr("--seed takes a non-negative whole number"), words);
    }
    if (!doubleOption(factorOpt, s.capacityFactor) || !doubleOption(rateOpt, s.bias.updateRate))
        return ctx.usageError(Cli::tr("--capacity-factor and --bias-rate take numbers"), words);
    if (parser.isSet(scoresOpt)) {
        const auto spec = routing::parseScoreSpec(parser.value(scoresOpt));
        if (!spec)
            return ctx.usageError(Cli::tr("--scores takes uniform, preferential or zipf:S with S > 0"), words);
        s.scores = *spec;
    }
    if (parser.isSet(routerOpt)) {
        const QString r = parser.value(routerOpt);
        if (r == QLatin1String("topk"))
            s.routers = {RouterKind::TopK};
        else if (r == QLatin1String("expert-choice"))
            s.routers = {RouterKind::ExpertChoice};
        else if (r == QLatin1String("sigmoid-bias"))
            s.routers = {RouterKind::SigmoidBias};
        else if (r != QLatin1String("all"))
            return ctx.usageError(Cli::tr("--router takes topk, expert-choice, sigmoid-bias or all"), words);
    }
    const QStringList problems = routing::validateSetup(s);
    if (!problems.isEmpty())
        return ctx.usageError(problems.join(QStringLiteral("; ")), words);

    const routing::RoutingRun run = routing::runRouting(s);
    QList<routing::RoutingRun> sweep;
    if (parser.isSet(sweepOpt))
        sweep = routing::sweepExperts(s);

    if (ctx.json) {
        QJsonArray routers;
        for (const RouterResult& r : run.results)
            routers.append(routerJson(r));
        QJsonObject o{{QStringLiteral("setup"),
                       QJsonObject{{QStringLiteral("experts"), s.experts},
                                   {QStringLiteral("tokens"), double(s.tokens)},
                                   {QStringLiteral("top_k"), s.topK},
                                   {QStringLiteral("capacity_factor"), s.capacityFactor},
                                   {QStringLiteral("capacity"), double(run.capacity)},
                                   {QStringLiteral("target_load"), double(s.topK) * double(s.tokens) / s.experts},
                                   {QStringLiteral("scores"), s.scores.text()},
                                   {QStringLiteral("seed"), QString::number(s.seed)},
                                   {QStringLiteral("bias_rate"), s.bias.updateRate},
                                   {QStringLiteral("bias_batches"), s.bias.batches},
                                   {QStringLiteral("bias_iterations"), s.bias.iterations}}},
                      {QStringLiteral("routers"), routers}};
        if (parser.isSet(sweepOpt)) {
            QJsonArray points;
            for (const auto& p : sweep) {
                QJsonArray rs;
                for (const RouterResult& r : p.results)
                    rs.append(routerJson(r));
                points.append(QJsonObject{{QStringLiteral("experts"), p.experts},
                                          {QStringLiteral("capacity"), double(p.capacity)},
                                          {QStringLiteral("routers"), rs}});
            }
            o.insert(QStringLiteral("sweep"), points);
        }
        ctx.printJson(o);
        return Success;
    }

    QTextStream& out = ctx.out();
    out << Cli::tr("E = %1 experts, T = %2 tokens, top-%3, capacity factor %4, scores %5, seed %6\n")
               .arg(s.experts)
               .arg(s.tokens)
               .arg(s.topK)
               .arg(s.capacityFactor)
               .arg(s.scores.text())
               .arg(s.seed);
    out << Cli::tr("Target load K×T/E = %1 assignments per expert; capacity = %2 per expert.\n\n")
               .arg(fixed(double(s.topK) * double(s.tokens) / s.experts, 1))
               .arg(run.capacity);
    TextTable table = routerTable(false);
    for (const RouterResult& r : run.results)
        table.addRow(routerRow(r, s.tokens));
    out << table.render() << '\n';
    for (const RouterResult& r : run.results) {
        if (r.router != RouterKind::SigmoidBias || r.maxVioPerIteration.empty())
            continue;
        out << Cli::tr("Sigmoid + bias: MaxVio per bias iteration (batches of %1 tokens, u = %2):\n")
                   .arg((s.tokens + s.bias.batches - 1) / s.bias.batches)
                   .arg(s.bias.updateRate);
        TextTable it;
        it.addColumn(Cli::tr("iteration"), TextTable::Align::Right);
        it.addColumn(Cli::tr("MaxVio"), TextTable::Align::Right);
        const int n = int(r.maxVioPerIteration.size());
        const int step = std::max(1, n / 8);
        for (int i = 0; i < n; i += step)
            it.addRow({QString::number(i + 1), fixed(r.maxVioPerIteration[std::size_t(i)], 4)});
        if ((n - 1) % step != 0)
            it.addRow({QString::number(n), fixed(r.maxVioPerIteration.back(), 4)});
        out << it.render() << '\n';
    }
    if (parser.isSet(sweepOpt)) {
        out << Cli::tr("Sweep over the expert count (same T, K, factor, scores and seed):\n");
        TextTable sw = routerTable(true);
        for (const auto& p : sweep)
            for (const RouterResult& r : p.results)
                sw.addRow(QStringList{QString::number(p.experts), QString::number(p.capacity)} +
                          routerRow(r, s.tokens));
        out << sw.render() << '\n';
    }
    out.flush();
    return Success;
}

// ---------------------------------------------------------------------------- costs

int runCosts(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption recordOpt(QStringLiteral("record"), Cli::tr("the config record's name in the project"),
                                       QStringLiteral("NAME"));
    const QCommandLineOption runOpt(QStringLiteral("run"),
                                    Cli::tr("the stage 1 run whose curve to use (default: the one matching EP)"),
                                    QStringLiteral("NAME"));
    const QCommandLineOption tflopsOpt(QStringLiteral("achieved-tflops"),
                                       Cli::tr("achieved TFLOP/s per device, for the compute estimate"),
                                       QStringLiteral("X"));
    const QCommandLineOption paramOpt(QStringLiteral("param-bytes"), Cli::tr("bytes per parameter (default 2, bf16)"),
                                      QStringLiteral("B"));
    const QCommandLineOption gradOpt(QStringLiteral("grad-bytes"), Cli::tr("bytes per gradient (default 2, bf16)"),
                                     QStringLiteral("B"));
    const QCommandLineOption masterOpt(QStringLiteral("master-bytes"),
                                       Cli::tr("bytes per master weight (default 4, fp32; 0 for none)"),
                                       QStringLiteral("B"));
    const QCommandLineOption optimOpt(QStringLiteral("optimizer-bytes"),
                                      Cli::tr("optimizer-state bytes per parameter (default 8, Adam m+v fp32)"),
                                      QStringLiteral("B"));
    const QCommandLineOption actOpt(QStringLiteral("activation-bytes"),
                                    Cli::tr("bytes per hidden element sent by the all-to-all (default 2)"),
                                    QStringLiteral("B"));
    const QCommandLineOption ffnOpt(QStringLiteral("ffn-matrices"),
                                    Cli::tr("weight matrices per FFN: 3 SwiGLU (default), 2 plain"),
                                    QStringLiteral("N"));
    const QCommandLineOption microOpt(QStringLiteral("micro-batch"),
                                      Cli::tr("sequences per micro-batch (default 1)"), QStringLiteral("N"));
    const QCommandLineOption distOpt(QStringLiteral("distributed-optimizer"),
                                     Cli::tr("shard master weights and optimizer state over data parallel"));
    parser.addOptions({recordOpt, runOpt, tflopsOpt, paramOpt, gradOpt, masterOpt, optimOpt, actOpt, ffnOpt, microOpt,
                       distOpt});
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QString words = QStringLiteral("costs");
    if (!parser.isSet(recordOpt) || !parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("expects --record NAME"), words);

    costs::CostOptions options;
    std::optional<double> tflops;
    bool ok = true;
    auto number = [&](const QCommandLineOption& o, double& target) {
        if (!parser.isSet(o))
            return;
        bool good = false;
        const double v = parser.value(o).toDouble(&good);
        if (!good || !std::isfinite(v) || v < 0)
            ok = false;
        else
            target = v;
    };
    number(paramOpt, options.bytes.parameter);
    number(gradOpt, options.bytes.gradient);
    number(masterOpt, options.bytes.masterWeight);
    number(optimOpt, options.bytes.optimizerState);
    number(actOpt, options.bytes.activation);
    double ffn = options.ffnMatrices, micro = options.microBatchSequences, tf = 0;
    number(ffnOpt, ffn);
    number(microOpt, micro);
    if (parser.isSet(tflopsOpt)) {
        number(tflopsOpt, tf);
        if (!(tf > 0))
            ok = false;
        tflops = tf;
    }
    if (!ok || (ffn != 2 && ffn != 3) || micro < 1 || micro != std::floor(micro))
        return ctx.usageError(Cli::tr("byte sizes take non-negative numbers, --ffn-matrices 2 or 3, --micro-batch "
                                      "a whole number ≥ 1, --achieved-tflops a positive number"),
                              words);
    options.ffnMatrices = int(ffn);
    options.microBatchSequences = int(micro);
    options.distributedOptimizer = parser.isSet(distOpt);

    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const QString name = parser.value(recordOpt);
    const auto row = project->configRecord(name);
    if (!row)
        return ctx.runtimeError(Cli::tr("no config record named \"%1\" in the project").arg(name));
    const record::ConfigRecord record = record::ConfigRecord::fromJson(row->json, nullptr);
    QStringList missing;
    const auto in = costs::costInputsFromRecord(record, &missing);
    if (!in)
        return ctx.runtimeError(Cli::tr("cannot compute the costs of \"%1\": %2").arg(name, missing.join(QStringLiteral("; "))));

    const costs::ParameterCounts params = costs::countParameters(*in, options);
    const costs::MemoryPerDevice mem = costs::memoryPerDevice(*in, params, options);
    const costs::AllToAllVolume vol = costs::allToAllVolume(*in, options);
    const costs::ProjectCurve projectCurve = costs::commCurveFromProject(
        *project, in->ep, parser.value(runOpt),
        record.cluster.nodes ? std::optional<std::int64_t>(std::int64_t(*record.cluster.nodes)) : std::nullopt);
    if (!projectCurve.error.isEmpty())
        return ctx.runtimeError(projectCurve.error);
    const std::optional<costs::CommCurve>& curve = projectCurve.curve;
    const costs::StepTimeEstimate step = costs::estimateStepTime(*in, params, vol, curve, tflops);
    const bool needsBaseline = !in->dense && in->ep > 1 && !curve;
    const QString baselineNote = Cli::tr("The step-time estimate needs a stage 1 baseline: run `moewb run stage1` or "
                                         "import probe results with communication samples.");

    if (ctx.json) {
        ctx.printJson(QJsonObject{
            {QStringLiteral("record"), name},
            {QStringLiteral("parameters"),
             QJsonObject{{QStringLiteral("attention_per_layer"), params.attentionPerLayer},
                         {QStringLiteral("one_expert"), params.oneExpert},
                         {QStringLiteral("router_per_moe_layer"), params.routerPerMoeLayer},
                         {QStringLiteral("routed_experts"), params.routedExperts},
                         {QStringLiteral("formula_total"), params.total},
                         {QStringLiteral("formula_activated"), params.activated},
                         {QStringLiteral("record_total"), in->recordTotalParams ? QJsonValue(double(*in->recordTotalParams)) : QJsonValue()},
                         {QStringLiteral("record_activated"), in->recordActivatedParams ? QJsonValue(double(*in->recordActivatedParams)) : QJsonValue()},
                         {QStringLiteral("other_from_record"), jsonOpt(params.otherFromRecord)}}},
            {QStringLiteral("memory_per_device"),
             QJsonObject{{QStringLiteral("dense_params"), mem.denseParams},
                         {QStringLiteral("expert_params"), mem.expertParams},
                         {QStringLiteral("parameter_bytes"), mem.parameterBytes},
                         {QStringLiteral("gradient_bytes"), mem.gradientBytes},
                         {QStringLiteral("master_weight_bytes"), mem.masterWeightBytes},
                         {QStringLiteral("optimizer_state_bytes"), mem.optimizerStateBytes},
                         {QStringLiteral("total_bytes"), mem.totalBytes}}},
            {QStringLiteral("all_to_all"),
             QJsonObject{{QStringLiteral("remote_fraction"), vol.remoteFraction},
                         {QStringLiteral("bytes_per_token_per_layer_one_way"), vol.bytesPerTokenPerLayerOneWay},
                         {QStringLiteral("bytes_per_token_per_layer"), vol.bytesPerTokenPerLayer},
                         {QStringLiteral("tokens_per_device_per_step"), jsonOpt(vol.tokensPerDevicePerStep)},
                         {QStringLiteral("moe_layers_per_stage"), vol.moeLayersPerStage},
                         {QStringLiteral("bytes_per_device_per_step"), jsonOpt(vol.bytesPerDevicePerStep)},
                         {QStringLiteral("bytes_per_rank_per_call"), jsonOpt(vol.bytesPerRankPerCall)},
                         {QStringLiteral("calls_per_step"), jsonOpt(vol.callsPerStep)}}},
            {QStringLiteral("step_time"),
             QJsonObject{{QStringLiteral("stage1_run"), curve ? QJsonValue(curve->runName) : QJsonValue()},
                         {QStringLiteral("stage1_routing"),
                          curve && !curve->routingOrigin.isEmpty() ? QJsonValue(curve->routingOrigin) : QJsonValue()},
                         {QStringLiteral("needs_stage1_baseline"), needsBaseline},
                         {QStringLiteral("call_us"), jsonOpt(step.callTimeUs)},
                         {QStringLiteral("extrapolated"), step.extrapolated},
                         {QStringLiteral("all_to_all_us"), jsonOpt(step.allToAllUs)},
                         {QStringLiteral("flops_per_device"), jsonOpt(step.flopsPerDevice)},
                         {QStringLiteral("compute_us"), jsonOpt(step.computeUs)},
                         {QStringLiteral("total_us"), jsonOpt(step.totalUs)}}}});
        return Success;
    }

    QTextStream& out = ctx.out();
    auto bytesOr = [](const std::optional<double>& v) { return v ? units::formatBytes(*v) : Cli::tr("unknown"); };
    out << Cli::tr("Costs of \"%1\" (docs/costs.md explains each line)\n\n").arg(name);
    TextTable p;
    p.addColumn(Cli::tr("parameters"));
    p.addColumn(Cli::tr("formula"), TextTable::Align::Right);
    p.addColumn(Cli::tr("record"), TextTable::Align::Right);
    p.addRow({Cli::tr("total"), units::formatCount(params.total),
              in->recordTotalParams ? units::formatCount(double(*in->recordTotalParams)) : QStringLiteral("-")});
    p.addRow({Cli::tr("activated per token"), units::formatCount(params.activated),
              in->recordActivatedParams ? units::formatCount(double(*in->recordActivatedParams)) : QStringLiteral("-")});
    p.addRow({Cli::tr("attention per layer"), units::formatCount(params.attentionPerLayer), QStringLiteral("-")});
    p.addRow({Cli::tr("one expert"), units::formatCount(params.oneExpert), QStringLiteral("-")});
    p.addRow({Cli::tr("all routed experts"), units::formatCount(params.routedExperts), QStringLiteral("-")});
    if (params.otherFromRecord)
        p.addRow({Cli::tr("other (embeddings, head, norms)"), QStringLiteral("-"),
                  units::formatCount(*params.otherFromRecord)});
    out << p.render() << '\n';

    TextTable m;
    m.addColumn(Cli::tr("memory per device"));
    m.addColumn(Cli::tr("size"), TextTable::Align::Right);
    m.addRow({Cli::tr("parameters held (%1 dense + %2 expert)")
                  .arg(units::formatCount(mem.denseParams), units::formatCount(mem.expertParams)),
              units::formatBytes(mem.parameterBytes)});
    m.addRow({Cli::tr("gradients"), units::formatBytes(mem.gradientBytes)});
    m.addRow({Cli::tr("master weights"), units::formatBytes(mem.masterWeightBytes)});
    m.addRow({Cli::tr("optimizer state"), units::formatBytes(mem.optimizerStateBytes)});
    m.addRow({Cli::tr("total (activations not included)"), units::formatBytes(mem.totalBytes)});
    out << m.render() << '\n';

    TextTable a;
    a.addColumn(Cli::tr("all-to-all"));
    a.addColumn(Cli::tr("value"), TextTable::Align::Right);
    a.addRow({Cli::tr("share of assignments leaving the device"), fixed(vol.remoteFraction, 3)});
    a.addRow({Cli::tr("per token per layer, one dispatch"), units::formatBytes(vol.bytesPerTokenPerLayerOneWay)});
    a.addRow({Cli::tr("per token per layer, fwd+bwd dispatch+combine"), units::formatBytes(vol.bytesPerTokenPerLayer)});
    a.addRow({Cli::tr("per device per step"), bytesOr(vol.bytesPerDevicePerStep)});
    a.addRow({Cli::tr("one call, bytes per rank"), bytesOr(vol.bytesPerRankPerCall)});
    a.addRow({Cli::tr("calls per step"), vol.callsPerStep ? fixed(*vol.callsPerStep, 0) : Cli::tr("unknown")});
    out << a.render() << '\n';

    TextTable t;
    t.addColumn(Cli::tr("step time (per device)"));
    t.addColumn(Cli::tr("estimate"), TextTable::Align::Right);
    auto dur = [](const std::optional<double>& us) { return us ? units::formatDuration(*us) : QStringLiteral("-"); };
    t.addRow({Cli::tr("one all-to-all call"), dur(step.callTimeUs) + (step.extrapolated ? Cli::tr(" (extrapolated)") : QString())});
    t.addRow({Cli::tr("all-to-all per step"), dur(step.allToAllUs)});
    t.addRow({Cli::tr("compute per step"), dur(step.computeUs)});
    t.addRow({Cli::tr("total, no overlap"), dur(step.totalUs)});
    out << t.render() << '\n';
    if (curve && !curve->routingOrigin.isEmpty())
        out << Cli::tr("All-to-all times from the stage 1 curve of run \"%1\", measured with the training's own "
                       "routing: %2.\n")
                   .arg(curve->runName, curve->routingOrigin);
    else if (curve)
        out << Cli::tr("All-to-all times from the stage 1 curve of run \"%1\".\n").arg(curve->runName);
    if (needsBaseline)
        out << baselineNote << '\n';
    if (!tflops)
        out << Cli::tr("Give --achieved-tflops X for the compute part of the step.\n");
    out.flush();
    return Success;
}

} // namespace

QList<Command> learnCommands() {
    Command routingCmd;
    routingCmd.words = {QStringLiteral("routing")};
    routingCmd.synopsis = QStringLiteral("[--experts E] [--tokens T] [--top-k K] [--capacity-factor F] "
                                         "[--scores MODE] [--router R] [--seed N] [--sweep]");
    routingCmd.summary = Cli::tr("the routing lab: Top-K, Expert-Choice and sigmoid + bias compared");
    routingCmd.run = [routingCmd](CliContext& ctx, const QStringList& a) { return runRouting(ctx, routingCmd, a); };

    Command costsCmd;
    costsCmd.words = {QStringLiteral("costs")};
    costsCmd.synopsis = QStringLiteral("--record NAME [--run NAME] [--achieved-tflops X]");
    costsCmd.summary = Cli::tr("the cost structure: parameters, memory per device, all-to-all, step time");
    costsCmd.run = [costsCmd](CliContext& ctx, const QStringList& a) { return runCosts(ctx, costsCmd, a); };
    return {routingCmd, costsCmd};
}

} // namespace moewb::cli
