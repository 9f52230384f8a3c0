#pragma once
// The Clusters page (docs/gui.md, "Clusters"): the project's clusters (name, launcher,
// nodes, GPUs per node, last check), Add… / Edit… / Remove…, and Check: each node is
// reached off the GUI thread (host key, probe upload, `moe-probe --inventory`) with
// progress and Cancel; an unknown host key asks HostKeyDialog, a changed one is shown
// and refused; the inventory of each node (GPUs, driver, CUDA, NCCL, network) is shown
// and kept in the project. Passphrases are asked in a dialog and never written.
#include "launch/ClusterCheck.h"
#include "store/ProjectStore.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

#include <atomic>
#include <future>
#include <memory>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QThread;

namespace moewb::gui {

class HostKeyDialog;

class ClustersPage : public QWidget {
    Q_OBJECT
public:
    explicit ClustersPage(QWidget* parent = nullptr);
    ~ClustersPage() override;

    // nullptr lets go of the project: a running check is cancelled and waited for.
    void setProject(store::ProjectStore* project);
    void refresh();
    bool selectCluster(const QString& name);
    QString selectedCluster() const;
    bool isChecking() const { return m_thread != nullptr; }

    QTableWidget* clustersTable() const { return m_clusters; }
    QTableWidget* nodesTable() const { return m_nodes; }
    // What the page shows now about the last check ("" before any).
    QString checkSummary() const;

public slots:
    void addCluster();
    void editCluster();
    void removeCluster();
    void checkCluster();
    void cancelCheck();

signals:
    // A cluster was added, edited, removed or checked (the browser lists them).
    void clustersChanged(const QString& selectName);
    void statusMessage(const QString& text);

private:
    struct CheckState {
        std::atomic_bool cancel{false};
    };
    void showNodes();
    void fitNodeColumns();
    void resizeEvent(QResizeEvent* event) override;
    void updateButtons();
    void appendLog(const QString& node, const QString& text);
    void finishCheck(const QString& clusterName, const QList<remote::NodeCheck>& checks, bool cancelled);
    // From a worker thread: shows the dialog on the GUI thread, waits for its answer (or
    // the cancel) without blocking the GUI thread.
    remote::HostKeyDecision askHostKey(const std::shared_ptr<CheckState>& state, const remote::HostKeyInfo& key);
    QString askPassphrase(const std::shared_ptr<CheckState>& state, const QString& prompt);
    std::optional<store::ClusterRow> cluster(const QString& name) const;

    store::ProjectStore* m_project = nullptr;
    QLabel* m_title = nullptr;
    QTableWidget* m_clusters = nullptr;
    QTableWidget* m_nodes = nullptr;
    QLabel* m_nodesTitle = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_edit = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_check = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_now = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QPointer<QThread> m_thread;
    std::shared_ptr<CheckState> m_state;
    QString m_checking;                                   // the cluster being checked
    QHash<QString, QList<remote::NodeCheck>> m_results;   // this session's checks, by cluster
    QList<QPointer<QWidget>> m_questions;                 // open host-key / passphrase dialogs
};

} // namespace moewb::gui
