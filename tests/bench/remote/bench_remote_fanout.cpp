// bench_remote_fanout [N...]: one stage 1 sweep point over N real sshd (default 4 8 16
// 32), timed from the sweep's own events: connect, upload, inventory, launch + run,
// collect (report read back, imported, saved). Prints each phase and the growth
// against linear from the smallest N (1.00 = linear; below 1 = better than linear).
#include "SshdCluster.h"
#include "StageOneTestSupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMutex>
#include <QTemporaryDir>

#include <cstdio>
#include <map>

using namespace moewb;

namespace {

struct Phases {
    qint64 connect = 0, upload = 0, inventory = 0, run = 0, collect = 0, total = 0;
};

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
    clock.start();
    auto result = remote::StageOneSweep(r, ev).run();
    const qint64 end = clock.elapsed();
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
    std::printf("%6s %10s %10s %10s %10s %10s %10s %12s\n", "nodes", "connect", "upload", "inventory", "launch+run",
                "collect", "total", "vs linear");
    Phases base;
    for (int n : sizes) {
        Phases p;
        if (!measure(n, dir.path(), p))
            return 1;
        if (n == sizes.first())
            base = p;
        const double linear = double(base.total) * double(n) / double(sizes.first());
        std::printf("%6d %8lld ms %7lld ms %7lld ms %7lld ms %7lld ms %7lld ms %12.2f\n", n, (long long)p.connect,
                    (long long)p.upload, (long long)p.inventory, (long long)p.run, (long long)p.collect, (long long)p.total,
                    double(p.total) / linear);
        std::fflush(stdout);
    }
    return 0;
}
