// bench_remote_fanout [N...]: one stage 1 sweep point over N real sshd (default 4 8 16
// 32), timed from the sweep's own events: connect, upload, inventory, launch + run,
// collect (report read back, imported, saved). Prints each phase and the growth
// against linear from the smallest N (1.00 = linear; below 1 = better than linear).
// Every simulated node shares this machine's cores, so the wall time also carries the
// nodes' own work (sshd, sftp-server, the probes); the workbench side alone is its CPU
// time ("client CPU", getrusage of this process: connect, upload, streams, import,
// save), printed with its own growth against linear.
#include "SshdCluster.h"
#include "StageOneTestSupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
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
    // Every "node" shares this machine's cores: the probe's own timeout grows with them.
    r.probeTimeoutS = 60 + 5 * n;
    r.connectTimeoutMs = 20000;
    r.helperTimeoutMs = 60000 + 2000 * n;
    r.commandTimeoutMs = 120000 + 10000 * n;
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
        std::fflush(stdout);
    }
    return 0;
}
