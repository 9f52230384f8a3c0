#pragma once
// A real OpenSSH server on 127.0.0.x for one test: generated host and client keys, a
// private HOME (.ssh/config, .ssh/known_hosts, .ssh/id_ed25519) in a QTemporaryDir,
// sshd run in the foreground (-D) as a QProcess child, so it ends with the test.
#include "ssh/SshSession.h"

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

class SshdFixture {
public:
    SshdFixture();
    ~SshdFixture();

    // Empty on success, else why it could not start (sshd missing, port busy, ...).
    QString start(const QString& hostKeyName = QStringLiteral("hostkey_a"),
                  const QString& keyType = QStringLiteral("ed25519"));
    void stop();

    QString ip() const { return m_ip; }
    int port() const { return m_port; }
    QString dir() const { return m_dir.path(); }
    QString home() const { return m_dir.path() + QStringLiteral("/home"); }
    QString sshDir() const { return home() + QStringLiteral("/.ssh"); }
    QString remoteHome() const { return m_dir.path() + QStringLiteral("/remotehome"); }
    QString user() const;

    // A key pair under dir(); generated once. Returns the private key path.
    QString key(const QString& name, const QString& type = QStringLiteral("ed25519"),
                const QString& passphrase = QString());
    QString fingerprint(const QString& keyPath) const;  // "SHA256:..."
    // Puts a key at ~/.ssh/id_ed25519 (the client's default identity).
    void installClientKey(const QString& privateKey);
    void authorize(const QString& privateKey);
    void writeKnownHosts(const QString& hostKeyName);

    moewb::remote::SshOptions options() const;  // user@ip:port, private HOME, no agent
    QString log() const { return m_log; }

    static int freePort(const QString& ip);  // bind port 0, read it back, close
    static bool canConnect(const QString& ip, int port);  // a TCP connect succeeds
    static QString run(const QString& program, const QStringList& args, int* rc = nullptr);

private:
    QTemporaryDir m_dir;
    QString m_ip;
    int m_port = 0;
    std::unique_ptr<QProcess> m_sshd;
    QString m_log;
    QByteArray m_oldHome;
};
