#include "SshdFixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

int SshdFixture::freePort(const QString& ip) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = 0;
    ::inet_pton(AF_INET, ip.toLatin1().constData(), &a.sin_addr);
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
        socklen_t len = sizeof a;
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
            port = ntohs(a.sin_port);
    }
    ::close(fd);
    return port;
}

bool SshdFixture::canConnect(const QString& ip, int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, ip.toLatin1().constData(), &a.sin_addr);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

SshdFixture::SshdFixture() {
    m_ip = QStringLiteral("127.0.0.%1").arg(QRandomGenerator::global()->bounded(2, 250));
    QDir().mkpath(sshDir());
    QDir().mkpath(remoteHome());
    QFile::setPermissions(sshDir(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    m_oldHome = qgetenv("HOME");
    qputenv("HOME", home().toLocal8Bit());
    qunsetenv("SSH_AUTH_SOCK");
    installClientKey(key(QStringLiteral("client")));
    authorize(key(QStringLiteral("client")));
}

SshdFixture::~SshdFixture() {
    stop();
    qputenv("HOME", m_oldHome);
}

QString SshdFixture::user() const {
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QStringLiteral("root");
}

QString SshdFixture::run(const QString& program, const QStringList& args, int* rc) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        if (rc)
            *rc = -1;
        return QStringLiteral("cannot start %1").arg(program);
    }
    p.closeWriteChannel();
    p.waitForFinished(30000);
    if (rc)
        *rc = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromLocal8Bit(p.readAll());
}

QString SshdFixture::key(const QString& name, const QString& type, const QString& passphrase) {
    const QString path = dir() + QLatin1Char('/') + name;
    if (!QFile::exists(path))
        run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), type, QStringLiteral("-N"),
                                           passphrase, QStringLiteral("-C"), name, QStringLiteral("-f"), path});
    return path;
}

QString SshdFixture::fingerprint(const QString& keyPath) const {
    const QString out = run(QStringLiteral("ssh-keygen"),
                            {QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"), QStringLiteral("-f"),
                             keyPath + QStringLiteral(".pub")});
    return out.section(QLatin1Char(' '), 1, 1);
}

void SshdFixture::installClientKey(const QString& privateKey) {
    for (const QString& suffix : {QString(), QStringLiteral(".pub")}) {
        const QString dst = sshDir() + QStringLiteral("/id_ed25519") + suffix;
        QFile::remove(dst);
        QFile::copy(privateKey + suffix, dst);
        QFile::setPermissions(dst, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
}

void SshdFixture::authorize(const QString& privateKey) {
    QFile in(privateKey + QStringLiteral(".pub"));
    QFile out(dir() + QStringLiteral("/authorized_keys"));
    if (in.open(QIODevice::ReadOnly) && out.open(QIODevice::Append))
        out.write(in.readAll());
}

void SshdFixture::writeKnownHosts(const QString& hostKeyName) {
    QFile in(dir() + QLatin1Char('/') + hostKeyName + QStringLiteral(".pub"));
    QFile out(sshDir() + QStringLiteral("/known_hosts"));
    if (in.open(QIODevice::ReadOnly) && out.open(QIODevice::Append)) {
        const QByteArray pub = in.readAll().trimmed();
        const QByteArray keyPart = pub.left(pub.lastIndexOf(' '));  // type + base64
        out.write(QStringLiteral("[%1]:%2 ").arg(m_ip).arg(m_port).toUtf8() + keyPart + '\n');
    }
}

QString SshdFixture::start(const QString& hostKeyName, const QString& keyType) {
    if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
        return QStringLiteral("/usr/sbin/sshd not found: install openssh-server (packaging/install-deps)");
    if (!m_dir.isValid())
        return QStringLiteral("no temporary directory");
    const QString hostKey = key(hostKeyName, keyType);
    if (m_port == 0)
        m_port = freePort(m_ip);
    if (m_port == 0)
        return QStringLiteral("no free port on %1").arg(m_ip);
    QDir().mkpath(QStringLiteral("/run/sshd"));
    const QString conf = dir() + QStringLiteral("/sshd_config");
    {
        QFile f(conf);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return QStringLiteral("cannot write %1").arg(conf);
        const QString text = QStringLiteral(
                                 "Port %1\nListenAddress %2\nHostKey %3\nAuthorizedKeysFile %4/authorized_keys\n"
                                 "PubkeyAuthentication yes\nPasswordAuthentication no\n"
                                 "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
                                 "StrictModes no\nUsePAM no\nPidFile %4/sshd.pid\nLogLevel VERBOSE\n"
                                 "Subsystem sftp internal-sftp -d %5\nSetEnv HOME=%5\n")
                                 .arg(m_port)
                                 .arg(m_ip, hostKey, dir(), remoteHome());
        f.write(text.toUtf8());
    }
    // A client config for the alias "testnode" (exercises ssh_options_parse_config).
    {
        QFile f(sshDir() + QStringLiteral("/config"));
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(QStringLiteral("Host testnode\n  HostName %1\n  Port %2\n  User %3\n")
                        .arg(m_ip)
                        .arg(m_port)
                        .arg(user())
                        .toUtf8());
    }
    m_sshd = std::make_unique<QProcess>();
    m_sshd->setProcessChannelMode(QProcess::MergedChannels);
    m_sshd->start(QStringLiteral("/usr/sbin/sshd"), {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), conf});
    if (!m_sshd->waitForStarted(10000))
        return QStringLiteral("cannot start sshd: %1").arg(m_sshd->errorString());
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000) {
        if (m_sshd->state() != QProcess::Running) {
            m_log += QString::fromLocal8Bit(m_sshd->readAll());
            return QStringLiteral("sshd exited: %1").arg(m_log);
        }
        if (canConnect(m_ip, m_port))
            return {};
        QThread::msleep(20);
    }
    return QStringLiteral("sshd did not listen on %1:%2").arg(m_ip).arg(m_port);
}

void SshdFixture::stop() {
    if (!m_sshd)
        return;
    if (m_sshd->state() != QProcess::NotRunning) {
        m_sshd->terminate();  // SIGTERM to our own child, by its PID
        if (!m_sshd->waitForFinished(5000)) {
            m_sshd->kill();
            m_sshd->waitForFinished(5000);
        }
    }
    m_log += QString::fromLocal8Bit(m_sshd->readAll());
    m_sshd.reset();
}

moewb::remote::SshOptions SshdFixture::options() const {
    moewb::remote::SshOptions o;
    o.node.user = user();
    o.node.host = m_ip;
    o.node.port = m_port;
    o.sshDir = sshDir();
    o.configFile = sshDir() + QStringLiteral("/config");
    o.knownHostsFile = sshDir() + QStringLiteral("/known_hosts");
    o.useAgent = false;
    o.connectTimeoutMs = 5000;
    return o;
}
