#pragma once
// Strict host-key checking against known_hosts.
//  - known key                   -> proceed
//  - unknown host                -> ask the callback (SHA256 fingerprint shown); accepted
//                                   keys are appended to known_hosts, refused ones end the
//                                   connection. Without a callback: refused.
//  - changed key / key of another type -> always refused; the message names the host,
//                                   the fingerprint known_hosts has and the one offered.
#include "RemoteError.h"
#include "common/Expected.h"

#include <QString>
#include <QStringList>

#include <functional>

struct ssh_session_struct;

namespace moewb::remote {

struct HostKeyInfo {
    QString node;         // as displayed in messages
    QString knownHostsName; // host as written in known_hosts, e.g. "[127.0.0.2]:2222"
    QString keyType;      // "ssh-ed25519", ...
    QString fingerprint;  // "SHA256:..."
    QString knownHostsFile;
    // Set when the key is not the one known_hosts has (a changed key, refused whatever
    // is answered): what known_hosts holds for the host, each "SHA256:... (type)".
    bool changed = false;
    QStringList knownFingerprints;
};

// The answer about an unknown host key: refuse it, trust it for this connection only,
// or trust it and append it to known_hosts.
enum class HostKeyDecision { Reject, AcceptOnce, AcceptAndRemember };

class KnownHostsPolicy {
public:
    // Returns true to trust the key and record it in known_hosts.
    using AcceptUnknown = std::function<bool(const HostKeyInfo&)>;

    static KnownHostsPolicy refuseUnknown();   // the CLI default
    static KnownHostsPolicy acceptUnknown();   // the CLI's --accept-new-host-keys
    static KnownHostsPolicy ask(AcceptUnknown callback);  // true: accepted and remembered
    // The window's dialog: an unknown key gets the callback's decision; a changed key is
    // shown to it too (info.changed, the answer ignored: it is always refused).
    using Decide = std::function<HostKeyDecision(const HostKeyInfo&)>;
    static KnownHostsPolicy decide(Decide callback);

    // Checks the server key of a connected (not yet authenticated) session.
    Expected<Ok, RemoteError> verify(ssh_session_struct* session, const QString& node) const;

    // SHA256 fingerprints of the keys known_hosts holds for a host (as written in
    // known_hosts, e.g. "[127.0.0.2]:2222"), each "SHA256:... (type)".
    static QStringList knownFingerprints(const QString& knownHostsFile, const QString& knownHostsName);

private:
    explicit KnownHostsPolicy(AcceptUnknown cb) : m_accept(std::move(cb)) {}
    AcceptUnknown m_accept;
    Decide m_decide;
};

} // namespace moewb::remote
