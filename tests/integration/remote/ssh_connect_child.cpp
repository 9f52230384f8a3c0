// Connects once to user@host:port with the given ssh folder and no passphrase
// callback, as the CLI does (terminal prompt on), and prints "connected" or the error.
// Driven by test_ssh_passphrase through a pseudo-terminal, and without one.
#include "ssh/SshSession.h"
#include "ssh/TerminalPassphrase.h"

#include <QCoreApplication>
#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments();
    if (a.size() != 5) {
        std::fprintf(stderr, "usage: ssh_connect_child USER HOST PORT SSHDIR\n");
        return 2;
    }
    moewb::remote::setTerminalPassphrasePrompt(true);
    moewb::remote::SshOptions o;
    o.node.user = a[1];
    o.node.host = a[2];
    o.node.port = a[3].toInt();
    o.sshDir = a[4];
    o.configFile = a[4] + QStringLiteral("/config");
    o.knownHostsFile = a[4] + QStringLiteral("/known_hosts");
    o.useAgent = false;
    o.connectTimeoutMs = 20000; // a loaded test machine
    auto s = moewb::remote::SshSession::connect(o);
    if (!s) {
        std::printf("error: %s\n", qPrintable(s.error().message));
        return 1;
    }
    std::printf("connected\n");
    return 0;
}
