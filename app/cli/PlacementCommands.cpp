// moewb placement: DeepSeek EPLB's rebalanced expert placement, from a load matrix file
// or from a run's measured expert load, and the busiest-device share it would give
// (docs/traffic.md). Exit 0 success, 2 usage, 3 runtime.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "RunLoadInput.h"
#include "TextTable.h"
#include "placement/EplbRebalance.h"
#include "placement/ExpertPlacement.h"
#include "traffic/PlacementWhatIf.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <cmath>

namespace moewb::cli {

namespace {

using placement::EplbInput;
using placement::EplbPlacement;

// A [layers × experts] load matrix: one row per line, whitespace-separated, '#' comments.
Expected<EplbInput, QString> readWeightsFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return unexpected(Cli::tr("%1: cannot be read: %2").arg(path, f.errorString()));
    if (f.size() > (qint64(256) << 20))
        return unexpected(Cli::tr("%1: larger than 256 MiB").arg(path));
    EplbInput in;
    int lineNo = 0;
    while (!f.atEnd()) {
        ++lineNo;
        QString line = QString::fromUtf8(f.readLine());
        if (const qsizetype hash = line.indexOf(QLatin1Char('#')); hash >= 0)
            line.truncate(hash);
        const QStringList cells = line.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (cells.isEmpty())
            continue;
        if (in.layers > 0 && cells.size() != in.experts)
            return unexpected(Cli::tr("%1:%2: %3 loads, the first row has %4")
                                  .arg(path)
                                  .arg(lineNo)
                                  .arg(cells.size())
                                  .arg(in.experts));
        for (qsizetype c = 0; c < cells.size(); ++c) {
            bool ok = false;
            const double v = cells[c].toDouble(&ok);
            if (!ok || !std::isfinite(v) || v < 0)
                return unexpected(Cli::tr("%1:%2: column %3: \"%4\" is not a load (a number ≥ 0)")
                                      .arg(path)
                                      .arg(lineNo)
                                      .arg(c + 1)
                                      .arg(cells[c]));
            in.weight.push_back(v);
        }
        in.experts = int(cells.size());
        ++in.layers;
    }
    if (in.layers == 0)
        return unexpected(Cli::tr("%1: no rows of loads").arg(path));
    return in;
}

QString rowText(const std::vector<int>& values, int row, int columns) {
    QStringList cells;
    for (int c = 0; c < columns; ++c)
        cells << QString::number(values[std::size_t(row) * columns + c]);
    return cells.join(QLatin1Char(' '));
}

int placementFromWeights(CliContext& ctx, const QString& words, EplbInput in) {
    const auto p = placement::rebalanceExperts(in);
    if (!p)
        return ctx.usageError(p.error(), words);
    if (ctx.json) {
        ctx.printJson(traffic::eplbJson(*p));
        return Success;
    }
    ctx.out() << (p->hierarchical ? Cli::tr("Hierarchical policy: groups packed to %1 nodes, replicas within "
                                            "nodes, then packed to GPUs.")
                                        .arg(in.nodes)
                                  : Cli::tr("Global policy: %1 groups do not divide over %2 nodes.")
                                        .arg(in.groups)
                                        .arg(in.nodes))
              << Qt::endl;
    for (int l = 0; l < p->layers; ++l) {
        ctx.out() << Cli::tr("layer row %1 phy2log: %2").arg(l).arg(rowText(p->phy2log, l, p->replicas))
                  << Qt::endl;
        ctx.out() << Cli::tr("layer row %1 logcnt:  %2").arg(l).arg(rowText(p->logCount, l, p->experts))
                  << Qt::endl;
    }
    return Success;
}

int runPlacement(CliContext& ctx, const Command& self, const QStringList& args) {
    const QString words = QStringLiteral("placement");
    QCommandLineParser parser;
    const QCommandLineOption weightsOption(QStringLiteral("weights"),
                                           Cli::tr("a [layers × experts] load matrix: one row per line, "
                                                   "whitespace-separated (instead of RUN)"),
                                           QStringLiteral("FILE"));
    const QCommandLineOption replicasOption(
        QStringLiteral("replicas"),
        Cli::tr("physical experts per layer, a multiple of --gpus (with --weights)"), QStringLiteral("R"));
    const QCommandLineOption groupsOption(QStringLiteral("groups"), Cli::tr("expert groups (default 1)"),
                                          QStringLiteral("G"), QStringLiteral("1"));
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), Cli::tr("nodes (default 1; with RUN: the nodes its EP group spans)"),
                                         QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption gpusOption(
        QStringLiteral("gpus"),
        Cli::tr("GPUs in all, a multiple of --nodes (default with RUN: parallelism.ep)"),
        QStringLiteral("P"));
    const QCommandLineOption stepsOption(QStringLiteral("steps"),
                                         Cli::tr("with RUN: the window of steps, A-B (default: all)"),
                                         QStringLiteral("A-B"));
    const QCommandLineOption redundantOption(QStringLiteral("redundant"),
                                             Cli::tr("with RUN: redundant expert slots per GPU (default 0)"),
                                             QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption outOption(
        QStringList{QStringLiteral("o"), QStringLiteral("output")},
        Cli::tr("with RUN: write the placement and the load (EPLB's weight) as JSON"),
        QStringLiteral("FILE"));
    for (const auto* o : {&weightsOption, &replicasOption, &groupsOption, &nodesOption, &gpusOption,
                          &stepsOption, &redundantOption, &outOption})
        parser.addOption(*o);
    parser.addPositionalArgument(QStringLiteral("RUN"),
                                 Cli::tr("a run with expert load (or --weights FILE)"));
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const auto intOption = [&](const QCommandLineOption& o, int min, int* out) {
        const auto v = wholeNumberOption(parser, o, min, 1 << 20);
        if (v)
            *out = int(*v);
        return v.has_value();
    };
    int groups = 1, nodes = 1, gpus = 0, redundant = 0, replicas = 0;
    if (!intOption(groupsOption, 1, &groups) || !intOption(nodesOption, 1, &nodes) ||
        (parser.isSet(gpusOption) && !intOption(gpusOption, 1, &gpus)) ||
        !intOption(redundantOption, 0, &redundant) ||
        (parser.isSet(replicasOption) && !intOption(replicasOption, 1, &replicas)))
        return ctx.usageError(Cli::tr("--replicas, --groups, --nodes and --gpus must be positive integers, "
                                      "--redundant an integer ≥ 0"),
                              words);

    if (parser.isSet(weightsOption)) {
        if (!parser.positionalArguments().isEmpty())
            return ctx.usageError(Cli::tr("give either RUN or --weights FILE, not both"), words);
        if (!parser.isSet(replicasOption) || !parser.isSet(gpusOption))
            return ctx.usageError(Cli::tr("--weights needs --replicas and --gpus"), words);
        auto in = readWeightsFile(parser.value(weightsOption));
        if (!in)
            return ctx.runtimeError(in.error());
        in->replicas = replicas;
        in->groups = groups;
        in->nodes = nodes;
        in->gpus = gpus;
        return placementFromWeights(ctx, words, std::move(*in));
    }
    if (parser.positionalArguments().size() != 1)
        return ctx.usageError(Cli::tr("needs RUN or --weights FILE"), words);
    if (parser.isSet(replicasOption))
        return ctx.usageError(Cli::tr("with RUN the replicas are the experts plus --redundant per GPU"),
                              words);

    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const QString runName = parser.positionalArguments().first();
    auto input = readRunLoad(*project, runName, parser.value(stepsOption));
    if (!input)
        return ctx.runtimeError(input.error());
    const traffic::LayerLoads& loads = input->loads;
    if (gpus == 0) {
        if (!input->record.parallelism.ep)
            return ctx.runtimeError(Cli::tr("run %1: its config record %2 has no parallelism.ep; give --gpus")
                                        .arg(runName, input->run.recordName));
        gpus = int(*input->record.parallelism.ep);
    }
    if (!parser.isSet(nodesOption))
        nodes = traffic::expertParallelNodes(input->record);
    traffic::PlacementWhatIfOptions whatIfOptions;
    whatIfOptions.gpus = gpus;
    whatIfOptions.nodes = nodes;
    whatIfOptions.groups = groups;
    whatIfOptions.redundant = redundant;
    const auto whatIf = traffic::placementWhatIf(loads, whatIfOptions);
    if (!whatIf)
        return whatIf.error().badArguments ? ctx.usageError(whatIf.error().text, words)
                                           : ctx.runtimeError(Cli::tr("run %1: %2").arg(runName, whatIf.error().text));
    const EplbPlacement* p = &whatIf->placement;
    const QList<traffic::LayerShare>& shares = whatIf->shares;
    const double meanToday = whatIf->meanToday, meanAfter = whatIf->meanAfter;
    QJsonObject file = traffic::placementFileJson(*whatIf, loads, runName);
    if (parser.isSet(outOption)) {
        QSaveFile f(parser.value(outOption));
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(QJsonDocument(file).toJson(QJsonDocument::Indented)) < 0 || !f.commit())
            return ctx.runtimeError(
                Cli::tr("cannot write %1: %2").arg(parser.value(outOption), f.errorString()));
    }
    if (ctx.json) {
        QJsonArray perLayer;
        for (const traffic::LayerShare& s : shares)
            perLayer.append(QJsonObject{{QStringLiteral("layer"), s.layer},
                                        {QStringLiteral("busiest_share_today"), s.today},
                                        {QStringLiteral("busiest_share_rebalanced"), s.after}});
        file.insert(QStringLiteral("busiest_share"), perLayer);
        file.insert(QStringLiteral("mean_busiest_share_today"), meanToday);
        file.insert(QStringLiteral("mean_busiest_share_rebalanced"), meanAfter);
        file.insert(QStringLiteral("even_share"), 1.0 / gpus);
        ctx.printJson(file);
        return Success;
    }
    QTextStream& out = ctx.out();
    out << Cli::tr("Run %1, steps %2-%3: %4 layers × %5 experts over %6 GPUs (%7 nodes), %n redundant "
                   "slot(s) per GPU, "
                   "%8 policy.",
                   "", redundant)
               .arg(runName)
               .arg(loads.firstStep)
               .arg(loads.lastStep)
               .arg(int(shares.size()))
               .arg(loads.experts)
               .arg(gpus)
               .arg(nodes)
               .arg(p->hierarchical ? Cli::tr("EPLB hierarchical") : Cli::tr("EPLB global"))
        << Qt::endl
        << Qt::endl;
    TextTable table;
    table.addColumn(Cli::tr("LAYER"), TextTable::Align::Right);
    table.addColumn(Cli::tr("BUSIEST SHARE TODAY"), TextTable::Align::Right);
    table.addColumn(Cli::tr("AFTER REBALANCING"), TextTable::Align::Right);
    for (const traffic::LayerShare& s : shares)
        table.addRow(
            {QString::number(s.layer), QString::number(s.today, 'f', 3), QString::number(s.after, 'f', 3)});
    out << table.render() << Qt::endl;
    out << Cli::tr("Busiest-device share (predicted from the measured load; even = %1): %2 today, %3 after "
                   "rebalancing, mean over layers.")
               .arg(QString::number(1.0 / gpus, 'f', 3), QString::number(meanToday, 'f', 3),
                    QString::number(meanAfter, 'f', 3))
        << Qt::endl;
    if (parser.isSet(outOption))
        out << Cli::tr("Placement (phy2log, log2phy, logcnt) and load (weight) written to %1.")
                   .arg(parser.value(outOption))
            << Qt::endl;
    return Success;
}

} // namespace

QList<Command> placementCommands() {
    Command placement;
    placement.words = {QStringLiteral("placement")};
    placement.synopsis =
        QStringLiteral("RUN [--steps A-B] [--redundant N] [--nodes N --gpus P] [--groups G] [-o FILE] | "
                       "--weights FILE --replicas R --groups G --nodes N --gpus P");
    placement.summary = Cli::tr("DeepSeek EPLB's rebalanced expert placement and the busiest-device share it "
                                "would give");
    placement.run = [placement](CliContext& ctx, const QStringList& a) {
        return runPlacement(ctx, placement, a);
    };
    return {placement};
}

} // namespace moewb::cli
