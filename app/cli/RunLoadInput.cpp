#include "RunLoadInput.h"

#include "CliTr.h"

namespace moewb::cli {

std::optional<qint64> wholeNumberOption(const QCommandLineParser& parser, const QCommandLineOption& option, qint64 min,
                                        qint64 max) {
    bool ok = false;
    const qint64 v = parser.value(option).toLongLong(&ok);
    return ok && v >= min && v <= max ? std::optional<qint64>(v) : std::nullopt;
}

Expected<RunLoadInput, QString> readRunLoad(const store::ProjectStore& project, const QString& runName,
                                            const QString& stepsText) {
    RunLoadInput in;
    const auto run = project.run(runName);
    if (!run)
        return unexpected(Cli::tr("no run named \"%1\" in %2").arg(runName, project.path()));
    in.run = *run;
    if (const auto row = project.configRecord(run->recordName))
        in.record = record::ConfigRecord::fromJson(row->json, nullptr);
    traffic::StepWindow window;
    if (!stepsText.isEmpty()) {
        auto w = traffic::parseStepWindow(stepsText);
        if (!w)
            return unexpected(w.error());
        window = *w;
    }
    auto loads = traffic::sumLoadWindow(project, run->id, window);
    if (!loads)
        return unexpected(Cli::tr("run %1: %2").arg(runName, loads.error()));
    in.loads = std::move(*loads);
    return in;
}

} // namespace moewb::cli

namespace moewb::cli {

using placement::ExpertPlacement;
using traffic::TrafficMatrix;

QString dedupModelText() {
    return Cli::tr("independent experts (from per-expert counts; an approximation, docs/traffic.md)");
}

QStringList RunTraffic::matrixHeader(const QString& runName) const {
    return {Cli::tr("moewb traffic: dispatch bytes of one MoE layer per micro-batch, row = source EP rank, "
                    "column = destination"),
            Cli::tr("run %1, steps %2-%3, layer %4")
                .arg(runName)
                .arg(input.loads.firstStep)
                .arg(input.loads.lastStep)
                .arg(layerLabel),
            Cli::tr("%1 tokens per rank, top-%2, hidden %3 × %4 B; placement %5; de-duplication model: %6")
                .arg(shape.tokensPerRank)
                .arg(shape.topK)
                .arg(shape.hiddenSize)
                .arg(shape.bytesPerElement)
                .arg(placementText, dedupModelText()),
            Cli::tr("combine is the transpose; run with: moe-probe --pattern matrix:FILE")};
}

Expected<RunTraffic, QString> computeRunTraffic(const store::ProjectStore& project, const QString& runName,
                                                const RunTrafficOptions& options) {
    bool layerIsNumber = false;
    const int layerNumber = options.layer.toInt(&layerIsNumber);
    if (!layerIsNumber && options.layer != QLatin1String("worst") && options.layer != QLatin1String("all"))
        return unexpected(
            Cli::tr("--layer must be a layer number, worst or all, not \"%1\"").arg(options.layer));
    auto input = readRunLoad(project, runName, options.steps);
    if (!input)
        return unexpected(input.error());
    RunTraffic out;
    out.input = std::move(*input);
    const record::ConfigRecord& rec = out.input.record;
    const traffic::LayerLoads& loads = out.input.loads;
    const auto missing = [&](const QString& field) {
        return unexpected(Cli::tr("run %1: its config record %2 has no %3, which the traffic needs")
                              .arg(runName, out.input.run.recordName, field));
    };
    if (!rec.moe.topK)
        return missing(QStringLiteral("moe.top_k"));
    if (!rec.model.hiddenSize)
        return missing(QStringLiteral("model.hidden_size"));
    out.shape.topK = int(*rec.moe.topK);
    out.shape.hiddenSize = *rec.model.hiddenSize;
    out.shape.bytesPerElement = options.bytesPerElement;
    if (options.tokensPerRank) {
        out.shape.tokensPerRank = *options.tokensPerRank;
        out.tokensFromOption = true;
    } else if (rec.batch.sequenceLength) {
        out.shape.tokensPerRank = *rec.batch.sequenceLength;
    } else {
        return missing(QStringLiteral("batch.sequence_length (or give --tokens-per-rank)"));
    }

    std::optional<placement::PlacementFile> placementFile;
    std::optional<ExpertPlacement> contiguous;
    if (!options.placementFile.isEmpty()) {
        auto f = placement::readPlacementFile(options.placementFile, loads.experts);
        if (!f)
            return unexpected(f.error());
        placementFile = std::move(*f);
        out.contiguous = false;
    } else {
        if (!rec.parallelism.ep)
            return missing(QStringLiteral("parallelism.ep"));
        auto c = ExpertPlacement::contiguous(loads.experts, int(*rec.parallelism.ep));
        if (!c)
            return unexpected(Cli::tr("run %1: %2").arg(runName, c.error()));
        contiguous = std::move(*c);
    }

    struct LayerTraffic {
        int layer;
        TrafficMatrix measured;
        TrafficMatrix uniform;
    };
    QList<LayerTraffic> perLayer;
    for (auto it = loads.perLayer.cbegin(); it != loads.perLayer.cend(); ++it) {
        if (layerIsNumber && it.key() != layerNumber)
            continue;
        const ExpertPlacement* p = contiguous ? &*contiguous : placementFile->forLayer(it.key());
        if (!p)
            return unexpected(
                Cli::tr("%1: no placement for layer %2").arg(options.placementFile).arg(it.key()));
        auto m = traffic::dispatchFromCounts(it.value(), *p, out.shape);
        auto u = traffic::uniformDispatch(*p, out.shape);
        if (!m || !u)
            return unexpected(
                Cli::tr("run %1, layer %2: %3").arg(runName).arg(it.key()).arg(m ? u.error() : m.error()));
        perLayer.append({it.key(), std::move(*m), std::move(*u)});
    }
    if (perLayer.isEmpty())
        return unexpected(Cli::tr("run %1 has no expert load for layer %2 in the chosen steps")
                              .arg(runName)
                              .arg(layerNumber));
    LayerTraffic chosen = perLayer.first();
    out.layerLabel = QString::number(chosen.layer);
    if (options.layer == QLatin1String("all")) {
        for (qsizetype i = 1; i < perLayer.size(); ++i) {
            chosen.measured += perLayer[i].measured;
            chosen.uniform += perLayer[i].uniform;
        }
        chosen.layer = -1;
        out.layersSummed = int(perLayer.size());
        out.layerLabel = Cli::tr("all %n MoE layers summed", nullptr, int(perLayer.size()));
    } else if (options.layer == QLatin1String("worst")) {
        for (const LayerTraffic& t : perLayer)
            if (t.measured.busiestRankBytes() > chosen.measured.busiestRankBytes())
                chosen = t;
        out.layerLabel = Cli::tr("%1 (the worst: its busiest rank moves the most bytes)").arg(chosen.layer);
    }
    out.layer = chosen.layer;
    out.measured = std::move(chosen.measured);
    out.uniform = std::move(chosen.uniform);
    out.placementText = out.contiguous ? Cli::tr("contiguous over EP %1").arg(out.measured.ranks)
                                       : Cli::tr("from %1").arg(options.placementFile);
    return out;
}

} // namespace moewb::cli
