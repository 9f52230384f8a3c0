#include "ClusterDialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace moewb::gui {

ClusterDialog::ClusterDialog(const QStringList& takenNames, QWidget* parent, const std::optional<store::ClusterRow>& existing,
                             const QList<store::NodeRow>& existingNodes)
    : QDialog(parent), m_taken(takenNames) {
    setObjectName(QStringLiteral("clusterDialog"));
    setWindowTitle(existing ? tr("Edit cluster %1").arg(existing->name) : tr("Add a cluster"));
    auto* layout = new QVBoxLayout(this);

    auto* top = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("clusterNameEdit"));
    m_name->setPlaceholderText(tr("e.g. a100-lab"));
    auto* nameLabel = new QLabel(tr("&Name:"), this);
    nameLabel->setBuddy(m_name);
    top->addRow(nameLabel, m_name);
    auto* kinds = new QHBoxLayout;
    m_ssh = new QRadioButton(tr("&Nodes over SSH"), this);
    m_ssh->setObjectName(QStringLiteral("sshKindButton"));
    m_local = new QRadioButton(tr("&This computer (local ranks, no SSH)"), this);
    m_local->setObjectName(QStringLiteral("localKindButton"));
    kinds->addWidget(m_ssh);
    kinds->addWidget(m_local);
    kinds->addStretch(1);
    top->addRow(tr("Reached by:"), kinds);
    layout->addLayout(top);

    // SSH nodes.
    auto* sshBox = new QGroupBox(tr("SSH nodes"), this);
    m_sshBox = sshBox;
    auto* sshForm = new QFormLayout(sshBox);
    sshForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_nodes = new QPlainTextEdit(sshBox);
    m_nodes->setObjectName(QStringLiteral("nodesEdit"));
    m_nodes->setTabChangesFocus(true);
    m_nodes->setPlaceholderText(tr("one node a line (or comma-separated):\ngpu1\nme@10.0.0.7:2222"));
    m_nodes->setFixedHeight(m_nodes->fontMetrics().lineSpacing() * 6);
    auto* nodesLabel = new QLabel(tr("N&odes:"), sshBox);
    nodesLabel->setBuddy(m_nodes);
    nodesLabel->setToolTip(tr("An ~/.ssh/config alias (its HostName, User, Port and IdentityFile apply), or "
                              "[user@]host[:port]; IPv6 addresses in brackets."));
    sshForm->addRow(nodesLabel, m_nodes);
    m_gpus = new QSpinBox(sshBox);
    m_gpus->setObjectName(QStringLiteral("gpusSpin"));
    m_gpus->setRange(0, 4096);
    m_gpus->setSpecialValueText(tr("from the inventory"));
    auto* gpusLabel = new QLabel(tr("&GPUs per node:"), sshBox);
    gpusLabel->setBuddy(m_gpus);
    sshForm->addRow(gpusLabel, m_gpus);
    auto* identityRow = new QHBoxLayout;
    m_identity = new QLineEdit(sshBox);
    m_identity->setObjectName(QStringLiteral("identityEdit"));
    m_identity->setPlaceholderText(tr("none: ssh-agent, then ~/.ssh/id_ed25519, id_ecdsa, id_rsa"));
    auto* browse = new QPushButton(tr("&Browse…"), sshBox);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("SSH private key"),
                                                       qEnvironmentVariable("HOME") + QStringLiteral("/.ssh"));
        if (!f.isEmpty())
            m_identity->setText(f);
    });
    identityRow->addWidget(m_identity, 1);
    identityRow->addWidget(browse);
    auto* identityLabel = new QLabel(tr("&Identity file:"), sshBox);
    identityLabel->setBuddy(m_identity);
    identityLabel->setToolTip(tr("Only the file's path is kept in the project. A passphrase is asked when the key "
                                 "is used and never stored."));
    sshForm->addRow(identityLabel, identityRow);
    layout->addWidget(sshBox);

    // This computer.
    auto* localBox = new QGroupBox(tr("This computer"), this);
    m_localBox = localBox;
    auto* localForm = new QFormLayout(localBox);
    m_ranks = new QSpinBox(localBox);
    m_ranks->setObjectName(QStringLiteral("ranksSpin"));
    m_ranks->setRange(remote::kMinLocalRanks, remote::kMaxLocalRanks);
    m_ranks->setValue(4);
    auto* ranksLabel = new QLabel(tr("&Ranks:"), localBox);
    ranksLabel->setBuddy(m_ranks);
    localForm->addRow(ranksLabel, m_ranks);
    m_rate = new QLineEdit(localBox);
    m_rate->setObjectName(QStringLiteral("netnsRateEdit"));
    m_rate->setPlaceholderText(tr("empty: loopback; e.g. 200mbit (root only)"));
    auto* rateLabel = new QLabel(tr("Network &rate:"), localBox);
    rateLabel->setBuddy(m_rate);
    rateLabel->setToolTip(tr("Each rank in its own network namespace, its link shaped to this rate (tc tbf): a "
                             "slower network on the same machine."));
    localForm->addRow(rateLabel, m_rate);
    m_burst = new QLineEdit(localBox);
    m_burst->setObjectName(QStringLiteral("netnsBurstEdit"));
    m_burst->setPlaceholderText(tr("empty: 10 ms of the rate, at least 32kb"));
    auto* burstLabel = new QLabel(tr("B&urst:"), localBox);
    burstLabel->setBuddy(m_burst);
    localForm->addRow(burstLabel, m_burst);
    layout->addWidget(localBox);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setStyleSheet(QStringLiteral("color:#B00020; font-weight:bold;"));
    m_problem->setVisible(false);
    layout->addWidget(m_problem);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    buttons->button(QDialogButtonBox::Ok)->setText(existing ? tr("&Save") : tr("&Add"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ClusterDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_ssh, &QRadioButton::toggled, this, &ClusterDialog::updateKind);
    if (existing) {
        m_name->setText(existing->name);
        if (const auto spec = remote::LocalClusterSpec::fromFacts(existing->facts)) {
            m_local->setChecked(true);
            m_ranks->setValue(std::clamp(spec->ranks, remote::kMinLocalRanks, remote::kMaxLocalRanks));
            m_rate->setText(spec->netnsRate);
            m_burst->setText(spec->netnsBurst);
        } else {
            m_ssh->setChecked(true);
            QStringList addresses;
            for (const auto& n : existingNodes)
                addresses << n.address;
            m_nodes->setPlainText(addresses.join(QLatin1Char('\n')));
            m_gpus->setValue(existing->gpusPerNode);
            m_identity->setText(existing->identityFile);
        }
        // A cluster keeps its kind: its runs were measured one way.
        m_ssh->setEnabled(false);
        m_local->setEnabled(false);
    } else {
        m_ssh->setChecked(true);
    }
    updateKind();
    setMinimumWidth(560);
}

void ClusterDialog::updateKind() {
    m_sshBox->setVisible(m_ssh->isChecked());
    m_localBox->setVisible(!m_ssh->isChecked());
    adjustSize();
}

remote::ClusterInput ClusterDialog::input() const {
    remote::ClusterInput in;
    in.name = m_name->text();
    in.local = m_local->isChecked();
    if (in.local) {
        in.ranks = QString::number(m_ranks->value());
        in.netnsRate = m_rate->text();
        in.netnsBurst = m_burst->text();
    } else {
        in.nodes = QStringList{m_nodes->toPlainText()};
        in.gpusPerNode = QString::number(m_gpus->value());
        in.identityFile = m_identity->text();
    }
    return in;
}

QString ClusterDialog::problemText() const {
    return m_problem->isVisible() ? m_problem->text() : QString();
}

QString ClusterDialog::fieldLabel(remote::ClusterField field) const {
    switch (field) {
    case remote::ClusterField::Name: return tr("Name");
    case remote::ClusterField::Nodes: return tr("Nodes");
    case remote::ClusterField::GpusPerNode: return tr("GPUs per node");
    case remote::ClusterField::IdentityFile: return tr("Identity file");
    case remote::ClusterField::Ranks: return tr("Ranks");
    case remote::ClusterField::NetnsRate: return tr("Network rate");
    case remote::ClusterField::NetnsBurst: return tr("Burst");
    }
    return {};
}

QWidget* ClusterDialog::fieldWidget(remote::ClusterField field) const {
    switch (field) {
    case remote::ClusterField::Name: return m_name;
    case remote::ClusterField::Nodes: return m_nodes;
    case remote::ClusterField::GpusPerNode: return m_gpus;
    case remote::ClusterField::IdentityFile: return m_identity;
    case remote::ClusterField::Ranks: return m_ranks;
    case remote::ClusterField::NetnsRate: return m_rate;
    case remote::ClusterField::NetnsBurst: return m_burst;
    }
    return m_name;
}

void ClusterDialog::accept() {
    auto def = remote::validateCluster(input(), m_taken);
    if (!def) {
        m_problem->setText(tr("%1: %2").arg(fieldLabel(def.error().field), def.error().message));
        m_problem->setVisible(true);
        if (QWidget* w = fieldWidget(def.error().field))
            w->setFocus();
        return;
    }
    m_problem->setVisible(false);
    m_definition = *def;
    QDialog::accept();
}

} // namespace moewb::gui
