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

namespace {

using importers::ImportError;
using importers::ImportedData;

constexpr int kMaxDepth = 16;
constexpr qsizetype kMaxFiles = 100000;
constexpr int kMaxErrors = 8;
constexpr qsizetype kMaxSourcesInEnvironment = 64;

const char* const kTpeFormat = "megatron-tpe-jsonl";
const char* const kTraceFormat = "megatron-routing-trace";
const char* const kCollectFormat = "moewb-collect-jsonl";

// A tokens-per-expert file of remote/collect: counts over all experts ("experts_scope": "all").
bool allExpertsScope(const ImportedData& d) {
    return d.environment.value(QLatin1String("experts_scope")).toString() == QLatin1String("all");
}

bool excluded(const QString& name, const QString& shown, const QStringList& patterns) {
    for (const QString& p : patterns) {
        const auto re = QRegularExpression::fromWildcard(p, Qt::CaseSensitive, QRegularExpression::UnanchoredWildcardConversion);
        const auto anchored = QRegularExpression(QRegularExpression::anchoredPattern(re.pattern()));
        if (anchored.match(name).hasMatch() || anchored.match(shown).hasMatch())
            return true;
    }
    return false;
}

// Why a walked file is not read, or empty when it is.
QString skipReason(const QString& name) {
    static const QSet<QString> markers{QStringLiteral("latest_checkpointed_iteration.txt"),
                                       QStringLiteral("latest_train_state.pt"), QStringLiteral("progress.txt")};
    if (markers.contains(name))
        return RunImportTr::tr("a checkpoint or progress marker, not a log");
    if (name.startsWith(QLatin1String("events.out.tfevents.")))
        return {};
    const QString suffix = QFileInfo(name).suffix().toLower();
    static const QSet<QString> logs{QStringLiteral("log"),  QStringLiteral("out"),   QStringLiteral("txt"),
                                    QStringLiteral("csv"),  QStringLiteral("jsonl"), QStringLiteral("json")};
    if (logs.contains(suffix))
        return {};
    if (name.endsWith(QLatin1String(".json.gz"), Qt::CaseInsensitive))
        return {}; // a profiler trace, compressed (torch_profile/rank-0.json.gz)
    return RunImportTr::tr("not a log by its name (.log, .out, .txt, .csv, .jsonl, .json, .json.gz, "
                           "events.out.tfevents.*)");
}

struct Walk {
    const ImportOptions& options;
    CollectedFiles& out;
    QString error;

    void folder(const QString& root, const QString& dir, int depth) {
        if (!error.isEmpty())
            return;
        QDir d(dir);
        const QFileInfoList entries =
            d.entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
        for (const QFileInfo& e : entries) {
            const QString shown = QDir(root).relativeFilePath(e.absoluteFilePath());
            const QString name = e.fileName();
            if (name.startsWith(QLatin1Char('.')))
                continue; // hidden: not listed
            if (e.isSymLink()) {
                out.skipped << SkippedFile{shown, RunImportTr::tr("a symbolic link (not followed)")};
                continue;
            }
            if (excluded(name, shown, options.exclude)) {
                out.skipped << SkippedFile{shown, RunImportTr::tr("excluded with --exclude")};
                continue;
            }
            if (e.isDir()) {
                if (name.startsWith(QLatin1String("iter_")) || name == QLatin1String("__pycache__") ||
                    name == QLatin1String("wandb")) {
                    out.skipped << SkippedFile{shown + QLatin1Char('/'),
                                               name == QLatin1String("wandb")
                                                   ? RunImportTr::tr("a W&B local folder (export charts as CSV instead)")
                                                   : RunImportTr::tr("a checkpoint or cache folder")};
                    continue;
                }
                if (depth >= kMaxDepth) {
                    out.skipped << SkippedFile{shown + QLatin1Char('/'),
                                               RunImportTr::tr("deeper than %1 folders").arg(kMaxDepth)};
                    continue;
                }
                folder(root, e.absoluteFilePath(), depth + 1);
                continue;
            }
            if (!e.isFile())
                continue;
            if (const QString why = skipReason(name); !why.isEmpty()) {
                out.skipped << SkippedFile{shown, why};
                continue;
            }
            if (out.files.size() >= kMaxFiles) {
                error = RunImportTr::tr("holds more than %1 files to read; give its subfolders instead").arg(kMaxFiles);
                return;
            }
            out.files << ImportCandidate{e.absoluteFilePath(), QDir(root).dirName() + QLatin1Char('/') + shown, true};
        }
    }
};

bool close(double a, double b) {
    if (a == b)
        return true;
    const double scale = std::max(std::fabs(a), std::fabs(b));
    // Console logs print 4–7 significant digits where TensorBoard keeps float32:
    // agreeing to 1 part in 1000 is the same value.
    return std::fabs(a - b) <= 1e-3 * scale || std::fabs(a - b) <= 1e-12;
}

// Which of two agreeing sources keeps its value: the more precise kind of file.
int precisionRank(const QString& format) {
    if (format == QLatin1String("tensorboard"))
        return 0;
    if (format == QLatin1String("jsonl-metrics") || format == QLatin1String("csv-metrics") ||
        format == QLatin1String("wandb-csv"))
        return 1;
    return 2;
}

QString roleOf(const ImportedData& d) {
    QStringList parts;
    if (!d.commSamples.isEmpty())
        parts << RunImportTr::tr("%n communication sample(s)", "", int(d.commSamples.size()));
    if (!d.stepMetrics.isEmpty()) {
        QStringList names;
        for (const auto& m : d.stepMetrics)
            if (!names.contains(m.name)) {
                names << m.name;
                if (names.size() > 6)
                    break;
            }
        parts << RunImportTr::tr("step metrics: %1").arg(names.size() > 6 ? names.mid(0, 6).join(QStringLiteral(", ")) + QStringLiteral(", …")
                                                                          : names.join(QStringLiteral(", ")));
    }
    if (!d.expertLoad.isEmpty())
        parts << RunImportTr::tr("expert load: %n block(s)", "", int(d.expertLoad.size()));
    return parts.join(QStringLiteral("; "));
}

int rankOf(const ImportedData& d) {
    const QJsonValue r = d.environment.value(QLatin1String("rank"));
    return r.isDouble() ? r.toInt(-1) : -1;
}

QString commonFolder(const QStringList& paths) {
    if (paths.isEmpty())
        return {};
    QString common = QFileInfo(paths.first()).absolutePath();
    for (const QString& p : paths) {
        const QString dir = QFileInfo(p).absolutePath();
        while (!(dir == common || dir.startsWith(common.endsWith(QLatin1Char('/')) ? common : common + QLatin1Char('/'))))
            common = QFileInfo(common).absolutePath();
    }
    return common;
}

// Step metrics of one source: (name, step) -> value, the last value kept (a resumed log
// repeats steps).
struct MetricSource {
    QString shown;
    QString format;
};

struct MetricValue {
    double value = 0.0;
    int source = 0;
};

// Adds `metrics` from source `index` into `merged`, or reports conflicts.
void mergeMetrics(std::map<std::pair<QString, qint64>, MetricValue>& merged, const QList<MetricSource>& sources,
                  const QVector<store::StepMetric>& metrics, int index, QList<ImportError>& errors) {
    std::map<std::pair<QString, qint64>, double> own;
    for (const auto& m : metrics)
        own[{m.name, m.step}] = m.value;
    for (const auto& [key, value] : own) {
        auto it = merged.find(key);
        if (it == merged.end()) {
            merged.emplace(key, MetricValue{value, index});
            continue;
        }
        if (close(it->second.value, value)) {
            if (precisionRank(sources[index].format) < precisionRank(sources[it->second.source].format))
                it->second = MetricValue{value, index};
            continue;
        }
        if (errors.size() < kMaxErrors)
            errors << ImportError{sources[index].shown, 0, key.first,
                                  RunImportTr::tr("gives %1 = %2 at step %3, but %4 gives %5: files of two trainings? "
                                                  "Import them as separate runs")
                                      .arg(key.first)
                                      .arg(value, 0, 'g', 8)
                                      .arg(key.second)
                                      .arg(sources[it->second.source].shown)
                                      .arg(it->second.value, 0, 'g', 8)};
    }
}

struct LoadValue {
    QVector<quint32> counts;
    int source = 0;
};

// The merged maps as the store takes them (ordered by step, then layer / name).
void appendMerged(std::map<std::pair<QString, qint64>, MetricValue>& metrics,
                  std::map<std::pair<qint64, int>, LoadValue>& load, QVector<store::StepMetric>& metricsOut,
                  QVector<store::ExpertLoadBlock>& loadOut) {
    metricsOut.reserve(qsizetype(metrics.size()));
    for (const auto& [key, v] : metrics)
        metricsOut.append(store::StepMetric{key.second, key.first, v.value});
    loadOut.reserve(qsizetype(load.size()));
    for (auto& [key, v] : load) {
        store::ExpertLoadBlock b;
        b.step = key.first;
        b.layer = key.second;
        b.tokensPerExpert = std::move(v.counts);
        loadOut.append(std::move(b));
    }
}

void mergeLoad(std::map<std::pair<qint64, int>, LoadValue>& merged, const QStringList& sources,
               const QVector<store::ExpertLoadBlock>& blocks, int index, QList<ImportError>& errors) {
    for (const auto& b : blocks) {
        auto it = merged.find({b.step, b.layer});
        if (it == merged.end()) {
            merged.emplace(std::make_pair(b.step, b.layer), LoadValue{b.tokensPerExpert, index});
            continue;
        }
        if (it->second.counts == b.tokensPerExpert)
            continue;
        if (errors.size() < kMaxErrors)
            errors << ImportError{sources[index], 0, {},
                                  RunImportTr::tr("gives other expert load at step %1, layer %2 than %3")
                                      .arg(b.step)
                                      .arg(b.layer)
                                      .arg(sources[it->second.source])};
    }
}

// An expert-load JSONL file (tokens-per-expert or jsonl-expert-load, given or detected
// from its first 64 KiB as importFile would) read in blocks, never whole: its memory is
// the counts (docs/formats.md, "Memory"). Nothing when the file is another format or
// cannot be opened, or is over the import limit: importFile then says so as usual.
// The layout of an expert-load JSONL format (the importers' own), or nothing.
std::optional<importers::ExpertLoadJsonlLayout> expertLoadLayout(const QString& format) {
    if (format == QLatin1String(importers::MegatronTpeJsonlImporter::kFormat))
        return importers::ExpertLoadJsonlLayout{importers::MegatronTpeJsonlImporter::kFormat, "iter", "tpe", true, true};
    if (format == QLatin1String(importers::JsonlExpertLoadImporter::kFormat))
        return importers::ExpertLoadJsonlLayout{importers::JsonlExpertLoadImporter::kFormat, "step", "tokens", false};
    return std::nullopt;
}

// The expert-load JSONL format of an open file (given, or detected from its head as
// importFile would; the file left at its start), or empty.
QString expertLoadFormatOf(QFile& file, const QString& path, const QString& givenFormat) {
    QString format = givenFormat.trimmed();
    if (format.isEmpty()) {
        // One byte past detectFormat's head, so that it knows whether the file goes on.
        const QByteArray head = file.read((1 << 16) + 1);
        auto detected = importers::detectFormat(head, path);
        if (!detected || !file.seek(0))
            return {};
        format = detected.value();
    }
    return expertLoadLayout(format) ? format : QString();
}

// A regular file within the import limit (importers::openImportFile); anything else is
// left to importFile, which says what is wrong with it.
bool openForBlocks(QFile& file, const QString& path) {
    return !importers::openImportFile(file, path) && file.size() <= importers::maxImportBytes() &&
           !file.isSequential();
}

// Whether `path` is an expert-load JSONL file that can be read in blocks.
bool isExpertLoadJsonl(const QString& path, const QString& givenFormat) {
    QFile file;
    return openForBlocks(file, path) && !expertLoadFormatOf(file, path, givenFormat).isEmpty();
}

std::optional<importers::ImportResult> readExpertLoadInBlocks(const QString& path, const QString& givenFormat,
                                                              importers::ExpertLoadJsonlPass* pass = nullptr) {
    QFile file;
    if (!openForBlocks(file, path))
        return std::nullopt;
    const QString format = expertLoadFormatOf(file, path, givenFormat);
    if (format.isEmpty())
        return std::nullopt;
    importers::ExpertLoadJsonlPass keep;
    try {
        return importers::parseExpertLoadJsonl(file, file.size(), path, *expertLoadLayout(format), pass ? *pass : keep);
    } catch (const std::bad_alloc&) {
        return importers::ImportResult(unexpected(importers::outOfMemory(path, file.size())));
    }
}

// One file, with the W&B run chosen when the file is a W&B export and one was named.
// scan: an expert-load JSONL file is only scanned (ExpertLoadJsonlPass::Mode::Scan, the
// pass filled), its counts read at save.
importers::ImportResult readOne(const QString& path, const ImportOptions& options,
                                importers::ExpertLoadJsonlPass* scan = nullptr) {
    const bool ncclFacts = options.ranks > 0 || !options.collective.isEmpty() || options.alltoallvMatrix;
    if (options.wandbRun.isEmpty() && !ncclFacts && !options.strict) {
        if (auto streamed = readExpertLoadInBlocks(path, options.format, scan))
            return std::move(*streamed);
        return importers::importFile(path, options.format);
    }
    auto bytes = importers::readWholeFile(path);
    if (!bytes)
        return unexpected(bytes.error());
    QString format = options.format;
    if (format.isEmpty()) {
        auto detected = importers::detectFormat(bytes.value(), path);
        if (!detected)
            return unexpected(detected.error());
        format = detected.value();
    }
    if (format == QLatin1String(importers::WandbCsvImporter::kFormat) && !options.wandbRun.isEmpty())
        return importers::parseWithinMemory(bytes.value(), path, [&](const QByteArray& b, const QString& f) {
            return importers::WandbCsvImporter::parseRun(b, f, options.wandbRun);
        });
    if (format == QLatin1String(importers::NcclTestsTextImporter::kFormat) && ncclFacts)
        return importers::parseWithinMemory(bytes.value(), path, [&](const QByteArray& b, const QString& f) {
            return importers::NcclTestsTextImporter::parseWith(
                b, f, {options.ranks, options.collective, options.alltoallvMatrix});
        });
    if (format == QLatin1String(importers::MegatronLogImporter::kFormat) && options.strict)
        return importers::parseWithinMemory(bytes.value(), path, importers::MegatronLogImporter::parseStrict);
    if (format == QLatin1String(importers::NemoLogImporter::kFormat) && options.strict)
        return importers::parseWithinMemory(bytes.value(), path, importers::NemoLogImporter::parseStrict);
    if (format == QLatin1String(importers::TorchtitanLogImporter::kFormat) && options.strict)
        return importers::parseWithinMemory(bytes.value(), path, importers::TorchtitanLogImporter::parseStrict);
    return importers::importBytes(bytes.value(), path, format);
}

} // namespace

Expected<CollectedFiles, ImportError> collectImportFiles(const QStringList& paths, const ImportOptions& options) {
    CollectedFiles out;
    QSet<QString> seen;
    for (const QString& given : paths) {
        const QFileInfo info(given);
        if (!info.exists())
            return unexpected(ImportError{given, 0, {}, RunImportTr::tr("cannot read: no such file or folder"), true});
        if (info.isDir()) {
            if (!info.isReadable())
                return unexpected(ImportError{given, 0, {}, RunImportTr::tr("cannot list the folder"), true});
            Walk walk{options, out, {}};
            walk.folder(info.absoluteFilePath(), info.absoluteFilePath(), 0);
            if (!walk.error.isEmpty())
                return unexpected(ImportError{given, 0, {}, walk.error, true});
            continue;
        }
        out.files << ImportCandidate{info.absoluteFilePath(), given, false};
    }
    QList<ImportCandidate> unique;
    for (const ImportCandidate& c : out.files)
        if (!seen.contains(c.path)) {
            seen.insert(c.path);
            unique << c;
        }
    out.files = unique;
    return out;
}

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

namespace {

// The streamed file, as planned, read for real in Mode::Keep or, with a row sink, Mode::Stream.
// Errors name the file as the plan shows it.
Expected<ImportedData, ImportError> readStreamedFile(const StreamedExpertLoad& planned,
                                                     importers::ExpertLoadJsonlPass& pass) {
    auto fail = [&](const QString& message) {
        return unexpected(ImportError{planned.shown, 0, {}, message});
    };
    QFile file;
    if (auto refused = importers::openImportFile(file, planned.path, planned.shown))
        return unexpected(*refused);
    const QFileInfo info(planned.path);
    if (file.size() != planned.size || info.lastModified() != planned.modified)
        return fail(RunImportTr::tr("has changed since the import was planned (%1 bytes, modified %2; now %3 bytes, "
                                    "modified %4): plan the import again")
                        .arg(planned.size)
                        .arg(planned.modified.toUTC().toString(Qt::ISODateWithMs))
                        .arg(file.size())
                        .arg(info.lastModified().toUTC().toString(Qt::ISODateWithMs)));
    const auto layout = expertLoadLayout(planned.format);
    if (!layout)
        return fail(RunImportTr::tr("cannot read: %1").arg(planned.format));
    pass.rows = planned.rows;
    pass.experts = planned.experts;
    pass.dropped = planned.droppedLines;
    importers::ImportResult result = [&]() -> importers::ImportResult {
        try {
            return importers::parseExpertLoadJsonl(file, file.size(), planned.path, *layout, pass);
        } catch (const std::bad_alloc&) {
            return unexpected(importers::outOfMemory(planned.path, file.size()));
        }
    }();
    if (!result) {
        ImportError e = result.error();
        e.file = planned.shown;
        return unexpected(e);
    }
    return std::move(result.value());
}

// Rows handed from the thread that parses a streamed file to the one that saves them
// (the store's connection belongs to it), in order, a batch at a time: the parser waits
// when kBatches are full (a few MiB in all), the saver when none is.
class RowPipe {
public:
    struct Batch {
        std::vector<qint64> steps;
        std::vector<int> layers;
        std::vector<size_t> widths;
        std::vector<quint32> counts; // the rows' counts, one after the other
    };

    RowPipe() {
        for (int i = 0; i < kBatches; ++i)
            m_free.push_back(std::make_unique<Batch>());
    }

    // Parser: one row; false once the saver stopped.
    bool push(qint64 step, int layer, std::span<const quint32> counts) {
        if (!m_filling) {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [&] { return m_stopped || !m_free.empty(); });
            if (m_stopped)
                return false;
            m_filling = std::move(m_free.front());
            m_free.pop_front();
        }
        m_filling->steps.push_back(step);
        m_filling->layers.push_back(layer);
        m_filling->widths.push_back(counts.size());
        m_filling->counts.insert(m_filling->counts.end(), counts.begin(), counts.end());
        if (m_filling->counts.size() >= kBatchCounts)
            return send();
        return true;
    }
    // Parser: no more rows.
    void close() {
        if (m_filling && !m_filling->steps.empty())
            send();
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_changed.notify_all();
    }
    // Saver: the next batch, or null after the last.
    std::unique_ptr<Batch> next() {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_closed || !m_full.empty(); });
        if (m_full.empty())
            return nullptr;
        auto batch = std::move(m_full.front());
        m_full.pop_front();
        return batch;
    }
    void release(std::unique_ptr<Batch> batch) {
        batch->steps.clear();
        batch->layers.clear();
        batch->widths.clear();
        batch->counts.clear();
        std::lock_guard lock(m_mutex);
        m_free.push_back(std::move(batch));
        m_changed.notify_all();
    }
    // Saver: no more batches wanted (an error, a cancel): the parser stops at its next row.
    void stop() {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        m_changed.notify_all();
    }

private:
    static constexpr int kBatches = 4;
    static constexpr size_t kBatchCounts = size_t(1) << 17; // 512 KiB of counts a batch

    bool send() {
        std::lock_guard lock(m_mutex);
        m_full.push_back(std::move(m_filling));
        m_changed.notify_all();
        return !m_stopped;
    }

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::unique_ptr<Batch>> m_free, m_full;
    std::unique_ptr<Batch> m_filling; // the parser's only
    bool m_closed = false, m_stopped = false;
};

} // namespace

qint64 ImportPlan::expertLoadRows() const {
    return streamedLoad ? streamedLoad->rows : qint64(expertLoad.size());
}

qint64 ImportPlan::expertLoadWidth() const {
    if (streamedLoad)
        return streamedLoad->experts;
    return expertLoad.isEmpty() ? 0 : qint64(expertLoad.first().tokensPerExpert.size());
}

store::RunData toRunData(ImportPlan&& plan, const QString& runName, const QString& recordName) {
    store::RunData run;
    run.name = runName;
    run.kind = plan.kind;
    run.recordName = recordName;
    run.sourceFile = plan.sourceFile;
    run.environment = plan.environment;
    run.commSamples = std::move(plan.commSamples);
    run.stepMetrics = std::move(plan.stepMetrics);
    run.expertLoad = std::move(plan.expertLoad);
    run.anatomy = std::move(plan.anatomy);
    if (plan.streamedLoad) {
        // The file is parsed on a thread of its own while this one (the store's
        // connection's) hands the rows to the sink, which compresses them on the pool
        // and writes them here; nothing is held beyond a block of text and a few
        // batches of rows (RowPipe).
        run.expertLoadStreamRows = plan.streamedLoad->rows;
        run.expertLoadStream = [planned = std::move(*plan.streamedLoad)](
                                   store::ExpertLoadSink& sink, const std::function<bool()>& rowAdded, QString* error) {
            RowPipe pipe;
            std::optional<Expected<ImportedData, ImportError>> read;
            std::thread parser([&] {
                importers::ExpertLoadJsonlPass pass;
                pass.mode = importers::ExpertLoadJsonlPass::Mode::Stream;
                pass.row = [&](qint64 step, int layer, std::span<const quint32> counts) {
                    return pipe.push(step, layer, counts);
                };
                read.emplace(readStreamedFile(planned, pass));
                pipe.close();
            });
            bool sinkFailed = false, cancelled = false;
            while (auto batch = pipe.next()) {
                const quint32* counts = batch->counts.data();
                for (size_t i = 0; i < batch->steps.size() && !sinkFailed && !cancelled; ++i) {
                    const std::span<const quint32> row(counts, batch->widths[i]);
                    counts += batch->widths[i];
                    if (!sink.add(batch->steps[i], batch->layers[i], row))
                        sinkFailed = true;
                    else if (!rowAdded())
                        cancelled = true;
                }
                pipe.release(std::move(batch));
                if (sinkFailed || cancelled) {
                    pipe.stop();
                    break;
                }
            }
            parser.join();
            if (cancelled) {
                *error = QStringLiteral("cancelled");
                return false;
            }
            if (sinkFailed) {
                *error = sink.error();
                return false;
            }
            if (!read->hasValue()) {
                *error = read->error().text();
                return false;
            }
            return true;
        };
    }
    return run;
}

Expected<store::RunData, QList<ImportError>> mergeInto(const store::ProjectStore& project, const store::RunRow& existing,
                                                       ImportPlan&& plan) {
    QList<ImportError> errors;
    const QString runShown = RunImportTr::tr("run \"%1\"").arg(existing.name);
    store::RunData run;
    run.name = existing.name;
    run.kind = existing.kind == store::RunKind::Probe || plan.kind == store::RunKind::Probe ? store::RunKind::Probe
                                                                                            : existing.kind;
    run.recordName = existing.recordName;
    run.clusterName = existing.clusterName;
    run.sourceFile = existing.sourceFile;

    // Metrics: the run's first, then the plan's, checked as files are.
    std::map<std::pair<QString, qint64>, MetricValue> metrics;
    QList<MetricSource> sources{{runShown, QStringLiteral("stored")}, {RunImportTr::tr("the files given"), QStringLiteral("stored")}};
    if (!plan.files.isEmpty())
        sources[1] = MetricSource{plan.files.size() == 1 ? plan.files.first().shown : RunImportTr::tr("the files given"),
                                  QStringLiteral("stored")};
    mergeMetrics(metrics, sources, project.stepMetrics(existing.id), 0, errors);
    mergeMetrics(metrics, sources, plan.stepMetrics, 1, errors);

    if (plan.streamedLoad) {
        // Added to a stored run: the counts are merged here, so read now, whole.
        importers::ExpertLoadJsonlPass keep;
        auto read = readStreamedFile(*plan.streamedLoad, keep);
        if (!read)
            return unexpected(QList<ImportError>{read.error()});
        if (read.value().expertLoad.size() != plan.streamedLoad->rows)
            return unexpected(QList<ImportError>{ImportError{
                plan.streamedLoad->shown, 0, {},
                RunImportTr::tr("has changed since the import was planned: plan the import again")}});
        plan.expertLoad = std::move(read.value().expertLoad);
        plan.streamedLoad.reset();
    }
    std::map<std::pair<qint64, int>, LoadValue> load;
    const QStringList loadSources{runShown, sources[1].shown};
    // What the run holds is written back with the new data: a chunk that cannot be read
    // would be lost, so the import is refused instead (naming it).
    QStringList unreadable;
    const auto stored = project.expertLoad(existing.id, {}, {}, &unreadable);
    for (const QString& problem : std::as_const(unreadable))
        errors << ImportError{runShown, 0, {}, problem};
    if (!stored.isEmpty() && !plan.expertLoad.isEmpty() &&
        stored.first().tokensPerExpert.size() != plan.expertLoad.first().tokensPerExpert.size())
        errors << ImportError{sources[1].shown, 0, {},
                              RunImportTr::tr("counts %1 experts per layer, but %2 holds %3")
                                  .arg(plan.expertLoad.first().tokensPerExpert.size())
                                  .arg(runShown)
                                  .arg(stored.first().tokensPerExpert.size())};
    mergeLoad(load, loadSources, stored, 0, errors);
    mergeLoad(load, loadSources, plan.expertLoad, 1, errors);

    const auto comm = project.commSamples(existing.id);
    if (!comm.isEmpty() && !plan.commSamples.isEmpty())
        errors << ImportError{sources[1].shown, 0, {},
                              RunImportTr::tr("is a communication measurement, and %1 already holds one").arg(runShown)};
    // Traces are put side by side across ranks when read: all of a run's come at once.
    store::RunAnatomy storedAnatomy = project.runAnatomy(existing.id);
    if (!storedAnatomy.empty() && plan.anatomy.empty())
        storedAnatomy.timeline = project.stepTimeline(existing.id); // the run is written anew: keep its timeline
    if (!storedAnatomy.empty() && !plan.anatomy.empty())
        errors << ImportError{sources[1].shown, 0, {},
                              RunImportTr::tr("holds profiler traces, and %1 already holds the step anatomy of its "
                                              "traces: import every rank's traces together, into a new run")
                                  .arg(runShown)};
    if (!errors.isEmpty())
        return unexpected(errors);

    run.anatomy = plan.anatomy.empty() ? std::move(storedAnatomy) : std::move(plan.anatomy);
    run.commSamples = comm.isEmpty() ? std::move(plan.commSamples) : store::CommSampleList(comm);
    appendMerged(metrics, load, run.stepMetrics, run.expertLoad);
    run.environment = existing.environment;
    QJsonArray added = run.environment.value(QLatin1String("added")).toArray();
    for (const auto& f : plan.files)
        added.append(QJsonObject{{QStringLiteral("file"), f.path}, {QStringLiteral("format"), f.format}, {QStringLiteral("rows"), f.rows}});
    run.environment.insert(QStringLiteral("added"), added);
    for (auto it = plan.environment.begin(); it != plan.environment.end(); ++it)
        if (!run.environment.contains(it.key()))
            run.environment.insert(it.key(), it.value());
    if (!run.expertLoad.isEmpty())
        run.environment.insert(QStringLiteral("experts"), run.expertLoad.first().tokensPerExpert.size());
    return run;
}

QJsonObject ImportPlan::toJson() const {
    QJsonArray fileArray, skippedArray;
    for (const PlannedFile& f : files) {
        QJsonObject o{{QStringLiteral("file"), f.shown},
                      {QStringLiteral("path"), f.path},
                      {QStringLiteral("format"), f.format},
                      {QStringLiteral("rows"), f.rows},
                      {QStringLiteral("role"), f.role},
                      {QStringLiteral("step_metrics"), f.stepMetrics},
                      {QStringLiteral("expert_load_blocks"), f.expertLoadBlocks},
                      {QStringLiteral("comm_samples"), f.commSamples}};
        if (f.rank >= 0)
            o.insert(QStringLiteral("rank"), f.rank);
        fileArray.append(o);
    }
    for (const SkippedFile& s : skipped)
        skippedArray.append(QJsonObject{{QStringLiteral("file"), s.path}, {QStringLiteral("reason"), s.reason}});
    return {{QStringLiteral("files"), fileArray},
            {QStringLiteral("skipped"), skippedArray},
            {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}};
}

QStringList ImportPlan::describe() const {
    QStringList lines;
    qsizetype widest = 0;
    for (const PlannedFile& f : files)
        widest = std::max(widest, f.shown.size());
    widest = std::min<qsizetype>(widest, 60);
    for (const PlannedFile& f : files)
        lines << RunImportTr::tr("  %1  %2  %n row(s)  %3", "", int(std::min<qint64>(f.rows, INT_MAX)))
                     .arg(f.shown.leftJustified(widest), f.format.leftJustified(22), f.role);
    for (const SkippedFile& s : skipped)
        lines << RunImportTr::tr("  skipped %1: %2").arg(s.path, s.reason);
    for (const QString& n : notes)
        lines << RunImportTr::tr("  merged: %1").arg(n);
    return lines;
}

} // namespace moewb::runimport
