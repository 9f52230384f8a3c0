#pragma once
// Add… / Edit… a cluster: a name, and either SSH nodes (aliases or [user@]host[:port],
// GPUs per node, an identity file) or this computer (ranks, an optional shaped network).
// OK checks the input with the same rules as `moewb cluster add`
// (remote/launch/ClusterDefinition.h) and names the field of the first problem.
#include "launch/ClusterDefinition.h"

#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;
class QSpinBox;
class QWidget;

namespace moewb::gui {

class ClusterDialog : public QDialog {
    Q_OBJECT
public:
    // takenNames: the other clusters of the project. For Edit…, `existing` and its nodes.
    ClusterDialog(const QStringList& takenNames, QWidget* parent = nullptr,
                  const std::optional<store::ClusterRow>& existing = std::nullopt,
                  const QList<store::NodeRow>& existingNodes = {});

    // The checked definition (valid after the dialog was accepted).
    const remote::ClusterDefinition& definition() const { return m_definition; }
    remote::ClusterInput input() const;
    // The problem OK found last ("" when none).
    QString problemText() const;

    void accept() override;

private:
    void updateKind();
    QWidget* fieldWidget(remote::ClusterField field) const;
    QString fieldLabel(remote::ClusterField field) const;

    QStringList m_taken;
    QLineEdit* m_name = nullptr;
    QRadioButton* m_ssh = nullptr;
    QRadioButton* m_local = nullptr;
    QWidget* m_sshBox = nullptr;
    QWidget* m_localBox = nullptr;
    QPlainTextEdit* m_nodes = nullptr;
    QSpinBox* m_gpus = nullptr;
    QLineEdit* m_identity = nullptr;
    QSpinBox* m_ranks = nullptr;
    QLineEdit* m_rate = nullptr;
    QLineEdit* m_burst = nullptr;
    QLabel* m_problem = nullptr;
    remote::ClusterDefinition m_definition;
};

} // namespace moewb::gui
