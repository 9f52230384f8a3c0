// bench_remote_fanout [N...]: one stage 1 sweep point over N real sshd (default 4 8 16
// 32), timed from the sweep's own events: connect, upload, inventory, launch + run,
// collect (report read back, imported, saved). Prints each phase and the growth
// against linear from the smallest N (1.00 = linear; below 1 = better than linear).
// Every simulated node shares this machine's cores, so the wall time also carries the
// nodes' own work (sshd, sftp-server, the probes); the workbench side alone is its CPU
// time ("client CPU", getrusage of this process: connect, upload, streams, import,
// save), printed with its own growth against linear. Every bound is the library's own,
// scaled to the request (remote/launch/FanoutTimeouts.h): none is set here; each N's
// bounds are printed under its row.
#include "SshdCluster.h"
#include "StageOneTestSupport.h"
#include "launch/FanoutTimeouts.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMutex>
#include <QTemporaryDir>

#include <cstdio>
#include <map>

#include <sys/resource.h>

using namespace moewb;

namespace {

struct Phases {
    qint64 connect = 0, upload = 0, inventory = 0, run = 0, collect = 0, total = 0;
    qint64 clientCpu = 0;  // ms of CPU this process used for the sweep
    QString bounds;        // the scaled bounds the sweep ran under
};

qint64 ownCpuMs() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return qint64(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000;
}

// Returns false when the sweep failed; the cluster's sshd instances are stopped either way
// (its destructor runs: no exit() from here).
bool measure(int n, const QString& projectDir, Phases& p) {
    SshdCluster c;
    const QString e = c.start(n);
    if (!e.isEmpty()) {
        std::fprintf(stderr, "cannot start %d sshd: %s\n", n, qPrintable(e));
        return false;
    }
    const QString project = stage1test::makeProject(projectDir + QStringLiteral("/fanout-%1.moewb").arg(n));
    remote::StageOneRequest r = stage1test::smallRequest(c, project);
    r.repeats = 1;
    r.iterations = 2;
    r.warmup = 1;
    // The library's bounds, not the test support's: connect and helper for one node,
    // the run scaled (commandTimeoutMs 0), the probe's own --timeout as by default.
    const remote::StageOneRequest defaults;
    r.connectTimeoutMs = defaults.connectTimeoutMs;
    r.helperTimeoutMs = defaults.helperTimeoutMs;
    r.commandTimeoutMs = defaults.commandTimeoutMs;
    r.probeTimeoutS = defaults.probeTimeoutS;
    {
        const auto b = remote::FanoutTimeouts::scaled(r.connectTimeoutMs, r.helperTimeoutMs, n);
        const qint64 probeBytes = QFileInfo(stage1test::realProbe()).size();
        p.bounds = QStringLiteral("# %1 nodes: bounds connect %2 ms, helper %3 ms, upload %4 ms (%5 bytes), run %6 ms")
                       .arg(n)
                       .arg(b.connectMs)
                       .arg(b.helperMs)
                       .arg(b.uploadMs(probeBytes))
                       .arg(probeBytes)
                       .arg(remote::FanoutTimeouts::probeRunMs(n, r.messageSizes, r.warmup, r.iterations, r.repeats,
                                                               r.probeTimeoutS));
    }
    QElapsedTimer clock;
    QMutex m;
    std::map<QString, qint64> last;  // phase -> time of the last node reaching it
    qint64 firstRunning = -1;
    remote::StageOneEvents ev;
    ev.progress = [&](const QString&, double f, const QString& what) {
        QMutexLocker l(&m);
        const qint64 t = clock.elapsed();
        if (what.startsWith(QLatin1String("running")) && firstRunning < 0)
            firstRunning = t;
        if (f >= 1.0 || what.startsWith(QLatin1String("probe")))
            last[what] = t;
    };
    const qint64 cpu0 = ownCpuMs();
    clock.start();
    auto result = remote::StageOneSweep(r, ev).run();
    const qint64 end = clock.elapsed();
    p.clientCpu = ownCpuMs() - cpu0;
    if (!result) {
        std::fprintf(stderr, "sweep over %d nodes failed:\n%s\n", n, qPrintable(result.error().summary()));
        return false;
    }
    p.connect = last[QStringLiteral("connected")];
    p.upload = last[QStringLiteral("probe uploaded")] - p.connect;
    p.inventory = last[QStringLiteral("ready")] - last[QStringLiteral("probe uploaded")];
    p.run = last[QStringLiteral("finished")] - firstRunning;
    p.collect = end - last[QStringLiteral("finished")];
    p.total = end;
    return true;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QList<int> sizes;
    for (int i = 1; i < argc; ++i)
        sizes << QString::fromLocal8Bit(argv[i]).toInt();
    if (sizes.isEmpty())
        sizes = {4, 8, 16, 32};
    QTemporaryDir dir;
    std::printf("%6s %10s %10s %10s %10s %10s %10s %10s %12s %11s\n", "nodes", "connect", "upload", "inventory",
                "launch+run", "collect", "total", "vs linear", "client CPU", "vs linear");
    Phases base;
    for (int n : sizes) {
        Phases p;
        if (!measure(n, dir.path(), p))
            return 1;
        if (n == sizes.first())
            base = p;
        const double linear = double(base.total) * double(n) / double(sizes.first());
        const double linearCpu = double(qMax<qint64>(1, base.clientCpu)) * double(n) / double(sizes.first());
        std::printf("%6d %7lld ms %7lld ms %7lld ms %7lld ms %7lld ms %7lld ms %10.2f %9lld ms %11.2f\n", n,
                    (long long)p.connect, (long long)p.upload, (long long)p.inventory, (long long)p.run,
                    (long long)p.collect, (long long)p.total, double(p.total) / linear, (long long)p.clientCpu,
                    double(p.clientCpu) / linearCpu);
        std::printf("%s\n", qPrintable(p.bounds));
        std::fflush(stdout);
    }
    return 0;
}
