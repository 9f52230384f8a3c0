#pragma once
// The per-run secret of a probe run (docs/probe.md, threat model): 256 random bits, new
// for every launch, which every rank must prove it holds before it may join. It travels
// out of band, never in a command line (another user's `ps` would show it): written over
// SFTP into a new file only the user can read (created exclusively, mode 0600, in the
// home directory of the node that starts the command), read there into
// MOEWB_PROBE_SECRET by a small sh that removes the file and then execs the command.
// mpirun forwards the variable by name (-x MOEWB_PROBE_SECRET); srun and sbatch pass the
// environment on by default.
#include "../ssh/RemoteError.h"
#include "../ssh/SshSession.h"
#include "common/Expected.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace moewb::remote {

class ProbeSecret {
public:
    static QString variableName() { return QStringLiteral("MOEWB_PROBE_SECRET"); }
    // 64 hex digits from the system's random source.
    static QByteArray generate();
    // Writes secret into a new file in the home directory on the node; returns its
    // absolute path. Refuses to follow or reuse anything there.
    static Expected<QString, RemoteError> place(SshSession& session, const QByteArray& secret);
    // Best effort: the file is gone already when the command started.
    static void remove(SshSession& session, const QString& path);
    // argv run through sh: reads the file at path into MOEWB_PROBE_SECRET, removes it,
    // exports the variable and execs argv. The secret is not in the result.
    static QStringList wrap(const QString& path, const QStringList& argv);
};

} // namespace moewb::remote
