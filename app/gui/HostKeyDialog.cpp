#include "HostKeyDialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace moewb::gui {

namespace {

QLabel* selectable(const QString& text, QWidget* parent, bool mono = false) {
    auto* l = new QLabel(text, parent);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    if (mono)
        l->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return l;
}

// The part of /etc/ssh/ssh_host_<type>_key.pub a key type is stored under.
QString hostKeyFileType(const QString& keyType) {
    for (const char* t : {"ed25519", "ecdsa", "rsa", "dsa"})
        if (keyType.contains(QLatin1String(t)))
            return QLatin1String(t);
    return QStringLiteral("*");
}

} // namespace

HostKeyDialog::HostKeyDialog(const remote::HostKeyInfo& key, QWidget* parent) : QDialog(parent), m_key(key) {
    setObjectName(key.changed ? QStringLiteral("hostKeyChangedDialog") : QStringLiteral("hostKeyDialog"));
    setWindowTitle(key.changed ? tr("Host key CHANGED: %1").arg(key.node) : tr("Unknown host key: %1").arg(key.node));
    auto* layout = new QVBoxLayout(this);

    auto* head = new QHBoxLayout;
    auto* icon = new QLabel(this);
    const int side = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    icon->setPixmap(style()
                        ->standardIcon(key.changed ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxQuestion,
                                       nullptr, this)
                        .pixmap(side, side));
    icon->setAlignment(Qt::AlignTop);
    head->addWidget(icon);
    auto* headline = new QLabel(this);
    headline->setObjectName(QStringLiteral("hostKeyHeadline"));
    headline->setWordWrap(true);
    headline->setTextFormat(Qt::PlainText);
    QFont bold = headline->font();
    bold.setBold(true);
    headline->setFont(bold);
    headline->setText(key.changed
                          ? tr("WARNING: the host key of %1 has CHANGED. The connection is refused.").arg(key.node)
                          : tr("The host key of %1 is not known on this computer.").arg(key.node));
    head->addWidget(headline, 1);
    layout->addLayout(head);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Node:"), selectable(key.node, this));
    if (!key.knownHostsName.isEmpty())
        form->addRow(tr("Host in known_hosts:"), selectable(key.knownHostsName, this, true));
    auto* type = selectable(key.keyType, this, true);
    type->setObjectName(QStringLiteral("keyTypeLabel"));
    form->addRow(key.changed ? tr("Key offered now:") : tr("Key type:"), type);
    auto* fp = selectable(key.fingerprint, this, true);
    fp->setObjectName(QStringLiteral("fingerprintLabel"));
    form->addRow(tr("Fingerprint:"), fp);
    if (key.changed) {
        auto* known = selectable(key.knownFingerprints.isEmpty() ? tr("(an entry that could not be read)")
                                                                 : key.knownFingerprints.join(QLatin1Char('\n')),
                                 this, true);
        known->setObjectName(QStringLiteral("knownFingerprintsLabel"));
        form->addRow(tr("known_hosts has:"), known);
    }
    if (!key.knownHostsFile.isEmpty())
        form->addRow(tr("known_hosts file:"), selectable(key.knownHostsFile, this));
    layout->addLayout(form);

    auto* advice = new QLabel(this);
    advice->setObjectName(QStringLiteral("hostKeyAdvice"));
    advice->setWordWrap(true);
    advice->setTextFormat(Qt::PlainText);
    advice->setText(
        key.changed
            ? tr("The node offers another key than the one recorded for it. This happens when a node is reinstalled, "
                 "and also when someone intercepts the connection (a man-in-the-middle attack). Ask the node's "
                 "administrator for its fingerprint (ssh-keygen -lf on the node's host key). Only when it is the one "
                 "offered now, remove the old entry (ssh-keygen -R HOST -f KNOWN_HOSTS) and check the cluster again.")
            : tr("Compare the fingerprint with the one the node's administrator reads on the node (ssh-keygen -lf "
                 "/etc/ssh/ssh_host_%1_key.pub). Accept only when they are the same. \"Accept once\" trusts the key "
                 "for this check only; \"Accept and remember\" adds it to known_hosts, so the next connection is "
                 "silent.")
                  .arg(hostKeyFileType(key.keyType)));
    layout->addWidget(advice);

    auto* buttons = new QDialogButtonBox(this);
    if (key.changed) {
        QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
        close->setObjectName(QStringLiteral("closeButton"));
        connect(close, &QPushButton::clicked, this, &QDialog::reject);
        close->setDefault(true);
    } else {
        QPushButton* once = buttons->addButton(tr("Accept &once"), QDialogButtonBox::AcceptRole);
        once->setObjectName(QStringLiteral("acceptOnceButton"));
        QPushButton* remember = buttons->addButton(tr("Accept and &remember"), QDialogButtonBox::AcceptRole);
        remember->setObjectName(QStringLiteral("acceptRememberButton"));
        QPushButton* reject = buttons->addButton(tr("Re&ject"), QDialogButtonBox::RejectRole);
        reject->setObjectName(QStringLiteral("rejectButton"));
        reject->setDefault(true);  // Enter by reflex must not trust a key
        reject->setAutoDefault(true);
        once->setAutoDefault(false);
        remember->setAutoDefault(false);
        connect(once, &QPushButton::clicked, this, [this] { decide(remote::HostKeyDecision::AcceptOnce); });
        connect(remember, &QPushButton::clicked, this, [this] { decide(remote::HostKeyDecision::AcceptAndRemember); });
        connect(reject, &QPushButton::clicked, this, [this] { decide(remote::HostKeyDecision::Reject); });
    }
    layout->addWidget(buttons);
    setMinimumWidth(560);
}

QString HostKeyDialog::fingerprintText() const {
    return m_key.fingerprint;
}

void HostKeyDialog::decide(remote::HostKeyDecision d) {
    m_decision = m_key.changed ? remote::HostKeyDecision::Reject : d;
    if (m_decision == remote::HostKeyDecision::Reject)
        reject();
    else
        accept();
}

} // namespace moewb::gui
