#pragma once
// Uploads a local file (the probe bundle) into ~/.cache/moe-workbench/probe/<sha256>/
// on a node: directories created as with mkdir -p; skipped when the file is already
// there with the same SHA-256; written under a temporary name, verified (sha256sum on
// the node, or read back over SFTP when it has none), made executable (0755) and
// renamed into place.
#include "RemoteError.h"
#include "SshSession.h"
#include "common/Expected.h"

#include <QString>

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
    // progress(bytes written, total) after each block (not called when skipped);
    // cancel (any thread) stops between blocks with Cancelled, removing the partial file.
    static Expected<UploadResult, RemoteError> upload(SshSession& session, const QString& localFile,
                                                      int timeoutMs = 120000,
                                                      const std::function<void(qint64, qint64)>& progress = {},
                                                      const std::atomic_bool* cancel = nullptr);
    // SHA-256 of the remote file (hex), by sha256sum on the node or by reading it back.
    static Expected<QString, RemoteError> remoteSha256(SshSession& session, const QString& remotePath,
                                                       int timeoutMs = 120000);
};

} // namespace moewb::remote
