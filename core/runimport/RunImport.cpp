#include "runimport/RunImport.h"

#include "importers/ExpertLoadJsonl.h"
#include "importers/ImportFile.h"
#include "importers/Importer.h"
#include "importers/JsonlExpertLoadImporter.h"
#include "importers/MegatronTpeJsonlImporter.h"
#include "importers/MegatronLogImporter.h"
#include "importers/NcclTestsTextImporter.h"
#include "importers/NemoLogImporter.h"
#include "importers/TorchtitanLogImporter.h"
#include "importers/WandbCsvImporter.h"
#include "runimport/CollectMerge.h"
#include "runimport/RankMerge.h"
#include "record/RecordJson.h"
#include "runimport/CommRepeats.h"
#include "runimport/FileNotes.h"
#include "runimport/RecordContradictions.h"
#include "runimport/RunImportTr.h"
#include "runimport/TracePlan.h"
#include "runimport/PlanFileRead.h"
#include "runimport/PlanSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <climits>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

namespace moewb::runimport {

using namespace plansupport;

namespace {

Expected<ImportPlan, QList<ImportError>> planFiles(const CollectedFiles& collected,
                                                   const std::optional<record::ConfigRecord>& record,
                                                   const ImportOptions& options, const PlanProgress& progress) {
    QList<ImportError> errors;
    ImportPlan plan;
    plan.skipped = collected.skipped;
    if (collected.files.isEmpty()) {
        errors << ImportError{{}, 0, {}, RunImportTr::tr("no file to read (%n skipped)", "", int(collected.skipped.size()))};
        return unexpected(errors);
    }

    // ONE expert-load JSONL file among the files is only scanned here, its counts read
    // at save straight into the store (StreamedExpertLoad); it is read whole below if
    // it turns out to need its counts now (a rank merge, MTP blocks, steps out of order).
    int scanIndex = -1;
    importers::ExpertLoadJsonlPass scan;
    scan.mode = importers::ExpertLoadJsonlPass::Mode::Scan;
    if (options.wandbRun.isEmpty() && options.ranks <= 0 && options.collective.isEmpty() && !options.alltoallvMatrix) {
        for (qsizetype i = 0; i < collected.files.size(); ++i)
            if (isExpertLoadJsonl(collected.files[i].path, options.format)) {
                if (scanIndex >= 0) {
                    scanIndex = -1;
                    break;
                }
                scanIndex = int(i);
            }
    }
    QDateTime scannedModified;
    qint64 scannedSize = -1;

    // Parse every file.
    QList<ImportedData> parsed;
    QList<int> skippedIndex; // walked config records: left out after parsing
    for (qsizetype i = 0; i < collected.files.size(); ++i) {
        if (progress && !progress(i, collected.files.size())) {
            errors = {ImportError{{}, 0, {}, RunImportTr::tr("cancelled")}};
            return unexpected(errors);
        }
        const ImportCandidate& c = collected.files[i];
        if (i == scanIndex) {
            const QFileInfo info(c.path);
            scannedSize = info.size();
            scannedModified = info.lastModified();
        }
        auto result = readOne(c.path, options, i == scanIndex ? &scan : nullptr);
        if (!result) {
            ImportError e = result.error();
            e.file = c.shown;
            if (c.walked && e.line == 0 && !e.unreadable && options.format.isEmpty()) {
                // A walked file of no known format: say how to leave it out.
                QFile head;
                if (!importers::openImportFile(head, c.path) &&
                    !importers::detectFormat(head.read(1 << 16), c.path).hasValue()) {
                    // A training folder may hold its config record (record.json beside the
                    // logs): not a log; the run's record is the project's (--record).
                    head.seek(0);
                    if (c.path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) && head.size() <= (1 << 20) &&
                        record::parseRecord(head.readAll()).issues.isEmpty()) {
                        plan.skipped << SkippedFile{c.shown.section(QLatin1Char('/'), 1),
                                                    RunImportTr::tr("a config record, not a log (store it with moewb "
                                                                    "record add; the run's record is --record)")};
                        skippedIndex << int(i);
                        continue;
                    }
                    e.message += RunImportTr::tr(" — found in a folder given; leave it out with --exclude %1")
                                     .arg(QFileInfo(c.path).fileName());
                }
            }
            errors << e;
            parsed << ImportedData{};
            continue;
        }
        parsed << std::move(result.value());
    }
    if (progress)
        progress(collected.files.size(), collected.files.size());
    if (!errors.isEmpty())
        return unexpected(errors);
    // The files that were read, in order (walked config records left out).
    CollectedFiles readFiles;
    for (qsizetype i = 0; i < collected.files.size(); ++i)
        if (!skippedIndex.contains(int(i)))
            readFiles.files << collected.files[i];
    if (readFiles.files.isEmpty()) {
        errors << ImportError{{}, 0, {}, RunImportTr::tr("no file to read (%n skipped)", "", int(plan.skipped.size()))};
        return unexpected(errors);
    }
    const CollectedFiles& files = readFiles;
    // The scanned file's index among the files read (walked config records left out).
    if (scanIndex >= 0)
        for (int k : skippedIndex)
            if (k < scanIndex)
                --scanIndex;

    // Whether the scanned file's counts may wait for the save: the run's only expert
    // load, read whole (not rank-merged), without MTP blocks, its steps in order.
    // Otherwise it is read again, counts and all, as every other file is.
    if (scanIndex >= 0) {
        const ImportedData& d = parsed[scanIndex];
        bool stream = scan.stepOrdered && !scan.anyMtp && !d.expertLoad.isEmpty() && d.stepMetrics.isEmpty() &&
                      d.commSamples.isEmpty() && d.collectorSteps.isEmpty();
        for (qsizetype i = 0; i < parsed.size() && stream; ++i)
            if (i != scanIndex && !parsed[i].expertLoad.isEmpty())
                stream = false;
        if (stream && d.format == QLatin1String(kTpeFormat)) {
            int tpeFiles = 0;
            for (const auto& p : parsed)
                tpeFiles += p.format == QLatin1String(kTpeFormat);
            const bool recordLayout = record && record->parallelism.dp && record->parallelism.tp && record->parallelism.pp;
            stream = tpeFiles == 1 && (rankOf(d) < 0 || !recordLayout); // read whole, as below
        }
        if (!stream) {
            auto whole = readOne(files.files[scanIndex].path, options);
            if (!whole) {
                ImportError e = whole.error();
                e.file = files.files[scanIndex].shown;
                return unexpected(QList<ImportError>{e});
            }
            parsed[scanIndex] = std::move(whole.value());
            scanIndex = -1;
        }
    }

    // Rank files go through the rank merge; a lone tokens-per-expert file without a
    // rank (or whose width is already the record's expert count, with EP 1) is whole.
    QList<RankFile> tpeFiles, traceFiles, scopedFiles;
    QList<int> tpeIndex, traceIndex, scopedIndex;
    QList<CollectRankFile> collectFiles;
    QList<int> collectIndex;
    const qint64 recordExperts = record ? record->moe.experts.value_or(0) : 0;
    const bool recordHasLayout = record && record->parallelism.dp && record->parallelism.tp && record->parallelism.pp;
    int tpeCount = 0;
    for (const auto& d : parsed)
        tpeCount += d.format == QLatin1String(kTpeFormat);
    for (qsizetype i = 0; i < parsed.size(); ++i) {
        ImportedData& d = parsed[i];
        const bool tpe = d.format == QLatin1String(kTpeFormat);
        const bool trace = d.format == QLatin1String(kTraceFormat);
        if (tpe) {
            const int rank = rankOf(d);
            const bool whole = tpeCount == 1 && (rank < 0 || !recordHasLayout);
            if (whole)
                continue; // an ordinary expert-load source
            // remote/collect's files count all experts for the rank's own tokens: summed
            // over ranks like routing traces, not concatenated by the EP layout.
            const bool scoped = allExpertsScope(d);
            (scoped ? scopedFiles : tpeFiles) << RankFile{files.files[i].shown, rank, std::move(d.expertLoad)};
            d.expertLoad.clear();
            (scoped ? scopedIndex : tpeIndex) << int(i);
        } else if (d.format == QLatin1String(kCollectFormat)) {
            const QJsonObject& env = d.environment;
            collectFiles << CollectRankFile{files.files[i].shown,
                                            rankOf(d),
                                            env.value(QLatin1String("world")).toInteger(),
                                            env.value(QLatin1String("experts")).toInteger(),
                                            env.value(QLatin1String("top_k")).toInteger(),
                                            std::move(d.collectorSteps)};
            d.collectorSteps.clear();
            collectIndex << int(i);
        } else if (trace) {
            // Megatron-Core's tracer stamps a record with the iteration counter before
            // the step advances it (training.py: advance_step(iteration)); the console
            // log and the tokens-per-expert files number the same step one higher.
            for (auto& b : d.expertLoad)
                ++b.step;
            traceFiles << RankFile{files.files[i].shown, rankOf(d), std::move(d.expertLoad)};
            d.expertLoad.clear();
            traceIndex << int(i);
        }
    }
    if (!tpeFiles.isEmpty() && !scopedFiles.isEmpty()) {
        QStringList scopedNames, localNames;
        for (const RankFile& f : scopedFiles)
            scopedNames << f.shown;
        for (const RankFile& f : tpeFiles)
            localNames << f.shown;
        errors << ImportError{tpeFiles.first().shown, 0, QStringLiteral("experts_scope"),
                              RunImportTr::tr("tokens-per-expert files over all experts (\"experts_scope\": \"all\", "
                                              "written by the collector: %1) and Megatron's per-EP-rank files (%2) "
                                              "cannot be merged into one expert load: import them as separate runs")
                                  .arg(scopedNames.mid(0, 4).join(QStringLiteral(", ")),
                                       localNames.mid(0, 4).join(QStringLiteral(", ")))};
        return unexpected(errors);
    }
    if ((!tpeFiles.isEmpty() || !traceFiles.isEmpty() || !scopedFiles.isEmpty()) && !record) {
        errors << ImportError{(!tpeFiles.isEmpty() ? tpeFiles : !scopedFiles.isEmpty() ? scopedFiles : traceFiles).first().shown,
                              0, {}, RunImportTr::tr("rank files need the config record's parallelism to be merged")};
        return unexpected(errors);
    }

    // Plan entries.
    QStringList recordWarnings; // where a file contradicts its record (RecordContradictions.h)
    for (qsizetype i = 0; i < parsed.size(); ++i) {
        const ImportedData& d = parsed[i];
        PlannedFile f;
        f.path = files.files[i].path;
        f.shown = files.files[i].shown;
        f.format = d.format;
        f.rows = d.rows;
        f.rank = rankOf(d);
        f.stepMetrics = d.stepMetrics.size();
        f.expertLoadBlocks = d.expertLoad.size();
        f.commSamples = d.commSamples.size();
        f.role = roleOf(d);
        plan.files << f;
        plan.notes << fileNotes(d, f.shown);
        if (record)
            recordWarnings << recordContradictions(d, *record, f.shown);
    }
    for (const QString& w : recordWarnings)
        plan.notes << RunImportTr::tr("Warning: %1").arg(w);
    if (scanIndex >= 0) {
        StreamedExpertLoad streamed;
        streamed.path = files.files[scanIndex].path;
        streamed.shown = files.files[scanIndex].shown;
        streamed.format = parsed[scanIndex].format;
        streamed.size = scannedSize;
        streamed.modified = scannedModified;
        streamed.rows = scan.rows;
        streamed.experts = scan.experts;
        streamed.droppedLines = std::move(scan.dropped);
        plan.streamedLoad = std::move(streamed);
        parsed[scanIndex].expertLoad = {}; // the scan's rows without counts: done with
    }

    // Expert load.
    std::map<std::pair<qint64, int>, LoadValue> load;
    QStringList shownNames;
    qint64 collectShares = 0;
    for (const auto& f : plan.files)
        shownNames << f.shown;
    QJsonArray mtpLayers;
    auto mergeRanks = [&](QList<RankFile>& rankFiles, const QList<int>& indices, RankFileKind kind) {
        if (rankFiles.isEmpty())
            return;
        QHash<int, qint64> blocksOf;
        for (const RankFile& f : rankFiles)
            blocksOf.insert(f.rank, f.blocks.size());
        auto merged = mergeRankFiles(rankFiles, kind, *record, options.allowPartialSteps);
        if (!merged) {
            errors << merged.error();
            return;
        }
        for (int k = 0; k < indices.size(); ++k) {
            PlannedFile& f = plan.files[indices[k]];
            f.expertLoadBlocks = blocksOf.value(rankFiles[k].rank);
            const QString role = merged.value().roles.value(rankFiles[k].rank);
            f.role = f.role.isEmpty() ? role : role + QStringLiteral("; ") + f.role;
        }
        plan.notes << merged.value().notes;
        for (const QJsonValue& v : merged.value().mtpLayers)
            mtpLayers.append(v);
        const QString source = kind == RankFileKind::GlobalExperts ? RunImportTr::tr("the routing-trace rank files")
                                                                   : RunImportTr::tr("the tokens-per-expert rank files");
        shownNames << source;
        mergeLoad(load, shownNames, merged.value().blocks, int(shownNames.size() - 1), errors);
    };
    mergeRanks(tpeFiles, tpeIndex, RankFileKind::LocalExperts);
    mergeRanks(scopedFiles, scopedIndex, RankFileKind::AllExpertsTpe);
    mergeRanks(traceFiles, traceIndex, RankFileKind::GlobalExperts);
    // The collector's sidecars: one set of per-step metrics for the whole training, in
    // place of each rank's own (the first sidecar carries them into the metric merge).
    if (!collectFiles.isEmpty()) {
        auto merged = mergeCollectorFiles(collectFiles, record, options.allowPartialSteps);
        if (!merged) {
            errors << merged.error();
        } else {
            for (int k = 0; k < collectIndex.size(); ++k) {
                PlannedFile& f = plan.files[collectIndex[k]];
                const QString role = merged.value().roles.value(collectFiles[k].rank);
                f.role = role;
                parsed[collectIndex[k]].stepMetrics.clear();
            }
            parsed[collectIndex.first()].stepMetrics = std::move(merged.value().metrics);
            plan.notes << merged.value().notes;
            collectShares = merged.value().shareSteps;
        }
    }
    if (!traceFiles.isEmpty())
        plan.notes << RunImportTr::tr("routing-trace steps stored one higher (trace step N is iteration N + 1, as "
                                      "the console log and the tokens-per-expert files number it)");
    if (!errors.isEmpty())
        return unexpected(errors);
    for (qsizetype i = 0; i < parsed.size(); ++i) {
        const ImportedData& d = parsed[i];
        if (d.expertLoad.isEmpty() && i != scanIndex)
            continue;
        const qsizetype width = i == scanIndex ? qsizetype(plan.streamedLoad->experts)
                                               : d.expertLoad.first().tokensPerExpert.size();
        if (recordExperts > 0 && width != recordExperts) {
            errors << ImportError{plan.files[i].shown, 0, {},
                                  d.format == QLatin1String(kTpeFormat)
                                      ? RunImportTr::tr("counts %1 experts per layer, but the record says moe.experts = "
                                                        "%2: a tokens-per-expert file holds one EP rank's local "
                                                        "experts; give every rank file (the tokens_per_expert folder) "
                                                        "so they can be merged")
                                            .arg(width)
                                            .arg(recordExperts)
                                      : RunImportTr::tr("counts %1 experts per layer, but the record says moe.experts = %2")
                                            .arg(width)
                                            .arg(recordExperts)};
            continue;
        }
        if (i != scanIndex)
            mergeLoad(load, shownNames, d.expertLoad, int(i), errors);
    }

    // Step metrics.
    std::map<std::pair<QString, qint64>, MetricValue> metrics;
    QList<MetricSource> metricSources;
    for (const auto& f : plan.files)
        metricSources << MetricSource{f.shown, f.format};
    // One file with metrics has nothing to agree with: its values go through as the
    // importer gave them (the store keeps the later value of a repeated step, as for a
    // resumed log). Several are merged per (metric, step) and checked against each other.
    int metricFiles = 0, lone = -1;
    for (qsizetype i = 0; i < parsed.size(); ++i)
        if (!parsed[i].stepMetrics.isEmpty()) {
            ++metricFiles;
            lone = int(i);
        }
    if (metricFiles > 1)
        for (qsizetype i = 0; i < parsed.size(); ++i)
            if (!parsed[i].stepMetrics.isEmpty())
                mergeMetrics(metrics, metricSources, parsed[i].stepMetrics, int(i), errors);
    QVector<store::StepMetric> loneMetrics = metricFiles == 1 ? std::move(parsed[lone].stepMetrics)
                                                              : QVector<store::StepMetric>();

    // Communication samples: one measurement per run, or several nccl-tests files of the
    // same test on the same ranks: repeats of one baseline (CommRepeats.h).
    int commSource = -1;
    QList<qsizetype> repeatFiles; // after commSource: their samples become further repeats
    for (qsizetype i = 0; i < parsed.size(); ++i) {
        if (parsed[i].commSamples.isEmpty())
            continue;
        if (commSource >= 0) {
            if (sameNcclTest(parsed[commSource], parsed[i])) {
                repeatFiles << i;
                continue;
            }
            errors << ImportError{plan.files[i].shown, 0, {},
                                  RunImportTr::tr("is a second communication measurement (beside %1) of another test or "
                                                  "world: a run holds one; import each as its own run")
                                      .arg(plan.files[commSource].shown)};
            continue;
        }
        commSource = int(i);
    }
    for (const qsizetype i : repeatFiles)
        appendAsRepeats(parsed[commSource].commSamples, parsed[i].commSamples);
    if (!repeatFiles.isEmpty())
        plan.notes << RunImportTr::tr("%n more nccl-tests file(s) of the same test: their rows are further repeats of "
                                      "one baseline", "", int(repeatFiles.size()));
    if (!errors.isEmpty())
        return unexpected(errors);

    // Tokens/s per GPU where a log gives the whole job's rate (tokens or samples per
    // second) and the record gives the world size (and the sequence length): derived,
    // and said so in the environment and the plan.
    QJsonObject derived;
    if (record && record->parallelism.dp && record->parallelism.tp && record->parallelism.pp) {
        const double world = double(*record->parallelism.dp * *record->parallelism.tp * *record->parallelism.pp *
                                    record->parallelism.cpOrDefault());
        const std::optional<qint64> seq = record->batch.sequenceLength;
        std::map<qint64, double> added; // step -> derived tokens/s per GPU
        const QString perGpu = QStringLiteral("tokens_per_s_per_gpu");
        QSet<qint64> logged; // steps that state tokens/s per GPU themselves
        auto derive = [&](const QString& name, qint64 step, double value) {
            double perGpuValue = -1;
            if (name == QLatin1String("tokens_per_s")) {
                perGpuValue = value / world;
                derived.insert(perGpu, RunImportTr::tr("tokens_per_s / world size %1 (record)").arg(world));
            } else if (name == QLatin1String("samples_per_second") && seq) {
                perGpuValue = value * double(*seq) / world;
                derived.insert(perGpu,
                               RunImportTr::tr("samples_per_second × batch.sequence_length %1 / world size %2 (record)")
                                   .arg(*seq)
                                   .arg(world));
            }
            if (perGpuValue >= 0 && !added.count(step))
                added[step] = perGpuValue;
        };
        for (const auto& [key, v] : metrics) {
            if (key.first == perGpu)
                logged.insert(key.second);
            derive(key.first, key.second, v.value);
        }
        for (const store::StepMetric& m : loneMetrics) {
            if (m.name == perGpu)
                logged.insert(m.step);
            derive(m.name, m.step, m.value);
        }
        for (qint64 step : logged)
            added.erase(step);
        if (added.empty())
            derived = QJsonObject();
        for (const auto& [step, value] : added)
            if (metricFiles > 1)
                metrics[{perGpu, step}] = MetricValue{value, 0};
            else
                loneMetrics.append(store::StepMetric{step, perGpu, value});
        if (!derived.isEmpty())
            plan.notes << RunImportTr::tr("%n step(s) of tokens_per_s_per_gpu derived: %1", "", int(added.size()))
                              .arg(derived.value(perGpu).toString());
    }

    // The run.
    for (const auto& d : parsed)
        if (d.kind == store::RunKind::Probe)
            plan.kind = store::RunKind::Probe;
    if (commSource >= 0)
        plan.commSamples = std::move(parsed[commSource].commSamples);
    appendMerged(metrics, load, plan.stepMetrics, plan.expertLoad);
    if (metricFiles == 1)
        plan.stepMetrics = std::move(loneMetrics);

    // Environment: a lone file keeps its importer's; several files are listed.
    qint64 rows = 0;
    QStringList formats;
    for (const auto& f : plan.files) {
        rows += f.rows;
        if (!formats.contains(f.format))
            formats << f.format;
    }
    if (parsed.size() == 1) {
        plan.environment = parsed.first().environment;
        plan.sourceFile = plan.files.first().path;
    } else {
        QJsonArray sources;
        for (qsizetype i = 0; i < plan.files.size() && i < kMaxSourcesInEnvironment; ++i) {
            const PlannedFile& f = plan.files[i];
            sources.append(QJsonObject{{QStringLiteral("file"), f.shown},
                                       {QStringLiteral("format"), f.format},
                                       {QStringLiteral("rows"), f.rows}});
        }
        plan.environment.insert(QStringLiteral("sources"), sources);
        if (plan.files.size() > kMaxSourcesInEnvironment)
            plan.environment.insert(QStringLiteral("sources_not_listed"), plan.files.size() - kMaxSourcesInEnvironment);
        // What the files say of the training, where they agree (a rank file's rank is its own).
        QSet<QString> conflicting{QStringLiteral("rank"), QStringLiteral("experts"), QStringLiteral("max_expert_index_seen")};
        for (qsizetype i = 0; i < parsed.size(); ++i) {
            const QJsonObject& env = parsed[i].environment;
            for (auto it = env.begin(); it != env.end(); ++it) {
                if (conflicting.contains(it.key()))
                    continue;
                const QJsonValue there = plan.environment.value(it.key());
                if (there.isUndefined())
                    plan.environment.insert(it.key(), it.value());
                else if (there != it.value() && it.key() != QLatin1String("sources")) {
                    plan.environment.remove(it.key());
                    conflicting.insert(it.key());
                }
            }
        }
        QStringList paths;
        for (const auto& f : plan.files)
            paths << f.path;
        plan.sourceFile = commonFolder(paths);
    }
    if (plan.expertLoadWidth() > 0)
        plan.environment.insert(QStringLiteral("experts"), plan.expertLoadWidth());
    if (!mtpLayers.isEmpty())
        plan.environment.insert(QStringLiteral("mtp_layers"), mtpLayers);
    if (!derived.isEmpty())
        plan.environment.insert(QStringLiteral("derived_metrics"), derived);
    if (collectShares > 0)
        plan.environment.insert(QStringLiteral("busiest_device_share_source"), QStringLiteral("moewb-collect"));
    else if (!collectFiles.isEmpty())
        plan.environment.remove(QStringLiteral("busiest_device_share_source"));
    plan.environment.insert(QStringLiteral("source_format"),
                            formats.size() == 1 ? formats.first() : formats.join(QLatin1Char('+')));
    plan.environment.insert(QStringLiteral("source_rows"), rows);
    if (!recordWarnings.isEmpty())
        plan.environment.insert(QStringLiteral("record_warnings"), QJsonArray::fromStringList(recordWarnings));
    return plan;
}

// A plan of profiler traces alone: its source is the folder they share.
ImportPlan tracesOnlyPlan(const QList<ImportCandidate>& traceFiles) {
    ImportPlan plan;
    QStringList paths;
    for (const ImportCandidate& c : traceFiles)
        paths << c.path;
    plan.sourceFile = paths.size() == 1 ? paths.first() : commonFolder(paths);
    plan.environment.insert(QStringLiteral("source_format"), QStringLiteral("pytorch-trace"));
    return plan;
}

} // namespace

Expected<ImportPlan, QList<ImportError>> planImport(const CollectedFiles& collected,
                                                    const std::optional<record::ConfigRecord>& record,
                                                    const ImportOptions& options, const PlanProgress& progress) {
    // Profiler traces are read apart (streamed, on workers) and put side by side across
    // ranks; the other files go through the plan as before.
    CollectedFiles others;
    others.skipped = collected.skipped;
    QList<ImportCandidate> traceFiles;
    for (const ImportCandidate& c : collected.files)
        (isTraceFile(c.path, options.format) ? traceFiles : others.files) << c;
    if (traceFiles.isEmpty())
        return planFiles(collected, record, options, progress);
    const qsizetype total = collected.files.size();
    auto traces = planTraces(traceFiles, record, [&](qint64 done, qint64 all) {
        return !progress || progress(qsizetype(double(done) / double(all) * double(traceFiles.size())), total);
    });
    if (!traces)
        return unexpected(traces.error());
    ImportPlan plan;
    if (!others.files.isEmpty()) {
        auto rest = planFiles(others, record, options, [&](qsizetype done, qsizetype) {
            return !progress || progress(traceFiles.size() + done, total);
        });
        if (!rest)
            return unexpected(rest.error());
        plan = std::move(rest.value());
    } else {
        plan = tracesOnlyPlan(traceFiles);
        plan.skipped = collected.skipped;
    }
    addTraces(plan, std::move(traces.value()));
    return plan;
}

Expected<ImportPlan, QList<ImportError>> planReadTraceImport(
    const QList<ImportCandidate>& files, std::vector<Expected<anatomy::RankTrace, ImportError>>&& read,
    const std::optional<record::ConfigRecord>& record) {
    auto traces = planReadTraces(files, std::move(read), record);
    if (!traces)
        return unexpected(traces.error());
    ImportPlan plan = tracesOnlyPlan(files);
    addTraces(plan, std::move(traces.value()));
    return plan;
}

} // namespace moewb::runimport
