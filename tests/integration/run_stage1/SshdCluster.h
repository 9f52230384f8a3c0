#pragma once
// N real OpenSSH servers on 127.0.0.x for one test or bench: one private client HOME
// (~/.ssh/id_ed25519, config, known_hosts), one host key per node, one sshd -D per
// node as a QProcess child (ended by PID with the fixture). Each node has its own
// SFTP start directory ("remote home"), or all share one (a shared filesystem).
#include "launch/StageOneSweep.h"

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <vector>

class SshdCluster {
public:
    SshdCluster();
    ~SshdCluster();

    struct NodeSpec {
        bool authorized = true;        // false: the client key is not in authorized_keys
        bool knownHost = true;         // false: known_hosts does not list it
        QString remoteHomeName;        // "" = "remote<i>"; same name = shared filesystem
        bool tcpForwarding = true;     // false: AllowTcpForwarding no (a jump host that forwards nothing)
    };
    // Starts n nodes (sshd on consecutive 127.0.0.x, free ports). Empty on success.
    QString start(int n, const QList<NodeSpec>& specs = {});
    void stopAll();
    // Restarts node i with a freshly generated host key (known_hosts keeps the old one).
    QString changeHostKey(int i);

    int size() const { return int(m_nodes.size()); }
    QString ip(int i) const { return m_nodes[size_t(i)].ip; }
    int port(int i) const { return m_nodes[size_t(i)].port; }
    QString remoteHome(int i) const { return m_nodes[size_t(i)].remoteHome; }
    QString hostKeyFingerprint(int i) const;  // "SHA256:..."
    QList<moewb::remote::NodeAddress> addresses() const;
    QStringList addressTexts() const;  // user@ip:port

    QString dir() const { return m_dir.path(); }
    QString home() const { return m_dir.path() + QStringLiteral("/home"); }
    QString sshDir() const { return home() + QStringLiteral("/.ssh"); }
    QString user() const;
    // Fills the SSH fields of a request (private HOME, no agent).
    void configure(moewb::remote::StageOneRequest& request) const;

    // Lines appended to every node's sshd_config when it (re)starts (not SetEnv: sshd
    // takes the first SetEnv line only; use sessionEnv).
    QString extraSshdConfig;
    // Environment of every session ("NAME=VALUE", no spaces, e.g.
    // "SLURM_CONF=/tmp/x/slurm.conf"), besides HOME: each node's
    // shell gets its own remote home as HOME, as on separate machines (and this
    // machine's own ~/.bashrc stays out of the test).
    QStringList sessionEnv;

    // A bundle directory whose moe-probe is a shell stand-in that runs the real probe,
    // except on the node listening on faultIp:faultPort, where it does `fault`
    // ("crash": SIGSEGV itself, "hang": sleep, "exit7": exit 7; --inventory is passed
    // through), or "no-nccl": there --inventory reports no NCCL (the rest passes through).
    QString faultBundle(const QString& realProbe, const QString& faultIp, int faultPort, const QString& fault);
    // The command line of the "hang" fault's process ("sleep 4217.<port of node 0>"): one
    // per cluster, so tests running in parallel never see each other's.
    QString hangMarker() const;

    static QString run(const QString& program, const QStringList& args, int* rc = nullptr);
    static int freePort(const QString& ip);
    // Lines of `ps -ww -eo pid,pgid,args` containing text (excluding the ps itself);
    // whole command lines, whatever COLUMNS says.
    static QStringList processesMatching(const QString& text);
    // Processes whose program (first word of args) lies under dir, e.g. the probes.
    static QStringList programsUnder(const QString& dir);
    // The probe runs among them: not the short `moe-probe --inventory` each node runs
    // first, which a wait for "N programs under dir" could otherwise catch instead.
    static QStringList probeRunsUnder(const QString& dir);

private:
    struct Node {
        QString ip;
        int port = 0;
        QString hostKey;
        QString remoteHome;
        NodeSpec spec;
        std::unique_ptr<QProcess> sshd;
    };
    QString startNode(size_t i);
    void writeKnownHosts();

    QTemporaryDir m_dir;
    std::vector<Node> m_nodes;
    QByteArray m_oldHome;
    int m_keyGen = 0;
};
