#pragma once
// The import's two steps off the GUI thread, as `moewb import PATH... --run NAME`:
//
//   startPlan:  collect the files the paths stand for and read, merge and check them
//               (runimport::collectImportFiles + planImport); nothing is stored. The
//               plan (or every error) comes back with planned().
//   startStore: store exactly that plan as a new run (toRunData + ProjectStore::saveRun)
//               or add it to an existing run (mergeInto + replaceRun), one transaction,
//               on a ProjectStore of the worker's own, as ProjectStore.h's threading note
//               asks. The result comes back with finished().
//
// One step runs at a time. Progress and results come back as queued signals; cancel()
// stops a plan between two files and a save within one progress step (rolled back:
// nothing is stored).
#include "runimport/RunImport.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

class QThread;

namespace moewb::gui {

using ImportPlanPtr = std::shared_ptr<const runimport::ImportPlan>;

struct PlanRequest {
    QStringList paths; // files and folders
    runimport::ImportOptions options;
    QJsonObject recordJson; // the config record's JSON (drives the rank merge); empty: none
    quint64 generation = 0; // handed back with planned()
};

struct StoreRequest {
    QString projectPath;
    ImportPlanPtr plan;
    QString record;  // the config record the new run belongs to
    QString runName; // the new run's name, or the run to add to (into)
    // Non-empty when runName was chosen automatically from this base: if another import
    // takes runName first, the store saves under the next free base-N (ProjectStore).
    QString automaticNameBase;
    bool into = false;
};

class ImportJob : public QObject {
    Q_OBJECT
public:
    explicit ImportJob(QObject* parent = nullptr);
    ~ImportJob() override; // cancels and waits

    // False when a step is still running.
    bool startPlan(const PlanRequest& request);
    bool startStore(const StoreRequest& request);
    void cancel();
    bool isRunning() const;
    bool isStoring() const { return isRunning() && m_storing; }
    // Blocks until the worker is done (for closing the window after cancel()).
    void wait();

signals:
    // fraction in [0,1] or −1 while the length is unknown; what is happening now.
    void progress(double fraction, const QString& what);
    // The plan of request `generation`: the plan, or the errors ("file:line: field:
    // message"), or cancelled.
    void planned(quint64 generation, moewb::gui::ImportPlanPtr plan, const QStringList& errors,
                 bool cancelled);
    // Store: ok: the run's name in message; else the error, or that it was cancelled.
    void finished(bool ok, const QString& message, bool cancelled);

private:
    bool prepare();

    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic_bool> m_cancel;
    std::shared_ptr<std::atomic_bool> m_done; // the worker has sent its result
    bool m_storing = false;
};

// A run name the project does not hold yet ("rank3", "rank3-2", …).
QString uniqueRunName(const QStringList& taken, const QString& base);
// The run name a path suggests: a folder's name, a file's base name.
QString runNameForPath(const QString& path);

} // namespace moewb::gui

Q_DECLARE_METATYPE(moewb::gui::ImportPlanPtr)
