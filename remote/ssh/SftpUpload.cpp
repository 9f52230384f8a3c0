#include "SftpUpload.h"

#include "../RemoteTr.h"
#include "RemoteCommand.h"

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <fcntl.h>
#include <sys/stat.h>

#include <memory>

namespace moewb::remote {

namespace {

struct SftpDeleter {
    void operator()(sftp_session_struct* s) const {
        if (s)
            sftp_free(s);
    }
};
using Sftp = std::unique_ptr<sftp_session_struct, SftpDeleter>;

struct FileDeleter {
    void operator()(sftp_file_struct* f) const {
        if (f)
            sftp_close(f);
    }
};
using SftpFile = std::unique_ptr<sftp_file_struct, FileDeleter>;

struct AttrDeleter {
    void operator()(sftp_attributes_struct* a) const {
        if (a)
            sftp_attributes_free(a);
    }
};
using Attr = std::unique_ptr<sftp_attributes_struct, AttrDeleter>;

RemoteError sftpError(SshSession& session, sftp_session sftp, const QString& what) {
    RemoteError e = session.error(RemoteError::Kind::Protocol, what);
    if (sftp)
        e.message += RemoteSsh::tr(" (sftp status %1)").arg(sftp_get_error(sftp));
    return e;
}

Expected<Sftp, RemoteError> openSftp(SshSession& session) {
    auto h = session.handle();
    if (!h)
        return unexpected(h.error());
    Sftp sftp(sftp_new(*h));
    if (!sftp)
        return unexpected(session.error(RemoteError::Kind::Protocol, RemoteSsh::tr("cannot start SFTP")));
    if (sftp_init(sftp.get()) != SSH_OK)
        return unexpected(sftpError(session, sftp.get(), RemoteSsh::tr("cannot start SFTP")));
    return sftp;
}

Expected<QString, RemoteError> readBackSha256(SshSession& session, sftp_session sftp, const QString& path) {
    const QByteArray p = path.toUtf8();
    SftpFile f(sftp_open(sftp, p.constData(), O_RDONLY, 0));
    if (!f)
        return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot read %1").arg(path)));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    char buf[32768];
    for (;;) {
        const ssize_t n = sftp_read(f.get(), buf, sizeof buf);
        if (n < 0)
            return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot read %1").arg(path)));
        if (n == 0)
            break;
        hash.addData(QByteArrayView(buf, n));
    }
    return QString::fromLatin1(hash.result().toHex());
}

Expected<QString, RemoteError> sha256Of(SshSession& session, sftp_session sftp, const QString& path, int timeoutMs) {
    auto c = RemoteCommand::capture(session, {QStringLiteral("sha256sum"), QStringLiteral("--"), path}, timeoutMs);
    if (c && c->exitStatus == 0) {
        const QByteArray hex = c->out.left(64);
        if (hex.size() == 64)
            return QString::fromLatin1(hex).toLower();
    }
    return readBackSha256(session, sftp, path);
}

} // namespace

QString SftpUpload::cacheDirFor(const QString& sha) {
    return QStringLiteral(".cache/moe-workbench/probe/") + sha;
}

Expected<QString, RemoteError> SftpUpload::remoteSha256(SshSession& session, const QString& remotePath, int timeoutMs) {
    auto sftp = openSftp(session);
    if (!sftp)
        return unexpected(sftp.error());
    return sha256Of(session, sftp->get(), remotePath, timeoutMs);
}

Expected<UploadResult, RemoteError> SftpUpload::upload(SshSession& session, const QString& localFile, int timeoutMs,
                                                      const std::function<void(qint64, qint64)>& progress,
                                                      const std::atomic_bool* cancel) {
    const QString node = session.node();
    QFile in(localFile);
    if (!in.open(QIODevice::ReadOnly))
        return unexpected(RemoteError{RemoteError::Kind::InvalidArgument, node,
                                      RemoteSsh::tr("%1: cannot read %2: %3").arg(node, localFile, in.errorString())});
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&in))
        return unexpected(RemoteError{RemoteError::Kind::InvalidArgument, node,
                                      RemoteSsh::tr("%1: cannot read %2").arg(node, localFile)});
    const QString sha = QString::fromLatin1(hash.result().toHex());
    const QString name = QFileInfo(localFile).fileName();

    auto sftpx = openSftp(session);
    if (!sftpx)
        return unexpected(sftpx.error());
    sftp_session sftp = sftpx->get();

    // Absolute paths: the SFTP server starts in the user's home directory.
    QString home;
    {
        char* c = sftp_canonicalize_path(sftp, ".");
        if (!c)
            return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot resolve the home directory")));
        home = QString::fromUtf8(c);
        ssh_string_free_char(c);
    }
    const QString dir = home + QLatin1Char('/') + cacheDirFor(sha);
    const QString target = dir + QLatin1Char('/') + name;
    UploadResult result{target, sha, false};

    // mkdir -p
    {
        QString path;
        for (const QString& part : dir.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
            path += QLatin1Char('/') + part;
            const QByteArray p = path.toUtf8();
            Attr a(sftp_stat(sftp, p.constData()));
            if (a) {
                if (a->type != SSH_FILEXFER_TYPE_DIRECTORY)
                    return unexpected(RemoteError{RemoteError::Kind::Protocol, node,
                                                  RemoteSsh::tr("%1: %2 exists and is not a directory").arg(node, path)});
                continue;
            }
            if (sftp_mkdir(sftp, p.constData(), 0755) != SSH_OK) {
                Attr again(sftp_stat(sftp, p.constData()));  // created meanwhile by another upload
                if (!again || again->type != SSH_FILEXFER_TYPE_DIRECTORY)
                    return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot create %1").arg(path)));
            }
        }
    }

    const QByteArray targetB = target.toUtf8();
    {
        Attr a(sftp_stat(sftp, targetB.constData()));
        if (a && a->type == SSH_FILEXFER_TYPE_REGULAR && a->size == static_cast<quint64>(in.size())) {
            auto have = sha256Of(session, sftp, target, timeoutMs);
            if (have && *have == sha) {
                if ((a->permissions & 0111) != 0111)
                    sftp_chmod(sftp, targetB.constData(), 0755);
                result.skipped = true;
                return result;
            }
        }
    }

    const QString part = dir + QStringLiteral("/.") + name + QStringLiteral(".part-") +
                         QString::number(QRandomGenerator::global()->generate64(), 16);
    const QByteArray partB = part.toUtf8();
    {
        SftpFile f(sftp_open(sftp, partB.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0700));
        if (!f)
            return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot create %1").arg(part)));
        in.seek(0);
        const qint64 total = in.size();
        qint64 written = 0;
        char buf[32768];
        for (;;) {
            if (cancel && cancel->load()) {
                f.reset();
                sftp_unlink(sftp, partB.constData());
                return unexpected(RemoteError{RemoteError::Kind::Cancelled, node,
                                              RemoteSsh::tr("%1: upload of %2 cancelled").arg(node, name)});
            }
            const qint64 n = in.read(buf, sizeof buf);
            if (n < 0)
                return unexpected(RemoteError{RemoteError::Kind::InvalidArgument, node,
                                              RemoteSsh::tr("%1: cannot read %2").arg(node, localFile)});
            if (n == 0)
                break;
            const ssize_t w = sftp_write(f.get(), buf, static_cast<size_t>(n));
            if (w != n) {
                f.reset();
                sftp_unlink(sftp, partB.constData());
                return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot write %1").arg(part)));
            }
            written += n;
            if (progress)
                progress(written, total);
        }
    }
    auto cleanup = [&] { sftp_unlink(sftp, partB.constData()); };
    auto got = sha256Of(session, sftp, part, timeoutMs);
    if (!got) {
        cleanup();
        return unexpected(got.error());
    }
    if (*got != sha) {
        cleanup();
        return unexpected(RemoteError{RemoteError::Kind::Verification, node,
                                      RemoteSsh::tr("%1: uploaded %2 does not match: sha256 %3 on the node, %4 here")
                                          .arg(node, target, *got, sha)});
    }
    if (sftp_chmod(sftp, partB.constData(), 0755) != SSH_OK) {
        cleanup();
        return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot make %1 executable").arg(part)));
    }
    // SFTP v3 rename does not replace: remove a stale target first.
    sftp_unlink(sftp, targetB.constData());
    if (sftp_rename(sftp, partB.constData(), targetB.constData()) != SSH_OK) {
        cleanup();
        return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot rename %1 to %2").arg(part, target)));
    }
    return result;
}

} // namespace moewb::remote
