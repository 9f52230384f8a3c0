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

// What run() did to stop a command on cancel or timeout.
struct RemoteCommandStop {
    qint64 pgid = 0;             // the remote process group; 0: unknown
    bool confirmedGone = false;  // the node's kill command saw the group gone
};

struct RemoteCommandOptions {
    std::function<void(const QByteArray&)> onStdout;  // called on the session's thread
    std::function<void(const QByteArray&)> onStderr;
    int timeoutMs = 0;                        // 0: none
    const std::atomic_bool* cancel = nullptr; // set from any thread to cancel
    int killGraceMs = 2000;                   // SIGTERM -> SIGKILL
    RemoteCommandStop* stopReport = nullptr;  // filled on cancel/timeout when given
};

struct RemoteCommandResult {
    int exitStatus = -1;  // the command's exit status (128+n when killed by signal n)
};

class RemoteCommand {
public:
    // The command line sent to the node for argv (exposed for tests and logs).
    static QString commandLine(const QStringList& argv, int killGraceMs = 2000);

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

    // Ends a remote process group: SIGTERM, SIGKILL after graceMs, then waits until no
    // process of the group is left (up to graceMs + 5 s). One command on the node.
    // true: the group is gone (or was already); false: it was still there at the end.
    static Expected<bool, RemoteError> killGroup(SshSession& session, qint64 pgid, int graceMs);
};

} // namespace moewb::remote
