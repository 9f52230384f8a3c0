#include "SlurmCluster.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSysInfo>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

// A port nothing listens on now (bind port 0 on all addresses, read it back, close):
// slurmd and slurmctld listen on every address.
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
        socklen_t len = sizeof a;
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
            port = ntohs(a.sin_port);
    }
    ::close(fd);
    return port;
}

QString tail(const QString& file, int lines) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("(no %1)").arg(file);
    const QStringList all = QString::fromLocal8Bit(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return all.mid(qMax(0, int(all.size()) - lines)).join(QLatin1Char('\n'));
}

} // namespace

SlurmCluster::SlurmCluster() = default;

SlurmCluster::~SlurmCluster() { stop(); }

QProcessEnvironment SlurmCluster::environment() const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SLURM_CONF"), confFile());
    return env;
}

QString SlurmCluster::client(const QString& program, const QStringList& args, int* rc, int timeoutMs) const {
    QProcess p;
    p.setProcessEnvironment(environment());
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        if (rc)
            *rc = -1;
        return QStringLiteral("cannot start %1: %2").arg(program, p.errorString());
    }
    p.closeWriteChannel();
    const bool ended = p.waitForFinished(timeoutMs);
    if (!ended) {
        p.kill();  // our own child
        p.waitForFinished(5000);
    }
    if (rc)
        *rc = ended && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromLocal8Bit(p.readAll());
}

QStringList SlurmCluster::queuedJobs() const {
    int rc = 0;
    const QString out = client(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%i")}, &rc);
    if (rc != 0)
        return {QStringLiteral("squeue failed: ") + out.trimmed()};
    return out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QString SlurmCluster::jobState(const QString& jobId) const {
    const QString out = client(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("job"), jobId});
    const qsizetype at = out.indexOf(QLatin1String("JobState="));
    return at < 0 ? QString() : out.mid(at).section(QLatin1Char(' '), 0, 0).trimmed();
}

QString SlurmCluster::logTails(int lines) const {
    QString out;
    out += QStringLiteral("--- munged\n") + tail(dir() + QStringLiteral("/munge/munged.log"), lines) + QLatin1Char('\n');
    out += QStringLiteral("--- slurmctld\n") + tail(dir() + QStringLiteral("/slurmctld.log"), lines) + QLatin1Char('\n');
    for (const QString& n : m_nodes)
        out += QStringLiteral("--- slurmd %1\n").arg(n) + tail(dir() + QStringLiteral("/slurmd-%1.log").arg(n), lines) +
               QLatin1Char('\n');
    return out;
}

QString SlurmCluster::slurmdLog(const QString& nodeName) const {
    QFile f(dir() + QStringLiteral("/slurmd-%1.log").arg(nodeName));
    return f.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(f.readAll()) : QString();
}

QString SlurmCluster::startDaemon(std::unique_ptr<QProcess>& p, const QString& program, const QStringList& args) {
    p = std::make_unique<QProcess>();
    p->setProcessEnvironment(environment());
    p->setProcessChannelMode(QProcess::MergedChannels);
    p->setStandardOutputFile(dir() + QLatin1Char('/') + QFileInfo(program).fileName() +
                             (args.contains(QStringLiteral("-N")) ? QLatin1Char('-') + args.last() : QString()) +
                             QStringLiteral(".out"));
    p->start(program, args);
    if (!p->waitForStarted(10000))
        return QStringLiteral("cannot start %1: %2").arg(program, p->errorString());
    return {};
}

QString SlurmCluster::start(const QStringList& nodeNames, int timeoutMs) {
    const QString slurmctld = QStringLiteral("/usr/sbin/slurmctld");
    const QString slurmd = QStringLiteral("/usr/sbin/slurmd");
    const QString munged = QStringLiteral("/usr/sbin/munged");
    for (const QString& p : {slurmctld, slurmd, munged, QStringLiteral("/usr/bin/srun")})
        if (!QFileInfo(p).isExecutable())
            return QStringLiteral("%1 not found: install slurmctld slurmd slurm-client munge (packaging/install-deps)").arg(p);
    if (::geteuid() != 0)
        return QStringLiteral("a private Slurm needs root here (SlurmUser=root, munged --force)");
    if (!m_dir.isValid())
        return QStringLiteral("no temporary directory");
    m_nodes = nodeNames;
    QElapsedTimer clock;
    clock.start();

    // ---- munge: a fresh key, its own socket ------------------------------------------
    const QString mungeDir = dir() + QStringLiteral("/munge");
    QDir().mkpath(mungeDir);
    QFile::setPermissions(mungeDir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                        QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                        QFileDevice::ExeOther);
    const QString key = mungeDir + QStringLiteral("/munge.key");
    {
        QFile f(key);
        if (!f.open(QIODevice::WriteOnly))
            return QStringLiteral("cannot write %1").arg(key);
        QByteArray bytes(1024, Qt::Uninitialized);
        QRandomGenerator::system()->generate(reinterpret_cast<quint32*>(bytes.data()),
                                             reinterpret_cast<quint32*>(bytes.data() + bytes.size()));
        f.write(bytes);
    }
    QFile::setPermissions(key, QFileDevice::ReadOwner);
    const QString socket = mungeDir + QStringLiteral("/munge.socket");
    QString e = startDaemon(m_munged, munged,
                            {QStringLiteral("--foreground"), QStringLiteral("--force"), QStringLiteral("--socket=") + socket,
                             QStringLiteral("--key-file=") + key, QStringLiteral("--pid-file=") + mungeDir + QStringLiteral("/munged.pid"),
                             QStringLiteral("--log-file=") + mungeDir + QStringLiteral("/munged.log"),
                             QStringLiteral("--seed-file=") + mungeDir + QStringLiteral("/munged.seed")});
    if (!e.isEmpty())
        return e;
    while (!QFileInfo::exists(socket)) {
        if (m_munged->state() != QProcess::Running || clock.elapsed() > timeoutMs)
            return QStringLiteral("munged did not create %1\n%2").arg(socket, logTails());
        QThread::msleep(20);
    }

    // ---- slurm.conf: this machine as controller, one slurmd per node name ----------------
    const QString host = QSysInfo::machineHostName().section(QLatin1Char('.'), 0, 0);
    const int ctldPort = freePort();
    const int slurmdPort = freePort();
    QDir().mkpath(dir() + QStringLiteral("/state"));
    QString conf = QStringLiteral(
                       "ClusterName=moewbtest\n"
                       "SlurmctldHost=%1(127.0.0.1)\n"
                       "SlurmctldPort=%2\n"
                       "SlurmdPort=%3\n"
                       "AuthType=auth/munge\n"
                       "AuthInfo=socket=%4\n"
                       "CredType=cred/munge\n"
                       "SlurmUser=root\n"
                       "SlurmdUser=root\n"
                       "StateSaveLocation=%5/state\n"
                       "SlurmdSpoolDir=%5/spool/%n\n"
                       "SlurmctldPidFile=%5/slurmctld.pid\n"
                       "SlurmdPidFile=%5/slurmd-%n.pid\n"
                       "SlurmctldLogFile=%5/slurmctld.log\n"
                       "SlurmdLogFile=%5/slurmd-%n.log\n"
                       "SlurmctldDebug=info\n"
                       "SlurmdDebug=info\n"
                       "ProctrackType=proctrack/linuxproc\n"
                       "TaskPlugin=task/none\n"
                       "SelectType=select/cons_tres\n"
                       "SelectTypeParameters=CR_CPU\n"
                       "MpiDefault=none\n"
                       "JobAcctGatherType=jobacct_gather/none\n"
                       "AccountingStorageType=accounting_storage/none\n"
                       "MailProg=/bin/true\n"
                       "ReturnToService=2\n"
                       "KillWait=2\n"
                       "InactiveLimit=0\n")
                       .arg(host)
                       .arg(ctldPort)
                       .arg(slurmdPort)
                       .arg(socket, dir());
    // Several slurmd on one machine: each node its own name, host name and port
    // (slurmd -N NAME picks its line); all reached at 127.0.0.1.
    for (const QString& n : nodeNames) {
        QDir().mkpath(dir() + QStringLiteral("/spool/") + n);
        conf += QStringLiteral("NodeName=%1 NodeHostname=%1 NodeAddr=127.0.0.1 Port=%2 CPUs=1 State=UNKNOWN\n").arg(n).arg(freePort());
    }
    conf += QStringLiteral("PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
    {
        QFile f(confFile());
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return QStringLiteral("cannot write %1").arg(confFile());
        f.write(conf.toUtf8());
    }

    // ---- The daemons, in the foreground ------------------------------------------------
    e = startDaemon(m_slurmctld, slurmctld, {QStringLiteral("-D"), QStringLiteral("-i")});
    if (!e.isEmpty())
        return e;
    for (const QString& n : nodeNames) {
        m_slurmd.push_back(nullptr);
        e = startDaemon(m_slurmd.back(), slurmd, {QStringLiteral("-D"), QStringLiteral("-N"), n});
        if (!e.isEmpty())
            return e;
    }

    // ---- Every node idle ------------------------------------------------------------------
    QString last;
    while (clock.elapsed() < timeoutMs) {
        if (m_slurmctld->state() != QProcess::Running)
            return QStringLiteral("slurmctld exited (status %1)\n%2").arg(m_slurmctld->exitCode()).arg(logTails());
        for (size_t i = 0; i < m_slurmd.size(); ++i)
            if (m_slurmd[i]->state() != QProcess::Running)
                return QStringLiteral("slurmd %1 exited (status %2)\n%3").arg(nodeNames[qsizetype(i)]).arg(m_slurmd[i]->exitCode()).arg(logTails());
        int rc = 0;
        last = client(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-o"), QStringLiteral("%N %t")}, &rc, 10000);
        if (rc == 0) {
            int idle = 0;
            for (const QString& line : last.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                if (nodeNames.contains(line.section(QLatin1Char(' '), 0, 0)) && line.section(QLatin1Char(' '), 1, 1) == QLatin1String("idle"))
                    ++idle;
            if (idle == nodeNames.size())
                return {};
        }
        QThread::msleep(200);
    }
    return QStringLiteral("the Slurm nodes were not idle within %1 ms; sinfo: %2\n%3").arg(timeoutMs).arg(last.trimmed(), logTails());
}

void SlurmCluster::endProcess(std::unique_ptr<QProcess>& p) {
    if (!p)
        return;
    if (p->state() != QProcess::NotRunning) {
        p->terminate();  // our own child, by its PID
        if (!p->waitForFinished(10000)) {
            p->kill();
            p->waitForFinished(5000);
        }
    }
    p.reset();
}

void SlurmCluster::stop() {
    // Jobs still there (a failed test) are cancelled while the daemons still run, so no
    // slurmstepd or task outlives the cluster.
    if (m_slurmctld && m_slurmctld->state() == QProcess::Running) {
        QStringList jobs = queuedJobs();
        if (!jobs.isEmpty() && !jobs.first().startsWith(QLatin1String("squeue failed"))) {
            client(QStringLiteral("scancel"), jobs);
            QElapsedTimer t;
            t.start();
            while (!queuedJobs().isEmpty() && t.elapsed() < 15000)
                QThread::msleep(200);
        }
    }
    for (auto& d : m_slurmd)
        endProcess(d);
    m_slurmd.clear();
    endProcess(m_slurmctld);
    endProcess(m_munged);
}
