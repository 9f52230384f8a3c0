#pragma once
// An SFTP session on an open SSH session, freed when it goes out of scope.
#include "RemoteError.h"
#include "SshSession.h"
#include "common/Expected.h"

#include <libssh/sftp.h>

#include <memory>

namespace moewb::remote {

struct SftpDeleter {
    void operator()(sftp_session_struct* s) const {
        if (s)
            sftp_free(s);
    }
};
using Sftp = std::unique_ptr<sftp_session_struct, SftpDeleter>;

// Starts SFTP on `session`; the error names the node and SFTP's own reason.
Expected<Sftp, RemoteError> openSftp(SshSession& session);

} // namespace moewb::remote
