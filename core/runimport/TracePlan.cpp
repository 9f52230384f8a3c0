#include "runimport/TracePlan.h"

#include "anatomy/AnatomySummary.h"
#include "anatomy/StepTimeline.h"
#include "importers/ImportFile.h"
#include "runimport/RunImportTr.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace moewb::runimport {

using importers::ImportError;

bool isTraceFile(const QString& path, const QString& format) {
    if (format == QLatin1String("pytorch-trace") || format == QLatin1String("kineto-json") ||
        format == QLatin1String("torch-legacy-json"))
        return true;
    if (!format.isEmpty())
        return false;
    QFile f;
    if (importers::openImportFile(f, path))
        return false;
    return anatomy::looksLikeTrace(f.read(1 << 16), path);
}

Expected<TracePlan, QList<ImportError>> planTraces(const QList<ImportCandidate>& files,
                                                   const std::optional<record::ConfigRecord>& record,
                                                   const std::function<bool(qint64, qint64)>& progress) {
    // Each file on a worker: one per core, at most 8 (each holds up to its bound, about
    // 100 MB, while it reads).
    const int n = int(files.size());
    std::vector<std::optional<Expected<anatomy::RankTrace, ImportError>>> read;
    read.resize(std::size_t(n));
    std::atomic<int> next{0}, finished{0};
    std::atomic<bool> cancelled{false};
    std::vector<std::atomic<qint64>> bytes(static_cast<std::size_t>(n));
    qint64 totalBytes = 0;
    for (const ImportCandidate& c : files)
        totalBytes += QFileInfo(c.path).size();
    const int workers =
        std::max(1, std::min({n, 8, int(std::max(1u, std::thread::hardware_concurrency()))}));
    std::vector<std::thread> pool;
    for (int w = 0; w < workers; ++w)
        pool.emplace_back([&] {
            for (int i = next++; i < n && !cancelled; i = next++) {
                anatomy::TraceReadOptions options;
                options.progress = [&, i](qint64 done) {
                    bytes[std::size_t(i)] = done;
                    return !cancelled.load();
                };
                read[std::size_t(i)] = anatomy::readRankTrace(files[i].path, files[i].shown, options);
                ++finished;
            }
        });
    // Progress in compressed-file terms is not known while reading; the files' sizes
    // on disk against the uncompressed bytes read is close enough for a bar.
    while (finished.load() < n) {
        if (progress) {
            qint64 sum = 0;
            for (const auto& b : bytes)
                sum += b.load();
            if (!progress(std::min(sum, totalBytes), std::max<qint64>(totalBytes, 1)))
                cancelled = true;
        }
        if (cancelled)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (auto& t : pool)
        t.join();
    if (cancelled)
        return unexpected(QList<ImportError>{ImportError{{}, 0, {}, RunImportTr::tr("cancelled")}});
    std::vector<Expected<anatomy::RankTrace, ImportError>> reads;
    reads.reserve(read.size());
    for (auto& r : read)
        reads.push_back(std::move(*r));
    return planReadTraces(files, std::move(reads), record);
}

Expected<TracePlan, QList<ImportError>> planReadTraces(const QList<ImportCandidate>& files,
                                                       std::vector<Expected<anatomy::RankTrace, ImportError>>&& read,
                                                       const std::optional<record::ConfigRecord>& record) {
    const int n = int(files.size());
    QList<ImportError> errors;
    QVector<anatomy::RankTrace> traces;
    for (int i = 0; i < n; ++i) {
        auto& r = read[std::size_t(i)];
        if (!r)
            errors << r.error();
        else
            traces.append(std::move(r.value()));
    }
    if (!errors.isEmpty())
        return unexpected(errors);
    auto computed = anatomy::computeAnatomy(traces, record);
    if (!computed)
        return unexpected(computed.error());

    TracePlan plan;
    plan.result = std::move(computed.value());
    // The one-step timelines (bounded per rank and step, and in steps) go with the summaries.
    plan.result.anatomy.timeline = anatomy::stepTimeline(traces, plan.result);
    for (int i = 0; i < traces.size(); ++i) {
        const anatomy::RankTrace& t = traces[i];
        PlannedFile f;
        f.path = files[i].path;
        f.shown = files[i].shown;
        f.format = t.format;
        f.rows = t.events;
        f.rank = t.rank;
        qint64 first = 0, last = 0;
        if (!t.steps.isEmpty()) {
            first = t.steps.front().step;
            last = t.steps.back().step;
        }
        f.role = t.steps.isEmpty()
                     ? RunImportTr::tr("profiler trace of rank %1: no profiled step").arg(t.rank)
                     : RunImportTr::tr("profiler trace of rank %1: %n profiled step(s) (%2–%3)", "", int(t.steps.size()))
                           .arg(t.rank)
                           .arg(first)
                           .arg(last);
        if (t.unassigned > 0)
            f.role += RunImportTr::tr("; %n kernel(s) outside every profiled step left out", "", int(std::min<qint64>(t.unassigned, INT_MAX)));
        f.stepMetrics = t.steps.size();
        plan.files << f;
    }
    const anatomy::AnatomySummary summary = anatomy::summarize(plan.result.anatomy);
    for (const anatomy::StepSummary& s : summary.steps) {
        plan.metrics.append(store::StepMetric{s.step, QStringLiteral("trace_busiest_share"), s.busiestShare});
        plan.metrics.append(store::StepMetric{s.step, QStringLiteral("trace_mean_share"), s.meanShare});
    }
    if (summary.steps.isEmpty() && !plan.result.anatomy.rows.isEmpty())
        plan.result.notes << RunImportTr::tr("no profiled step was recorded by every traced rank: no busiest-device share");
    else if (!summary.steps.isEmpty())
        plan.result.notes << RunImportTr::tr("busiest-device share measured from profiler traces in %n step(s): mean %1 "
                                             "(the mean device %2)",
                                             "", int(summary.steps.size()))
                                 .arg(QString::number(summary.meanBusiestShare, 'f', 3),
                                      QString::number(summary.meanMeanShare, 'f', 3));
    return plan;
}

void addTraces(ImportPlan& plan, TracePlan&& traces) {
    plan.files << traces.files;
    plan.notes << traces.result.notes;
    plan.stepMetrics << traces.metrics;
    const store::RunAnatomy& a = traces.result.anatomy;
    QJsonArray ranks;
    for (int r : a.ranksTraced)
        ranks.append(r);
    plan.environment.insert(QStringLiteral("trace_ranks"), ranks);
    if (a.worldSize > 0)
        plan.environment.insert(QStringLiteral("trace_world_size"), a.worldSize);
    plan.environment.insert(QStringLiteral("trace_format"), a.format);
    plan.anatomy = std::move(traces.result.anatomy);
}

} // namespace moewb::runimport
