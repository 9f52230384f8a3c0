#pragma once
// The host key of a node, shown as OpenSSH shows it (key type, "SHA256:" fingerprint):
// an unknown key asks Accept once / Accept and remember / Reject; a CHANGED key is a
// warning with only Close — it is refused whatever the user does (docs/remote.md,
// "Host-key policy"). Non-blocking: open() it, read decision() after finished().
#include "ssh/KnownHostsPolicy.h"

#include <QDialog>

class QPushButton;

namespace moewb::gui {

class HostKeyDialog : public QDialog {
    Q_OBJECT
public:
    explicit HostKeyDialog(const remote::HostKeyInfo& key, QWidget* parent = nullptr);

    const remote::HostKeyInfo& key() const { return m_key; }
    // Reject until a button says otherwise (and always for a changed key).
    remote::HostKeyDecision decision() const { return m_decision; }
    QString fingerprintText() const;

private:
    void decide(remote::HostKeyDecision d);

    remote::HostKeyInfo m_key;
    remote::HostKeyDecision m_decision = remote::HostKeyDecision::Reject;
};

} // namespace moewb::gui
