#pragma once
// Runs one command on a node from an argument list. Every argument is shell-quoted
// (the remote shell receives exactly this argv). The command runs in its own process
// group (setsid); stdout and stderr are streamed to callbacks as they arrive; on
// cancel or timeout the whole remote process group gets SIGTERM, then SIGKILL after
// a grace period, and the call returns only once it is gone (or the grace ran out).
#include "RemoteError.h"
#include "SshSession.h"
#include "common/Expected.h"

#include <QByteArray>
#include <QStringList>

#include <atomic>
#include <functional>

namespace moewb::remote {

struct RemoteCommandOptions {
    std::function<void(const QByteArray&)> onStdout;  // called on the session's thread
    std::function<void(const QByteArray&)> onStderr;
    int timeoutMs = 0;                        // 0: none
    const std::atomic_bool* cancel = nullptr; // set from any thread to cancel
    int killGraceMs = 2000;                   // SIGTERM -> SIGKILL
};

struct RemoteCommandResult {
    int exitStatus = -1;  // the command's exit status (128+n when killed by signal n)
};

class RemoteCommand {
public:
    // The command line sent to the node for argv (exposed for tests and logs).
    static QString commandLine(const QStringList& argv);

    // Cancelled and TimedOut come back as errors (the remote group has been killed).
    static Expected<RemoteCommandResult, RemoteError> run(SshSession& session, const QStringList& argv,
                                                          const RemoteCommandOptions& options = {});

    // A plain exec without the process-group wrapper, output collected (small helpers:
    // sha256sum, kill). Not cancellable; bounded by timeoutMs.
    struct Captured {
        int exitStatus = -1;
        QByteArray out;
        QByteArray err;
    };
    static Expected<Captured, RemoteError> capture(SshSession& session, const QStringList& argv, int timeoutMs);
};

} // namespace moewb::remote
