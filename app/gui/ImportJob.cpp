#include "ImportJob.h"

#include "record/ConfigRecord.h"
#include "store/ProjectStore.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>

namespace moewb::gui {

QString uniqueRunName(const QStringList& taken, const QString& base) {
    const QString stem = base.isEmpty() ? QStringLiteral("run") : base;
    QString name = stem;
    for (int i = 2; taken.contains(name); ++i)
        name = QStringLiteral("%1-%2").arg(stem).arg(i);
    return name;
}

QString runNameForPath(const QString& path) {
    const QFileInfo info(path);
    if (info.isDir())
        return QDir(info.absoluteFilePath()).dirName();
    return info.completeBaseName().isEmpty() ? info.fileName() : info.completeBaseName();
}

ImportJob::ImportJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ImportPlanPtr>();
}

ImportJob::~ImportJob() {
    cancel();
    wait();
}

bool ImportJob::isRunning() const {
    return m_thread && m_thread->isRunning() && !(m_done && m_done->load());
}

void ImportJob::cancel() {
    if (m_cancel)
        m_cancel->store(true);
}

void ImportJob::wait() {
    if (m_thread)
        m_thread->wait();
}

// A worker that has sent its result is only returning: wait for it and start anew.
bool ImportJob::prepare() {
    if (isRunning())
        return false;
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    m_cancel = std::make_shared<std::atomic_bool>(false);
    m_done = std::make_shared<std::atomic_bool>(false);
    return true;
}

bool ImportJob::startPlan(const PlanRequest& request) {
    if (!prepare())
        return false;
    m_storing = false;
    auto cancel = m_cancel;
    auto done = m_done;
    // Signals emitted from the worker reach receivers in the GUI thread queued.
    m_thread = QThread::create([this, request, cancel, done] {
        auto finish = [&](ImportPlanPtr plan, const QStringList& errors, bool cancelled) {
            done->store(true);
            emit planned(request.generation, std::move(plan), errors, cancelled);
        };
        emit progress(-1, tr("listing the files…"));
        auto collected = runimport::collectImportFiles(request.paths, request.options);
        if (cancel->load())
            return finish({}, {}, true);
        if (!collected)
            return finish({}, {collected.error().text()}, false);
        std::optional<record::ConfigRecord> record;
        if (!request.recordJson.isEmpty())
            record = record::ConfigRecord::fromJson(request.recordJson, nullptr);
        const auto& files = collected.value().files;
        qsizetype lastDone = -1;
        auto plan = runimport::planImport(
            collected.value(), record, request.options, [&](qsizetype doneFiles, qsizetype total) {
                if (doneFiles != lastDone && total > 0) {
                    lastDone = doneFiles;
                    const QString next = doneFiles < files.size() ? files[doneFiles].shown : QString();
                    emit progress(double(doneFiles) / double(total),
                                  next.isEmpty()
                                      ? tr("checking %1 files against each other…").arg(total)
                                      : tr("reading %1 (%2 of %3)…").arg(next).arg(doneFiles + 1).arg(total));
                }
                return !cancel->load();
            });
        if (cancel->load())
            return finish({}, {}, true);
        if (!plan) {
            QStringList errors;
            for (const auto& e : plan.error())
                errors << e.text();
            return finish({}, errors, false);
        }
        finish(std::make_shared<const runimport::ImportPlan>(std::move(plan.value())), {}, false);
    });
    m_thread->start();
    return true;
}

bool ImportJob::startStore(const StoreRequest& request) {
    if (!request.plan || !prepare())
        return false;
    m_storing = true;
    auto cancel = m_cancel;
    auto done = m_done;
    m_thread = QThread::create([this, request, cancel, done] {
        auto finish = [&](bool ok, const QString& message, bool cancelled) {
            done->store(true);
            emit finished(ok, message, cancelled);
        };
        const QString cancelledText = tr("Import cancelled; nothing was stored.");
        emit progress(-1, tr("opening the project…"));
        auto opened = store::ProjectStore::open(request.projectPath, store::OpenMode::MustExist);
        if (!opened)
            return finish(false, opened.error().text(), false);
        store::ProjectStore& project = *opened.value();
        // Copies share the plan's data (implicitly shared) until the merge changes it.
        runimport::ImportPlan plan = *request.plan;
        store::RunData run;
        if (request.into) {
            const auto existing = project.run(request.runName);
            if (!existing)
                return finish(false, tr("There is no run named %1 to add to.").arg(request.runName), false);
            emit progress(-1, tr("checking the files against run %1…").arg(request.runName));
            auto merged = runimport::mergeInto(project, *existing, std::move(plan));
            if (!merged) {
                QStringList errors;
                for (const auto& e : merged.error())
                    errors << e.text();
                return finish(false, errors.join(QLatin1Char('\n')), false);
            }
            run = std::move(merged.value());
        } else {
            run = runimport::toRunData(std::move(plan), request.runName, request.record);
            run.automaticNameBase = request.automaticNameBase;
        }
        if (cancel->load())
            return finish(false, cancelledText, true);
        int lastPercent = -1;
        auto report = [&](double f) {
            const int percent = int(f * 100);
            if (percent != lastPercent) {
                lastPercent = percent;
                emit progress(f, tr("storing run %1: %2 %").arg(run.name).arg(percent));
            }
            return !cancel->load();
        };
        QString savedName = run.name;
        auto saved = request.into ? project.replaceRun(run, report) : project.saveRun(run, report, &savedName);
        if (!saved) {
            if (cancel->load())
                return finish(false, cancelledText, true);
            return finish(false, saved.error().text(), false);
        }
        finish(true, savedName, false);
    });
    m_thread->start();
    return true;
}

} // namespace moewb::gui
