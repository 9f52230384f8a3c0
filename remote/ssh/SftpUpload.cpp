#include "SftpUpload.h"
#include "SftpSession.h"

#include "../RemoteTr.h"
#include "RemoteCommand.h"
#include "ShellQuote.h"

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <fcntl.h>
#include <sys/stat.h>

#include <memory>
#include <optional>

namespace moewb::remote {

namespace {

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

QString modeText(quint32 permissions) { return QStringLiteral("0%1").arg(permissions & 07777, 3, 8, QLatin1Char('0')); }

RemoteError refused(const QString& node, const QString& why) {
    return RemoteError{RemoteError::Kind::Verification, node, RemoteSsh::tr("%1: %2").arg(node, why)};
}

// The SSH user's uid on the node: SFTP has no call for it.
Expected<quint32, RemoteError> remoteUid(SshSession& session, int timeoutMs) {
    auto c = RemoteCommand::capture(session, {QStringLiteral("id"), QStringLiteral("-u")}, timeoutMs);
    if (!c)
        return unexpected(c.error());
    bool ok = false;
    const uint uid = QString::fromLatin1(c->out).trimmed().toUInt(&ok);
    if (c->exitStatus != 0 || !ok)
        return unexpected(RemoteError{RemoteError::Kind::Protocol, session.node(),
                                      RemoteSsh::tr("%1: cannot learn the user id on the node (id -u: %2)")
                                          .arg(session.node(), QString::fromUtf8(c->err.left(200)).trimmed())});
    return quint32(uid);
}

Expected<QString, RemoteError> homeOf(SshSession& session, sftp_session sftp) {
    // The SFTP server starts in the user's home directory.
    char* c = sftp_canonicalize_path(sftp, ".");
    if (!c)
        return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot resolve the home directory")));
    const QString home = QString::fromUtf8(c);
    ssh_string_free_char(c);
    return home;
}

// The checks shared by directories and files: what lstat saw at `path`.
// modeMatters false: a file inside a checked private directory, where nobody else can
// reach it whatever its own mode (the probe's report under the user's umask).
std::optional<QString> problemWith(const sftp_attributes_struct& a, const QString& path, quint32 uid, bool directory,
                                   bool modeMatters = true) {
    if (a.type == SSH_FILEXFER_TYPE_SYMLINK)
        return RemoteSsh::tr("%1 is a symbolic link; the cache follows none").arg(path);
    if (directory && a.type != SSH_FILEXFER_TYPE_DIRECTORY)
        return RemoteSsh::tr("%1 exists and is not a directory").arg(path);
    if (!directory && a.type != SSH_FILEXFER_TYPE_REGULAR)
        return RemoteSsh::tr("%1 is not a regular file").arg(path);
    if (a.uid != uid)
        return RemoteSsh::tr("%1 is owned by uid %2, not by you (uid %3)").arg(path).arg(a.uid).arg(uid);
    if (modeMatters && (a.permissions & 022))
        return RemoteSsh::tr("%1 is writable by group or others (mode %2)").arg(path, modeText(a.permissions));
    return std::nullopt;
}

// mkdir -p of home/relative with lstat checks at every step. Each directory is checked
// before anything is created in it, so no other user can swap one in between.
Expected<QString, RemoteError> secureDirs(SshSession& session, sftp_session sftp, const QString& home, quint32 uid,
                                          const QString& relative) {
    const QString node = session.node();
    {
        const QByteArray h = home.toUtf8();
        Attr a(sftp_lstat(sftp, h.constData()));
        if (!a)
            return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot inspect the home directory %1").arg(home)));
        if (a->type != SSH_FILEXFER_TYPE_DIRECTORY)
            return unexpected(refused(node, RemoteSsh::tr("the home directory %1 is not a directory").arg(home)));
        if (a->uid != uid && a->uid != 0)
            return unexpected(refused(node, RemoteSsh::tr("the home directory %1 is owned by uid %2, not by you (uid %3)")
                                                .arg(home)
                                                .arg(a->uid)
                                                .arg(uid)));
        if (a->permissions & 022)
            return unexpected(refused(node, RemoteSsh::tr("the home directory %1 is writable by group or others (mode %2)")
                                                .arg(home, modeText(a->permissions))));
    }
    QString path = home == QLatin1String("/") ? QString() : home;
    const QStringList parts = relative.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < parts.size(); ++i) {
        path += QLatin1Char('/') + parts[i];
        const QByteArray p = path.toUtf8();
        Attr a(sftp_lstat(sftp, p.constData()));
        if (!a) {
            if (sftp_get_error(sftp) != SSH_FX_NO_SUCH_FILE)
                return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot inspect %1").arg(path)));
            // Made by another upload meanwhile: the lstat below judges what is there.
            sftp_mkdir(sftp, p.constData(), 0700);
            a.reset(sftp_lstat(sftp, p.constData()));
            if (!a)
                return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot create %1").arg(path)));
        }
        if (auto why = problemWith(*a, path, uid, true))
            return unexpected(refused(node, *why + RemoteSsh::tr("; refusing to use it")));
        // Ours from moe-workbench down: 0700 (older versions made 0755); ~/.cache is the
        // user's own business as long as nobody else can write it.
        if (i > 0 && (a->permissions & 077) && sftp_chmod(sftp, p.constData(), 0700) != SSH_OK)
            return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot make %1 private (mode 0700)").arg(path)));
    }
    return path;
}

// The single-quoted shell text of `text` with %1, %2, ... replaced by "$var" of vars.
QString shellMessage(const QString& text, const QStringList& vars) {
    QString out;
    QString literal;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('%') && i + 1 < text.size() && text[i + 1].isDigit()) {
            const int n = text[i + 1].digitValue();
            if (n >= 1 && n <= vars.size()) {
                out += shellQuote(literal) + QStringLiteral("\"$") + vars[n - 1] + QLatin1Char('"');
                literal.clear();
                ++i;
                continue;
            }
        }
        literal += text[i];
    }
    return out + shellQuote(literal);
}

// What secureDirectory, readSecureFile and upload all start with: the user's uid, an
// SFTP session, the home directory, and home/relative made and checked component by
// component (secureDirs).
struct SecureDir {
    Sftp sftp;
    quint32 uid = 0;
    QString path; // absolute
};

Expected<SecureDir, RemoteError> openSecureDir(SshSession& session, const QString& homeRelative, int timeoutMs) {
    auto uid = remoteUid(session, timeoutMs);
    if (!uid)
        return unexpected(uid.error());
    auto sftp = openSftp(session);
    if (!sftp)
        return unexpected(sftp.error());
    auto home = homeOf(session, sftp->get());
    if (!home)
        return unexpected(home.error());
    auto dir = secureDirs(session, sftp->get(), *home, *uid, homeRelative);
    if (!dir)
        return unexpected(dir.error());
    return SecureDir{std::move(*sftp), *uid, *dir};
}

} // namespace

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

QString SftpUpload::cacheDirFor(const QString& sha) {
    return QStringLiteral(".cache/moe-workbench/probe/") + sha;
}

QString SftpUpload::resultsDir() { return QStringLiteral(".cache/moe-workbench/results"); }

Expected<QString, RemoteError> SftpUpload::remoteSha256(SshSession& session, const QString& remotePath, int timeoutMs) {
    auto sftp = openSftp(session);
    if (!sftp)
        return unexpected(sftp.error());
    return sha256Of(session, sftp->get(), remotePath, timeoutMs);
}

Expected<QString, RemoteError> SftpUpload::secureDirectory(SshSession& session, const QString& homeRelative, int timeoutMs) {
    auto dir = openSecureDir(session, homeRelative, timeoutMs);
    if (!dir)
        return unexpected(dir.error());
    return dir->path;
}

Expected<QByteArray, RemoteError> SftpUpload::readSecureFile(SshSession& session, const QString& homeRelativeDir,
                                                             const QString& fileName, qint64 maxBytes, int timeoutMs) {
    const QString node = session.node();
    if (fileName.isEmpty() || fileName.contains(QLatin1Char('/')) || fileName == QLatin1String("..") ||
        fileName == QLatin1String("."))
        return unexpected(RemoteError{RemoteError::Kind::InvalidArgument, node,
                                      RemoteSsh::tr("%1: \"%2\" is not a plain file name").arg(node, fileName)});
    QElapsedTimer clock;  // timeoutMs bounds the whole read, as upload()'s
    clock.start();
    auto dir = openSecureDir(session, homeRelativeDir, timeoutMs);
    if (!dir)
        return unexpected(dir.error());
    sftp_session sftp = dir->sftp.get();
    const QString path = dir->path + QLatin1Char('/') + fileName;
    const QByteArray p = path.toUtf8();
    Attr a(sftp_lstat(sftp, p.constData()));
    if (!a && sftp_get_error(sftp) == SSH_FX_NO_SUCH_FILE)
        return QByteArray();
    if (!a)
        return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot read %1").arg(path)));
    if (auto why = problemWith(*a, path, dir->uid, false, false))
        return unexpected(refused(node, *why + RemoteSsh::tr("; refusing to read it")));
    auto tooLarge = [&](quint64 size) {
        return refused(node, RemoteSsh::tr("%1 is %2 bytes, more than the %3 bytes allowed").arg(path).arg(size).arg(maxBytes));
    };
    if (a->size > quint64(maxBytes))
        return unexpected(tooLarge(a->size));
    // The directory is the user's alone, so the file lstat saw is the file opened.
    SftpFile f(sftp_open(sftp, p.constData(), O_RDONLY, 0));
    if (!f)
        return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot read %1").arg(path)));
    QByteArray data;
    data.reserve(qsizetype(a->size));
    char buf[32768];
    for (;;) {
        const ssize_t n = sftp_read(f.get(), buf, sizeof buf);
        if (n < 0)
            return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot read %1").arg(path)));
        if (n == 0)
            break;
        if (data.size() + n > maxBytes)
            return unexpected(tooLarge(quint64(data.size() + n)));
        data.append(buf, qsizetype(n));
        if (timeoutMs > 0 && quint64(data.size()) < a->size && clock.elapsed() > timeoutMs)
            return unexpected(RemoteError{RemoteError::Kind::TimedOut, node,
                                          RemoteSsh::tr("%1: reading %2 ran past %3 ms (%4 of %5 bytes read)")
                                              .arg(node, path)
                                              .arg(timeoutMs)
                                              .arg(data.size())
                                              .arg(a->size)});
    }
    return data;
}

QStringList SftpUpload::verifiedExec(const QString& sha256Hex, const QString& remotePath) {
    // One line of POSIX sh (srun --wrap and mpirun pass it on whole). $w: the expected
    // hash, $f: the file; t/u: its mode text and owner as `ls -lLn` prints them.
    auto fail = [](const QString& text, const QStringList& vars) {
        return QStringLiteral("e ") + shellMessage(text, vars);
    };
    const QStringList f{QStringLiteral("f")};
    const QString script =
        QStringLiteral("set -f; w=$1; f=$2; shift 2; "
                       "e() { printf 'moe-workbench: %s\\n' \"$1\" >&2; exit 126; }; ") +
        QStringLiteral("[ -L \"$f\" ] && ") + fail(RemoteSsh::tr("%1 is a symbolic link; refusing to run it"), f) + QStringLiteral("; ") +
        QStringLiteral("[ -f \"$f\" ] || ") + fail(RemoteSsh::tr("%1 is not a regular file; refusing to run it"), f) + QStringLiteral("; ") +
        QStringLiteral("{ command exec 9<\"$f\"; } 2>/dev/null || ") + fail(RemoteSsh::tr("cannot open %1"), f) + QStringLiteral("; ") +
        QStringLiteral("[ -r /proc/self/fd/9 ] || ") +
        fail(RemoteSsh::tr("no /proc/self/fd on this node: %1 cannot be run from the descriptor it is checked on"), f) +
        QStringLiteral("; ") +
        QStringLiteral("m=$(LC_ALL=C ls -lLdn /proc/self/fd/9) || ") + fail(RemoteSsh::tr("cannot inspect %1"), f) + QStringLiteral("; ") +
        QStringLiteral("o() { set -- $1; t=$1; u=$3; }; o \"$m\"; me=$(id -u); ") +
        QStringLiteral("[ \"$u\" = \"$me\" ] || ") +
        fail(RemoteSsh::tr("%1 is owned by uid %2, not by you (uid %3); refusing to run it"),
             {QStringLiteral("f"), QStringLiteral("u"), QStringLiteral("me")}) +
        QStringLiteral("; ") +
        QStringLiteral("case $t in -*) ;; *) ") + fail(RemoteSsh::tr("%1 is not a regular file; refusing to run it"), f) +
        QStringLiteral(";; esac; ") +
        QStringLiteral("case $t in ?????w*|????????w*) ") +
        fail(RemoteSsh::tr("%1 is writable by group or others (%2); refusing to run it"), {QStringLiteral("f"), QStringLiteral("t")}) +
        QStringLiteral(";; esac; ") +
        QStringLiteral("if command -v sha256sum >/dev/null 2>&1; then h=$(sha256sum <&9); "
                       "else h=$(openssl dgst -sha256 -r <&9 2>/dev/null) || ") +
        fail(RemoteSsh::tr("neither sha256sum nor openssl on this node: cannot verify %1"), f) + QStringLiteral("; fi; ") +
        QStringLiteral("h=${h%% *}; [ \"$h\" = \"$w\" ] || ") +
        fail(RemoteSsh::tr("%1 is not the probe uploaded (sha256 %2, expected %3); refusing to run it"),
             {QStringLiteral("f"), QStringLiteral("h"), QStringLiteral("w")}) +
        // bash, where there is one, keeps the path as argv[0] (ps shows the probe by name).
        QStringLiteral("; if command -v bash >/dev/null 2>&1; then exec bash --norc --noprofile -c "
                       "'exec -a \"$0\" /proc/self/fd/9 \"$@\"' \"$f\" \"$@\"; fi; exec /proc/self/fd/9 \"$@\"");
    return {QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("moewb-verified-exec"), sha256Hex.toLower(),
            remotePath};
}

Expected<UploadResult, RemoteError> SftpUpload::upload(SshSession& session, const QString& localFile, int timeoutMs,
                                                      const std::function<void(qint64, qint64)>& progress,
                                                      const std::atomic_bool* cancel) {
    const QString node = session.node();
    // timeoutMs bounds the whole upload: each helper command gets what is left, and the
    // blocks stop once it has passed (the partial file removed).
    QElapsedTimer clock;
    clock.start();
    auto left = [&] { return timeoutMs > 0 ? int(qMax<qint64>(1, qint64(timeoutMs) - clock.elapsed())) : timeoutMs; };
    auto pastBound = [&] { return timeoutMs > 0 && clock.elapsed() > timeoutMs; };
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

    auto secured = openSecureDir(session, cacheDirFor(sha), left());
    if (!secured)
        return unexpected(secured.error());
    sftp_session sftp = secured->sftp.get();
    const QString dir = secured->path;
    const QString target = dir + QLatin1Char('/') + name;
    UploadResult result{target, sha, false};

    // Already there: only a regular file of the user's that nobody else can write, with
    // the same content. Anything else in the (private) directory is replaced.
    const QByteArray targetB = target.toUtf8();
    {
        Attr a(sftp_lstat(sftp, targetB.constData()));
        if (a && !problemWith(*a, target, secured->uid, false) && a->size == static_cast<quint64>(in.size())) {
            auto have = sha256Of(session, sftp, target, left());
            if (have && *have == sha) {
                if ((a->permissions & 0777) != 0500 && sftp_chmod(sftp, targetB.constData(), 0500) != SSH_OK)
                    return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot make %1 read-only").arg(target)));
                result.skipped = true;
                return result;
            }
        }
    }

    const QString part = dir + QStringLiteral("/.") + name + QStringLiteral(".part-") +
                         QString::number(QRandomGenerator::global()->generate64(), 16);
    const QByteArray partB = part.toUtf8();
    {
        SftpFile f(sftp_open(sftp, partB.constData(), O_WRONLY | O_CREAT | O_EXCL, 0700));
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
            if (written < total && pastBound()) {
                f.reset();
                sftp_unlink(sftp, partB.constData());
                return unexpected(RemoteError{RemoteError::Kind::TimedOut, node,
                                              RemoteSsh::tr("%1: upload of %2 ran past %3 ms (%4 of %5 bytes written)")
                                                  .arg(node, name)
                                                  .arg(timeoutMs)
                                                  .arg(written)
                                                  .arg(total)});
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
    auto got = sha256Of(session, sftp, part, left());
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
    // Read and run by its owner only; nobody writes it in place by accident.
    if (sftp_chmod(sftp, partB.constData(), 0500) != SSH_OK) {
        cleanup();
        return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot make %1 read-only").arg(part)));
    }
    // SFTP v3 rename does not replace: remove a stale target (or whatever is there) first.
    sftp_unlink(sftp, targetB.constData());
    sftp_rmdir(sftp, targetB.constData());
    if (sftp_rename(sftp, partB.constData(), targetB.constData()) != SSH_OK) {
        cleanup();
        return unexpected(sftpError(session, sftp, RemoteSsh::tr("cannot rename %1 to %2").arg(part, target)));
    }
    return result;
}

} // namespace moewb::remote
