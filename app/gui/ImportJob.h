#pragma once
// One import off the GUI thread: parse the file (importers::importFile) and save it
// as a run (ProjectStore::saveRun, one transaction) on a ProjectStore of the
// worker's own, as ProjectStore.h's threading note asks. Progress and the result
// come back as queued signals; cancel() stops the save within one progress step
// (rolled back: nothing is stored) and drops a parse still running.
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace moewb::gui {

struct ImportRequest {
    QString projectPath;
    QString file;
    QString format;  // empty: detect
    QString record;  // the config record the run belongs to
    QString runName; // empty: the file's base name, made unique
};

class ImportJob : public QObject {
    Q_OBJECT
public:
    explicit ImportJob(QObject* parent = nullptr);
    ~ImportJob() override; // cancels and waits

    // False when a job is already running.
    bool start(const ImportRequest& request);
    void cancel();
    bool isRunning() const;
    // Blocks until the worker is done (for closing the window after cancel()).
    void wait();

signals:
    // fraction in [0,1] or −1 while the length is unknown; what is happening now.
    void progress(double fraction, const QString& what);
    // ok: the run's name in message; else the error, naming the file and line.
    void finished(bool ok, const QString& message, bool cancelled);

private:
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

// A run name for the file that the project does not hold yet ("rank3", "rank3-2", …).
QString uniqueRunName(const QStringList& taken, const QString& base);

} // namespace moewb::gui
