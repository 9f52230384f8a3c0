#include "ProbeSecret.h"

#include "../RemoteTr.h"
#include "../ssh/SftpSession.h"

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <QRandomGenerator>

#include <fcntl.h>

#include <memory>

namespace moewb::remote {

QByteArray ProbeSecret::generate() {
    QByteArray raw(32, '\0');
    QRandomGenerator::system()->generate(reinterpret_cast<quint32*>(raw.data()),
                                         reinterpret_cast<quint32*>(raw.data() + raw.size()));
    return raw.toHex();
}

Expected<QString, RemoteError> ProbeSecret::place(SshSession& session, const QByteArray& secret) {
    auto sftp = openSftp(session);
    if (!sftp)
        return unexpected(sftp.error());
    // In the directory SFTP starts in (the home directory), named by its absolute path:
    // the command may start elsewhere.
    char* home = sftp_canonicalize_path(sftp->get(), ".");
    if (!home)
        return unexpected(session.error(RemoteError::Kind::Protocol,
                                        RemoteLaunch::tr("cannot find the home directory for the probe's run secret")));
    const QString name = QString::fromUtf8(home) + QStringLiteral("/.moewb-probe-secret-") +
                         QString::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, QLatin1Char('0'));
    ssh_string_free_char(home);
    const QByteArray path = name.toUtf8();
    // O_EXCL: a new file or nothing (an existing name, a planted symlink, fail).
    sftp_file f = sftp_open(sftp->get(), path.constData(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (!f)
        return unexpected(session.error(RemoteError::Kind::Protocol,
                                        RemoteLaunch::tr("cannot create %1 for the probe's run secret (sftp status %2)")
                                            .arg(name)
                                            .arg(sftp_get_error(sftp->get()))));
    const QByteArray line = secret + '\n';
    const ssize_t n = sftp_write(f, line.constData(), static_cast<size_t>(line.size()));
    const int closed = sftp_close(f);
    if (n != line.size() || closed != SSH_OK) {
        sftp_unlink(sftp->get(), path.constData());
        return unexpected(session.error(RemoteError::Kind::Protocol,
                                        RemoteLaunch::tr("cannot create %1 for the probe's run secret (sftp status %2)")
                                            .arg(name)
                                            .arg(sftp_get_error(sftp->get()))));
    }
    return name;
}

void ProbeSecret::remove(SshSession& session, const QString& fileName) {
    auto sftp = openSftp(session);
    if (!sftp)
        return;
    const QByteArray path = fileName.toUtf8();
    sftp_unlink(sftp->get(), path.constData());
}

QStringList ProbeSecret::wrap(const QString& fileName, const QStringList& argv) {
    static const QString script = QStringLiteral(
        "f=$1; shift; IFS= read -r MOEWB_PROBE_SECRET < \"$f\"; s=$?; rm -f -- \"$f\"; "
        "if [ \"$s\" -ne 0 ] || [ -z \"$MOEWB_PROBE_SECRET\" ]; then "
        "echo \"moe-probe: cannot read the run's secret from $f\" >&2; exit 3; fi; "
        "export MOEWB_PROBE_SECRET; exec \"$@\"");
    return QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("moewb-probe-secret"),
                       fileName} +
           argv;
}

} // namespace moewb::remote
