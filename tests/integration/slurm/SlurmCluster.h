#pragma once
// A real single-machine Slurm for one test: munged with a generated key, slurmctld and
// one slurmd per node name (`slurmd -N NAME`, each on its own port, all on this
// machine), every file (slurm.conf, state, spool, logs, munge socket and key) in a
// QTemporaryDir. The daemons run in the foreground as QProcess children and are ended
// by their PID when the cluster is stopped or destroyed (jobs left are scancel'ed
// first). Clients find the cluster through SLURM_CONF (environment()).
// Needs root and Debian's slurmctld, slurmd, slurm-client and munge.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <vector>

class SlurmCluster {
public:
    SlurmCluster();
    ~SlurmCluster();
    SlurmCluster(const SlurmCluster&) = delete;
    SlurmCluster& operator=(const SlurmCluster&) = delete;

    // Starts munged, slurmctld and one slurmd per name (1 CPU each, one partition
    // "debug", the default) and waits until every node is idle. Empty on success, else
    // why not, with the tail of the daemons' logs.
    QString start(const QStringList& nodeNames, int timeoutMs = 30000);
    // Cancels the jobs left, then ends slurmd, slurmctld and munged by PID.
    void stop();

    QString dir() const { return m_dir.path(); }
    QString confFile() const { return dir() + QStringLiteral("/slurm.conf"); }
    QProcessEnvironment environment() const;  // this process's, with SLURM_CONF

    // Runs a Slurm client (squeue, scontrol, salloc, scancel...) against this cluster.
    // Returns stdout and stderr together; *rc = exit code (-1: did not start or end).
    QString client(const QString& program, const QStringList& args, int* rc = nullptr, int timeoutMs = 30000) const;
    // Job ids squeue lists (pending, running, completing), as text.
    QStringList queuedJobs() const;
    // "JobState=..." of `scontrol show job ID` ("" when the controller forgot it).
    QString jobState(const QString& jobId) const;
    // The last lines of each daemon's log (for failure messages).
    QString logTails(int lines = 15) const;
    // The text of node name's slurmd log.
    QString slurmdLog(const QString& nodeName) const;

private:
    QString startDaemon(std::unique_ptr<QProcess>& p, const QString& program, const QStringList& args);
    void endProcess(std::unique_ptr<QProcess>& p);

    QTemporaryDir m_dir;
    QStringList m_nodes;
    std::unique_ptr<QProcess> m_munged;
    std::unique_ptr<QProcess> m_slurmctld;
    std::vector<std::unique_ptr<QProcess>> m_slurmd;
};
