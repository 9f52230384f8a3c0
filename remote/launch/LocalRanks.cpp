#include "LocalRanks.h"

#include "../RemoteTr.h"
#include "NodePool.h"  // LineSplitter

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace moewb::remote {

// ---- Local cluster spec --------------------------------------------------------------

QJsonObject LocalClusterSpec::facts() const {
    QJsonObject f{{QStringLiteral("launcher"), QStringLiteral("local")}, {QStringLiteral("ranks"), ranks}};
    if (!netnsRate.isEmpty())
        f.insert(QStringLiteral("netns_rate"), netnsRate);
    if (!netnsBurst.isEmpty())
        f.insert(QStringLiteral("netns_burst"), netnsBurst);
    return f;
}

std::optional<LocalClusterSpec> LocalClusterSpec::fromFacts(const QJsonObject& facts) {
    if (facts.value(QStringLiteral("launcher")).toString() != QLatin1String("local"))
        return std::nullopt;
    LocalClusterSpec s;
    s.ranks = facts.value(QStringLiteral("ranks")).toInt();
    s.netnsRate = facts.value(QStringLiteral("netns_rate")).toString();
    s.netnsBurst = facts.value(QStringLiteral("netns_burst")).toString();
    return s;
}

QString LocalClusterSpec::nodeName(int rank) { return QStringLiteral("local:%1").arg(rank); }

bool LocalClusterSpec::isNodeName(const QString& address) {
    static const QRegularExpression re(QStringLiteral("^local:[0-9]+$"));
    return re.match(address).hasMatch();
}

namespace {
const QRegularExpression& rateRe() {
    static const QRegularExpression re(QStringLiteral("^([0-9]+(?:\\.[0-9]+)?)(bit|kbit|mbit|gbit|tbit|bps|kbps|mbps|gbps)$"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}
} // namespace

double LocalClusterSpec::rateBitsPerSecond(const QString& rate) {
    const auto m = rateRe().match(rate.trimmed());
    if (!m.hasMatch())
        return 0;
    const double v = m.captured(1).toDouble();
    const QString unit = m.captured(2).toLower();
    // tc(8): k = 1000 for rates; "bps" is bytes per second.
    const double scale = unit.startsWith(QLatin1Char('k')) ? 1e3
                         : unit.startsWith(QLatin1Char('m')) ? 1e6
                         : unit.startsWith(QLatin1Char('g')) ? 1e9
                         : unit.startsWith(QLatin1Char('t')) ? 1e12
                                                             : 1.0;
    return v * scale * (unit.endsWith(QLatin1String("bps")) ? 8.0 : 1.0);
}

QString LocalClusterSpec::rateProblem(const QString& rate) {
    const double bps = rateBitsPerSecond(rate);
    if (bps <= 0)
        return RemoteLaunch::tr("\"%1\" is not a rate (a number and bit, kbit, mbit, gbit, tbit, bps, kbps, mbps or gbps, "
                                "e.g. 200mbit)")
            .arg(rate);
    if (bps < 64e3)
        return RemoteLaunch::tr("rate %1 is below 64kbit; the probe would not finish").arg(rate);
    return {};
}

QString LocalClusterSpec::burstProblem(const QString& burst) {
    static const QRegularExpression re(QStringLiteral("^[0-9]+(b|k|kb|m|mb|g|gb)?$"), QRegularExpression::CaseInsensitiveOption);
    if (!re.match(burst.trimmed()).hasMatch())
        return RemoteLaunch::tr("\"%1\" is not a burst size (a number and b, kb, mb or gb, e.g. 64kb)").arg(burst);
    return {};
}

QString LocalClusterSpec::defaultBurst(const QString& rate) {
    const double bytesPer10ms = rateBitsPerSecond(rate) / 8.0 / 100.0;
    return QStringLiteral("%1b").arg(qint64(std::max(32768.0, bytesPer10ms)));
}

// ---- Small helpers -------------------------------------------------------------------

namespace {

QString findTool(const QString& name) {
    QString p = QStandardPaths::findExecutable(name);
    if (p.isEmpty())
        p = QStandardPaths::findExecutable(name, {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin"),
                                                  QStringLiteral("/usr/bin"), QStringLiteral("/bin")});
    return p;
}

struct Captured {
    bool ok = false;
    QString text;  // stderr (or why it did not run)
    QByteArray out;
};

Captured capture(const QString& program, const QStringList& args, int timeoutMs = 10000) {
    Captured c;
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(timeoutMs)) {
        c.text = p.errorString();
        return c;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        c.text = RemoteLaunch::tr("timed out");
        return c;
    }
    c.out = p.readAllStandardOutput();
    c.text = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
    c.ok = p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    return c;
}

std::atomic_int g_netnsSeq{0};

void killNamespacePids(const QString& ip, const QString& ns) {
    const Captured pids = capture(ip, {QStringLiteral("netns"), QStringLiteral("pids"), ns});
    for (const QByteArray& line : pids.out.split('\n')) {
        bool ok = false;
        const qint64 pid = line.trimmed().toLongLong(&ok);
        if (ok && pid > 1 && pid != ::getpid())
            ::kill(pid_t(pid), SIGKILL);
    }
}

} // namespace

// ---- Network namespaces --------------------------------------------------------------

NetnsCluster::~NetnsCluster() { remove(); }

QString NetnsCluster::unavailableReason() {
    if (::geteuid() != 0)
        return RemoteLaunch::tr("shaping a local cluster (--netns-rate) needs root: network namespaces, veth pairs "
                                "and tc qdiscs can only be made by root (running as uid %1)")
            .arg(::geteuid());
    if (findTool(QStringLiteral("ip")).isEmpty())
        return RemoteLaunch::tr("shaping a local cluster (--netns-rate) needs the program ip (iproute2); not found");
    if (findTool(QStringLiteral("tc")).isEmpty())
        return RemoteLaunch::tr("shaping a local cluster (--netns-rate) needs the program tc (iproute2); not found");
    return {};
}

QStringList NetnsCluster::namespacesOf(qint64 pid) {
    QStringList out;
    const QString ip = findTool(QStringLiteral("ip"));
    if (ip.isEmpty())
        return out;
    const Captured list = capture(ip, {QStringLiteral("netns"), QStringLiteral("list")});
    const QString prefix = QStringLiteral("moewb-%1-").arg(pid);
    for (const QByteArray& line : list.out.split('\n')) {
        const QString name = QString::fromUtf8(line).section(QLatin1Char(' '), 0, 0).trimmed();
        if (name.startsWith(prefix))
            out << name;
    }
    return out;
}

QStringList NetnsCluster::removeStale() {
    QStringList removed;
    const QString ip = findTool(QStringLiteral("ip"));
    if (ip.isEmpty() || ::geteuid() != 0)
        return removed;
    static const QRegularExpression re(QStringLiteral("^moewb-([0-9]+)-[0-9]+-(hub|r[0-9]+)$"));
    const Captured list = capture(ip, {QStringLiteral("netns"), QStringLiteral("list")});
    for (const QByteArray& line : list.out.split('\n')) {
        const QString name = QString::fromUtf8(line).section(QLatin1Char(' '), 0, 0).trimmed();
        const auto m = re.match(name);
        if (!m.hasMatch())
            continue;
        const qint64 pid = m.captured(1).toLongLong();
        if (pid == ::getpid() || pid <= 1)
            continue;
        if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH)
            continue;  // its run is alive (or not ours to judge)
        killNamespacePids(ip, name);
        if (capture(ip, {QStringLiteral("netns"), QStringLiteral("del"), name}).ok)
            removed << name;
    }
    return removed;
}

QString NetnsCluster::rankAddress(int rank) { return QStringLiteral("10.77.0.%1").arg(rank + 1); }

QString NetnsCluster::rankNamespace(int rank) const { return m_names.value(rank + 1); }

Expected<bool, QString> NetnsCluster::create(int ranks, const QString& rate, const QString& burst) {
    remove();
    if (const QString why = unavailableReason(); !why.isEmpty())
        return unexpected(why);
    if (ranks < 1 || ranks > 250)
        return unexpected(RemoteLaunch::tr("a shaped local cluster has 1 to 250 ranks, not %1").arg(ranks));
    const QString ip = findTool(QStringLiteral("ip"));
    const QString tc = findTool(QStringLiteral("tc"));
    m_prefix = QStringLiteral("moewb-%1-%2").arg(::getpid()).arg(g_netnsSeq.fetch_add(1));
    const QString hub = m_prefix + QStringLiteral("-hub");
    const QString b = burst.isEmpty() ? LocalClusterSpec::defaultBurst(rate) : burst;
    auto run = [&](const QString& program, const QStringList& args) -> QString {
        const Captured c = capture(program, args);
        if (c.ok)
            return {};
        return RemoteLaunch::tr("%1 %2 failed: %3").arg(QFileInfo(program).fileName(), args.join(QLatin1Char(' ')), c.text);
    };
    auto fail = [&](const QString& why) {
        remove();
        return unexpected(why);
    };
    auto addNs = [&](const QString& name) -> QString {
        const QString e = run(ip, {QStringLiteral("netns"), QStringLiteral("add"), name});
        if (e.isEmpty())
            m_names << name;
        return e;
    };
    if (QString e = addNs(hub); !e.isEmpty())
        return fail(e);
    const QStringList shape{QStringLiteral("root"), QStringLiteral("tbf"), QStringLiteral("rate"), rate,
                            QStringLiteral("burst"), b, QStringLiteral("latency"), QStringLiteral("50ms")};
    QList<QPair<QString, QStringList>> steps{
        {ip, {QStringLiteral("-n"), hub, QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("lo"), QStringLiteral("up")}},
        {ip, {QStringLiteral("-n"), hub, QStringLiteral("link"), QStringLiteral("add"), QStringLiteral("br0"), QStringLiteral("type"),
              QStringLiteral("bridge")}},
        {ip, {QStringLiteral("-n"), hub, QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("br0"), QStringLiteral("up")}}};
    for (const auto& [program, args] : steps)
        if (QString e = run(program, args); !e.isEmpty())
            return fail(e);
    for (int k = 0; k < ranks; ++k) {
        const QString ns = m_prefix + QStringLiteral("-r%1").arg(k);
        if (QString e = addNs(ns); !e.isEmpty())
            return fail(e);
        const QString v = QStringLiteral("v%1").arg(k);
        const QList<QPair<QString, QStringList>> rankSteps{
            {ip, {QStringLiteral("-n"), hub, QStringLiteral("link"), QStringLiteral("add"), v, QStringLiteral("type"),
                  QStringLiteral("veth"), QStringLiteral("peer"), QStringLiteral("name"), QStringLiteral("eth0"),
                  QStringLiteral("netns"), ns}},
            {ip, {QStringLiteral("-n"), hub, QStringLiteral("link"), QStringLiteral("set"), v, QStringLiteral("master"),
                  QStringLiteral("br0")}},
            {ip, {QStringLiteral("-n"), hub, QStringLiteral("link"), QStringLiteral("set"), v, QStringLiteral("up")}},
            {ip, {QStringLiteral("-n"), ns, QStringLiteral("addr"), QStringLiteral("add"), rankAddress(k) + QStringLiteral("/24"),
                  QStringLiteral("dev"), QStringLiteral("eth0")}},
            {ip, {QStringLiteral("-n"), ns, QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("eth0"), QStringLiteral("up")}},
            {ip, {QStringLiteral("-n"), ns, QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("lo"), QStringLiteral("up")}},
            // Both ends: what the rank sends (eth0) and what it receives (the hub's end).
            {tc, QStringList{QStringLiteral("-n"), ns, QStringLiteral("qdisc"), QStringLiteral("add"), QStringLiteral("dev"),
                             QStringLiteral("eth0")} + shape},
            {tc, QStringList{QStringLiteral("-n"), hub, QStringLiteral("qdisc"), QStringLiteral("add"), QStringLiteral("dev"), v} +
                     shape}};
        for (const auto& [program, args] : rankSteps)
            if (QString e = run(program, args); !e.isEmpty())
                return fail(e);
    }
    return true;
}

void NetnsCluster::remove() {
    if (m_names.isEmpty())
        return;
    const QString ip = findTool(QStringLiteral("ip"));
    // Ranks first (their veths go with them), the hub last.
    for (qsizetype i = m_names.size() - 1; i >= 0; --i) {
        killNamespacePids(ip, m_names[i]);
        capture(ip, {QStringLiteral("netns"), QStringLiteral("del"), m_names[i]});
    }
    m_names.clear();
}

// ---- One local rank ------------------------------------------------------------------

namespace {

bool groupAlive(pid_t pgid) { return ::kill(-pgid, 0) == 0 || errno == EPERM; }

} // namespace

LocalRankResult runLocalRank(const LocalRankSpec& spec) {
    LocalRankResult res;
    // Everything the child needs, made before fork (after it only async-signal-safe calls).
    std::vector<std::string> args{"moe-probe"};
    // A rank's namespace: entered by the child before it runs the probe (setns, what
    // `ip netns exec NS` does for the network), so that the probe keeps its own name.
    int nsFd = -1;
    if (!spec.netns.isEmpty()) {
        const QByteArray nsPath = QFile::encodeName(QStringLiteral("/run/netns/") + spec.netns);
        nsFd = ::open(nsPath.constData(), O_RDONLY | O_CLOEXEC);
        if (nsFd < 0) {
            res.error = RemoteLaunch::tr("cannot open the network namespace %1: %2")
                            .arg(spec.netns, QString::fromLocal8Bit(std::strerror(errno)));
            return res;
        }
    }
    struct NsCloser {
        int& fd;
        ~NsCloser() {
            if (fd >= 0)
                ::close(fd);
        }
    } nsCloser{nsFd};
    for (const QString& a : spec.arguments)
        args.push_back(a.toStdString());
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // The environment: ours, without anything that would make the probe take its rank
    // from a launcher (it runs alone here), with the run's secret.
    std::vector<std::string> env;
    static const char* const dropped[] = {"MOEWB_PROBE_SECRET=", "OMPI_COMM_WORLD_", "PMI_RANK=", "PMI_SIZE=",
                                          "SLURM_PROCID=", "SLURM_NTASKS=", "SLURM_LOCALID="};
    for (char** e = environ; e && *e; ++e) {
        bool drop = false;
        for (const char* d : dropped)
            drop = drop || std::strncmp(*e, d, std::strlen(d)) == 0;
        if (!drop)
            env.emplace_back(*e);
    }
    if (!spec.secret.isEmpty())
        env.push_back("MOEWB_PROBE_SECRET=" + spec.secret.toStdString());
    std::vector<char*> envp;
    for (auto& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const std::string workDir = spec.workDir.isEmpty() ? std::string("/") : spec.workDir.toStdString();

    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0) {
        res.error = RemoteLaunch::tr("cannot make a pipe: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return res;
    }
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        res.error = RemoteLaunch::tr("cannot make a pipe: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return res;
    }
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]})
            ::close(fd);
        res.error = RemoteLaunch::tr("cannot start a process: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return res;
    }
    if (pid == 0) {
        // The child: its own session and process group; killed when this thread goes.
        ::setsid();
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(127);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT})
            ::signal(s, SIG_DFL);
        const int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            ::dup2(devnull, 0);
        ::dup2(outPipe[1], 1);
        ::dup2(errPipe[1], 2);
        if (::chdir(workDir.c_str()) != 0)
            ::_exit(127);
        if (nsFd >= 0 && ::setns(nsFd, CLONE_NEWNET) != 0) {
            static const char nsMsg[] = "moe-workbench: cannot enter the rank's network namespace\n";
            ssize_t ignored = ::write(2, nsMsg, sizeof nsMsg - 1);
            (void)ignored;
            ::_exit(127);
        }
        ::fcntl(spec.execFd, F_SETFD, 0);
        ::fexecve(spec.execFd, argv.data(), envp.data());
        static const char msg[] = "moe-workbench: cannot start moe-probe\n";
        ssize_t ignored = ::write(2, msg, sizeof msg - 1);
        (void)ignored;
        ::_exit(127);
    }
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    res.started = true;
    res.pid = pid;
    if (spec.onStarted)
        spec.onStarted(pid);

    LineSplitter so, se;
    auto emitOut = [&](const QString& l) {
        if (spec.onStdout)
            spec.onStdout(l);
    };
    auto emitErr = [&](const QString& l) {
        if (spec.onStderr)
            spec.onStderr(l);
    };
    int fds[2] = {outPipe[0], errPipe[0]};
    // Reads what is there (waiting up to waitMs); false when both pipes are closed.
    auto pump = [&](int waitMs) {
        pollfd p[2];
        int n = 0;
        for (int fd : fds)
            if (fd >= 0)
                p[n++] = pollfd{fd, POLLIN, 0};
        if (n == 0) {
            if (waitMs > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(waitMs));
            return false;
        }
        if (::poll(p, nfds_t(n), waitMs) <= 0)
            return true;
        for (int i = 0; i < n; ++i) {
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[8192];
            const ssize_t got = ::read(p[i].fd, buf, sizeof buf);
            const bool isOut = p[i].fd == fds[0];
            if (got > 0) {
                if (isOut)
                    so.feed(QByteArray(buf, got), emitOut);
                else
                    se.feed(QByteArray(buf, got), emitErr);
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                ::close(p[i].fd);
                fds[isOut ? 0 : 1] = -1;
            }
        }
        return true;
    };
    int status = 0;
    bool reaped = false;
    auto reap = [&](bool block) {
        if (reaped)
            return true;
        const pid_t w = ::waitpid(pid, &status, block ? 0 : WNOHANG);
        reaped = w == pid;
        return reaped;
    };
    const auto start = std::chrono::steady_clock::now();
    auto elapsedMs = [&] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    };
    bool stopping = false;
    while (!reap(false)) {
        pump(20);
        if (spec.cancel && spec.cancel->load()) {
            res.cancelled = true;
            stopping = true;
        } else if (spec.timeoutMs > 0 && elapsedMs() > spec.timeoutMs) {
            res.timedOut = true;
            stopping = true;
        }
        if (stopping)
            break;
    }
    if (stopping) {
        ::kill(-pid, SIGTERM);
        const auto termAt = std::chrono::steady_clock::now();
        while (!reap(false) &&
               std::chrono::steady_clock::now() - termAt < std::chrono::milliseconds(std::max(0, spec.killGraceMs)))
            pump(10);
    }
    // Whatever is left of the group (the leader or anything it started) goes now.
    if (groupAlive(pid))
        ::kill(-pid, SIGKILL);
    reap(true);
    for (int i = 0; i < 100 && groupAlive(pid); ++i) {
        ::kill(-pid, SIGKILL);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    res.groupGone = !groupAlive(pid);
    // The rest of the output (bounded: a descendant that escaped the group could hold a pipe).
    for (int i = 0; i < 50 && (fds[0] >= 0 || fds[1] >= 0); ++i)
        pump(10);
    for (int fd : fds)
        if (fd >= 0)
            ::close(fd);
    so.flush(emitOut);
    se.flush(emitErr);
    if (WIFEXITED(status))
        res.exitStatus = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        res.exitStatus = 128 + WTERMSIG(status);
    return res;
}

// ---- The verified probe --------------------------------------------------------------

Expected<int, QString> openVerifiedLocalProbe(const QString& bundleDir, QString* sha256) {
    const QString manifestPath = bundleDir + QStringLiteral("/manifest.json");
    QFile mf(manifestPath);
    if (!mf.open(QIODevice::ReadOnly))
        return unexpected(RemoteLaunch::tr("%1: cannot read the probe bundle's manifest").arg(manifestPath));
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(mf.read(1 << 20), &pe);
    QString expected;
    for (const QJsonValue& v : doc.object().value(QStringLiteral("files")).toArray())
        if (v.toObject().value(QStringLiteral("name")).toString() == QLatin1String("moe-probe"))
            expected = v.toObject().value(QStringLiteral("sha256")).toString().toLower();
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    if (!hex.match(expected).hasMatch())
        return unexpected(RemoteLaunch::tr("%1: no sha256 of moe-probe in \"files\"").arg(manifestPath));
    const QString path = bundleDir + QStringLiteral("/moe-probe");
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return unexpected(errno == ELOOP ? RemoteLaunch::tr("%1 is a symbolic link; refusing to run it").arg(path)
                                         : RemoteLaunch::tr("cannot open %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    auto fail = [fd](const QString& why) {
        ::close(fd);
        return unexpected(why);
    };
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return fail(RemoteLaunch::tr("%1 is not a regular file; refusing to run it").arg(path));
    if (st.st_uid != ::geteuid() && st.st_uid != 0)
        return fail(RemoteLaunch::tr("%1 is owned by uid %2, not by you (uid %3) or root; refusing to run it")
                        .arg(path)
                        .arg(st.st_uid)
                        .arg(::geteuid()));
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return fail(RemoteLaunch::tr("%1 is writable by group or others; refusing to run it").arg(path));
    QCryptographicHash h(QCryptographicHash::Sha256);
    char buf[65536];
    off_t at = 0;
    for (;;) {
        const ssize_t n = ::pread(fd, buf, sizeof buf, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(RemoteLaunch::tr("cannot read %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        if (n == 0)
            break;
        h.addData(QByteArrayView(buf, n));
        at += n;
    }
    const QString got = QString::fromLatin1(h.result().toHex());
    if (got != expected)
        return fail(RemoteLaunch::tr("%1 does not match the bundle's manifest (sha256 %2, expected %3); refusing to run it")
                        .arg(path, got, expected));
    if (sha256)
        *sha256 = got;
    return fd;
}

Expected<QJsonObject, QString> localInventory(const QString& bundleDir, int timeoutMs) {
    QString sha;
    auto fd = openVerifiedLocalProbe(bundleDir, &sha);
    if (!fd)
        return unexpected(fd.error());
    QByteArray out;
    QString lastErr;
    LocalRankSpec s;
    s.execFd = *fd;
    s.arguments = {QStringLiteral("--inventory")};
    s.workDir = QDir::tempPath();
    s.timeoutMs = timeoutMs;
    s.onStdout = [&](const QString& l) { out += l.toUtf8() + '\n'; };
    s.onStderr = [&](const QString& l) {
        if (!l.trimmed().isEmpty())
            lastErr = l.trimmed();
    };
    const LocalRankResult r = runLocalRank(s);
    ::close(*fd);
    if (!r.started)
        return unexpected(r.error);
    const QJsonDocument doc = QJsonDocument::fromJson(out);
    if (r.exitStatus != 0 || !doc.isObject())
        return unexpected(RemoteLaunch::tr("moe-probe --inventory %1%2")
                              .arg(r.exitStatus != 0 ? RemoteLaunch::tr("exited with status %1").arg(r.exitStatus)
                                                     : RemoteLaunch::tr("printed no JSON object"),
                                   lastErr.isEmpty() ? QString() : QStringLiteral(": ") + lastErr));
    return doc.object();
}

} // namespace moewb::remote
