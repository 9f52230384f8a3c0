// moewb traffic RUN: the all-to-all a run's measured routing causes (docs/traffic.md).
// Exit 0 success, 2 usage, 3 runtime (no run, no load, a record field missing, I/O).
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "RunLoadInput.h"
#include "TextTable.h"
#include "common/Units.h"
#include "importers/ImportSupport.h"
#include "traffic/NcclTestsMatrixExport.h"
#include "traffic/RoutingComparison.h"

#include <QFileInfo>

#include <QJsonArray>
#include <QSaveFile>

#include <cmath>

namespace moewb::cli {

namespace {

using traffic::TrafficMatrix;

QJsonArray matrixJson(const TrafficMatrix& m) {
    QJsonArray rows;
    for (int s = 0; s < m.ranks; ++s) {
        QJsonArray row;
        for (int d = 0; d < m.ranks; ++d)
            row.append(qint64(std::llround(m.at(s, d))));
        rows.append(row);
    }
    return rows;
}

int runTraffic(CliContext& ctx, const Command& self, const QStringList& args) {
    const QString words = QStringLiteral("traffic");
    QCommandLineParser parser;
    const QCommandLineOption layerOption(
        QStringLiteral("layer"),
        Cli::tr("a layer number, \"worst\" (the layer whose busiest rank moves the "
                "most bytes; default) or \"all\" (every MoE layer summed)"),
        QStringLiteral("L"), QStringLiteral("worst"));
    const QCommandLineOption stepsOption(
        QStringLiteral("steps"), Cli::tr("the window of steps, A-B (default: all)"), QStringLiteral("A-B"));
    const QCommandLineOption placementOption(
        QStringLiteral("placement"),
        Cli::tr("a placement file (JSON with num_gpus and phy2log, as `moewb placement -o` writes); default: "
                "experts placed contiguously over parallelism.ep"),
        QStringLiteral("FILE"));
    const QCommandLineOption tokensOption(
        QStringLiteral("tokens-per-rank"),
        Cli::tr("tokens one EP rank routes per micro-batch (default: batch.sequence_length, one sequence)"),
        QStringLiteral("N"));
    const QCommandLineOption elementOption(QStringLiteral("bytes-per-element"),
                                           Cli::tr("bytes of one hidden-state element (default 2, bf16)"),
                                           QStringLiteral("B"), QStringLiteral("2"));
    const QCommandLineOption outOption(QStringList{QStringLiteral("o"), QStringLiteral("output")},
                                       Cli::tr("write the dispatch matrix to FILE, in the format --format names"),
                                       QStringLiteral("FILE"));
    const QCommandLineOption formatOption(
        QStringLiteral("format"),
        Cli::tr("the format -o writes: probe (moe-probe's --pattern matrix:FILE; default) or nccl-tests-matrix "
                "(nccl-tests' alltoallv_perf, NCCL_TESTS_ALLTOALLV_MATRIX_FILE; the command lines to run are printed)"),
        QStringLiteral("FORMAT"), QStringLiteral("probe"));
    const QCommandLineOption bytesPerRankOption(
        QStringLiteral("bytes-per-rank"),
        Cli::tr("with --format nccl-tests-matrix: the matrix's mean row sum (the bytes per rank a uniform run of the "
                "same size sends), a multiple of 16: bytes, or a number followed by K, M or G; default: the "
                "micro-batch's own, rounded to a multiple of 16 x ranks"),
        QStringLiteral("SIZE"));
    for (const auto* o : {&layerOption, &stepsOption, &placementOption, &tokensOption, &elementOption, &outOption,
                          &formatOption, &bytesPerRankOption})
        parser.addOption(*o);
    parser.addPositionalArgument(QStringLiteral("RUN"), Cli::tr("a run with expert load"));
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (parser.positionalArguments().size() != 1)
        return ctx.usageError(Cli::tr("needs exactly one RUN"), words);
    const auto bytesPerElement = wholeNumberOption(parser, elementOption, 1, 64);
    if (!bytesPerElement)
        return ctx.usageError(Cli::tr("--bytes-per-element must be an integer from 1 to 64"), words);
    RunTrafficOptions options;
    options.layer = parser.value(layerOption);
    options.steps = parser.value(stepsOption);
    options.placementFile = parser.value(placementOption);
    options.bytesPerElement = int(*bytesPerElement);
    if (parser.isSet(tokensOption)) {
        options.tokensPerRank = wholeNumberOption(parser, tokensOption, 1, qint64(1) << 40);
        if (!options.tokensPerRank)
            return ctx.usageError(Cli::tr("--tokens-per-rank must be a positive integer"), words);
    }
    const QString format = parser.value(formatOption).trimmed();
    const bool ncclTests = format == QLatin1String("nccl-tests-matrix");
    if (!ncclTests && format != QLatin1String("probe"))
        return ctx.usageError(
            Cli::tr("--format must be probe or nccl-tests-matrix, not \"%1\"").arg(parser.value(formatOption)), words);
    if (ncclTests && !parser.isSet(outOption))
        return ctx.usageError(Cli::tr("--format nccl-tests-matrix needs -o FILE"), words);
    std::optional<quint64> bytesPerRank;
    if (parser.isSet(bytesPerRankOption)) {
        if (!ncclTests)
            return ctx.usageError(Cli::tr("--bytes-per-rank goes with --format nccl-tests-matrix"), words);
        const auto size = importers::parseByteSize(parser.value(bytesPerRankOption).trimmed().toUtf8());
        if (!size || *size % qint64(traffic::kNcclTestsAlignment) != 0)
            return ctx.usageError(Cli::tr("--bytes-per-rank must be a positive multiple of 16 bytes (alltoallv_perf "
                                          "rounds every value down to 16 bytes), not \"%1\"")
                                      .arg(parser.value(bytesPerRankOption)),
                                  words);
        bytesPerRank = quint64(*size);
    }
    bool layerIsNumber = false;
    options.layer.toInt(&layerIsNumber);
    if (!layerIsNumber && options.layer != QLatin1String("worst") && options.layer != QLatin1String("all"))
        return ctx.usageError(
            Cli::tr("--layer must be a layer number, worst or all, not \"%1\"").arg(options.layer), words);

    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const QString runName = parser.positionalArguments().first();
    const auto computed = computeRunTraffic(*project, runName, options);
    if (!computed)
        return ctx.runtimeError(computed.error());
    const RunTraffic& t = *computed;
    const traffic::LayerLoads& loads = t.input.loads;
    const traffic::DispatchShape& shape = t.shape;
    const TrafficMatrix& m = t.measured;
    const double busiest = m.busiestRankBytes();
    const double uniformBusiest = t.uniform.busiestRankBytes();
    const double ratio = uniformBusiest > 0 ? busiest / uniformBusiest : std::nan("");
    const QString tokensSource = t.tokensFromOption
                                     ? Cli::tr("--tokens-per-rank")
                                     : Cli::tr("batch.sequence_length: one sequence per micro-batch");

    // nccl-tests' alltoallv_perf: scaled to the bytes per rank, in 16-byte units.
    std::optional<traffic::NcclTestsMatrix> nccl;
    if (ncclTests) {
        auto made = traffic::ncclTestsMatrix(m, bytesPerRank ? *bytesPerRank : traffic::defaultNcclTestsBytesPerRank(m));
        if (!made)
            return ctx.runtimeError(made.error());
        nccl = std::move(made.value());
    }
    const QString matrixPath = QFileInfo(parser.value(outOption)).absoluteFilePath();
    if (parser.isSet(outOption)) {
        QSaveFile file(parser.value(outOption));
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(nccl ? nccl->text() : traffic::matrixFileText(m, t.matrixHeader(runName))) < 0 ||
            !file.commit())
            return ctx.runtimeError(
                Cli::tr("cannot write %1: %2").arg(parser.value(outOption), file.errorString()));
    }

    if (ctx.json) {
        QJsonArray ranks;
        for (int r = 0; r < m.ranks; ++r)
            ranks.append(QJsonObject{
                {QStringLiteral("rank"), r},
                {QStringLiteral("sends_bytes"), m.sent(r)},
                {QStringLiteral("receives_bytes"), m.received(r)},
                {QStringLiteral("reach_per_token"), m.reachPerToken[std::size_t(r)]},
                {QStringLiteral("assignments_per_token"), m.assignmentsPerToken[std::size_t(r)]}});
        QJsonObject o{
            {QStringLiteral("run"), runName},
            {QStringLiteral("first_step"), loads.firstStep},
            {QStringLiteral("last_step"), loads.lastStep},
            {QStringLiteral("steps"), loads.steps},
            {QStringLiteral("layer"), t.layer < 0 ? QJsonValue(QStringLiteral("all")) : QJsonValue(t.layer)},
            {QStringLiteral("dedup_model"), QStringLiteral("independent_experts")},
            {QStringLiteral("dispatcher"), QStringLiteral("one copy per destination rank")},
            {QStringLiteral("tokens_per_rank"), shape.tokensPerRank},
            {QStringLiteral("top_k"), shape.topK},
            {QStringLiteral("hidden_size"), shape.hiddenSize},
            {QStringLiteral("bytes_per_element"), shape.bytesPerElement},
            {QStringLiteral("ranks"), ranks},
            {QStringLiteral("dispatch_bytes"), matrixJson(m)},
            {QStringLiteral("busiest_rank"), m.busiestRank()},
            {QStringLiteral("busiest_rank_bytes"), busiest},
            {QStringLiteral("uniform_busiest_rank_bytes"), uniformBusiest},
            {QStringLiteral("ratio_to_uniform"), std::isfinite(ratio) ? QJsonValue(ratio) : QJsonValue()},
            {QStringLiteral("experts_above_tokens"), m.expertsAboveTokens}};
        if (parser.isSet(outOption)) {
            o.insert(QStringLiteral("matrix_file"), parser.value(outOption));
            o.insert(QStringLiteral("matrix_format"), format);
        }
        if (nccl) {
            QJsonArray rows;
            for (int s = 0; s < nccl->ranks(); ++s) {
                QJsonArray row;
                for (int d = 0; d < nccl->ranks(); ++d)
                    row.append(qint64(nccl->at(s, d)));
                rows.append(row);
            }
            o.insert(QStringLiteral("nccl_tests"),
                     QJsonObject{{QStringLiteral("bytes"), rows},
                                 {QStringLiteral("bytes_per_rank"), qint64(nccl->bytesPerRank)},
                                 {QStringLiteral("busiest_rank"), nccl->busiestRank()},
                                 {QStringLiteral("busiest_rank_bytes"), qint64(nccl->busiestBytes())},
                                 {QStringLiteral("alltoallv_command"), traffic::alltoallvCommand(*nccl, matrixPath)},
                                 {QStringLiteral("alltoall_command"), traffic::alltoallCommand(*nccl)}});
        }
        ctx.printJson(o);
        return Success;
    }
    QTextStream& out = ctx.out();
    out << Cli::tr("Run %1, steps %2-%3 (%4 with load), layer %5.")
               .arg(runName)
               .arg(loads.firstStep)
               .arg(loads.lastStep)
               .arg(loads.steps)
               .arg(t.layerLabel)
        << Qt::endl;
    out << Cli::tr("One micro-batch: %1 tokens per EP rank (%2), top-%3, hidden %4 × %5 B; placement %6.")
               .arg(shape.tokensPerRank)
               .arg(tokensSource)
               .arg(shape.topK)
               .arg(shape.hiddenSize)
               .arg(shape.bytesPerElement)
               .arg(t.placementText)
        << Qt::endl;
    out << Cli::tr("A token goes once to each rank holding any of its experts (Megatron-Core's alltoall "
                   "dispatcher, DeepEP); de-duplication model: %1.")
               .arg(dedupModelText())
        << Qt::endl
        << Qt::endl;
    TextTable table;
    table.addColumn(Cli::tr("RANK"), TextTable::Align::Right);
    table.addColumn(Cli::tr("DISPATCH SENDS"), TextTable::Align::Right);
    table.addColumn(Cli::tr("DISPATCH RECEIVES"), TextTable::Align::Right);
    table.addColumn(Cli::tr("TOKENS IN / TOKEN"), TextTable::Align::Right);
    table.addColumn(Cli::tr("WITHOUT DE-DUP"), TextTable::Align::Right);
    for (int r = 0; r < m.ranks; ++r)
        table.addRow({QString::number(r), units::formatBytes(m.sent(r)), units::formatBytes(m.received(r)),
                      QString::number(m.reachPerToken[std::size_t(r)], 'f', 3),
                      QString::number(m.assignmentsPerToken[std::size_t(r)], 'f', 3)});
    out << table.render() << Qt::endl;
    out << Cli::tr("Busiest rank %1: %2 per micro-batch, against %3 if routing were uniform (%4×).")
               .arg(m.busiestRank())
               .arg(units::formatBytes(busiest), units::formatBytes(uniformBusiest),
                    std::isfinite(ratio) ? QString::number(ratio, 'f', 2) : QStringLiteral("-"))
        << Qt::endl;
    if (m.expertsAboveTokens > 0)
        out << Cli::tr(
                   "Note: %n expert(s) counted more assignments than there are tokens (count > Σ counts / "
                   "top-k), which one layer's top-k routing cannot give; their probability was capped at 1. "
                   "Check the load's units and top-k.",
                   nullptr, m.expertsAboveTokens)
            << Qt::endl;
    if (nccl) {
        const int ranks = nccl->ranks();
        double micro = 0;
        for (const double b : m.bytes)
            micro += b;
        out << Cli::tr("Dispatch matrix written to %1 for nccl-tests' alltoallv_perf (numbers only, every value a "
                       "multiple of 16 bytes): %2 bytes per rank (%3, the mean row sum; the micro-batch's own is %4), "
                       "the busiest rank %5 moving %6 bytes (%7).")
                   .arg(parser.value(outOption))
                   .arg(nccl->bytesPerRank)
                   .arg(units::formatBytes(double(nccl->bytesPerRank)), units::formatBytes(micro / ranks))
                   .arg(nccl->busiestRank())
                   .arg(nccl->busiestBytes())
                   .arg(units::formatBytes(double(nccl->busiestBytes())))
            << Qt::endl;
        out << Cli::tr("Measure it with nccl-tests 2.19 or later on %n rank(s), one GPU each (the file must be "
                       "readable at this path on every node):",
                       nullptr, ranks)
            << Qt::endl
            << QStringLiteral("  ") << traffic::alltoallvCommand(*nccl, matrixPath) << QStringLiteral(" > alltoallv.log")
            << Qt::endl;
        out << Cli::tr("and the uniform all-to-all of the same bytes per rank:") << Qt::endl
            << QStringLiteral("  ") << traffic::alltoallCommand(*nccl) << QStringLiteral(" > alltoall.log") << Qt::endl;
        if (nccl->bytesPerRank % (traffic::kNcclTestsAlignment * quint64(ranks)) != 0)
            out << Cli::tr("Note: alltoall_perf rounds each peer's share down to 16 bytes, so at %1 bytes per rank "
                           "(not a multiple of 16 x %2) it measures %3; choose --bytes-per-rank a multiple of %4.")
                       .arg(nccl->bytesPerRank)
                       .arg(ranks)
                       .arg(nccl->bytesPerRank / (traffic::kNcclTestsAlignment * quint64(ranks)) *
                            (traffic::kNcclTestsAlignment * quint64(ranks)))
                       .arg(traffic::kNcclTestsAlignment * quint64(ranks))
                << Qt::endl;
        out << Cli::tr("Then: moewb import alltoall.log alltoallv.log; moewb traffic compare alltoall alltoallv "
                       "(docs/traffic.md).")
            << Qt::endl;
    } else if (parser.isSet(outOption)) {
        out << Cli::tr(
                   "Dispatch matrix written to %1 (moe-probe --pattern matrix:%1; combine is its transpose).")
                   .arg(parser.value(outOption))
            << Qt::endl;
    }
    return Success;
}

int runTrafficCompare(CliContext& ctx, const Command& self, const QStringList& args) {
    const QString words = QStringLiteral("traffic compare");
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("UNIFORM_RUN"), Cli::tr("a probe run with uniform traffic"));
    parser.addPositionalArgument(
        QStringLiteral("ROUTED_RUN"),
        Cli::tr("a probe run with a run's routing (--pattern from-run: or matrix:)"));
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (parser.positionalArguments().size() != 2)
        return ctx.usageError(Cli::tr("needs UNIFORM_RUN and ROUTED_RUN"), words);
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    QList<store::RunRow> rows;
    for (const QString& name : parser.positionalArguments()) {
        const auto row = project->run(name);
        if (!row)
            return ctx.runtimeError(Cli::tr("no run named \"%1\" in %2").arg(name, project->path()));
        rows << *row;
    }
    const auto patternOf = [](const store::RunRow& r) {
        const QString origin = r.environment.value(QStringLiteral("pattern_origin")).toString();
        return origin.isEmpty() ? r.environment.value(QStringLiteral("pattern")).toString() : origin;
    };
    const QList<traffic::SizeComparison> sizes =
        traffic::compareRoutingTimes(project->commSamples(rows[0].id), project->commSamples(rows[1].id));
    if (sizes.isEmpty())
        return ctx.runtimeError(
            Cli::tr("runs %1 and %2 have no message size in common").arg(rows[0].name, rows[1].name));
    const bool sameCluster =
        rows[0].clusterName == rows[1].clusterName && rows[0].environment.value(QStringLiteral("world")) ==
                                                          rows[1].environment.value(QStringLiteral("world"));
    if (ctx.json) {
        QJsonArray array;
        for (const auto& c : sizes)
            array.append(QJsonObject{{QStringLiteral("bytes_per_rank"), double(c.bytesPerRank)},
                                     {QStringLiteral("uniform_median_us"), c.uniformMedianUs},
                                     {QStringLiteral("routed_median_us"), c.measuredMedianUs},
                                     {QStringLiteral("ratio"), c.ratio}});
        ctx.printJson({{QStringLiteral("uniform_run"), rows[0].name},
                       {QStringLiteral("routed_run"), rows[1].name},
                       {QStringLiteral("uniform_pattern"), patternOf(rows[0])},
                       {QStringLiteral("routed_pattern"), patternOf(rows[1])},
                       {QStringLiteral("same_cluster_and_world"), sameCluster},
                       {QStringLiteral("sizes"), array}});
        return Success;
    }
    QTextStream& out = ctx.out();
    out << Cli::tr("Uniform: run %1 (%2). Measured routing: run %3 (%4). Median time per call, every repeat "
                   "and iteration (warm-up excluded).")
               .arg(rows[0].name, patternOf(rows[0]), rows[1].name, patternOf(rows[1]))
        << Qt::endl;
    if (!sameCluster)
        out << Cli::tr("Warning: the two runs differ in cluster or world size; the ratio compares different "
                       "setups.")
            << Qt::endl;
    out << Qt::endl;
    TextTable table;
    table.addColumn(Cli::tr("SIZE"), TextTable::Align::Right);
    table.addColumn(Cli::tr("UNIFORM"), TextTable::Align::Right);
    table.addColumn(Cli::tr("MEASURED ROUTING"), TextTable::Align::Right);
    table.addColumn(Cli::tr("RATIO"), TextTable::Align::Right);
    for (const auto& c : sizes)
        table.addRow({units::formatBytes(double(c.bytesPerRank)), units::formatDuration(c.uniformMedianUs),
                      units::formatDuration(c.measuredMedianUs),
                      QString::number(c.ratio, 'f', 2) + QStringLiteral("×")});
    out << table.render() << Qt::endl;
    const traffic::SizeComparison& largest = sizes.last();
    out << Cli::tr("At %1 per rank, your routing makes the all-to-all %2× as long as a uniform one on this "
                   "cluster.")
               .arg(units::formatBytes(double(largest.bytesPerRank)), QString::number(largest.ratio, 'f', 2))
        << Qt::endl;
    return Success;
}

} // namespace

QList<Command> trafficCommands() {
    Command traffic;
    traffic.words = {QStringLiteral("traffic")};
    traffic.synopsis =
        QStringLiteral("RUN [--layer L|worst|all] [--steps A-B] [--placement FILE] [--tokens-per-rank N] "
                       "[--bytes-per-element B] [-o FILE [--format probe|nccl-tests-matrix [--bytes-per-rank SIZE]]]");
    traffic.summary = Cli::tr("the all-to-all a run's measured routing causes: dispatch bytes per rank pair, "
                              "written for the probe or for nccl-tests' alltoallv_perf");
    traffic.run = [traffic](CliContext& ctx, const QStringList& a) { return runTraffic(ctx, traffic, a); };
    Command compare;
    compare.words = {QStringLiteral("traffic"), QStringLiteral("compare")};
    compare.synopsis = QStringLiteral("UNIFORM_RUN ROUTED_RUN");
    compare.summary =
        Cli::tr("per message size, a measured-routing probe run's time against a uniform one and "
                "their ratio");
    compare.run = [compare](CliContext& ctx, const QStringList& a) {
        return runTrafficCompare(ctx, compare, a);
    };
    return {traffic, compare};
}

} // namespace moewb::cli
