#include "demo/DemoProject.h"

#include "demo/DemoTr.h"
#include "record/RecordValidation.h"
#include "stats/LoadImbalance.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numbers>
#include <numeric>
#include <optional>
#include <span>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

// The records and README under resources/demo, compiled into this static library
// (demo.qrc). Q_INIT_RESOURCE must stand outside any namespace.
static void initDemoResources() {
    Q_INIT_RESOURCE(demo);
}

namespace moewb::demo {

namespace {

using store::StoreError;

// ---------------------------------------------------------------------------
// Deterministic random numbers: splitmix64 and a hand-written Box–Muller, so
// that the data does not depend on a standard library's distributions.
class Rng {
public:
    explicit Rng(quint64 seed) : m_state(seed) {}
    quint64 next() {
        quint64 z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in (0, 1].
    double uniform() { return (double(next() >> 11) + 1.0) * (1.0 / 9007199254740992.0); }
    double normal() {
        if (m_spare) {
            const double v = *m_spare;
            m_spare.reset();
            return v;
        }
        const double r = std::sqrt(-2.0 * std::log(uniform()));
        const double a = 2.0 * std::numbers::pi * uniform();
        m_spare = r * std::sin(a);
        return r * std::cos(a);
    }

private:
    quint64 m_state;
    std::optional<double> m_spare;
};

constexpr quint64 kSeed = 20260101;

// ---------------------------------------------------------------------------
// The demo's fixed facts.
const QString kSourceCluster = QStringLiteral("demo-a100-ib");
const QString kTargetCluster = QStringLiteral("demo-h800-roce");
const QString kProbeRecord = QStringLiteral("demo-moe-16e-top2-cf1.25");
const QString kTargetRecord = QStringLiteral("demo-moe-16e-top2-cf1.25-h800");
const QString kDenseRecord = QStringLiteral("demo-dense-1.2b");
const QString kDraftRecord = QStringLiteral("demo-moe-32e-top4-draft");
constexpr int kGpusPerNode = 8;
constexpr int kTrainingSteps = 2000;
constexpr int kValidationEvery = 100;
constexpr int kLoadEvery = 2; // expert load, drop rate and balancing loss: every 2nd step
constexpr int kMoeLayers = 8;
constexpr int kExperts = 16;
constexpr int kTopK = 2;
constexpr quint64 kBatchTokens = 1048576; // batch.global_batch_tokens of every demo record
constexpr int kHotLayer = 5;
constexpr int kHotExpert = 11;

// The records in resources/demo/records, in the order they are stored; the draft
// is the only incomplete one.
const char* const kRecordNames[] = {
    "demo-moe-16e-top2-cf1.25",   "demo-moe-16e-top2-cf1.25-h800", "demo-moe-16e-top2-cf1.0",
    "demo-moe-16e-top2-cf1.5",    "demo-moe-16e-top2-dropless",    "demo-dense-1.2b",
    "demo-moe-32e-top4-draft",
};

QJsonObject withMarker(QJsonObject o) {
    const QJsonObject m = demoEnvironmentMarker();
    for (auto it = m.begin(); it != m.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

Unexpected<StoreError> failure(const QString& file, const QString& message) {
    return unexpected(StoreError{file, message});
}

// ---------------------------------------------------------------------------
// Clusters: node facts as `moe-probe --inventory` reports them.
struct ClusterSpec {
    QString name;
    QString host;     // host name stem
    QString gpuName;  // as the driver names it
    QString cpuModel;
    QString driver;
    QString cuda;
    QString nccl;
    int ncclCode = 0;
    QString linkLayer; // InfiniBand or Ethernet (RoCE)
    QString rate;
};

QJsonObject nodeInventory(const ClusterSpec& c, int node) {
    const QString host = QStringLiteral("%1-n%2").arg(c.host).arg(node + 1, 2, 10, QLatin1Char('0'));
    QJsonArray gpus;
    for (int g = 0; g < kGpusPerNode; ++g)
        gpus.append(QJsonObject{{QStringLiteral("index"), g},
                                {QStringLiteral("name"), c.gpuName},
                                {QStringLiteral("memory_bytes"), 85899345920.0},
                                {QStringLiteral("pci_bus_id"),
                                 QStringLiteral("00000000:%1:00.0").arg(0x18 + 0x10 * g, 2, 16, QLatin1Char('0'))
                                     .toUpper()}});
    QJsonArray nics{QJsonObject{{QStringLiteral("name"), QStringLiteral("eno1")},
                                {QStringLiteral("operstate"), QStringLiteral("up")},
                                {QStringLiteral("mac"),
                                 QStringLiteral("02:00:00:00:%1:01").arg(node + 1, 2, 16, QLatin1Char('0'))},
                                {QStringLiteral("mtu"), 1500},
                                {QStringLiteral("link_rate_gbps"), 25.0},
                                {QStringLiteral("virtual"), false}}};
    QJsonArray hcas;
    for (int h = 0; h < kGpusPerNode; ++h) {
        hcas.append(QJsonObject{
            {QStringLiteral("device"), QStringLiteral("mlx5_%1").arg(h)},
            {QStringLiteral("node_guid"),
             QStringLiteral("0c42:a103:00%1:%2").arg(node + 1, 2, 10, QLatin1Char('0')).arg(h, 4, 10, QLatin1Char('0'))},
            {QStringLiteral("ports"),
             QJsonArray{QJsonObject{{QStringLiteral("port"), 1},
                                    {QStringLiteral("state"), QStringLiteral("4: ACTIVE")},
                                    {QStringLiteral("link_layer"), c.linkLayer},
                                    {QStringLiteral("rate"), c.rate},
                                    {QStringLiteral("link_rate_gbps"), 400.0}}}}});
    }
    return withMarker(QJsonObject{
        {QStringLiteral("schema"), QStringLiteral("moe-probe-inventory/1")},
        {QStringLiteral("probe_version"), QStringLiteral("demo")},
        {QStringLiteral("hostname"), host},
        {QStringLiteral("cpu"), QJsonObject{{QStringLiteral("model"), c.cpuModel},
                                            {QStringLiteral("logical_cpus"), 256}}},
        {QStringLiteral("memory_bytes"), 2199023255552.0},
        {QStringLiteral("driver"), QJsonObject{{QStringLiteral("loaded"), true},
                                               {QStringLiteral("library"), QStringLiteral("libcuda.so.1")},
                                               {QStringLiteral("version"), c.driver},
                                               {QStringLiteral("cuda_version"), c.cuda}}},
        {QStringLiteral("gpus"), gpus},
        {QStringLiteral("gpu_count"), kGpusPerNode},
        {QStringLiteral("nccl"), QJsonObject{{QStringLiteral("version"), c.nccl},
                                             {QStringLiteral("version_code"), c.ncclCode},
                                             {QStringLiteral("path"),
                                              QStringLiteral("/usr/lib/x86_64-linux-gnu/libnccl.so.2")}}},
        {QStringLiteral("nics"), nics},
        {QStringLiteral("infiniband"), hcas}});
}

Expected<Ok, StoreError> addCluster(store::ProjectStore& p, const ClusterSpec& c, const QJsonObject& facts) {
    store::ClusterRow cluster;
    cluster.name = c.name;
    cluster.gpusPerNode = kGpusPerNode;
    cluster.facts = withMarker(facts);
    QList<store::NodeRow> nodes;
    for (int n = 0; n < 4; ++n) {
        store::NodeRow node;
        // .invalid never resolves: the demo's nodes cannot be reached by mistake.
        node.address = QStringLiteral("demo@%1-n%2.demo.invalid:22").arg(c.host).arg(n + 1, 2, 10, QLatin1Char('0'));
        node.gpus = kGpusPerNode;
        node.facts = nodeInventory(c, n);
        nodes << node;
    }
    auto added = p.addCluster(cluster, nodes);
    if (!added)
        return unexpected(added.error());
    return Ok{};
}

Expected<Ok, StoreError> addClusters(store::ProjectStore& p) {
    const ClusterSpec source{kSourceCluster,
                             QStringLiteral("a100"),
                             QStringLiteral("NVIDIA A100-SXM4-80GB"),
                             QStringLiteral("AMD EPYC 7763 64-Core Processor"),
                             QStringLiteral("535.161.08"),
                             QStringLiteral("12.2"),
                             QStringLiteral("2.19.3"),
                             21903,
                             QStringLiteral("InfiniBand"),
                             QStringLiteral("400 Gb/sec (4X NDR)")};
    const ClusterSpec target{kTargetCluster,
                             QStringLiteral("h800"),
                             QStringLiteral("NVIDIA H800"),
                             QStringLiteral("Intel(R) Xeon(R) Platinum 8480+"),
                             QStringLiteral("535.161.08"),
                             QStringLiteral("12.2"),
                             QStringLiteral("2.19.3"),
                             21903,
                             QStringLiteral("Ethernet"),
                             QStringLiteral("400 Gb/sec (4X NDR)")};
    if (auto r = addCluster(p, source,
                            {{QStringLiteral("role"), QStringLiteral("source")},
                             {QStringLiteral("network"), QStringLiteral("InfiniBand NDR 400 Gb/s, rail-optimized")}});
        !r)
        return r;
    return addCluster(p, target,
                      {{QStringLiteral("role"), QStringLiteral("target")},
                       {QStringLiteral("network"), QStringLiteral("RoCE v2 400 Gb/s, rail-optimized")}});
}

// ---------------------------------------------------------------------------
// Config records, from the compiled-in JSON.
Expected<Ok, StoreError> addRecords(store::ProjectStore& p) {
    initDemoResources();
    for (const char* name : kRecordNames) {
        const QString file = QStringLiteral(":/moewb/demo/records/%1.json").arg(QLatin1String(name));
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return failure(file, Demo::tr("the demo's config record is missing from the program"));
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
        if (!doc.isObject())
            return failure(file, Demo::tr("not a JSON object: %1").arg(parseError.errorString()));
        const QList<record::FieldIssue> issues = record::validateJson(doc.object());
        const bool complete = issues.isEmpty();
        const bool wantComplete = QLatin1String(name) != kDraftRecord;
        if (complete != wantComplete)
            return failure(file, wantComplete ? Demo::tr("the demo record is incomplete: %1").arg(issues.first().message)
                                              : Demo::tr("the demo's draft record must be incomplete"));
        auto added = p.addConfigRecord(QLatin1String(name), doc.object(), complete);
        if (!added)
            return unexpected(added.error());
    }
    return Ok{};
}

// ---------------------------------------------------------------------------
// Thresholds: a few set by the (fictional) team, one left a placeholder.
Expected<Ok, StoreError> setThresholds(store::ProjectStore& p) {
    struct T {
        const char* key;
        double value;
    };
    const T team[] = {
        {"stage1.cv_max", 0.05},
        {"stage1.p99_over_median_max", 1.5},
        {"stage3.load_ratio_max", 1.6},
        {"stage3.drop_rate_max", 0.05},
        {"stage3.window_steps", 500}, // the last 500 logged load steps: 1002–2000
        {"stage4.baseline_diff_max", 0.15},
    };
    for (const T& t : team) {
        store::ThresholdRow row;
        row.key = QLatin1String(t.key);
        row.value = t.value;
        row.source = store::ThresholdSource::Team;
        row.note = Demo::tr("demo: set by the (fictional) team");
        if (auto r = p.setThreshold(row); !r)
            return r;
    }
    return Ok{}; // stage3.load_ratio_window_fraction stays a placeholder
}

// ---------------------------------------------------------------------------
// Stage 1: all-to-all over 1 KiB … 256 MiB per rank, 5 repeats × 20 iterations.
struct ProbeSpec {
    QString name;
    QString cluster;
    QString record;
    int nodes = 0;
    double latencyUs = 0.0;  // small-message time
    double bandwidth = 0.0;  // GB/s effective at large sizes
    quint64 seed = 0;
};

double allToAllTimeUs(const ProbeSpec& s, quint64 bytes) {
    const int world = s.nodes * kGpusPerNode;
    const double effectiveBytes = double(bytes) * double(world - 1) / double(world);
    // A protocol hand-over around 128 KiB (LL128 to Simple) costs up to 25 %.
    const double lg = std::log2(double(bytes));
    const double bump = 1.0 + 0.25 * std::exp(-(lg - 17.0) * (lg - 17.0) / 8.0);
    return (s.latencyUs + effectiveBytes / (s.bandwidth * 1e3)) * bump;
}

store::RunData probeRun(const ProbeSpec& s) {
    store::RunData run;
    run.name = s.name;
    run.kind = store::RunKind::Probe;
    run.recordName = s.record;
    run.clusterName = s.cluster;
    run.sourceFile = QStringLiteral("demo (synthetic)");
    constexpr int kRepeats = 5;
    constexpr int kIterations = 20;
    run.environment = withMarker({{QStringLiteral("collective"), QStringLiteral("alltoall")},
                                  {QStringLiteral("backend"), QStringLiteral("nccl")},
                                  {QStringLiteral("nccl_version"), QStringLiteral("2.19.3")},
                                  {QStringLiteral("world"), s.nodes * kGpusPerNode},
                                  {QStringLiteral("nodes"), s.nodes},
                                  {QStringLiteral("gpus_per_node"), kGpusPerNode},
                                  // EP groups of 8 at once, as the demo's trainings run them.
                                  {QStringLiteral("ep_size"), 8},
                                  {QStringLiteral("ep_order"), QStringLiteral("tp-cp-ep-dp-pp")},
                                  {QStringLiteral("repeats"), kRepeats},
                                  {QStringLiteral("iterations"), kIterations},
                                  {QStringLiteral("warmup_iterations"), 5},
                                  {QStringLiteral("samples"), QStringLiteral("per-iteration")}});
    Rng rng(kSeed ^ s.seed);
    for (int p = 10; p <= 28; ++p) {
        const quint64 bytes = quint64(1) << p;
        const double base = allToAllTimeUs(s, bytes);
        // Latency-bound sizes jitter more than bandwidth-bound ones.
        const double jitter = p <= 16 ? 0.02 : 0.008;
        for (int rep = 0; rep < kRepeats; ++rep) {
            const double repeatOffset = 1.0 + 0.006 * rng.normal();
            for (int it = 0; it < kIterations; ++it) {
                double t = base * repeatOffset * (1.0 + jitter * rng.normal());
                if (rng.uniform() < 0.02) // a rare slow iteration (P99 tail)
                    t *= 1.15;
                run.commSamples.append({bytes, rep, it, std::round(t * 100.0) / 100.0});
            }
        }
    }
    return run;
}

// ---------------------------------------------------------------------------
// Stages 2 and 3: training runs.
struct TrainingSpec {
    QString name;
    QString record;
    bool moe = true;
    std::optional<double> capacityFactor; // drop policy; nullopt: dropless (or dense)
    double tokensPerSecond = 0.0;         // per GPU, steady phase
    double lossScale = 1.0;               // reducible loss relative to the dense control
    quint64 seed = 0;
};

double smoothLoss(const TrainingSpec& s, int step) {
    const double k = 1.0 - (1.0 - s.lossScale) * std::min(1.0, step / 200.0);
    return 2.05 + 8.85 * k * std::pow(1.0 + step / 25.0, -0.55);
}

// The router's preference of each expert in each MoE layer: fixed, drifting and
// early-training parts; one expert of one layer turns hot after step 150.
class RouterModel {
public:
    explicit RouterModel(Rng& rng) {
        for (int l = 0; l < kMoeLayers; ++l)
            for (int e = 0; e < kExperts; ++e) {
                m_base[l][e] = 0.06 * rng.normal();
                m_early[l][e] = 0.6 * rng.normal();
                m_drift[l][e] = 0.0;
            }
    }
    // Counts for one step of one layer: tokens × top-k assignments in total.
    void counts(Rng& rng, int step, int layer, QVector<quint32>& out) {
        std::array<double, kExperts> w{};
        double sum = 0.0;
        const double early = std::exp(-step / 150.0);
        for (int e = 0; e < kExperts; ++e) {
            double& d = m_drift[layer][e];
            d = 0.995 * d + 0.004 * rng.normal();
            double logit = m_base[layer][e] + d + early * m_early[layer][e] + 0.03 * rng.normal();
            if (layer == kHotLayer && e == kHotExpert)
                logit += 0.8 * std::clamp((step - 150) / 150.0, 0.0, 1.0);
            w[e] = std::exp(logit);
            sum += w[e];
        }
        const quint64 total = kBatchTokens * kTopK;
        out.resize(kExperts);
        quint64 assigned = 0;
        int largest = 0;
        for (int e = 0; e < kExperts; ++e) {
            out[e] = quint32(std::floor(double(total) * w[e] / sum));
            assigned += out[e];
            if (out[e] > out[largest])
                largest = e;
        }
        out[largest] += quint32(total - assigned);
    }

private:
    double m_base[kMoeLayers][kExperts];
    double m_early[kMoeLayers][kExperts];
    double m_drift[kMoeLayers][kExperts];
};

store::RunData trainingRun(const TrainingSpec& s) {
    store::RunData run;
    run.name = s.name;
    run.kind = store::RunKind::Training;
    run.recordName = s.record;
    run.clusterName = kSourceCluster;
    run.sourceFile = QStringLiteral("demo (synthetic)");
    run.environment = withMarker({{QStringLiteral("world"), 4 * kGpusPerNode},
                                  {QStringLiteral("nodes"), 4},
                                  {QStringLiteral("framework"), QStringLiteral("Megatron-LM (synthetic log)")}});
    Rng rng(kSeed ^ s.seed);
    std::optional<RouterModel> router;
    if (s.moe)
        router.emplace(rng);
    QVector<quint32> counts;
    run.stepMetrics.reserve(kTrainingSteps * 5);
    if (s.moe)
        run.expertLoad.reserve(kTrainingSteps / kLoadEvery * kMoeLayers);
    for (int step = 1; step <= kTrainingSteps; ++step) {
        // Throughput: a ramp over the first 12 steps (inside the 20 excluded), a
        // checkpoint every 500 steps.
        double ramp = step <= 12 ? 0.3 + 0.7 * double(step - 1) / 11.0 : 1.0;
        if (step % 500 == 0)
            ramp *= 0.8;
        const double tps = s.tokensPerSecond * ramp * (1.0 + 0.01 * rng.normal());
        run.stepMetrics.append({step, QStringLiteral("tokens_per_s_per_gpu"), std::round(tps * 10.0) / 10.0});
        const double loss = smoothLoss(s, step);
        run.stepMetrics.append({step, QStringLiteral("lm_loss"), loss + 0.025 * rng.normal()});
        if (step % kValidationEvery == 0)
            run.stepMetrics.append({step, QStringLiteral("val_loss"), loss + 0.04 + 0.003 * rng.normal()});
        if (!router || step % kLoadEvery != 0)
            continue;
        run.stepMetrics.append({step, QStringLiteral("load_balancing_loss"),
                                0.01 * (1.0 + 0.6 * std::exp(-step / 120.0)) * (1.0 + 0.02 * rng.normal())});
        quint64 routed = 0, dropped = 0;
        for (int layer = 0; layer < kMoeLayers; ++layer) {
            router->counts(rng, step, layer, counts);
            if (s.capacityFactor) {
                const std::span<const quint32> c(counts.constData(), std::size_t(counts.size()));
                const quint64 total = kBatchTokens * kTopK;
                routed += total;
                dropped += stats::overflowAssignments(c, stats::expertCapacity(*s.capacityFactor, total, kExperts));
            }
            run.expertLoad.append({step, layer, counts});
        }
        if (s.capacityFactor)
            run.stepMetrics.append({step, QStringLiteral("drop_rate"), double(dropped) / double(routed)});
    }
    return run;
}

// ---------------------------------------------------------------------------
Expected<Ok, StoreError> fillDemo(store::ProjectStore& p) {
    if (auto r = addClusters(p); !r)
        return r;
    if (auto r = addRecords(p); !r)
        return r;
    if (auto r = setThresholds(p); !r)
        return r;

    // Stage 1 on the source cluster at 2 and 4 nodes, then the target's baseline
    // (stage 4 takes the latest run of each cluster, the older cluster as source).
    const ProbeSpec probes[] = {
        {QStringLiteral("demo-probe-a100-ib-2n"), kSourceCluster, kProbeRecord, 2, 32.0, 60.0, 1},
        {QStringLiteral("demo-probe-a100-ib-4n"), kSourceCluster, kProbeRecord, 4, 45.0, 43.0, 2},
        {QStringLiteral("demo-probe-h800-roce-4n"), kTargetCluster, kTargetRecord, 4, 49.0, 40.0, 3},
    };
    for (const ProbeSpec& s : probes)
        if (auto saved = p.saveRun(probeRun(s)); !saved)
            return unexpected(saved.error());

    const TrainingSpec training[] = {
        {QStringLiteral("demo-train-dense-1.2b"), kDenseRecord, false, std::nullopt, 18400.0, 1.0, 11},
        {QStringLiteral("demo-train-moe-cf1.0"), QStringLiteral("demo-moe-16e-top2-cf1.0"), true, 1.0, 19300.0,
         0.95, 12},
        {QStringLiteral("demo-train-moe-cf1.25"), QStringLiteral("demo-moe-16e-top2-cf1.25"), true, 1.25,
         19000.0, 0.925, 13},
        {QStringLiteral("demo-train-moe-cf1.5"), QStringLiteral("demo-moe-16e-top2-cf1.5"), true, 1.5, 18750.0,
         0.91, 14},
        {QStringLiteral("demo-train-moe-dropless"), QStringLiteral("demo-moe-16e-top2-dropless"), true,
         std::nullopt, 18500.0, 0.90, 15},
    };
    for (const TrainingSpec& s : training)
        if (auto saved = p.saveRun(trainingRun(s)); !saved)
            return unexpected(saved.error());
    return Ok{};
}

void removeDatabaseFiles(const QString& file) {
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")})
        QFile::remove(file + suffix);
}

// Fills a temporary project beside `path` and renames it into place at the end.
Expected<Ok, StoreError> writeAtomically(const QString& path, bool overwrite,
                                         const std::function<Expected<Ok, StoreError>(store::ProjectStore&)>& fill) {
    if (path.trimmed().isEmpty())
        return failure(QString(), Demo::tr("no file name given for the demo project"));
    const QFileInfo info(path);
    const QString file = info.absoluteFilePath();
    if (info.isDir())
        return failure(file, Demo::tr("is a folder, not a project file"));
    if (info.exists() && !overwrite)
        return failure(file, Demo::tr("already exists; not replaced (moewb demo --force replaces it)"));
    if (!QDir().mkpath(info.absolutePath()))
        return failure(file, Demo::tr("cannot create the folder %1").arg(QDir::toNativeSeparators(info.absolutePath())));

    // The temporary file is created as any new file (mode 0666 less the umask, like
    // QSaveFile's; a file being replaced keeps its mode), not QTemporaryFile's 0600,
    // since it becomes the project file.
    QString temp;
    for (int attempt = 0;; ++attempt) {
        temp = info.absolutePath() + QStringLiteral("/.") + info.fileName() + QLatin1Char('.') +
               QString::number(QRandomGenerator::global()->generate() & 0xffffffu, 16) + QStringLiteral(".tmp");
        const int fd = ::open(QFile::encodeName(temp).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            struct stat existing {};
            if (info.exists() && ::stat(QFile::encodeName(file).constData(), &existing) == 0)
                (void)::fchmod(fd, existing.st_mode & 07777);
            ::close(fd);
            break;
        }
        if (errno != EEXIST || attempt >= 100) {
            const QString why = QString::fromLocal8Bit(std::strerror(errno));
            return failure(file, Demo::tr("cannot create a temporary file beside it: %1").arg(why));
        }
    }
    {
        auto opened = store::ProjectStore::open(temp);
        if (!opened) {
            removeDatabaseFiles(temp);
            return unexpected(opened.error());
        }
        std::unique_ptr<store::ProjectStore> project = std::move(opened.value());
        auto filled = fill(*project);
        project.reset(); // closes the connection: SQLite folds the -wal file in
        if (!filled) {
            removeDatabaseFiles(temp);
            return filled;
        }
    }
    // A -wal or -shm left from an earlier file at `path` would be applied to the new one.
    for (const QString& suffix : {QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")})
        QFile::remove(file + suffix);
    if (std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(file).constData()) != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        removeDatabaseFiles(temp);
        return failure(file, Demo::tr("cannot move the finished demo into place: %1").arg(why));
    }
    return Ok{};
}

} // namespace

QJsonObject demoEnvironmentMarker() {
    return {{QStringLiteral("demo"), true}, {QStringLiteral("data"), QStringLiteral("synthetic")}};
}

QString defaultDemoPath() {
    QString dataHome = qEnvironmentVariable("XDG_DATA_HOME");
    if (dataHome.isEmpty() || QDir::isRelativePath(dataHome))
        dataHome = QDir::homePath() + QStringLiteral("/.local/share");
    return QDir::cleanPath(dataHome + QStringLiteral("/moe-workbench/demo.moewb"));
}

Expected<Ok, StoreError> writeDemoProject(const QString& path, const DemoOptions& options) {
    return writeAtomically(path, options.overwrite, fillDemo);
}

Expected<Ok, StoreError> writeExpertLoadBenchProject(const QString& path, int steps, int layers, int experts) {
    if (steps < 1 || layers < 1 || experts < 2 || experts > 4096)
        return failure(path, Demo::tr("the benchmark needs steps ≥ 1, layers ≥ 1 and 2 ≤ experts ≤ 4096 "
                                      "(got %1 steps, %2 layers, %3 experts)")
                                 .arg(steps)
                                 .arg(layers)
                                 .arg(experts));
    return writeAtomically(path, true, [&](store::ProjectStore& p) -> Expected<Ok, StoreError> {
        const int topK = std::min(experts, 8);
        const int ep = std::gcd(experts, 8);
        const qint64 batchTokens = 1048576;
        const QString recordName = QStringLiteral("bench-moe-%1e-%2l").arg(experts).arg(layers);
        const QJsonObject cluster{
            {QStringLiteral("nodes"), 4},
            {QStringLiteral("accelerators_per_node"), 8},
            {QStringLiteral("accelerator_model"), QStringLiteral("H100 SXM5 80GB")},
            {QStringLiteral("network_type"), QStringLiteral("NVLink+IB NDR")},
            {QStringLiteral("topology"),
             QJsonObject{{QStringLiteral("description"), QStringLiteral("benchmark (synthetic)")},
                         {QStringLiteral("intra_node_link"), QStringLiteral("NVLink 4 via NVSwitch")},
                         {QStringLiteral("inter_node_fabric"), QStringLiteral("InfiniBand NDR 400 Gb/s")},
                         {QStringLiteral("rail_optimized"), true}}}};
        const QJsonObject rec{
            {QStringLiteral("format_version"), record::kRecordFormatVersion},
            {QStringLiteral("name"), recordName},
            {QStringLiteral("notes"), QStringLiteral("Synthetic expert-load benchmark project.")},
            {QStringLiteral("cluster"), cluster},
            {QStringLiteral("moe"),
             QJsonObject{{QStringLiteral("experts"), experts},
                         {QStringLiteral("shared_experts"), 0},
                         {QStringLiteral("top_k"), topK},
                         {QStringLiteral("capacity_factor"), 1.25},
                         {QStringLiteral("overflow_policy"), QStringLiteral("drop")},
                         {QStringLiteral("drop_order"), QStringLiteral("lowest_probability")},
                         {QStringLiteral("load_balancing"),
                          QJsonObject{{QStringLiteral("method"), QStringLiteral("aux_loss")},
                                      {QStringLiteral("coefficient"), 0.01}}},
                         {QStringLiteral("router_score_function"), QStringLiteral("softmax")}}},
            {QStringLiteral("model"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("moe")},
                                                  {QStringLiteral("total_params"), 7000000000.0},
                                                  {QStringLiteral("activated_params"), 1300000000.0},
                                                  {QStringLiteral("layers"), layers},
                                                  {QStringLiteral("moe_layers"), layers},
                                                  {QStringLiteral("hidden_size"), 2048},
                                                  {QStringLiteral("ffn_hidden_size"), 1024}}},
            {QStringLiteral("parallelism"), QJsonObject{{QStringLiteral("dp"), 32},
                                                        {QStringLiteral("tp"), 1},
                                                        {QStringLiteral("pp"), 1},
                                                        {QStringLiteral("ep"), ep},
                                                        {QStringLiteral("cp"), 1}}},
            {QStringLiteral("batch"), QJsonObject{{QStringLiteral("global_batch_tokens"), double(batchTokens)},
                                                  {QStringLiteral("sequence_length"), 4096}}},
            {QStringLiteral("throughput"), QJsonObject{{QStringLiteral("data_loading_included"), false},
                                                       {QStringLiteral("warmup_steps_excluded"), 20}}},
            {QStringLiteral("recipe"),
             QJsonObject{{QStringLiteral("optimizer"), QStringLiteral("AdamW")},
                         {QStringLiteral("lr_schedule"), QStringLiteral("cosine, peak 4e-4")},
                         {QStringLiteral("tokens_trained"), double(batchTokens) * steps},
                         {QStringLiteral("validation_set"), QStringLiteral("bench-val")}}}};
        const auto issues = record::validateJson(rec);
        if (!issues.isEmpty())
            return failure(p.path(), Demo::tr("the benchmark record is incomplete: %1").arg(issues.first().message));
        if (auto added = p.addConfigRecord(recordName, rec, true); !added)
            return unexpected(added.error());

        store::RunData run;
        run.name = QStringLiteral("bench-expert-load");
        run.kind = store::RunKind::Training;
        run.recordName = recordName;
        run.sourceFile = QStringLiteral("benchmark (synthetic)");
        run.environment = withMarker({{QStringLiteral("benchmark"), true}});
        Rng rng(kSeed ^ 0xBE7C4ull);
        const quint64 total = quint64(batchTokens) * quint64(topK);
        const quint32 mean = quint32(total / quint64(experts));
        run.stepMetrics.reserve(steps);
        run.expertLoad.reserve(qsizetype(steps) * layers);
        QVector<quint32> counts(experts);
        for (int step = 1; step <= steps; ++step) {
            run.stepMetrics.append(
                {step, QStringLiteral("lm_loss"), 2.0 + 8.0 * std::pow(1.0 + step / 25.0, -0.55)});
            for (int layer = 0; layer < layers; ++layer) {
                quint64 assigned = 0;
                for (int e = 1; e < experts; ++e) {
                    // ±20 % around the mean; expert 0 takes the rest.
                    const double f = 0.8 + 0.4 * double(rng.next() >> 11) * (1.0 / 9007199254740992.0);
                    counts[e] = quint32(double(mean) * f);
                    assigned += counts[e];
                }
                counts[0] = assigned < total ? quint32(total - assigned) : 0;
                run.expertLoad.append({step, layer, counts});
            }
        }
        if (auto saved = p.saveRun(run); !saved)
            return unexpected(saved.error());
        return Ok{};
    });
}

bool isDemoProject(const store::ProjectStore& project) {
    for (const store::RunRow& r : project.runs())
        if (r.environment.value(QStringLiteral("demo")).toBool() &&
            r.environment.value(QStringLiteral("data")).toString() == QLatin1String("synthetic"))
            return true;
    for (const store::ClusterRow& c : project.clusters())
        if (c.facts.value(QStringLiteral("demo")).toBool() &&
            c.facts.value(QStringLiteral("data")).toString() == QLatin1String("synthetic"))
            return true;
    return false;
}

} // namespace moewb::demo
