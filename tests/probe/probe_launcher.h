// Test helper: runs moe-probe ranks as real processes on 127.0.0.1..127.0.0.N with
// QProcess, and small checks shared by the probe tests.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <memory>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace probetest {

inline QString probePath() {
    return QStringLiteral(MOEWB_PROBE_EXECUTABLE);
}

// The run's secret every rank started by this test process gets (MOEWB_PROBE_SECRET in
// its own environment, which QProcess hands on): 128 random bits as hex, set once.
inline QByteArray ensureRunSecret() {
    static const QByteArray secret = [] {
        QByteArray s;
        for (int i = 0; i < 4; ++i)
            s += QByteArray::number(QRandomGenerator::system()->generate(), 16).rightJustified(8, '0');
        qputenv("MOEWB_PROBE_SECRET", s);
        return s;
    }();
    return secret;
}

// Binds host:port (port 0: the OS picks); returns the bound port, 0 on failure. The
// socket is closed again unless keepFd is given.
inline quint16 bindPort(const char* host, quint16 port, int* keepFd = nullptr) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    ::inet_pton(AF_INET, host, &a.sin_addr);
    socklen_t len = sizeof a;
    quint16 bound = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(fd, 4) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        bound = ntohs(a.sin_port);
    if (keepFd && bound)
        *keepFd = fd;
    else
        ::close(fd);
    return bound;
}

// A port free right now on 127.0.0.1.
inline quint16 freePort() {
    return bindPort("127.0.0.1", 0);
}

struct RankRun {
    std::unique_ptr<QProcess> process;
    QByteArray out;
    QByteArray err;
    int exitCode = -1;
    bool crashed = false;
};

class ProbeRanks {
public:
    // Starts world ranks: rank r listens on 127.0.0.(r+1); extra arguments go to every rank.
    ProbeRanks(int world, const QStringList& extra, quint16 port = 0) : port_(port ? port : freePort()) {
        ensureRunSecret();
        for (int r = 0; r < world; ++r) {
            RankRun run;
            run.process = std::make_unique<QProcess>();
            QStringList args{"--rank",       QString::number(r),
                             "--world",      QString::number(world),
                             "--rendezvous", QStringLiteral("127.0.0.1:%1").arg(port_),
                             "--listen",     QStringLiteral("127.0.0.%1").arg(r + 1)};
            args += extra;
            run.process->start(probePath(), args);
            runs_.push_back(std::move(run));
        }
    }
    ~ProbeRanks() {
        for (RankRun& r : runs_)
            if (r.process->state() != QProcess::NotRunning) {
                r.process->kill();
                r.process->waitForFinished(5000);
            }
    }

    quint16 port() const { return port_; }
    QProcess& process(int rank) { return *runs_[static_cast<std::size_t>(rank)].process; }
    RankRun& run(int rank) { return runs_[static_cast<std::size_t>(rank)]; }

    // Waits for every rank (but `except`), collecting output; false when one is still
    // running at the end.
    bool waitAll(int timeoutMs, int except = -1) {
        QElapsedTimer timer;
        timer.start();
        bool all = true;
        for (RankRun& r : runs_) {
            if (&r - runs_.data() == except)
                continue;
            const int left = std::max(1, timeoutMs - static_cast<int>(timer.elapsed()));
            if (r.process->state() != QProcess::NotRunning && !r.process->waitForFinished(left))
                all = false;
            r.out += r.process->readAllStandardOutput();
            r.err += r.process->readAllStandardError();
            r.exitCode = r.process->exitCode();
            r.crashed = r.process->exitStatus() == QProcess::CrashExit;
        }
        return all;
    }

    QString describe() const {
        QString s;
        for (std::size_t i = 0; i < runs_.size(); ++i)
            s += QStringLiteral("--- rank %1 exit %2\nstdout:\n%3\nstderr:\n%4\n")
                     .arg(i)
                     .arg(runs_[i].exitCode)
                     .arg(QString::fromLocal8Bit(runs_[i].out.right(3000)),
                          QString::fromLocal8Bit(runs_[i].err));
        return s;
    }

private:
    quint16 port_;
    std::vector<RankRun> runs_;
};

inline QJsonObject readJsonObject(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    return doc.object();
}

} // namespace probetest
