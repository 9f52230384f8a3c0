#pragma once
// Stage 1's "Run on cluster…": the sweep's inputs (cluster, config record, node
// counts, EP size, message sizes suggested from the record, repeats, launcher,
// backend) and, while it runs on a worker thread (remote::StageOneSweep), one
// progress bar per node, the live log (copyable) and Cancel (the sweep ends within
// about a second). docs/gui.md, docs/remote.md.
#include <QFutureWatcher>
#include <QJsonObject>
#include <QMap>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace moewb::store {
class ProjectStore;
}
namespace moewb::remote {
class StageOneSweep;
struct StageOneRequest;
} // namespace moewb::remote

namespace moewb::gui {

// What a finished sweep hands back to the GUI thread.
struct SweepOutcome {
    QStringList savedRuns;
    QString failure; // empty on success; one line per node failure
    bool cancelled = false;
};

class StageOneRunPanel : public QWidget {
    Q_OBJECT
public:
    explicit StageOneRunPanel(QWidget* parent = nullptr);
    ~StageOneRunPanel() override; // cancels a running sweep and waits for it (≈1 s)

    void setProject(store::ProjectStore* project);
    bool isRunning() const;

    // The request the inputs describe; empty with *error set when an input is wrong.
    std::optional<remote::StageOneRequest> request(QString* error) const;

    // Message sizes for the record: one micro-batch of one sequence dispatched to the
    // experts, sequence_length × top_k × hidden_size × 2 bytes (bf16), as powers of
    // two from 1/8 to 2× that. Empty when the record lacks those fields.
    static QList<quint64> suggestedSizes(const QJsonObject& recordJson);
    // "1 MiB, 16 MiB" <-> bytes. parseSizes accepts B, K/KiB, M/MiB, G/GiB suffixes.
    static QString sizesText(const QList<quint64>& sizes);
    static std::optional<QList<quint64>> parseSizes(const QString& text, QString* error);

    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPlainTextEdit* log() const { return m_log; }

public slots:
    void start();
    void cancel();

signals:
    void runsSaved(const QStringList& runs);
    void statusMessage(const QString& text);

private:
    void recordChosen();
    void clusterChosen();
    void showClusterKind();  // launcher and host-key choices for a local or remote cluster
    void suggestSizes();
    void progress(const QString& node, double fraction, const QString& what);
    void appendLog(const QString& node, int stream, const QString& text);
    void finished();

    store::ProjectStore* m_project = nullptr;
    QComboBox* m_cluster = nullptr;
    QComboBox* m_record = nullptr;
    QLineEdit* m_nodeCounts = nullptr;
    QSpinBox* m_ep = nullptr;
    QSpinBox* m_gpus = nullptr;
    QLineEdit* m_sizes = nullptr;
    QPushButton* m_suggest = nullptr;
    QSpinBox* m_repeats = nullptr;
    QComboBox* m_launcher = nullptr;
    QComboBox* m_backend = nullptr;
    QCheckBox* m_trustKeys = nullptr;
    QLabel* m_hint = nullptr;
    QLabel* m_where = nullptr;  // a local cluster: "this computer, N ranks ..."
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_copyLog = nullptr;
    QWidget* m_progressBox = nullptr;
    QGridLayout* m_progressGrid = nullptr;
    QMap<QString, QPair<QProgressBar*, QLabel*>> m_bars;
    QPlainTextEdit* m_log = nullptr;
    QLabel* m_state = nullptr;

    std::shared_ptr<remote::StageOneSweep> m_sweep;
    QFutureWatcher<SweepOutcome>* m_watcher = nullptr;
    QStringList m_savedRuns;
};

} // namespace moewb::gui
