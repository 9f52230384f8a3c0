// Benchmark (not a test): import a Megatron tokens-per-expert JSONL of
// STEPS x LAYERS x EXPERTS counts on one core, run stage 3's gate over the result, and
// compare with the named baseline `sqlite3 .import` of the same counts as CSV,
// measured in the same run.
//
//   cmake --build build --target bench_import_tpe && build/tests/unit/importers/bench/bench_import_tpe
//   options: --steps N --layers L --experts E --keep (leave the generated files) --no-baseline
#include "importers/MegatronTpeJsonlImporter.h"
#include "importers/ImportSupport.h"

#ifdef MOEWB_BENCH_HAVE_STAGES
#include "record/ConfigRecord.h"
#include "record/RecordJson.h"
#include "stages/StageThreeGate.h"
#endif

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cstdio>
#include <malloc.h>
#include <ctime>
#include <sys/resource.h>
#include <random>

using namespace moewb::importers;

namespace {

qint64 option(const QStringList& args, const QString& name, qint64 fallback) {
    const qsizetype i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args[i + 1].toLongLong() : fallback;
}

double mb(qint64 bytes) { return double(bytes) / 1e6; }

long minorFaults() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
}

// CPU time of this thread: "on one core" holds on a shared, busy machine too.
double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    mallopt(M_TRIM_THRESHOLD, 1 << 30); // freed parse results stay mapped for the warm-heap run
    const QStringList args = app.arguments();
    const qint64 steps = option(args, QStringLiteral("--steps"), 10000);
    const int layers = int(option(args, QStringLiteral("--layers"), 32));
    const int experts = int(option(args, QStringLiteral("--experts"), 64));
    QTemporaryDir dir;
    dir.setAutoRemove(!args.contains(QStringLiteral("--keep")));
    const QString jsonlPath = dir.filePath(QStringLiteral("tpe-rank0.jsonl"));
    const QString csvPath = dir.filePath(QStringLiteral("tpe-rank0.csv"));

    // Skewed counts around 4096 tokens x top-8 / experts, as a router makes them.
    std::mt19937 rng(42);
    std::gamma_distribution<double> skew(2.0, 1.0);
    QByteArray jsonl, csv;
    jsonl.reserve(steps * layers * (experts * 6 + 48));
    csv.reserve(steps * layers * (experts * 6 + 16));
    csv += "step,layer";
    for (int e = 0; e < experts; ++e)
        csv += ",e" + QByteArray::number(e);
    csv += '\n';
    const double mean = 4096.0 * 8 / experts;
    for (qint64 s = 0; s < steps; ++s) {
        for (int l = 0; l < layers; ++l) {
            jsonl += "{\"iter\": " + QByteArray::number(s + 1) + ", \"layer\": " + QByteArray::number(l) + ", \"tpe\": [[";
            csv += QByteArray::number(s + 1) + ',' + QByteArray::number(l);
            for (int e = 0; e < experts; ++e) {
                const QByteArray v = QByteArray::number(quint32(mean * skew(rng) / 2.0));
                if (e)
                    jsonl += ", ";
                jsonl += v;
                csv += ',' + v;
            }
            jsonl += "]]}\n";
            csv += '\n';
        }
    }
    for (const auto& [path, bytes] : {std::pair{jsonlPath, &jsonl}, std::pair{csvPath, &csv}}) {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(*bytes) != bytes->size()) {
            fprintf(stderr, "cannot write %s\n", qPrintable(path));
            return 3;
        }
    }
    const qint64 counts = steps * layers * experts;
    printf("tokens per expert: %lld steps x %d layers x %d experts = %lld counts; JSONL %.1f MB, CSV %.1f MB\n",
           steps, layers, experts, counts, mb(jsonl.size()), mb(csv.size()));
    jsonl.clear();
    jsonl.squeeze();
    csv.clear();
    csv.squeeze();

    // Read + parse, one core; the parse alone is the importer's speed.
    QElapsedTimer t;
    t.start();
    auto bytes = readWholeFile(jsonlPath);
    const qint64 readNs = t.nsecsElapsed();
    if (!bytes) {
        fprintf(stderr, "%s\n", qPrintable(bytes.error().text()));
        return 3;
    }
    t.restart();
    const long faults0 = minorFaults();
    double cpu0 = threadCpuSeconds();
    auto parsed = MegatronTpeJsonlImporter::parse(bytes.value(), jsonlPath);
    const double parseCpuS = threadCpuSeconds() - cpu0;
    const long coldFaults = minorFaults() - faults0;
    const qint64 parseNs = t.nsecsElapsed();
    if (!parsed) {
        fprintf(stderr, "%s\n", qPrintable(parsed.error().text()));
        return 1;
    }
    const double parseS = double(parseNs) / 1e9;
    const double fileMb = mb(bytes.value().size());
    printf("moewb import, cold heap (MegatronTpeJsonlImporter::parse, one thread): %.3f s CPU = %.0f MB/s "
           "(wall %.3f s; reading the file %.3f s more); %lld blocks; %ld page faults\n",
           parseCpuS, fileMb / parseCpuS, parseS, double(readNs) / 1e9, qint64(parsed->expertLoad.size()), coldFaults);
    // The same parse again once the first result is freed: the heap's pages are then
    // already mapped, as in a workbench that imports more than once. On a VM where a
    // first touch of a 4 KiB page is expensive this is most of the difference
    // (GLIBC_TUNABLES=glibc.malloc.hugetlb=1 closes it for the cold run too).
    double warmCpuS = 0;
    long warmFaults = 0;
    {
        auto again = MegatronTpeJsonlImporter::parse(bytes.value(), jsonlPath);
        again = ImportResult(ImportedData{}); // free it, keep the heap mapped (M_TRIM_THRESHOLD)
        const long f0 = minorFaults();
        cpu0 = threadCpuSeconds();
        again = MegatronTpeJsonlImporter::parse(bytes.value(), jsonlPath);
        warmCpuS = threadCpuSeconds() - cpu0;
        warmFaults = minorFaults() - f0;
    }
    printf("moewb import, warm heap: %.3f s CPU = %.0f MB/s, %ld page faults; target >= 100 MB/s on one core: %s (cold), %s (warm)\n",
           warmCpuS, fileMb / warmCpuS, warmFaults, fileMb / parseCpuS >= 100 ? "met" : "MISSED",
           fileMb / warmCpuS >= 100 ? "met" : "MISSED");

#ifdef MOEWB_BENCH_HAVE_STAGES
    {
        QFile rf(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        rf.open(QIODevice::ReadOnly);
        moewb::stages::ExpertLoadRunInput input;
        input.runName = QStringLiteral("bench");
        input.record = moewb::record::parseRecord(rf.readAll()).record;
        input.blocks = std::move(parsed.value().expertLoad);
        t.restart();
        cpu0 = threadCpuSeconds();
        const auto summary = moewb::stages::summarizeStageThreeRun(input, moewb::stages::ThresholdSet());
        const double gateCpuS = threadCpuSeconds() - cpu0;
        const double gateS = double(t.nsecsElapsed()) / 1e9;
        printf("stage 3 run summary (summarizeStageThreeRun) over the imported blocks: %.3f s CPU (wall %.3f s); "
               "window max/mean %.3f over %lld steps with load\n",
               gateCpuS, gateS, summary.windowMaxRatio, summary.stepsWithLoad);
        cpu0 = threadCpuSeconds();
        const auto result = moewb::stages::evaluateStageThree({input}, moewb::stages::ThresholdSet());
        const double evalCpuS = threadCpuSeconds() - cpu0;
        printf("stage 3 gate (evaluateStageThree: plan, summary, verdict): %.3f s CPU; target < 1 s: %s; verdict: %s\n",
               evalCpuS, evalCpuS < 1.0 ? "met" : "MISSED", qPrintable(moewb::stages::statusToken(result.verdict.status)));
    }
#else
    printf("stage 3 gate: core/stages not in this build, not timed\n");
#endif

    if (args.contains(QStringLiteral("--no-baseline")))
        return 0;
    const QString sqlite = QStandardPaths::findExecutable(QStringLiteral("sqlite3"));
    if (sqlite.isEmpty()) {
        printf("baseline sqlite3 .import: sqlite3 not found, skipped\n");
        return 0;
    }
    QProcess p;
    p.setProgram(sqlite);
    p.setArguments({QStringLiteral(":memory:")});
    p.start();
    p.waitForStarted();
    t.restart();
    p.write(QStringLiteral(".mode csv\n.import '%1' load\nSELECT count(*) FROM load;\n").arg(csvPath).toUtf8());
    p.closeWriteChannel();
    p.waitForFinished(-1);
    const double sqliteS = double(t.nsecsElapsed()) / 1e9;
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    const double sqliteCpuS = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                              double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    printf("baseline sqlite3 .import of the same counts as CSV (%s rows, in-memory database): %.3f s CPU "
           "(wall %.3f s)\n",
           p.readAllStandardOutput().trimmed().constData(), sqliteCpuS, sqliteS);
    printf("moewb import vs sqlite3 .import: %.1fx faster (CPU, cold heap), %.1fx (CPU, warm heap), %.1fx (wall, "
           "cold heap)\n",
           sqliteCpuS / parseCpuS, sqliteCpuS / warmCpuS, sqliteS / parseS);
    return 0;
}
