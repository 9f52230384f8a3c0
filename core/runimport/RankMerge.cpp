#include "runimport/RankMerge.h"

#include "record/RankGrid.h"
#include "runimport/RunImportTr.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace moewb::runimport {

namespace {

using importers::ImportError;
using record::ParallelAxis;

constexpr quint64 kMaxCount = std::numeric_limits<quint32>::max();

ImportError fileError(const QString& file, const QString& message) { return ImportError{file, 0, {}, message}; }

// (mtp index, layer as written): decoder layers have mtp -1.
struct LayerKey {
    int mtp = -1;
    int layer = 0;
    auto operator<=>(const LayerKey&) const = default;
};

QString listed(const QStringList& items, int most = 6) {
    if (items.size() <= most)
        return items.join(QStringLiteral(", "));
    return RunImportTr::tr("%1 and %n more", "", int(items.size() - most))
        .arg(items.mid(0, most).join(QStringLiteral(", ")));
}

QString stepList(const std::set<qint64>& steps) {
    QStringList out;
    for (qint64 s : steps)
        out << QString::number(s);
    return listed(out, 8);
}

} // namespace

Expected<RankMergeResult, QList<ImportError>> mergeRankFiles(const QList<RankFile>& files, RankFileKind kind,
                                                             const record::ConfigRecord& record,
                                                             bool allowPartialSteps) {
    QList<ImportError> errors;
    RankMergeResult result;
    if (files.isEmpty())
        return result;
    const bool local = kind == RankFileKind::LocalExperts;
    const bool scoped = kind == RankFileKind::AllExpertsTpe;
    const QString what = local    ? RunImportTr::tr("tokens-per-expert rank files")
                         : scoped ? RunImportTr::tr("tokens-per-expert rank files over all experts")
                                  : RunImportTr::tr("routing-trace rank files");

    // The layout.
    const record::ParallelismRecord& par = record.parallelism;
    std::optional<record::RankGrid> grid;
    // Traces need the layout only to find pipeline stages (and the ranks to expect).
    if (local || par.pp.value_or(1) > 1 || (par.dp && par.tp && par.pp)) {
        auto g = local ? record::RankGrid::expertGrid(par) : record::RankGrid::decoderGrid(par);
        if (!g) {
            errors << fileError(files.first().shown,
                                RunImportTr::tr("%1 cannot be placed: %2 (set them in the config record)")
                                    .arg(what, g.error()));
            return unexpected(errors);
        }
        grid = g.value();
    }
    const qint64 pp = grid ? grid->size(ParallelAxis::Pp) : 1;
    const qint64 world = grid ? grid->world() : 0;

    // Ranks: inside the world, each once.
    QMap<int, int> fileOfRank; // rank -> index in files
    for (int i = 0; i < files.size(); ++i) {
        const RankFile& f = files[i];
        if (f.rank < 0) {
            errors << fileError(f.shown, RunImportTr::tr("names no rank (neither a rank{N} file name nor a \"rank\" "
                                                         "key); rename it as the training wrote it"));
            continue;
        }
        if (world > 0 && f.rank >= world) {
            errors << fileError(f.shown, RunImportTr::tr("is rank %1, outside the %2 ranks of the record's layout "
                                                         "(dp × tp × pp × cp)")
                                             .arg(f.rank)
                                             .arg(world));
            continue;
        }
        if (fileOfRank.contains(f.rank)) {
            errors << fileError(f.shown, RunImportTr::tr("is rank %1, and so is %2")
                                             .arg(f.rank)
                                             .arg(files[fileOfRank[f.rank]].shown));
            continue;
        }
        fileOfRank.insert(f.rank, i);
    }
    if (!errors.isEmpty())
        return unexpected(errors);

    // Experts: every file the same width; local width × EP = moe.experts.
    int width = -1, widthFile = -1;
    for (int i = 0; i < files.size(); ++i) {
        for (const auto& b : files[i].blocks) {
            if (width < 0) {
                width = int(b.tokensPerExpert.size());
                widthFile = i;
            } else if (local && b.tokensPerExpert.size() != width) {
                errors << fileError(files[i].shown,
                                    RunImportTr::tr("has %1 experts per line at step %2 but %3 has %4: every EP rank "
                                                    "holds the same number of experts")
                                        .arg(b.tokensPerExpert.size())
                                        .arg(b.step)
                                        .arg(files[widthFile].shown)
                                        .arg(width));
                return unexpected(errors);
            }
            if (!local)
                width = std::max(width, int(b.tokensPerExpert.size()));
        }
    }
    if (width <= 0)
        return result;
    const qint64 ep = grid && local ? grid->size(ParallelAxis::Ep) : 1;
    const qint64 recordExperts = record.moe.experts.value_or(0);
    int experts = local ? int(width * ep) : width;
    if (recordExperts > 0) {
        if (local && qint64(width) * ep != recordExperts) {
            errors << fileError(files[widthFile].shown,
                                RunImportTr::tr("has %1 local experts per line; with expert-parallel size %2 that is "
                                                "%3 experts per layer, but the record says moe.experts = %4")
                                    .arg(width)
                                    .arg(ep)
                                    .arg(qint64(width) * ep)
                                    .arg(recordExperts));
            return unexpected(errors);
        }
        if (!local && width > recordExperts) {
            errors << fileError(files[widthFile].shown,
                                RunImportTr::tr("routes tokens to expert %1, but the record says moe.experts = %2")
                                    .arg(width - 1)
                                    .arg(recordExperts));
            return unexpected(errors);
        }
        experts = int(recordExperts);
    }
    result.experts = experts;

    // Which rank stands for which place; the ranks that must be there.
    // LocalExperts: one representative per (stage, expert-DP rank, EP rank): the lowest
    // expert-TP rank present; the others of its expert-TP group are compared to it.
    // GlobalExperts: every rank routes its own tokens, so every rank must be there.
    struct Place {
        qint64 stage = 0, edp = 0, ep = 0, etp = 0;
    };
    QHash<int, Place> placeOf;
    std::map<std::tuple<qint64, qint64, qint64>, int> representative; // (stage, edp, ep) -> rank
    for (auto it = fileOfRank.cbegin(); it != fileOfRank.cend(); ++it) {
        const int rank = it.key();
        Place p;
        if (grid) {
            p.stage = grid->coordinate(rank, ParallelAxis::Pp);
            if (local) {
                p.edp = grid->coordinate(rank, ParallelAxis::Dp);
                p.ep = grid->coordinate(rank, ParallelAxis::Ep);
                p.etp = grid->coordinate(rank, ParallelAxis::Tp);
            }
        }
        placeOf.insert(rank, p);
        if (local) {
            const auto key = std::make_tuple(p.stage, p.edp, p.ep);
            if (!representative.count(key))
                representative[key] = rank; // fileOfRank is ordered by rank: the lowest etp rank comes first
            result.roles.insert(rank, RunImportTr::tr("expert load: rank %1 = EP rank %2 (experts %3–%4), expert-DP "
                                                      "%5, expert-TP %6, stage %7%8")
                                          .arg(rank)
                                          .arg(p.ep)
                                          .arg(p.ep * width)
                                          .arg(p.ep * width + width - 1)
                                          .arg(p.edp)
                                          .arg(p.etp)
                                          .arg(p.stage)
                                          .arg(representative[key] == rank
                                                   ? QString()
                                                   : RunImportTr::tr(" (same tokens as rank %1: counted once)")
                                                         .arg(representative[key])));
        } else {
            result.roles.insert(rank, RunImportTr::tr("expert load: tokens routed on rank %1 (stage %2), all %3 experts")
                                          .arg(rank)
                                          .arg(p.stage)
                                          .arg(experts));
        }
    }
    if (local) {
        QStringList missing;
        const qint64 edpSize = grid->size(ParallelAxis::Dp);
        for (qint64 s = 0; s < pp; ++s)
            for (qint64 d = 0; d < edpSize; ++d)
                for (qint64 e = 0; e < ep; ++e)
                    if (!representative.count(std::make_tuple(s, d, e))) {
                        QStringList ranks; // the ranks that could stand for this place
                        for (qint64 r = 0; r < world; ++r)
                            if (grid->coordinate(r, ParallelAxis::Pp) == s &&
                                grid->coordinate(r, ParallelAxis::Dp) == d &&
                                grid->coordinate(r, ParallelAxis::Ep) == e)
                                ranks << QStringLiteral("rank%1.jsonl").arg(r);
                        missing << RunImportTr::tr("EP rank %1 of expert-DP group %2 in stage %3 (%4)")
                                       .arg(e)
                                       .arg(d)
                                       .arg(s)
                                       .arg(ranks.join(RunImportTr::tr(" or ")));
                    }
        if (!missing.isEmpty()) {
            errors << fileError(files.first().shown,
                                RunImportTr::tr("the %1 are incomplete: no file holds %2. The record's layout "
                                                "(dp %3, tp %4, pp %5, cp %6, ep %7, etp %8, order %9) needs them all")
                                    .arg(what, listed(missing, 4))
                                    .arg(par.dp.value_or(0))
                                    .arg(par.tp.value_or(0))
                                    .arg(pp)
                                    .arg(par.cpOrDefault())
                                    .arg(ep)
                                    .arg(par.etpOrDefault())
                                    .arg(par.orderOrDefault()));
            return unexpected(errors);
        }
    } else if (world > 0) {
        QStringList missing;
        for (qint64 r = 0; r < world; ++r)
            if (!fileOfRank.contains(int(r)))
                missing << (scoped ? QStringLiteral("rank%1.jsonl") : QStringLiteral("router_trace_rank%1.jsonl")).arg(r);
        if (!missing.isEmpty()) {
            errors << fileError(files.first().shown,
                                RunImportTr::tr("the %1 are incomplete: %2 missing of the %3 ranks of the record's "
                                                "layout (every rank routes its own tokens)")
                                    .arg(what, listed(missing, 6))
                                    .arg(world));
            return unexpected(errors);
        }
    }

    // The files that count (representatives), and their steps.
    QList<int> counted; // indices into files
    for (auto it = fileOfRank.cbegin(); it != fileOfRank.cend(); ++it) {
        if (local) {
            const Place p = placeOf[it.key()];
            if (representative[std::make_tuple(p.stage, p.edp, p.ep)] != it.key())
                continue;
        }
        counted << it.value();
    }
    std::set<qint64> allSteps;
    QHash<int, std::set<qint64>> stepsOf;
    for (int i : counted) {
        std::set<qint64>& s = stepsOf[i];
        for (const auto& b : files[i].blocks)
            s.insert(b.step);
        allSteps.insert(s.begin(), s.end());
    }
    std::set<qint64> keep = allSteps;
    {
        QStringList partial;
        for (int i : counted) {
            std::set<qint64> lacking;
            std::set_difference(allSteps.begin(), allSteps.end(), stepsOf[i].begin(), stepsOf[i].end(),
                                std::inserter(lacking, lacking.end()));
            if (lacking.empty())
                continue;
            for (qint64 s : lacking)
                keep.erase(s);
            partial << RunImportTr::tr("%1 lacks %n step(s): %2", "", int(lacking.size()))
                           .arg(files[i].shown, stepList(lacking));
        }
        if (!partial.isEmpty() && !allowPartialSteps) {
            errors << fileError(files[counted.first()].shown,
                                RunImportTr::tr("the %1 do not hold the same steps: %2. Import only the steps every "
                                                "rank has with --allow-partial-steps")
                                    .arg(what, listed(partial, 4)));
            return unexpected(errors);
        }
        if (!partial.isEmpty()) {
            std::set<qint64> dropped;
            std::set_difference(allSteps.begin(), allSteps.end(), keep.begin(), keep.end(),
                                std::inserter(dropped, dropped.end()));
            result.notes << RunImportTr::tr("left out %n step(s) not every rank file has: %1", "", int(dropped.size()))
                                .arg(stepList(dropped));
        }
    }

    // Layer numbering across pipeline stages.
    qint64 layersPerStage = 0;
    bool globalNumbering = false;
    if (pp > 1) {
        const qint64 layers = record.model.layers.value_or(0);
        if (layers <= 0 || layers % pp != 0) {
            errors << fileError(files.first().shown,
                                RunImportTr::tr("the %1 come from %2 pipeline stages; placing their layers needs "
                                                "model.layers in the record, divisible by parallelism.pp (got %3)")
                                    .arg(what)
                                    .arg(pp)
                                    .arg(layers));
            return unexpected(errors);
        }
        layersPerStage = layers / pp;
        // Written as decoder.layers.N of the stage's own block: N < layers per stage.
        // Files whose stage-1+ layers are already past that number the layers globally.
        for (int i : counted)
            for (const auto& b : files[i].blocks)
                if (b.mtpIndex < 0 && b.layer >= layersPerStage && placeOf[files[i].rank].stage > 0)
                    globalNumbering = true;
        result.notes << (globalNumbering
                             ? RunImportTr::tr("layers numbered globally in the files (stages past the first use "
                                               "layer numbers ≥ %1)")
                                   .arg(layersPerStage)
                             : RunImportTr::tr("layer N of pipeline stage S is layer S × %1 + N (model.layers %2 / "
                                               "pp %3)")
                                   .arg(layersPerStage)
                                   .arg(record.model.layers.value_or(0))
                                   .arg(pp));
    }

    // Sum. Keyed by (step, stage-independent layer key); decoder layers are made global first.
    std::map<std::pair<qint64, LayerKey>, std::vector<quint64>> sums;
    std::map<std::pair<qint64, LayerKey>, int> contributions;
    std::set<LayerKey> mtpKeys;
    int maxDecoderLayer = -1;
    for (int i : counted) {
        const RankFile& f = files[i];
        const Place p = placeOf[f.rank];
        for (const auto& b : f.blocks) {
            if (!keep.count(b.step))
                continue;
            LayerKey key{b.mtpIndex, b.layer};
            if (b.mtpIndex < 0) {
                if (pp > 1 && !globalNumbering) {
                    if (b.layer >= layersPerStage) {
                        errors << fileError(f.shown, RunImportTr::tr("step %1: layer %2 is past the %3 layers of a "
                                                                     "pipeline stage")
                                                         .arg(b.step)
                                                         .arg(b.layer)
                                                         .arg(layersPerStage));
                        return unexpected(errors);
                    }
                    key.layer = int(p.stage * layersPerStage + b.layer);
                }
                maxDecoderLayer = std::max(maxDecoderLayer, key.layer);
            } else {
                mtpKeys.insert(key);
            }
            auto& sum = sums[{b.step, key}];
            if (sum.empty())
                sum.assign(std::size_t(experts), 0);
            ++contributions[{b.step, key}];
            const qint64 offset = local ? p.ep * width : 0;
            for (qsizetype j = 0; j < b.tokensPerExpert.size(); ++j) {
                quint64& c = sum[std::size_t(offset + j)];
                c += b.tokensPerExpert[j];
                if (c > kMaxCount) {
                    errors << fileError(f.shown, RunImportTr::tr("step %1, layer %2: more than %3 tokens for expert %4 "
                                                                 "over the ranks")
                                                     .arg(b.step)
                                                     .arg(b.layer)
                                                     .arg(kMaxCount)
                                                     .arg(offset + j));
                    return unexpected(errors);
                }
            }
        }
    }

    // Every (step, layer) must come from every rank file that holds that layer's
    // stage: EP × expert-DP files (LocalExperts), or the stage's ranks (GlobalExperts).
    QHash<qint64, int> filesPerStage;
    for (int i : counted)
        ++filesPerStage[placeOf[files[i].rank].stage];
    for (const auto& [key, n] : contributions) {
        qint64 stage = 0;
        if (key.second.mtp < 0 && pp > 1)
            stage = key.second.layer / layersPerStage;
        else if (key.second.mtp >= 0)
            stage = pp - 1;
        const int expected = filesPerStage.value(stage);
        if (n != expected && expected > 0) {
            errors << fileError(files[counted.first()].shown,
                                RunImportTr::tr("step %1, %2: only %3 of the %4 rank files of stage %5 have it")
                                    .arg(key.first)
                                    .arg(key.second.mtp < 0 ? RunImportTr::tr("layer %1").arg(key.second.layer)
                                                            : RunImportTr::tr("MTP %1 layer %2")
                                                                  .arg(key.second.mtp)
                                                                  .arg(key.second.layer))
                                    .arg(n)
                                    .arg(expected)
                                    .arg(stage));
            return unexpected(errors);
        }
    }

    // Expert-TP twins hold the same tokens: check them against their representative.
    if (local) {
        for (auto it = fileOfRank.cbegin(); it != fileOfRank.cend(); ++it) {
            const Place p = placeOf[it.key()];
            const int rep = representative[std::make_tuple(p.stage, p.edp, p.ep)];
            if (rep == it.key())
                continue;
            const RankFile& twin = files[it.value()];
            const RankFile& ref = files[fileOfRank[rep]];
            std::map<std::tuple<qint64, int, int>, const store::ExpertLoadBlock*> byKey;
            for (const auto& b : ref.blocks)
                byKey[{b.step, b.mtpIndex, b.layer}] = &b;
            for (const auto& b : twin.blocks) {
                const auto found = byKey.find({b.step, b.mtpIndex, b.layer});
                const store::ExpertLoadBlock* r = found == byKey.end() ? nullptr : found->second;
                if (!r || r->tokensPerExpert != b.tokensPerExpert) {
                    errors << fileError(twin.shown,
                                        RunImportTr::tr("step %1, layer %2 differs from %3, which the record's layout "
                                                        "puts in the same expert-TP group (the same tokens): check "
                                                        "parallelism.etp and parallelism.order")
                                            .arg(b.step)
                                            .arg(b.layer)
                                            .arg(ref.shown));
                    return unexpected(errors);
                }
            }
        }
    }

    // MTP layers after the decoder's.
    const int mtpBase = std::max<int>(int(record.model.layers.value_or(0)), maxDecoderLayer + 1);
    std::map<LayerKey, int> mtpLayerId;
    int next = mtpBase;
    for (const LayerKey& k : mtpKeys) {
        mtpLayerId[k] = next;
        result.mtpLayers.append(QJsonObject{{QStringLiteral("layer"), next},
                                            {QStringLiteral("mtp_idx"), k.mtp},
                                            {QStringLiteral("mtp_layer"), k.layer}});
        ++next;
    }

    result.blocks.reserve(qsizetype(sums.size()));
    for (auto& [key, sum] : sums) {
        store::ExpertLoadBlock b;
        b.step = key.first;
        b.layer = key.second.mtp < 0 ? key.second.layer : mtpLayerId[key.second];
        b.tokensPerExpert.reserve(qsizetype(sum.size()));
        for (quint64 c : sum)
            b.tokensPerExpert.append(quint32(c));
        result.blocks.append(std::move(b));
    }
    std::sort(result.blocks.begin(), result.blocks.end(), [](const auto& a, const auto& b) {
        return a.step != b.step ? a.step < b.step : a.layer < b.layer;
    });

    if (local)
        result.notes << RunImportTr::tr("%1 %2 merged into %3 experts per layer: EP %4 × %5 local experts, "
                                        "summed over %n expert-DP group(s)%6",
                                        "", int(grid->size(ParallelAxis::Dp)))
                            .arg(files.size())
                            .arg(what)
                            .arg(experts)
                            .arg(ep)
                            .arg(width)
                            .arg(grid->size(ParallelAxis::Tp) > 1
                                     ? RunImportTr::tr(", expert-TP %1 counted once").arg(grid->size(ParallelAxis::Tp))
                                     : QString());
    else
        result.notes << RunImportTr::tr("%1 %2 summed into %3 experts per layer").arg(files.size()).arg(what).arg(experts);
    if (!mtpKeys.empty())
        result.notes << RunImportTr::tr("%n MTP layer(s) kept apart, numbered from %1", "", int(mtpKeys.size()))
                            .arg(mtpBase);
    return result;
}

} // namespace moewb::runimport
