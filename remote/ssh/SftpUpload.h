#pragma once
// The node's cache (~/.cache/moe-workbench/{probe,results}) and what goes into it.
//
// Nothing found there is trusted: every directory from the home down is checked with
// lstat over SFTP (a directory, not a symbolic link, owned by the SSH user, writable by
// nobody else; the home as sshd's StrictModes wants it: the user's or root's, not
// writable by group or others), created 0700 where missing, and refused with a
// sentence naming the path and what is wrong. upload() puts a local file (the probe
// bundle) into ~/.cache/moe-workbench/probe/<sha256>/: skipped when a regular file of
// the user's with the same SHA-256 is already there; else written under a temporary
// name (O_EXCL), verified (sha256sum on the node, or read back over SFTP when it has
// none), made 0500 and renamed into place. The probe is then run only through
// verifiedExec(): hashed and executed from one open descriptor (docs/remote.md).
#include "RemoteError.h"
#include "SshSession.h"
#include "common/Expected.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace moewb::remote {

struct UploadResult {
    QString remotePath;  // absolute path on the node
    QString sha256;      // hex
    bool skipped = false; // already present with a matching checksum
};

class SftpUpload {
public:
    static QString cacheDirFor(const QString& sha256Hex);  // ".cache/moe-workbench/probe/<sha>" (home-relative)
    static QString resultsDir();                           // ".cache/moe-workbench/results" (home-relative)
    // progress(bytes written, total) after each block (not called when skipped);
    // cancel (any thread) stops between blocks with Cancelled, removing the partial file.
    // timeoutMs bounds the whole upload (checks and checksums included): past it, the
    // next block stops with TimedOut, the partial file removed.
    static Expected<UploadResult, RemoteError> upload(SshSession& session, const QString& localFile,
                                                      int timeoutMs = 120000,
                                                      const std::function<void(qint64, qint64)>& progress = {},
                                                      const std::atomic_bool* cancel = nullptr);
    // SHA-256 of the remote file (hex), by sha256sum on the node or by reading it back.
    static Expected<QString, RemoteError> remoteSha256(SshSession& session, const QString& remotePath,
                                                       int timeoutMs = 120000);

    // Creates or checks every directory of home/<homeRelative> as above; the absolute
    // path on success, else a Verification error naming the first path that failed.
    static Expected<QString, RemoteError> secureDirectory(SshSession& session, const QString& homeRelative,
                                                          int timeoutMs = 60000);
    // Reads home/<homeRelativeDir>/<fileName> after secureDirectory() passed for its
    // directory: a regular file (not a link), the user's, at most maxBytes long. Empty
    // when there is no such file. timeoutMs bounds the whole read (TimedOut past it).
    static Expected<QByteArray, RemoteError> readSecureFile(SshSession& session, const QString& homeRelativeDir,
                                                            const QString& fileName, qint64 maxBytes,
                                                            int timeoutMs = 60000);

    // The argv prefix that runs remotePath only if it is what was uploaded: a POSIX sh
    // helper opens it on descriptor 9, checks that descriptor (regular file, the user's,
    // not writable by group or others), hashes it and compares with sha256Hex, then
    // execs /proc/self/fd/9, the very file it hashed (through bash's exec -a where bash
    // is there, so that argv[0] stays remotePath). Append the program's arguments.
    // Exits 126 with one line "moe-workbench: ..." on stderr when it refuses. It reads
    // nothing from stdin, which the program inherits.
    static QStringList verifiedExec(const QString& sha256Hex, const QString& remotePath);
};

} // namespace moewb::remote
