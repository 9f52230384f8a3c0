#pragma once
// One libssh session to one node. A session belongs to the thread that created it
// and must never be used from (or passed to) another thread: every call checks.
// Connecting honours ~/.ssh/config (or a given file), checks the host key strictly
// (KnownHostsPolicy), then authenticates with ssh-agent and key files; a key's
// passphrase is asked through a callback, used once and never stored.
#include "KnownHostsPolicy.h"
#include "RemoteError.h"
#include "common/Expected.h"
#include "../NodeAddress.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

struct ssh_session_struct;

namespace moewb::remote {

struct SshOptions {
    NodeAddress node;
    // Empty: libssh's defaults (~/.ssh, ~/.ssh/config then /etc/ssh/ssh_config,
    // ~/.ssh/known_hosts).
    QString sshDir;
    QString configFile;
    QString knownHostsFile;
    QStringList identityFiles;  // added before the defaults of sshDir
    bool useAgent = true;       // SSH_AUTH_SOCK, when set
    int connectTimeoutMs = 10000;
    // Set from any thread to give up connecting (checked every 50 ms while the TCP
    // connection and the key exchange are under way); the result is Cancelled.
    const std::atomic_bool* cancel = nullptr;
    KnownHostsPolicy hostKeys = KnownHostsPolicy::refuseUnknown();
    // Asked for a key's passphrase; return an empty string to skip that key.
    std::function<QString(const QString& prompt)> passphrase;
};

class SshSession {
public:
    static Expected<std::unique_ptr<SshSession>, RemoteError> connect(const SshOptions& options);
    ~SshSession();
    SshSession(const SshSession&) = delete;
    SshSession& operator=(const SshSession&) = delete;

    const QString& node() const { return m_node; }
    // The host name actually connected to (after ~/.ssh/config's HostName).
    const QString& host() const { return m_host; }
    // The raw libssh handle, for RemoteCommand/SftpUpload. Empty error when called
    // from the owning thread; otherwise InvalidArgument.
    Expected<ssh_session_struct*, RemoteError> handle() const;
    RemoteError error(RemoteError::Kind kind, const QString& what) const;  // "<node>: what: libssh's error"

    struct Callbacks;  // libssh callback data (opaque)

private:
    SshSession() = default;
    ssh_session_struct* m_s = nullptr;
    std::unique_ptr<Callbacks> m_cb;
    QString m_node;
    QString m_host;
    const void* m_thread = nullptr;
};

} // namespace moewb::remote
