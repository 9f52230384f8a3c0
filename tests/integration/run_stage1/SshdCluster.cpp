#include "SshdCluster.h"

#include "SshdFixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>

#include <pwd.h>
#include <unistd.h>

// Port, process and connect helpers come from the single-sshd fixture.
int SshdCluster::freePort(const QString& ip) { return SshdFixture::freePort(ip); }

QString SshdCluster::run(const QString& program, const QStringList& args, int* rc) { return SshdFixture::run(program, args, rc); }

QStringList SshdCluster::processesMatching(const QString& text) {
    QStringList out;
    const QStringList lines = run(QStringLiteral("ps"), {QStringLiteral("-ww"), QStringLiteral("-eo"), QStringLiteral("pid,pgid,args")})
                                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& l : lines)
        if (l.contains(text) && !l.contains(QLatin1String(" ps -ww -eo")))
            out << l.trimmed();
    return out;
}

QStringList SshdCluster::programsUnder(const QString& dir) {
    QStringList out;
    for (const QString& l : processesMatching(dir)) {
        const QString args = l.section(QLatin1Char(' '), 2, -1, QString::SectionSkipEmpty);
        if (args.startsWith(dir))
            out << l;
    }
    return out;
}

QStringList SshdCluster::probeRunsUnder(const QString& dir) {
    QStringList out;
    for (const QString& l : programsUnder(dir))
        if (!l.contains(QLatin1String(" --inventory")))
            out << l;
    return out;
}

SshdCluster::SshdCluster() {
    QDir().mkpath(sshDir());
    QFile::setPermissions(sshDir(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    m_oldHome = qgetenv("HOME");
    qputenv("HOME", home().toLocal8Bit());
    qunsetenv("SSH_AUTH_SOCK");
    const QString client = dir() + QStringLiteral("/client");
    run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                                       QString(), QStringLiteral("-C"), QStringLiteral("client"), QStringLiteral("-f"), client});
    for (const QString& suffix : {QString(), QStringLiteral(".pub")}) {
        const QString dst = sshDir() + QStringLiteral("/id_ed25519") + suffix;
        QFile::copy(client + suffix, dst);
        QFile::setPermissions(dst, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    QFile in(client + QStringLiteral(".pub"));
    QFile out(dir() + QStringLiteral("/authorized_keys"));
    if (in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly))
        out.write(in.readAll());
    QFile empty(dir() + QStringLiteral("/authorized_keys_none"));
    if (empty.open(QIODevice::WriteOnly))
        empty.close();
}

SshdCluster::~SshdCluster() {
    stopAll();
    qputenv("HOME", m_oldHome);
}

QString SshdCluster::user() const {
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QStringLiteral("root");
}

QString SshdCluster::start(int n, const QList<NodeSpec>& specs) {
    if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
        return QStringLiteral("/usr/sbin/sshd not found: install openssh-server (packaging/install-deps)");
    if (!m_dir.isValid())
        return QStringLiteral("no temporary directory");
    QDir().mkpath(QStringLiteral("/run/sshd"));
    const int base = int(QRandomGenerator::global()->bounded(10, 250 - n));
    for (int i = 0; i < n; ++i) {
        Node node;
        node.ip = QStringLiteral("127.0.0.%1").arg(base + i);
        node.spec = specs.value(i);
        const QString homeName = node.spec.remoteHomeName.isEmpty() ? QStringLiteral("remote%1").arg(i) : node.spec.remoteHomeName;
        node.remoteHome = dir() + QLatin1Char('/') + homeName;
        QDir().mkpath(node.remoteHome);
        m_nodes.push_back(std::move(node));
    }
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        const QString e = startNode(i);
        if (!e.isEmpty())
            return e;
    }
    writeKnownHosts();
    // ~/.ssh/config: one alias per node ("node<i>"), exercises ssh_options_parse_config.
    QFile f(sshDir() + QStringLiteral("/config"));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        for (int i = 0; i < size(); ++i)
            f.write(QStringLiteral("Host node%1\n  HostName %2\n  Port %3\n  User %4\n").arg(i).arg(ip(i)).arg(port(i)).arg(user()).toUtf8());
    return {};
}

QString SshdCluster::startNode(size_t i) {
    Node& n = m_nodes[i];
    n.hostKey = dir() + QStringLiteral("/hostkey_%1_%2").arg(i).arg(m_keyGen++);
    run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                                       QString(), QStringLiteral("-f"), n.hostKey});
    if (n.port == 0)
        n.port = freePort(n.ip);
    if (n.port == 0)
        return QStringLiteral("no free port on %1").arg(n.ip);
    const QString conf = dir() + QStringLiteral("/sshd_config_%1").arg(i);
    QFile f(conf);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("cannot write %1").arg(conf);
    const QString keys = dir() + (n.spec.authorized ? QStringLiteral("/authorized_keys") : QStringLiteral("/authorized_keys_none"));
    f.write(QStringLiteral("Port %1\nListenAddress %2\nHostKey %3\nAuthorizedKeysFile %4\n"
                           "PubkeyAuthentication yes\nPasswordAuthentication no\n"
                           "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
                           "StrictModes no\nUsePAM no\nPidFile %5/sshd_%6.pid\nLogLevel ERROR\n"
                           "MaxStartups 100:30:200\nMaxSessions 50\n"
                           "AllowTcpForwarding %8\n"
                           "Subsystem sftp internal-sftp -d %7\n"
                           "SetEnv HOME=%7%9\n")
                .arg(n.port)
                .arg(n.ip, n.hostKey, keys, dir())
                .arg(i)
                .arg(n.remoteHome)
                .arg(n.spec.tcpForwarding ? QStringLiteral("yes") : QStringLiteral("no"))
                .arg(sessionEnv.isEmpty() ? QString() : QLatin1Char(' ') + sessionEnv.join(QLatin1Char(' ')))
                .toUtf8());
    if (!extraSshdConfig.isEmpty())
        f.write(extraSshdConfig.toUtf8() + '\n');
    f.close();
    n.sshd = std::make_unique<QProcess>();
    n.sshd->setProcessChannelMode(QProcess::MergedChannels);
    n.sshd->start(QStringLiteral("/usr/sbin/sshd"), {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), conf});
    if (!n.sshd->waitForStarted(10000))
        return QStringLiteral("cannot start sshd: %1").arg(n.sshd->errorString());
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000) {
        if (n.sshd->state() != QProcess::Running)
            return QStringLiteral("sshd on %1:%2 exited: %3").arg(n.ip).arg(n.port).arg(QString::fromLocal8Bit(n.sshd->readAll()));
        if (SshdFixture::canConnect(n.ip, n.port))
            return {};
        QThread::msleep(20);
    }
    return QStringLiteral("sshd did not listen on %1:%2").arg(n.ip).arg(n.port);
}

void SshdCluster::writeKnownHosts() {
    QFile out(sshDir() + QStringLiteral("/known_hosts"));
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return;
    for (const Node& n : m_nodes) {
        if (!n.spec.knownHost)
            continue;
        QFile in(n.hostKey + QStringLiteral(".pub"));
        if (!in.open(QIODevice::ReadOnly))
            continue;
        const QByteArray pub = in.readAll().trimmed();
        const QByteArray keyPart = pub.left(pub.lastIndexOf(' '));
        out.write(QStringLiteral("[%1]:%2 ").arg(n.ip).arg(n.port).toUtf8() + keyPart + '\n');
    }
}

QString SshdCluster::changeHostKey(int i) {
    Node& n = m_nodes[size_t(i)];
    if (n.sshd) {
        n.sshd->terminate();
        n.sshd->waitForFinished(5000);
        n.sshd.reset();
    }
    return startNode(size_t(i));  // a new key; known_hosts still has the old one
}

void SshdCluster::stopAll() {
    for (Node& n : m_nodes) {
        if (!n.sshd)
            continue;
        if (n.sshd->state() != QProcess::NotRunning) {
            n.sshd->terminate();  // our own child, by its PID
            if (!n.sshd->waitForFinished(5000)) {
                n.sshd->kill();
                n.sshd->waitForFinished(5000);
            }
        }
        n.sshd.reset();
    }
}

QString SshdCluster::hostKeyFingerprint(int i) const {
    const QString out = run(QStringLiteral("ssh-keygen"), {QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"),
                                                           QStringLiteral("-f"), m_nodes[size_t(i)].hostKey + QStringLiteral(".pub")});
    return out.section(QLatin1Char(' '), 1, 1);
}

QList<moewb::remote::NodeAddress> SshdCluster::addresses() const {
    QList<moewb::remote::NodeAddress> out;
    for (const Node& n : m_nodes)
        out << moewb::remote::NodeAddress{user(), n.ip, n.port};
    return out;
}

QStringList SshdCluster::addressTexts() const {
    QStringList out;
    for (const auto& a : addresses())
        out << a.display();
    return out;
}

void SshdCluster::configure(moewb::remote::StageOneRequest& r) const {
    r.sshDir = sshDir();
    r.sshConfigFile = sshDir() + QStringLiteral("/config");
    r.knownHostsFile = sshDir() + QStringLiteral("/known_hosts");
    r.useAgent = false;
    r.connectTimeoutMs = 5000;
}

QString SshdCluster::hangMarker() const {
    return QStringLiteral("sleep 4217.%1").arg(m_nodes.empty() ? 0 : m_nodes.front().port);
}

QString SshdCluster::faultBundle(const QString& realProbe, const QString& faultIp, int faultPort, const QString& fault) {
    const QString bundle = dir() + QStringLiteral("/bundle-") + fault;
    QDir().mkpath(bundle);
    QString action;
    if (fault == QLatin1String("crash"))
        action = QStringLiteral("kill -s SEGV $$");
    else if (fault == QLatin1String("hang"))
        // A duration no other test or cluster uses: tests run in parallel and each
        // checks the machine's process table for its own marker.
        action = QStringLiteral("exec ") + hangMarker();
    else
        action = QStringLiteral("exit 7");
    // $SSH_CONNECTION: "client-ip client-port server-ip server-port".
    // "no-nccl": only --inventory is changed there: it reports no NCCL.
    const bool inventoryFault = fault == QLatin1String("no-nccl");
    if (inventoryFault)
        action = QStringLiteral("echo '{\"schema\":\"moe-probe-inventory/1\",\"hostname\":\"stand-in\",\"gpu_count\":0,"
                                "\"nccl\":null}'; exit 0");
    const QString script = QStringLiteral("#!/bin/sh\n"
                                          "# stand-in probe for a fault test\n"
                                          "if [ \"$1\" %6 --inventory ]; then\n"
                                          "  case \"$SSH_CONNECTION\" in *\" %1 %2\") echo 'stand-in: %3' >&2; %4;; esac\n"
                                          "fi\n"
                                          "exec '%5' \"$@\"\n")
                               .arg(faultIp)
                               .arg(faultPort)
                               .arg(fault, action, realProbe, inventoryFault ? QStringLiteral("=") : QStringLiteral("!="));
    QFile f(bundle + QStringLiteral("/moe-probe"));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(script.toUtf8());
    f.close();
    QFile::setPermissions(bundle + QStringLiteral("/moe-probe"),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return bundle;
}
