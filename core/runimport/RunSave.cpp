#include "runimport/RunImport.h"

#include "importers/ExpertLoadJsonl.h"
#include "importers/ImportFile.h"
#include "runimport/PlanFileRead.h"
#include "runimport/PlanSupport.h"
#include "runimport/RunImportTr.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

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
