// Benchmark (not a test): readRankTrace over PyTorch profiler traces, in MB/s of
// uncompressed JSON per core (thread CPU time, so a shared busy machine does not halve
// it), against the named baseline tests/bench/anatomy/python_baseline.py (json.load of
// the whole file, launches by correlation, per-step unions) on the same files, in the
// same run.
//
//   cmake --build build --target bench_trace_read && build/tests/bench/anatomy/bench_trace_read [FILE ...]
//   no FILE: a Kineto-shaped trace of --mb MB (default 200) is generated into a temp dir
//   options: --mb N, --runs N (best of, default 3), --no-baseline, --keep
#include "SyntheticKinetoTrace.h"
#include "anatomy/RankTrace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cstdio>
#include <ctime>
#include <sys/resource.h>

using namespace moewb::anatomy;

namespace {

qint64 option(const QStringList& args, const QString& name, qint64 fallback) {
    const qsizetype i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args[i + 1].toLongLong() : fallback;
}

double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

double childrenCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

QByteArray loadAverage() {
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray("?");
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    QStringList files;
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args[i] == QStringLiteral("--mb") || args[i] == QStringLiteral("--runs"))
            ++i;
        else if (!args[i].startsWith(QStringLiteral("--")))
            files << args[i];
    }
    QTemporaryDir dir;
    dir.setAutoRemove(!args.contains(QStringLiteral("--keep")));
    if (files.isEmpty()) {
        const qint64 mb = option(args, QStringLiteral("--mb"), 200);
        const QString path = dir.filePath(QStringLiteral("rank-0.pt.trace.json"));
        const auto stats = moewb::testing::writeSyntheticKinetoTrace(path, mb * 1000000);
        printf("generated %s: %.1f MB, %lld events, %lld steps, %lld GPU activities\n", qPrintable(path),
               double(stats.bytes) / 1e6, (long long)stats.events, (long long)stats.steps, (long long)stats.kernels);
        files << path;
    }

    const int runs = int(std::max<qint64>(1, option(args, QStringLiteral("--runs"), 3)));
    double bestCpu = 0, bestWall = 0;
    qint64 bytes = 0;
    for (int run = 0; run < runs; ++run) {
        bytes = 0;
        const double cpu0 = threadCpuSeconds();
        QElapsedTimer wall;
        wall.start();
        for (const QString& path : files) {
            auto trace = readRankTrace(path, QFileInfo(path).fileName());
            if (!trace) {
                fprintf(stderr, "%s\n", qPrintable(trace.error().text()));
                return 3;
            }
            bytes += trace->bytesRead;
            if (run == 0 && !trace->steps.isEmpty()) {
                // The first step's figures, to set beside the baseline's (a cross-check, not timed).
                const StepTrace& s = trace->steps.front();
                qint64 compute = 0, comm = 0, reach = s.start;
                for (const Interval& i : s.compute)
                    compute += i.end - i.start;
                QVector<CommCall> calls = s.comm; // in start order
                for (const CommCall& c : calls) {
                    const qint64 from = std::max(c.start, reach);
                    comm += std::max<qint64>(0, c.end - from);
                    reach = std::max(reach, c.end);
                }
                printf("  %s: %s, rank %d, %lld events, %lld steps, %.1f MB uncompressed; first ProfilerStep#%lld: "
                       "step %.1f us, compute %.1f us, comm %.1f us\n",
                       qPrintable(QFileInfo(path).fileName()), qPrintable(trace->format), trace->rank,
                       (long long)trace->events, (long long)trace->steps.size(), double(trace->bytesRead) / 1e6,
                       (long long)s.step, double(s.end - s.start) / 1e3, double(compute) / 1e3, double(comm) / 1e3);
            }
        }
        const double cpu = threadCpuSeconds() - cpu0, w = double(wall.nsecsElapsed()) / 1e9;
        if (run == 0 || cpu < bestCpu) {
            bestCpu = cpu;
            bestWall = w;
        }
    }
    const double ours = double(bytes) / 1e6 / bestCpu;
    printf("bench_trace_read: %.1f MB of JSON in %.3f s CPU (wall %.3f s), best of %d: %.0f MB/s per core "
           "(load average %s)\n",
           double(bytes) / 1e6, bestCpu, bestWall, runs, ours, loadAverage().constData());

    const QString baseline = QStringLiteral(MOEWB_SOURCE_DIR "/tests/bench/anatomy/python_baseline.py");
    if (args.contains(QStringLiteral("--no-baseline")) || !QFileInfo::exists(baseline))
        return 0;
    fflush(stdout);
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const double child0 = childrenCpuSeconds();
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{baseline} + files);
    if (!p.waitForFinished(-1) || p.exitCode() != 0) {
        printf("baseline python_baseline.py failed (exit %d), no ratio\n", p.exitCode());
        return 0;
    }
    const double childCpu = childrenCpuSeconds() - child0;
    const QString out = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("=\\s*([0-9.]+)\\s*MB/s")).match(out);
    printf("baseline: %s (process CPU %.3f s)\n", qPrintable(out), childCpu);
    if (m.hasMatch() && m.captured(1).toDouble() > 0)
        printf("readRankTrace vs python_baseline.py: %.1fx faster (CPU time: its whole process against ours); %.1fx "
               "(our MB/s per core against the MB/s it reports from its own wall clock)\n",
               childCpu / bestCpu, ours / m.captured(1).toDouble());
    return 0;
}
