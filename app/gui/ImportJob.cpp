#include "ImportJob.h"

#include "importers/Importer.h"
#include "store/ProjectStore.h"

#include <QFileInfo>
#include <QThread>

namespace moewb::gui {

QString uniqueRunName(const QStringList& taken, const QString& base) {
    QString name = base.isEmpty() ? QStringLiteral("run") : base;
    for (int i = 2; taken.contains(name); ++i)
        name = QStringLiteral("%1-%2").arg(base).arg(i);
    return name;
}

ImportJob::ImportJob(QObject* parent) : QObject(parent) {}

ImportJob::~ImportJob() {
    cancel();
    wait();
}

bool ImportJob::isRunning() const { return m_thread && m_thread->isRunning(); }

void ImportJob::cancel() {
    if (m_cancel)
        m_cancel->store(true);
}

void ImportJob::wait() {
    if (m_thread)
        m_thread->wait();
}

bool ImportJob::start(const ImportRequest& request) {
    if (isRunning())
        return false;
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancel;
    // Signals emitted from the worker reach receivers in the GUI thread queued.
    m_thread = QThread::create([this, request, cancel] {
        const QString fileName = QFileInfo(request.file).fileName();
        emit progress(-1, tr("reading %1…").arg(fileName));
        auto imported = importers::importFile(request.file, request.format);
        if (cancel->load()) {
            emit finished(false, tr("Import of %1 cancelled; nothing was stored.").arg(fileName), true);
            return;
        }
        if (!imported) {
            emit finished(false, imported.error().text(), false);
            return;
        }
        auto opened = store::ProjectStore::open(request.projectPath, store::OpenMode::MustExist);
        if (!opened) {
            emit finished(false, opened.error().text(), false);
            return;
        }
        store::ProjectStore& project = *opened.value();
        QStringList taken;
        for (const auto& r : project.runs())
            taken << r.name;
        store::RunData run;
        run.name = request.runName.isEmpty() ? uniqueRunName(taken, QFileInfo(request.file).completeBaseName())
                                             : request.runName;
        run.kind = imported->kind;
        run.recordName = request.record;
        run.sourceFile = QFileInfo(request.file).absoluteFilePath();
        run.environment = imported->environment;
        run.commSamples = std::move(imported->commSamples);
        run.stepMetrics = std::move(imported->stepMetrics);
        run.expertLoad = std::move(imported->expertLoad);
        const QString format = imported->format;
        int lastPercent = -1;
        auto saved = project.saveRun(run, [&](double f) {
            const int percent = int(f * 100);
            if (percent != lastPercent) {
                lastPercent = percent;
                emit progress(f, tr("importing %1 (%2): %3 %").arg(fileName, format).arg(percent));
            }
            return !cancel->load();
        });
        if (!saved) {
            if (cancel->load())
                emit finished(false, tr("Import of %1 cancelled; nothing was stored.").arg(fileName), true);
            else
                emit finished(false, saved.error().text(), false);
            return;
        }
        emit finished(true, run.name, false);
    });
    m_thread->start();
    return true;
}

} // namespace moewb::gui
