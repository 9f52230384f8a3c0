#include "KnownHostsPolicy.h"

#include "../RemoteTr.h"
#include <libssh/libssh.h>

#include <QDir>
#include <QFile>

namespace moewb::remote {

namespace {

QString fingerprintOf(ssh_key key) {
    unsigned char* hash = nullptr;
    size_t len = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len) != SSH_OK)
        return RemoteSsh::tr("(unknown fingerprint)");
    char* fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len);
    ssh_clean_pubkey_hash(&hash);
    if (!fp)
        return RemoteSsh::tr("(unknown fingerprint)");
    const QString out = QString::fromLatin1(fp);
    ssh_string_free_char(fp);
    return out;
}

QString keyTypeOf(ssh_key key) {
    const char* t = ssh_key_type_to_char(ssh_key_type(key));
    return t ? QString::fromLatin1(t) : QStringLiteral("unknown");
}

QString knownHostsFileOf(ssh_session s) {
    char* path = nullptr;
    if (ssh_options_get(s, SSH_OPTIONS_KNOWNHOSTS, &path) == SSH_OK && path) {
        const QString out = QString::fromLocal8Bit(path);
        ssh_string_free_char(path);
        return out;
    }
    return QDir::homePath() + QStringLiteral("/.ssh/known_hosts");
}

// The host token libssh uses in known_hosts: "host" or "[host]:port".
QString knownHostsNameOf(ssh_session s) {
    char* entry = nullptr;
    if (ssh_session_export_known_hosts_entry(s, &entry) != SSH_OK || !entry)
        return {};
    const QString line = QString::fromLatin1(entry);
    ssh_string_free_char(entry);
    return line.section(QLatin1Char(' '), 0, 0);
}

} // namespace

KnownHostsPolicy KnownHostsPolicy::refuseUnknown() { return KnownHostsPolicy(nullptr); }
KnownHostsPolicy KnownHostsPolicy::acceptUnknown() {
    return KnownHostsPolicy([](const HostKeyInfo&) { return true; });
}
KnownHostsPolicy KnownHostsPolicy::ask(AcceptUnknown callback) { return KnownHostsPolicy(std::move(callback)); }
KnownHostsPolicy KnownHostsPolicy::decide(Decide callback) {
    KnownHostsPolicy p(nullptr);
    p.m_decide = std::move(callback);
    return p;
}

QStringList KnownHostsPolicy::knownFingerprints(const QString& knownHostsFile, const QString& knownHostsName) {
    QStringList out;
    QFile f(knownHostsFile);
    if (knownHostsName.isEmpty() || !f.open(QIODevice::ReadOnly))
        return out;
    const QByteArray host = knownHostsName.toUtf8();
    // known_hosts is small; read it line by line, let libssh match (plain or hashed)
    // host patterns and parse the key. Lines it cannot parse are skipped.
    while (!f.atEnd()) {
        const QByteArray line = f.readLine(64 * 1024).trimmed();
        if (line.isEmpty() || line.startsWith('#') || line.startsWith('@'))
            continue;
        ssh_knownhosts_entry* e = nullptr;
        const int rc = ssh_known_hosts_parse_line(host.constData(), line.constData(), &e);
        if (rc == SSH_OK && e && e->publickey) {
            const QString fp = fingerprintOf(e->publickey) + QStringLiteral(" (") + keyTypeOf(e->publickey) +
                               QLatin1Char(')');
            if (!out.contains(fp))
                out << fp;
        }
        if (e)
            ssh_knownhosts_entry_free(e);
    }
    return out;
}

Expected<Ok, RemoteError> KnownHostsPolicy::verify(ssh_session s, const QString& node) const {
    auto err = [&](RemoteError::Kind k, const QString& msg) {
        return unexpected(RemoteError{k, node, msg});
    };
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(s, &key) != SSH_OK || !key)
        return err(RemoteError::Kind::Protocol,
                   RemoteSsh::tr("%1: could not read the host key: %2").arg(node, QString::fromUtf8(ssh_get_error(s))));
    HostKeyInfo info;
    info.node = node;
    info.fingerprint = fingerprintOf(key);
    info.keyType = keyTypeOf(key);
    ssh_key_free(key);
    info.knownHostsFile = knownHostsFileOf(s);
    info.knownHostsName = knownHostsNameOf(s);

    const ssh_known_hosts_e state = ssh_session_is_known_server(s);
    switch (state) {
    case SSH_KNOWN_HOSTS_OK:
        return Ok{};
    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER: {
        QStringList known = knownFingerprints(info.knownHostsFile, info.knownHostsName);
        if (m_decide) {
            HostKeyInfo shown = info;
            shown.changed = true;
            shown.knownFingerprints = known;
            m_decide(shown);  // shown, never accepted
        }
        if (known.isEmpty())
            known << RemoteSsh::tr("(an entry in %1)").arg(info.knownHostsFile);
        return err(RemoteError::Kind::HostKeyChanged,
                   RemoteSsh::tr("WARNING: the host key of %1 (%2) has CHANGED -- refusing to connect. "
                                 "known_hosts (%3) has %4; the node offers %5 (%6). This may be a reinstalled "
                                 "node or a man-in-the-middle attack; remove the old entry only once you "
                                 "have checked the new fingerprint.")
                       .arg(node, info.knownHostsName, info.knownHostsFile, known.join(QStringLiteral(", ")),
                            info.fingerprint, info.keyType));
    }
    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN: {
        const HostKeyDecision decision = m_decide                       ? m_decide(info)
                                         : (m_accept && m_accept(info)) ? HostKeyDecision::AcceptAndRemember
                                                                        : HostKeyDecision::Reject;
        if (decision == HostKeyDecision::Reject)
            return err(RemoteError::Kind::HostKeyUnknown,
                       RemoteSsh::tr("%1: unknown host key %2 (%3), not in %4; refused (accept it interactively "
                                     "or with --accept-new-host-keys)")
                           .arg(node, info.fingerprint, info.keyType, info.knownHostsFile));
        if (decision == HostKeyDecision::AcceptOnce)
            return Ok{};  // trusted for this connection, known_hosts left as it is
        if (ssh_session_update_known_hosts(s) != SSH_OK)
            return err(RemoteError::Kind::Protocol, RemoteSsh::tr("%1: could not write %2: %3")
                                                        .arg(node, info.knownHostsFile,
                                                             QString::fromUtf8(ssh_get_error(s))));
        return Ok{};
    }
    case SSH_KNOWN_HOSTS_ERROR:
        break;
    }
    return err(RemoteError::Kind::Protocol, RemoteSsh::tr("%1: could not check the host key against %2: %3")
                                                .arg(node, info.knownHostsFile, QString::fromUtf8(ssh_get_error(s))));
}

} // namespace moewb::remote
