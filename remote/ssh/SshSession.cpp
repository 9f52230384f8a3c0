#include "SshSession.h"

#include "../RemoteTr.h"
#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <poll.h>

#include "ShellQuote.h"
#include "TerminalPassphrase.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>
#include <QElapsedTimer>
#include <QThread>

#include <cstring>

namespace moewb::remote {

struct SshSession::Callbacks {
    ssh_callbacks_struct cb{};
    std::function<QString(const QString&)> passphrase;
    bool terminal = false;   // no callback: ask on the terminal (TerminalPassphrase.h)
    bool asked = false;
    bool noTerminal = false; // a key needed a passphrase and there was no terminal to ask
};

namespace {

int authCallback(const char* prompt, char* buf, size_t len, int /*echo*/, int /*verify*/, void* userdata) {
    auto* self = static_cast<SshSession::Callbacks*>(userdata);
    if (!self || (!self->passphrase && !self->terminal) || len == 0)
        return SSH_ERROR;
    QByteArray bytes;
    if (self->passphrase) {
        self->asked = true;
        QString answer = self->passphrase(QString::fromUtf8(prompt ? prompt : ""));
        bytes = answer.toUtf8();
        answer.fill(QLatin1Char('\0'));
        answer.clear();
    } else {
        // libssh's prompt names the key file ("Passphrase for key ...:"); ours says what
        // it is for. Escaped: the prompt carries a file name.
        const QString what = QString::fromUtf8(prompt ? prompt : "").simplified();
        QString shown;
        for (QChar c : what)
            shown += (c.unicode() < 0x20 || c.unicode() == 0x7f) ? QChar(u'?') : c;
        std::optional<QByteArray> typed = askOnTerminal(
            RemoteSsh::tr("moewb: no ssh-agent holds this key. %1 ").arg(shown.isEmpty() ? RemoteSsh::tr("Passphrase:") : shown));
        if (!typed) {
            self->noTerminal = true;
            return SSH_ERROR;
        }
        self->asked = true;
        bytes = std::move(*typed);
    }
    int rc = SSH_ERROR;
    if (!bytes.isEmpty() && static_cast<size_t>(bytes.size()) < len) {
        std::memcpy(buf, bytes.constData(), static_cast<size_t>(bytes.size()));
        buf[bytes.size()] = '\0';
        rc = SSH_OK;
    }
    // Never kept: wipe our copy (libssh wipes its buffer after use).
    bytes.fill('\0');
    return rc;
}

// A shell word for a ProxyCommand: quoted, and '%' doubled (libssh expands %h, %p, ...).
QString proxyWord(const QString& v) {
    QString q = shellQuote(v);
    q.replace(QLatin1Char('%'), QStringLiteral("%%"));
    return q;
}

// libssh 0.10 turns `ProxyJump` into the ProxyCommand
//   ssh [-l USER] [-p PORT] [-J NEXT,...] -W '[%h]:%p' JUMP
// run with $SHELL -c. That ssh reads the password database's ~/.ssh, not the files of
// this session: give it this session's config file, known_hosts (strictly: the jump
// host's key must be known; never asked), keys and agent setting, no prompts, and a log
// file for its error message. Returns the rewritten command, or an empty string when
// the command is not one libssh made from ProxyJump (a user's own ProxyCommand is left
// as it is).
QString jumpCommand(const QString& generated, const SshOptions& o, const QString& logFile) {
    if (!generated.startsWith(QLatin1String("ssh ")) || !generated.contains(QLatin1String(" -W '[%h]:%p' ")))
        return {};
    QStringList opts;
    QString config = o.configFile;
    if (config.isEmpty() && !o.sshDir.isEmpty() && QFileInfo::exists(o.sshDir + QStringLiteral("/config")))
        config = o.sshDir + QStringLiteral("/config");
    if (!config.isEmpty())
        opts << QStringLiteral("-F") << proxyWord(config);
    QString knownHosts = o.knownHostsFile;
    if (knownHosts.isEmpty() && !o.sshDir.isEmpty())
        knownHosts = o.sshDir + QStringLiteral("/known_hosts");
    if (!knownHosts.isEmpty())
        opts << QStringLiteral("-o") << proxyWord(QStringLiteral("UserKnownHostsFile=") + knownHosts);
    opts << QStringLiteral("-o") << QStringLiteral("StrictHostKeyChecking=yes") << QStringLiteral("-o")
         << QStringLiteral("BatchMode=yes") << QStringLiteral("-o")
         << QStringLiteral("ConnectTimeout=%1").arg(qMax(1, (o.connectTimeoutMs + 999) / 1000));
    if (!o.useAgent)
        opts << QStringLiteral("-o") << QStringLiteral("IdentityAgent=none");
    QStringList keys = o.identityFiles;
    if (!o.sshDir.isEmpty())
        for (const char* k : {"id_ed25519", "id_ecdsa", "id_rsa"})
            if (QFileInfo::exists(o.sshDir + QLatin1Char('/') + QLatin1String(k)))
                keys << o.sshDir + QLatin1Char('/') + QLatin1String(k);
    for (const QString& k : keys)
        opts << QStringLiteral("-i") << proxyWord(k);
    if (!logFile.isEmpty())
        opts << QStringLiteral("-E") << proxyWord(logFile);
    return QStringLiteral("ssh ") + opts.join(QLatin1Char(' ')) + generated.mid(3);
}

} // namespace

Expected<std::unique_ptr<SshSession>, RemoteError> SshSession::connect(const SshOptions& o) {
    const QString node = o.node.display();
    auto fail = [&](RemoteError::Kind k, const QString& msg) { return unexpected(RemoteError{k, node, msg}); };
    if (o.node.host.isEmpty())
        return fail(RemoteError::Kind::InvalidArgument, RemoteSsh::tr("%1: no host given").arg(node));

    std::unique_ptr<SshSession> self(new SshSession);
    self->m_node = node;
    self->m_thread = QThread::currentThread();
    self->m_s = ssh_new();
    if (!self->m_s)
        return fail(RemoteError::Kind::Protocol, RemoteSsh::tr("%1: could not create an SSH session").arg(node));
    ssh_session s = self->m_s;

    auto libsshError = [&](const QString& what) {
        return QStringLiteral("%1: %2: %3").arg(node, what, QString::fromUtf8(ssh_get_error(s)));
    };
    auto setStr = [&](ssh_options_e opt, const QString& v) {
        const QByteArray b = v.toLocal8Bit();
        return ssh_options_set(s, opt, b.constData()) == SSH_OK;
    };

    const QByteArray host = o.node.host.toUtf8();
    if (ssh_options_set(s, SSH_OPTIONS_HOST, host.constData()) != SSH_OK)
        return fail(RemoteError::Kind::InvalidArgument, libsshError(RemoteSsh::tr("bad host")));
    if (!o.node.user.isEmpty() && !setStr(SSH_OPTIONS_USER, o.node.user))
        return fail(RemoteError::Kind::InvalidArgument, libsshError(RemoteSsh::tr("bad user")));
    if (o.node.port > 0) {
        const unsigned int port = static_cast<unsigned int>(o.node.port);
        ssh_options_set(s, SSH_OPTIONS_PORT, &port);
    }
    if (!o.sshDir.isEmpty() && !setStr(SSH_OPTIONS_SSH_DIR, o.sshDir))
        return fail(RemoteError::Kind::InvalidArgument, libsshError(RemoteSsh::tr("bad ssh directory")));
    if (!o.knownHostsFile.isEmpty() && !setStr(SSH_OPTIONS_KNOWNHOSTS, o.knownHostsFile))
        return fail(RemoteError::Kind::InvalidArgument, libsshError(RemoteSsh::tr("bad known_hosts path")));
    for (const QString& id : o.identityFiles)
        setStr(SSH_OPTIONS_ADD_IDENTITY, id);
    if (!o.useAgent)
        setStr(SSH_OPTIONS_IDENTITY_AGENT, QStringLiteral("/nonexistent/moewb-no-agent"));

    // ~/.ssh/config (or the given file) after the explicit settings: as with
    // OpenSSH, the first value obtained wins, so user@host:port beats the config.
    {
        const QByteArray cfg = o.configFile.toLocal8Bit();
        if (ssh_options_parse_config(s, o.configFile.isEmpty() ? nullptr : cfg.constData()) != SSH_OK)
            return fail(RemoteError::Kind::InvalidArgument, libsshError(RemoteSsh::tr("bad ssh configuration")));
    }
    if (!o.node.user.isEmpty())
        setStr(SSH_OPTIONS_USER, o.node.user);
    if (o.node.port > 0) {
        const unsigned int port = static_cast<unsigned int>(o.node.port);
        ssh_options_set(s, SSH_OPTIONS_PORT, &port);
    }
    // ProxyJump (see jumpCommand): the jump host is reached by OpenSSH's ssh with this
    // session's files; its error message is read back from its log.
    QTemporaryFile jumpLog(QDir::tempPath() + QStringLiteral("/moewb-jump-XXXXXX.log"));
    QString jumpVia;
    {
        char* pc = nullptr;
        if (ssh_options_get(s, SSH_OPTIONS_PROXYCOMMAND, &pc) == SSH_OK && pc) {
            const QString generated = QString::fromUtf8(pc);
            ssh_string_free_char(pc);
            const QString cmd = jumpCommand(generated, o, jumpLog.open() ? jumpLog.fileName() : QString());
            if (!cmd.isEmpty()) {
                jumpVia = generated.section(QLatin1Char(' '), -1);
                if (!setStr(SSH_OPTIONS_PROXYCOMMAND, cmd))
                    return fail(RemoteError::Kind::InvalidArgument, libsshError(RemoteSsh::tr("bad ProxyJump")));
            }
        }
    }
    {
        char* h = nullptr;
        if (ssh_options_get(s, SSH_OPTIONS_HOST, &h) == SSH_OK && h) {
            self->m_host = QString::fromUtf8(h);
            ssh_string_free_char(h);
        } else {
            self->m_host = o.node.host;
        }
    }
    const int ms = qMax(1, o.connectTimeoutMs);
    const long sec = ms / 1000;
    const long usec = static_cast<long>(ms % 1000) * 1000;
    ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &sec);
    ssh_options_set(s, SSH_OPTIONS_TIMEOUT_USEC, &usec);

    self->m_cb = std::make_unique<Callbacks>();
    self->m_cb->passphrase = o.passphrase;
    self->m_cb->terminal = !o.passphrase && terminalPassphrasePrompt();
    self->m_cb->cb.userdata = self->m_cb.get();
    self->m_cb->cb.auth_function = authCallback;
    ssh_callbacks_init(&self->m_cb->cb);
    ssh_set_callbacks(s, &self->m_cb->cb);

    // Non-blocking while connecting, so that a cancel is seen every 50 ms and the
    // timeout is ours: ssh_connect() returns SSH_AGAIN until the TCP connection, the
    // banner and the key exchange are done.
    ssh_set_blocking(s, 0);
    QElapsedTimer connectClock;
    connectClock.start();
    int connected = SSH_AGAIN;
    bool ourTimeout = false;
    while ((connected = ssh_connect(s)) == SSH_AGAIN) {
        if (o.cancel && o.cancel->load())
            return fail(RemoteError::Kind::Cancelled, RemoteSsh::tr("%1: connecting cancelled").arg(node));
        if (connectClock.elapsed() >= ms) {
            ourTimeout = true;
            break;
        }
        const socket_t fd = ssh_get_fd(s);
        if (fd == SSH_INVALID_SOCKET) {
            QThread::msleep(10);
            continue;
        }
        pollfd p{fd, POLLIN | POLLOUT, 0};
        // POLLOUT is ready at once on an open socket: wait for input unless libssh
        // still has bytes to send.
        p.events = ssh_get_poll_flags(s) & SSH_WRITE_PENDING ? short(POLLIN | POLLOUT) : short(POLLIN);
        ::poll(&p, 1, 50);
    }
    ssh_set_blocking(s, 1);
    if (connected != SSH_OK) {
        const QString e = ourTimeout ? QStringLiteral("Timeout connecting to %1").arg(self->m_host)
                                     : QString::fromUtf8(ssh_get_error(s));
        const bool timeout = ourTimeout || e.contains(QLatin1String("imeout"), Qt::CaseInsensitive) ||
                             e.contains(QLatin1String("timed out"), Qt::CaseInsensitive);
        QString via;
        if (!jumpVia.isEmpty()) {
            QFile log(jumpLog.fileName());
            QString last;
            if (log.open(QIODevice::ReadOnly))
                for (const QByteArray& line : log.readAll().split('\n'))
                    if (!line.trimmed().isEmpty())
                        last = QString::fromUtf8(line.trimmed());
            via = RemoteSsh::tr(" (through ProxyJump %1%2)").arg(jumpVia, last.isEmpty() ? QString() : QStringLiteral(": ") + last);
        }
        return fail(timeout ? RemoteError::Kind::TimedOut : RemoteError::Kind::Unreachable,
                    RemoteSsh::tr("%1: cannot connect (%2 ms timeout): %3%4").arg(node).arg(ms).arg(e, via));
    }

    if (!o.knownHostsFile.isEmpty())
        QDir().mkpath(QFileInfo(o.knownHostsFile).absolutePath());
    auto hk = o.hostKeys.verify(s, node);
    if (!hk)
        return unexpected(hk.error());

    int rc = ssh_userauth_none(s, nullptr);
    if (rc != SSH_AUTH_SUCCESS) {
        rc = ssh_userauth_publickey_auto(s, nullptr, nullptr);
    }
    if (rc == SSH_AUTH_ERROR)
        return fail(RemoteError::Kind::Protocol, libsshError(RemoteSsh::tr("authentication failed")));
    if (rc != SSH_AUTH_SUCCESS) {
        char* user = nullptr;
        QString u;
        if (ssh_options_get(s, SSH_OPTIONS_USER, &user) == SSH_OK && user) {
            u = QString::fromUtf8(user);
            ssh_string_free_char(user);
        }
        return fail(RemoteError::Kind::AuthRefused,
                    RemoteSsh::tr("%1: authentication refused for user '%2' (tried ssh-agent and key files%3)")
                        .arg(node, u,
                             self->m_cb->noTerminal
                                 ? RemoteSsh::tr("; a key needs its passphrase and there is no terminal to ask it "
                                                 "on: add the key to ssh-agent (ssh-add) and try again")
                                 : self->m_cb->asked ? RemoteSsh::tr("; a passphrase was asked") : QString()));
    }
    return self;
}

SshSession::~SshSession() {
    if (m_s) {
        if (ssh_is_connected(m_s))
            ssh_disconnect(m_s);
        ssh_free(m_s);
    }
}

Expected<ssh_session_struct*, RemoteError> SshSession::handle() const {
    if (QThread::currentThread() != m_thread)
        return unexpected(RemoteError{RemoteError::Kind::InvalidArgument, m_node,
                                      RemoteSsh::tr("%1: SSH session used from another thread (sessions belong "
                                                    "to the thread that opened them)")
                                          .arg(m_node)});
    return m_s;
}

RemoteError SshSession::error(RemoteError::Kind kind, const QString& what) const {
    return RemoteError{kind, m_node,
                       QStringLiteral("%1: %2: %3").arg(m_node, what, QString::fromUtf8(ssh_get_error(m_s)))};
}

} // namespace moewb::remote
