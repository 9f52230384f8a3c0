// anatomy::readRankTrace on Kineto traces written here (plain and gzip), the real
// legacy (torch 1.13, gloo) and HolisticTraceAnalysis fixtures, and refusals. Expected
// figures come from an independent count: a per-µs bitmap over each step (or, for the
// fixtures, Qt's own JSON parser and the fixture's expected.json), never from the code
// under test.
#include "SyntheticKinetoTrace.h"
#include "anatomy/digest/CommKernels.h"
#include "anatomy/RankTrace.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace moewb::anatomy;

namespace {

const QString kFixtures = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/anatomy");

QByteArray gzipped(const QByteArray& plain) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(qsizetype(deflateBound(&z, uLong(plain.size()))), Qt::Uninitialized);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.constData()));
    z.avail_in = uInt(plain.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.truncate(qsizetype(z.total_out));
    deflateEnd(&z);
    return out;
}

qint64 totalNs(const QVector<Interval>& v) {
    qint64 t = 0;
    for (const Interval& i : v)
        t += i.end - i.start;
    return t;
}

bool sortedDisjoint(const QVector<Interval>& v) {
    for (qsizetype i = 0; i < v.size(); ++i) {
        if (v[i].end <= v[i].start)
            return false;
        if (i > 0 && v[i].start <= v[i - 1].end)
            return false;
    }
    return true;
}

// Kineto's layout around the events.
QByteArray kineto(const QList<QByteArray>& events, const QByteArray& distributedInfo = {}) {
    QByteArray t = "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100\"}],\n";
    if (!distributedInfo.isEmpty())
        t += "  \"distributedInfo\": " + distributedInfo + ",\n";
    t += "  \"traceEvents\": [\n";
    for (qsizetype i = 0; i < events.size(); ++i)
        t += "  " + events[i] + (i + 1 < events.size() ? ",\n" : "\n");
    t += "  ],\n  \"traceName\": \"t\", \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1700000000000000000\n}\n";
    return t;
}

QByteArray us(qint64 ns) { return QByteArray::number(ns / 1000) + '.' + QByteArray::number(ns % 1000).rightJustified(3, '0'); }

QByteArray step(qint64 n, qint64 startNs, qint64 durNs, const char* cat = "user_annotation") {
    return QByteArray("{\"ph\": \"X\", \"cat\": \"") + cat + "\", \"name\": \"ProfilerStep#" + QByteArray::number(n) +
           "\", \"pid\": 1, \"tid\": 1, \"ts\": " + us(startNs) + ", \"dur\": " + us(durNs) +
           ", \"args\": {\"External id\": " + QByteArray::number(n) + "}}";
}

QByteArray launch(quint64 correlation, qint64 tsNs, qint64 externalId = 0, const char* name = "cudaLaunchKernel") {
    return QByteArray("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"") + name +
           "\", \"pid\": 1, \"tid\": 1,\n    \"ts\": " + us(tsNs) + ", \"dur\": 3.250,\n    \"args\": {\"External id\": " +
           QByteArray::number(externalId) + ", \"cbid\": 211, \"correlation\": " + QByteArray::number(correlation) + "}}";
}

QByteArray gpu(const char* cat, const QByteArray& name, quint64 correlation, qint64 tsNs, qint64 durNs,
               const QByteArray& extraArgs = {}, qint64 externalId = 0) {
    return QByteArray("{\"ph\": \"X\", \"cat\": \"") + cat + "\", \"name\": \"" + name +
           "\", \"pid\": 0, \"tid\": 7,\n    \"ts\": " + us(tsNs) + ", \"dur\": " + us(durNs) +
           ",\n    \"args\": {\"External id\": " + QByteArray::number(externalId) +
           ", \"queued\": 0, \"device\": 0, \"stream\": 7, \"correlation\": " + QByteArray::number(correlation) +
           ", \"grid\": [2, 64, 1], \"block\": [384, 1, 1]" + extraArgs + "}}";
}

moewb::Expected<RankTrace, moewb::importers::ImportError> readBytes(const QTemporaryDir& dir, const QString& name,
                                                             const QByteArray& bytes, TraceReadOptions options = {}) {
    const QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    f.write(bytes);
    f.close();
    return readRankTrace(path, name, options);
}

qint64 vmHwmKiB() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

} // namespace

class TestRankTrace : public QObject {
    Q_OBJECT

private slots:
    void kinetoAgainstBruteForce_data();
    void kinetoAgainstBruteForce();
    void commArgsFromParamCommsAndKernels();
    void kernelNames();
    void truncatedGzipRefused();
    void multiMemberGzip();
    void notATraceRefused();
    void jsonErrorNamesLineAndEvent();
    void everyCutRefused();
    void eventWithoutDurRefused();
    void stepErrors();
    void tooManyKernelsRefused();
    void legacyGlooFixture();
    void htaFixture();
    void generatedFixturesRead();
    void looksLikeTraceDetects();
    void boundedMemoryOnLargeTrace();
};

void TestRankTrace::kinetoAgainstBruteForce_data() {
    QTest::addColumn<bool>("gzip");
    QTest::addColumn<int>("seed");
    QTest::newRow("plain") << false << 1;
    QTest::newRow("gzip") << true << 1;
    QTest::newRow("plain, other seed") << false << 7;
}

// Random kernels, memcpys and NCCL kernels in three steps; launches written after all the
// GPU activity, in shuffled order; some launches outside every step, some missing.
void TestRankTrace::kinetoAgainstBruteForce() {
    QFETCH(bool, gzip);
    QFETCH(int, seed);
    std::mt19937 rng{quint32(seed)};
    auto uniform = [&](qint64 lo, qint64 hi) { return std::uniform_int_distribution<qint64>(lo, hi)(rng); };

    struct Step {
        qint64 n, startUs, endUs;
    };
    const std::vector<Step> steps = {{4, 1000, 2800}, {5, 3000, 4800}, {6, 5000, 6800}};
    struct Activity {
        int kind; // 0 compute, 1 memcpy, 2 comm
        qint64 startUs, durUs, launchUs; // launchUs < 0: no launch in the trace
    };
    std::vector<Activity> acts;
    for (int i = 0; i < 400; ++i) {
        const qint64 roll = uniform(0, 99);
        const int kind = roll < 70 ? 0 : roll < 85 ? 1 : 2;
        acts.push_back({kind, uniform(800, 7200), uniform(0, 90), roll % 20 == 0 ? -1 : uniform(700, 7000)});
    }
    QList<QByteArray> gpuEvents, launches;
    for (size_t i = 0; i < acts.size(); ++i) {
        const Activity& a = acts[i];
        const quint64 corr = 5000 + i;
        if (a.kind == 0)
            gpuEvents << gpu("kernel", "void at::native::vectorized_elementwise_kernel<4>(int, float*)", corr,
                             a.startUs * 1000, a.durUs * 1000);
        else if (a.kind == 1)
            gpuEvents << gpu(i % 2 ? "gpu_memcpy" : "gpu_memset",
                             i % 2 ? "Memcpy HtoD (Pageable -> Device)" : "Memset (Device)", corr, a.startUs * 1000,
                             a.durUs * 1000);
        else
            gpuEvents << gpu("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", corr,
                             a.startUs * 1000, a.durUs * 1000,
                             ", \"Collective name\": \"allreduce\", \"dtype\": \"Float\", \"In msg nelems\": 10, "
                             "\"Out msg nelems\": 10, \"Group size\": 2, \"Process Group Name\": \"0\"");
        if (a.launchUs >= 0)
            launches << launch(corr, a.launchUs * 1000, 0, a.kind == 1 ? "cudaMemcpyAsync" : "cudaLaunchKernel");
    }
    std::shuffle(launches.begin(), launches.end(), rng);
    QList<QByteArray> events;
    events << "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0.000, \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"main\"}}";
    for (const Step& s : steps)
        events << step(s.n, s.startUs * 1000, (s.endUs - s.startUs) * 1000);
    events << gpuEvents << launches;
    events << "{\"ph\": \"i\", \"s\": \"g\", \"name\": \"Record Window End\", \"pid\": \"\", \"tid\": \"\", \"ts\": 9000.000}";
    const QByteArray plain = kineto(events, "{\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 4}");

    QTemporaryDir dir;
    auto read = readBytes(dir, gzip ? QStringLiteral("t.json.gz") : QStringLiteral("t.json"), gzip ? gzipped(plain) : plain);
    QVERIFY2(read.hasValue(), qPrintable(read.hasValue() ? QString() : read.error().text()));
    const RankTrace& t = read.value();
    QCOMPARE(t.format, QStringLiteral("kineto-json"));
    QCOMPARE(t.rank, 3);
    QCOMPARE(t.worldSize, 4);
    QCOMPARE(t.baseTimeNs, 1700000000000000000LL);
    QVERIFY(t.gpu);
    QCOMPARE(t.bytesRead, plain.size());
    QCOMPARE(t.events, qint64(events.size()));
    QCOMPARE(t.steps.size(), qsizetype(steps.size()));

    // Independent count: per µs of each step, which classes cover it.
    qint64 expectedUnassigned = 0;
    for (const Activity& a : acts) {
        const bool inside = a.launchUs >= 0 && std::any_of(steps.begin(), steps.end(), [&](const Step& s) {
                                return a.launchUs >= s.startUs && a.launchUs < s.endUs;
                            });
        expectedUnassigned += inside ? 0 : 1;
    }
    QCOMPARE(t.unassigned, expectedUnassigned);
    for (size_t si = 0; si < steps.size(); ++si) {
        const Step& s = steps[si];
        const StepTrace& got = t.steps[qsizetype(si)];
        QCOMPARE(got.step, s.n);
        QCOMPARE(got.start, s.startUs * 1000);
        QCOMPARE(got.end, s.endUs * 1000);
        std::vector<char> compute(size_t(s.endUs - s.startUs)), memcpy(compute.size()), comm(compute.size());
        int commCalls = 0;
        for (const Activity& a : acts) {
            if (a.launchUs < s.startUs || a.launchUs >= s.endUs)
                continue;
            commCalls += a.kind == 2;
            for (qint64 u = std::max(a.startUs, s.startUs); u < std::min(a.startUs + a.durUs, s.endUs); ++u)
                (a.kind == 0 ? compute : a.kind == 1 ? memcpy : comm)[size_t(u - s.startUs)] = 1;
        }
        QVERIFY(sortedDisjoint(got.compute));
        QVERIFY(sortedDisjoint(got.memcpy));
        QCOMPARE(totalNs(got.compute), qint64(std::count(compute.begin(), compute.end(), 1)) * 1000);
        QCOMPARE(totalNs(got.memcpy), qint64(std::count(memcpy.begin(), memcpy.end(), 1)) * 1000);
        QCOMPARE(int(got.comm.size()), commCalls);
        std::vector<char> commGot(comm.size());
        for (qsizetype i = 0; i < got.comm.size(); ++i) {
            const CommCall& c = got.comm[i];
            QVERIFY(c.start >= got.start && c.end <= got.end && c.start <= c.end);
            QVERIFY(i == 0 || got.comm[i - 1].start <= c.start);
            QCOMPARE(c.kind, CommKind::NcclOther);
            QCOMPARE(c.collective, QStringLiteral("allreduce"));
            QCOMPARE(c.inBytes, 40);
            QCOMPARE(t.names.value(c.name), QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
            for (qint64 ns = c.start; ns < c.end; ns += 1000)
                commGot[size_t(ns / 1000 - s.startUs)] = 1;
        }
        QVERIFY(commGot == comm);
    }
}

void TestRankTrace::commArgsFromParamCommsAndKernels() {
    const QByteArray paramComms =
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", \"pid\": 1, \"tid\": 9, \"ts\": "
        "1100.000, \"dur\": 40.5, \"args\": {\"External id\": 500, \"Collective name\": \"all_to_allv\", \"dtype\": "
        "\"BFloat16\", \"In msg nelems\": 1024, \"Out msg nelems\": 2048, \"Group size\": 4, \"In split size\": \"[256, "
        "256, 256, 256]\", \"Out split size\": \"[512, 512, 512, 512]\", \"Process Group Name\": \"3\", \"Process Group "
        "Description\": \"EXPERT_MODEL_PARALLEL_GROUP\", \"Process Group Ranks\": \"[0, 2, 4, 6]\", \"Rank\": 1, \"Seq\": 17}}";
    const QByteArray cutSplits =
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", \"pid\": 1, \"tid\": 9, \"ts\": "
        "1300.000, \"dur\": 40.5, \"args\": {\"External id\": 501, \"Collective name\": \"all_to_all_single\", "
        "\"dtype\": \"Float8_e4m3fn\", \"In msg nelems\": 64, \"Out msg nelems\": 64, \"In split size\": \"[1, 2, 3, 4, "
        "5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, ..., 64]\", "
        "\"Process Group Name\": \"3\", \"Seq\": 18}}";
    QList<QByteArray> events;
    // GPU activity first, launches and CPU ops after it (any order is allowed).
    events << gpu("kernel", "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 9001, 1200000, 300000, {}, 500)
           << gpu("kernel", "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 9002, 1350000, 50000, {}, 501)
           << gpu("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 9003, 1600000,
                  100000,
                  ", \"Collective name\": \"allreduce\", \"In msg nelems\": 100, \"Out msg nelems\": 100, \"Group "
                  "size\": 8, \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": \"[]\", \"Process "
                  "Group Name\": \"0\", \"Process Group Description\": \"default_pg\", \"Process Group Ranks\": \"[0, 1, "
                  "2, 3, 4, 5, 6, 7]\", \"Seq\": 3",
                  502)
           << gpu("kernel", "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 9004, 1750000, 20000)
           << gpu("kernel", "void deep_ep::intranode::notify_dispatch<8>(int const*, int*, int, int const*)", 9005,
                  1800000, 10000)
           << gpu("kernel", "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*, float*)", 9006,
                  1820000, 60000)
           << gpu("kernel", "void deep_ep::intranode::combine<__nv_bfloat16, 8, 768, 4096>(__nv_bfloat16*, float*)", 9007,
                  1900000, 50000)
           << gpu("gpu_memcpy", "Memcpy DtoH (Device -> Pinned)", 9008, 1960000, 20000)
           << gpu("kernel", "void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8>(Params)",
                  9009, 1960000, 30000);
    for (quint64 c = 9001; c <= 9009; ++c)
        events << launch(c, 1000000 + qint64(c - 9000) * 100000, c == 9001 ? 500 : c == 9002 ? 501 : 0,
                         c == 9008 ? "cudaMemcpyAsync" : c <= 9004 ? "cudaLaunchKernelExC" : "cudaLaunchKernel");
    events << paramComms << cutSplits << step(1, 1000000, 1000000);
    const QByteArray info =
        "{\"backend\": \"nccl\", \"rank\": 2, \"world_size\": 8, \"pg_count\": 2, \"pg_config\": [{\"pg_name\": \"0\", "
        "\"pg_desc\": \"default_pg\", \"backend_config\": \"cuda:nccl\", \"pg_size\": 8, \"ranks\": [0, 1, 2, 3, 4, 5, "
        "6, 7]}, {\"pg_name\": \"3\", \"pg_desc\": \"EXPERT_MODEL_PARALLEL_GROUP\", \"backend_config\": \"cuda:nccl\", "
        "\"pg_size\": 4, \"ranks\": [0, 2, 4, 6]}], \"nccl_version\": \"2.21.5\"}";
    QTemporaryDir dir;
    auto read = readBytes(dir, QStringLiteral("rank-2.json"), kineto(events, info));
    QVERIFY2(read.hasValue(), qPrintable(read.hasValue() ? QString() : read.error().text()));
    const RankTrace& t = read.value();
    QCOMPARE(t.rank, 2);
    QCOMPARE(t.worldSize, 8);
    QCOMPARE(t.groups.size(), 2);
    QCOMPARE(t.groups[0].name, QStringLiteral("0"));
    QCOMPARE(t.groups[1].description, QStringLiteral("EXPERT_MODEL_PARALLEL_GROUP"));
    QCOMPARE(t.groups[1].ranks, (QVector<int>{0, 2, 4, 6}));
    QCOMPARE(t.steps.size(), 1);
    const StepTrace& s = t.steps[0];
    QCOMPARE(s.comm.size(), 7);
    // The all_to_allv: SendRecv kernel, args from its record_param_comms by External id.
    const CommCall& a2a = s.comm[0];
    QCOMPARE(a2a.kind, CommKind::NcclAllToAll);
    QCOMPARE(a2a.collective, QStringLiteral("all_to_allv"));
    QCOMPARE(a2a.inBytes, 2048);
    QCOMPARE(a2a.outBytes, 4096);
    QCOMPARE(a2a.seq, 17);
    QCOMPARE(a2a.group, 1);
    QVERIFY(!a2a.splitsCut);
    QCOMPARE(a2a.start, 1200000);
    QCOMPARE(a2a.end, 1500000);
    const CommCall& cut = s.comm[1];
    QCOMPARE(cut.kind, CommKind::NcclAllToAll);
    QVERIFY(cut.splitsCut);
    QCOMPARE(cut.inBytes, 64);
    QCOMPARE(cut.seq, 18);
    // The all-reduce: args on the kernel itself.
    const CommCall& ar = s.comm[2];
    QCOMPARE(ar.kind, CommKind::NcclOther);
    QCOMPARE(ar.inBytes, 400);
    QCOMPARE(ar.group, 0);
    QCOMPARE(ar.seq, 3);
    // A SendRecv without c10d args (pipeline send/recv): whether it is EP is decided later.
    QCOMPARE(s.comm[3].kind, CommKind::NcclSendRecv);
    QCOMPARE(s.comm[3].group, -1);
    QCOMPARE(s.comm[3].inBytes, -1);
    QCOMPARE(s.comm[4].kind, CommKind::EpOther);
    QCOMPARE(s.comm[5].kind, CommKind::EpDispatch);
    QCOMPARE(s.comm[6].kind, CommKind::EpCombine);
    QCOMPARE(t.names.value(s.comm[5].name),
             QStringLiteral("void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*, float*)"));
    QCOMPARE(s.memcpy, (QVector<Interval>{{1960000, 1980000}}));
    QCOMPARE(s.compute, (QVector<Interval>{{1960000, 1990000}}));
}

void TestRankTrace::kernelNames() {
    auto kind = [](const char* name, const char* collective = "") { return classifyKernel(name, collective); };
    QCOMPARE(kind("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"), CommKind::NcclOther);
    QCOMPARE(kind("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"), CommKind::NcclSendRecv);
    QCOMPARE(kind("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", "all_to_all"), CommKind::NcclAllToAll);
    QCOMPARE(kind("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", "alltoall_base"),
             CommKind::NcclAllToAll);
    QCOMPARE(kind("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"), CommKind::NcclOther);
    QCOMPARE(kind("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"), CommKind::NcclOther);
    QCOMPARE(kind("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"), CommKind::NcclOther);
    QCOMPARE(kind("ncclSymkDevKernel_AllReduce_RSxLD_AGxST_sum_bf16(ncclSymkDevWorkArgs4K)"), CommKind::NcclOther);
    QCOMPARE(kind("void deep_ep::internode_ll::dispatch<true, 3, 7168>(void*, float*, int*, long*)"), CommKind::EpDispatch);
    QCOMPARE(kind("void deep_ep::internode_ll::combine<false, 3, 7168, 9>(void*, void*, int*)"), CommKind::EpCombine);
    QCOMPARE(kind("void deep_ep::internode::notify_dispatch<true, 8>(int const*, int*, int)"), CommKind::EpOther);
    QCOMPARE(kind("void deep_ep::intranode::cached_notify_combine<8>(void**, int*, int, int)"), CommKind::EpOther);
    QCOMPARE(kind("void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*, int*)"), CommKind::EpOther);
    QCOMPARE(kind("void deep_ep::legacy::intranode::dispatch<8, 768, 8192>(int4*, float*)"), CommKind::EpDispatch);
    QCOMPARE(kind("void deep_ep::elastic::hybrid_dispatch_impl<true, 8, 2>(void*, void*)"), CommKind::EpDispatch);
    QCOMPARE(kind("void deep_ep::elastic::combine_reduce_epilogue_impl<8>(__nv_bfloat16*, float*)"), CommKind::EpCombine);
    QCOMPARE(kind("void hybrid_ep::dispatch_kernel<__nv_bfloat16, 4, 8>(hybrid_ep::dispatch_kernel_param_t<__nv_bfloat16>)"),
             CommKind::EpDispatch);
    QCOMPARE(kind("void hybrid_ep::combine_kernel<4, 8>(hybrid_ep::combine_kernel_param_t)"), CommKind::EpCombine);
    QCOMPARE(kind("void hybrid_ep::scan<128, 32, 1, 4096, 8, 1, 8>(bool const*, tmp_state_t*)"), CommKind::EpOther);
    QCOMPARE(kind("nccl_ep_jit_ht_dispatch_kernel"), CommKind::EpDispatch);
    QCOMPARE(kind("nccl_ep_jit_ht_combine_kernel"), CommKind::EpCombine);
    QCOMPARE(kind("void nccl_ep::internode_ll::dispatch<true, 3>(void*, float*)"), CommKind::EpDispatch);
    QCOMPARE(kind("gloo:all_to_all"), CommKind::GlooAllToAll);
    QCOMPARE(kind("gloo:all_reduce"), CommKind::GlooOther);
    // Compute, whatever their arguments' types say.
    QVERIFY(!kind("void at::native::vectorized_elementwise_kernel<4>(int, float*)"));
    QVERIFY(!kind("void permute_kernel<__nv_bfloat16>(hybrid_ep::permute_param_t)"));
    QVERIFY(!kind("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64", "allreduce"));
    QVERIFY(isMemcpyOrMemset("gpu_memset", "Memset (Device)"));
    QVERIFY(isMemcpyOrMemset("kernel", "Memcpy DtoD (Device -> Device)"));
    QVERIFY(!isMemcpyOrMemset("kernel", "void at::native::copy_kernel(int)"));
    QCOMPARE(dtypeBytes("BFloat16"), 2);
    QCOMPARE(dtypeBytes("Float8_e5m2"), 1);
    QCOMPARE(dtypeBytes("Long"), 8);
    QCOMPARE(dtypeBytes("Bool"), 1);
}

void TestRankTrace::truncatedGzipRefused() {
    const QByteArray plain = kineto({step(1, 1000000, 500000), gpu("kernel", "k", 1, 1100000, 1000), launch(1, 1050000)});
    const QByteArray gz = gzipped(plain);
    QTemporaryDir dir;
    auto read = readBytes(dir, QStringLiteral("cut.json.gz"), gz.left(gz.size() - 12)); // trailer and a little more
    QVERIFY(!read.hasValue());
    QCOMPARE(read.error().file, QStringLiteral("cut.json.gz"));
    QVERIFY2(read.error().message.contains(QStringLiteral("the gzip stream ends early")), qPrintable(read.error().text()));
    auto whole = readBytes(dir, QStringLiteral("whole.gz"), gz);
    QVERIFY(whole.hasValue());
}

void TestRankTrace::multiMemberGzip() {
    const QByteArray plain = kineto({step(1, 1000000, 500000), gpu("kernel", "k", 1, 1100000, 1000), launch(1, 1050000)});
    const qsizetype half = plain.size() / 2;
    QTemporaryDir dir;
    auto read = readBytes(dir, QStringLiteral("two-members.gz"), gzipped(plain.left(half)) + gzipped(plain.mid(half)));
    QVERIFY2(read.hasValue(), qPrintable(read.hasValue() ? QString() : read.error().text()));
    QCOMPARE(read->steps.size(), 1);
    QCOMPARE(totalNs(read->steps[0].compute), 1000);
    QCOMPARE(read->bytesRead, plain.size());
}

void TestRankTrace::notATraceRefused() {
    QTemporaryDir dir;
    auto text = readBytes(dir, QStringLiteral("notes.txt"), "hello, this is not a trace\n");
    QVERIFY(!text.hasValue());
    QCOMPARE(text.error().file, QStringLiteral("notes.txt"));
    QVERIFY(text.error().message.contains(QStringLiteral("not a PyTorch profiler trace")));
    auto object = readBytes(dir, QStringLiteral("other.json"), "{\"records\": [1, 2, 3], \"name\": \"x\"}");
    QVERIFY(!object.hasValue());
    QVERIFY2(object.error().message.contains(QStringLiteral("traceEvents")), qPrintable(object.error().text()));
    auto gzText = readBytes(dir, QStringLiteral("x.gz"), gzipped("plain words"));
    QVERIFY(!gzText.hasValue());
    QVERIFY(gzText.error().message.contains(QStringLiteral("not a PyTorch profiler trace")));
    auto missing = readRankTrace(dir.filePath(QStringLiteral("absent.json")), QStringLiteral("absent.json"));
    QVERIFY(!missing.hasValue());
    QVERIFY(missing.error().unreadable);
}

void TestRankTrace::jsonErrorNamesLineAndEvent() {
    QByteArray broken = kineto({step(1, 1000000, 500000), launch(1, 1050000), gpu("kernel", "k", 1, 1100000, 1000)});
    // The third event (index 2) loses the ':' after "dur"; kineto() writes it on the event's 2nd line.
    const qsizetype at = broken.lastIndexOf("\"dur\": ");
    broken.replace(at, 7, "\"dur\" ");
    const qint64 line = broken.left(at).count('\n') + 1;
    QTemporaryDir dir;
    auto read = readBytes(dir, QStringLiteral("broken.json"), broken);
    QVERIFY(!read.hasValue());
    QCOMPARE(read.error().line, line);
    QCOMPARE(read.error().field, QStringLiteral("traceEvents[2].dur"));
    QVERIFY2(read.error().message.contains(QStringLiteral("':'")), qPrintable(read.error().text()));

    // A file cut inside an event.
    const QByteArray whole = kineto({step(1, 1000000, 500000), launch(1, 1050000)});
    auto cut = readBytes(dir, QStringLiteral("cut.json"), whole.left(whole.indexOf("cudaLaunchKernel")));
    QVERIFY(!cut.hasValue());
    QVERIFY2(cut.error().message.contains(QStringLiteral("truncated")), qPrintable(cut.error().text()));
    QCOMPARE(cut.error().field, QStringLiteral("traceEvents[1]"));
}

// The file cut anywhere: refused with a message (the scanner meets the window's end at
// every kind of place: inside keys, strings, escapes, numbers, nested args).
void TestRankTrace::everyCutRefused() {
    const QByteArray whole =
        kineto({step(1, 1000000, 500000), launch(1, 1050000, 7),
                gpu("kernel", "void deep_ep::intranode::dispatch<8>(int4*, \\\"q\\\" \\u00e9\\ud83d\\ude00)", 1, 1100000,
                    1000, ", \"Collective name\": \"all_to_all\", \"In split size\": [[1, 2], {\"a\": [3]}], \"Seq\": 1e2"),
                gpu("kernel", "k", 2, 1200000, 2000, {}, 3), launch(2, 1150000)},
               "{\"rank\": 1, \"pg_config\": [{\"pg_name\": 5, \"ranks\": \"[0, 1]\"}]}");
    QTemporaryDir dir;
    auto full = readBytes(dir, QStringLiteral("whole.json"), whole);
    QVERIFY2(full.hasValue(), qPrintable(full.hasValue() ? QString() : full.error().text()));
    QCOMPARE(full->steps[0].comm.size(), 1);
    QCOMPARE(full->steps[0].comm[0].kind, CommKind::EpDispatch);
    QCOMPARE(full->names.value(0), QStringLiteral("void deep_ep::intranode::dispatch<8>(int4*, \"q\" \u00e9\U0001F600)"));
    QCOMPARE(full->groups.value(0).name, QStringLiteral("5"));
    QCOMPARE(totalNs(full->steps[0].compute), 2000);
    const qsizetype end = whole.lastIndexOf('}');
    for (qsizetype cut = 0; cut < end; ++cut) {
        auto read = readBytes(dir, QStringLiteral("cut.json"), whole.left(cut));
        QVERIFY2(!read.hasValue(), qPrintable(QStringLiteral("cut at %1 read").arg(cut)));
        QVERIFY(!read.error().message.isEmpty());
    }
}

void TestRankTrace::eventWithoutDurRefused() {
    QByteArray kernel = gpu("kernel", "k", 1, 1100000, 1000);
    kernel.replace(", \"dur\": 1.000", "");
    QVERIFY(!kernel.contains("dur"));
    QTemporaryDir dir;
    auto read = readBytes(dir, QStringLiteral("nodur.json"), kineto({step(1, 1000000, 500000), launch(1, 1050000), kernel}));
    QVERIFY(!read.hasValue());
    QCOMPARE(read.error().field, QStringLiteral("traceEvents[2].dur"));
    QVERIFY2(read.error().message.contains(QStringLiteral("event 2")), qPrintable(read.error().text()));
    QVERIFY(read.error().line > 0);
}

void TestRankTrace::stepErrors() {
    QTemporaryDir dir;
    auto none = readBytes(dir, QStringLiteral("nostep.json"), kineto({launch(1, 1050000), gpu("kernel", "k", 1, 1100000, 1000)}));
    QVERIFY(!none.hasValue());
    QVERIFY2(none.error().message.contains(
                 QStringLiteral("no ProfilerStep#N: the trace was not recorded with a profiler schedule")),
             qPrintable(none.error().text()));

    const QByteArray begin = "{\"ph\": \"B\", \"cat\": \"cpu_op\", \"name\": \"ProfilerStep#7\", \"pid\": 1, \"tid\": 1, \"ts\": 10.0}";
    auto open = readBytes(dir, QStringLiteral("open.json"), kineto({step(6, 0, 5000), begin}));
    QVERIFY(!open.hasValue());
    QVERIFY2(open.error().message.contains(QStringLiteral("ProfilerStep#7")) &&
                 open.error().message.contains(QStringLiteral("never ends")),
             qPrintable(open.error().text()));
    const QByteArray end = "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 20.0}";
    auto closed = readBytes(dir, QStringLiteral("closed.json"), kineto({begin, end}));
    QVERIFY2(closed.hasValue(), qPrintable(closed.hasValue() ? QString() : closed.error().text()));
    QCOMPARE(closed->steps[0].end - closed->steps[0].start, 10000);

    auto nested = readBytes(dir, QStringLiteral("nested.json"),
                            kineto({step(1, 1000000, 500000), step(2, 1100000, 1000, "cpu_op")}));
    QVERIFY(!nested.hasValue());
    QVERIFY2(nested.error().message.contains(QStringLiteral("ProfilerStep#2 (event 1) lies inside ProfilerStep#1")),
             qPrintable(nested.error().text()));
    auto twice = readBytes(dir, QStringLiteral("twice.json"), kineto({step(1, 1000000, 500000), step(1, 2000000, 500000)}));
    QVERIFY(!twice.hasValue());
    QVERIFY2(twice.error().message.contains(QStringLiteral("ProfilerStep#1 appears twice")), qPrintable(twice.error().text()));
    // ProfilerStep#N as a GPU user annotation (newer Kineto mirrors it) is no step of its own.
    auto mirrored = readBytes(dir, QStringLiteral("mirror.json"),
                              kineto({step(1, 1000000, 500000), step(1, 1000100, 400000, "gpu_user_annotation")}));
    QVERIFY2(mirrored.hasValue(), qPrintable(mirrored.hasValue() ? QString() : mirrored.error().text()));
}

void TestRankTrace::tooManyKernelsRefused() {
    QList<QByteArray> events{step(1, 1000000, 500000)};
    for (int i = 0; i < 10; ++i)
        events << gpu("kernel", "k", quint64(i), 1100000 + i * 1000, 500) << launch(quint64(i), 1050000 + i * 1000);
    QTemporaryDir dir;
    TraceReadOptions options;
    options.maxKernels = 12;
    auto read = readBytes(dir, QStringLiteral("many.json"), kineto(events), options);
    QVERIFY(!read.hasValue());
    QVERIFY2(read.error().message.contains(QStringLiteral("maxKernels")) &&
                 read.error().message.contains(QStringLiteral("12")),
             qPrintable(read.error().text()));
    options.maxKernels = 20;
    QVERIFY(readBytes(dir, QStringLiteral("many.json"), kineto(events), options).hasValue());
}

// The real torch 1.13 traces; the figures recounted here with QJsonDocument and a per-µs
// bitmap: compute = ops of threads that are not gloo-only, ProfilerStep excluded.
void TestRankTrace::legacyGlooFixture() {
    for (int rank : {0, 1}) {
        const QString path = kFixtures + QStringLiteral("/legacy-gloo-2ranks/rank-%1.json").arg(rank);
        auto read = readRankTrace(path, QFileInfo(path).fileName());
        QVERIFY2(read.hasValue(), qPrintable(read.hasValue() ? QString() : read.error().text()));
        const RankTrace& t = read.value();
        QCOMPARE(t.format, QStringLiteral("torch-legacy-json"));
        QCOMPARE(t.rank, rank);
        QVERIFY(!t.gpu);

        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray events = QJsonDocument::fromJson(f.readAll()).array();
        QCOMPARE(t.events, qint64(events.size()));
        std::map<qint64, std::pair<qint64, qint64>> steps; // N -> [start, end) µs
        std::map<int, bool> threadHasOther;
        for (const QJsonValue& v : events) {
            const QJsonObject e = v.toObject();
            const QString name = e[QStringLiteral("name")].toString();
            const int tid = e[QStringLiteral("tid")].toInt();
            if (name.startsWith(QStringLiteral("ProfilerStep#"))) {
                const qint64 ts = e[QStringLiteral("ts")].toInteger();
                steps[name.mid(13).toLongLong()] = {ts, ts + e[QStringLiteral("dur")].toInteger()};
            } else if (!name.startsWith(QStringLiteral("gloo:"))) {
                threadHasOther[tid] = true;
            } else {
                threadHasOther.emplace(tid, false);
            }
        }
        QCOMPARE(t.steps.size(), qsizetype(steps.size()));
        qsizetype si = 0;
        for (const auto& [n, span] : steps) {
            const StepTrace& s = t.steps[si++];
            QCOMPARE(s.step, n);
            QCOMPARE(s.start, span.first * 1000);
            QCOMPARE(s.end, span.second * 1000);
            std::vector<char> busy(size_t(span.second - span.first));
            int gloo = 0;
            for (const QJsonValue& v : events) {
                const QJsonObject e = v.toObject();
                const QString name = e[QStringLiteral("name")].toString();
                const qint64 ts = e[QStringLiteral("ts")].toInteger(), end = ts + e[QStringLiteral("dur")].toInteger();
                if (name.startsWith(QStringLiteral("gloo:"))) {
                    gloo += ts >= span.first && ts < span.second;
                    continue;
                }
                if (name.startsWith(QStringLiteral("ProfilerStep#")) || !threadHasOther[e[QStringLiteral("tid")].toInt()])
                    continue;
                for (qint64 u = std::max(ts, span.first); u < std::min(end, span.second); ++u)
                    busy[size_t(u - span.first)] = 1;
            }
            QVERIFY(sortedDisjoint(s.compute));
            QCOMPARE(totalNs(s.compute), qint64(std::count(busy.begin(), busy.end(), 1)) * 1000);
            QCOMPARE(int(s.comm.size()), gloo);
            QCOMPARE(gloo, 1);
            QCOMPARE(s.comm[0].kind, CommKind::GlooAllToAll);
            QCOMPARE(s.comm[0].collective, QStringLiteral("all_to_all"));
            QCOMPARE(t.names.value(s.comm[0].name), QStringLiteral("gloo:all_to_all"));
        }
    }
}

// Real Kineto traces from HolisticTraceAnalysis against the fixture's brute-force figures.
void TestRankTrace::htaFixture() {
    const QString folder = kFixtures + QStringLiteral("/hta/trace_filter");
    QFile expectedFile(folder + QStringLiteral("/expected.json"));
    if (!expectedFile.open(QIODevice::ReadOnly))
        QSKIP("tests/fixtures/anatomy/hta/trace_filter is not there");
    const QJsonObject ranks = QJsonDocument::fromJson(expectedFile.readAll()).object()[QStringLiteral("ranks")].toObject();
    QVERIFY(!ranks.isEmpty());
    for (auto it = ranks.begin(); it != ranks.end(); ++it) {
        const QJsonObject want = it.value().toObject();
        const QString file = want[QStringLiteral("file")].toString();
        auto read = readRankTrace(folder + QLatin1Char('/') + file, file);
        QVERIFY2(read.hasValue(), qPrintable(read.hasValue() ? QString() : read.error().text()));
        const RankTrace& t = read.value();
        QCOMPARE(t.rank, it.key().toInt());
        QCOMPARE(t.events, want[QStringLiteral("events")].toInteger());
        QCOMPARE(t.unassigned, want[QStringLiteral("activities_outside_steps")].toInteger());
        const QJsonObject steps = want[QStringLiteral("steps")].toObject();
        QCOMPARE(t.steps.size(), steps.size());
        for (const StepTrace& s : t.steps) {
            const QJsonObject w = steps[QString::number(s.step)].toObject();
            QVERIFY(!w.isEmpty());
            auto us = [](qint64 ns) { return double(ns) / 1000.0; };
            QCOMPARE(us(s.end - s.start), w[QStringLiteral("step_us")].toDouble());
            QCOMPARE(us(totalNs(s.compute)), w[QStringLiteral("compute_us")].toDouble());
            QCOMPARE(us(totalNs(s.memcpy)), w[QStringLiteral("memcpy_us")].toDouble());
            // comm_us: the union of the step's communication calls.
            std::vector<std::pair<qint64, qint64>> calls;
            for (const CommCall& c : s.comm)
                calls.push_back({c.start, c.end});
            std::sort(calls.begin(), calls.end());
            qint64 comm = 0, reach = std::numeric_limits<qint64>::min();
            for (const auto& [a, b] : calls) {
                const qint64 from = std::max(a, reach);
                if (b > from)
                    comm += b - from;
                reach = std::max(reach, b);
            }
            QCOMPARE(us(comm), w[QStringLiteral("comm_us")].toDouble());
            for (const CommCall& c : s.comm)
                QCOMPARE(c.kind, CommKind::NcclSendRecv);
        }
    }
}

// Every trace other sessions generated for the cross-rank tests reads.
void TestRankTrace::generatedFixturesRead() {
    int n = 0;
    QDirIterator it(kFixtures, {QStringLiteral("*.json"), QStringLiteral("*.json.gz")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.endsWith(QStringLiteral("expected.json")) || path.contains(QStringLiteral("/hta/")))
            continue;
        auto read = readRankTrace(path, path.mid(kFixtures.size() + 1));
        QVERIFY2(read.hasValue(), qPrintable(read.hasValue() ? QString() : read.error().text()));
        QVERIFY(!read->steps.isEmpty());
        QVERIFY(read->rank >= 0);
        ++n;
    }
    QVERIFY(n >= 2);
}

void TestRankTrace::looksLikeTraceDetects() {
    const QByteArray k = kineto({step(1, 0, 10)});
    QVERIFY(looksLikeTrace(k.left(200), QStringLiteral("a.json")));
    QVERIFY(looksLikeTrace(gzipped(k).left(100), QStringLiteral("a.bin")));
    QVERIFY(looksLikeTrace("[{\"name\": \"aten::zeros\", \"ph\": \"X\", \"ts\": 249}", QStringLiteral("rank-0.json")));
    QVERIFY(!looksLikeTrace("{\"metrics\": {}}", QStringLiteral("m.json")));
    QVERIFY(!looksLikeTrace("[1, 2, 3]", QStringLiteral("m.json")));
    QVERIFY(!looksLikeTrace("step,loss\n1,2\n", QStringLiteral("m.csv")));
}

// A 200+ MB trace read with the peak resident size growing by less than 128 MiB.
void TestRankTrace::boundedMemoryOnLargeTrace() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.pt.trace.json"));
    const moewb::testing::SyntheticTraceStats stats = moewb::testing::writeSyntheticKinetoTrace(path, 210LL << 20);
    QVERIFY(stats.bytes > 200LL << 20);
    const qint64 before = vmHwmKiB();
    QVERIFY(before > 0);
    auto read = readRankTrace(path, QStringLiteral("large.pt.trace.json"));
    const qint64 after = vmHwmKiB();
    QVERIFY2(read.hasValue(), qPrintable(read.hasValue() ? QString() : read.error().text()));
    QCOMPARE(read->bytesRead, stats.bytes);
    QCOMPARE(read->events, stats.events);
    QCOMPARE(read->steps.size(), qsizetype(stats.steps));
    QCOMPARE(read->unassigned, 0);
    qint64 calls = 0;
    for (const StepTrace& s : read->steps)
        calls += s.comm.size();
    QVERIFY(calls > 0);
    qInfo("peak resident size grew by %lld KiB reading %lld MB", after - before, stats.bytes / 1000000);
    QVERIFY2(after - before < 128 * 1024, qPrintable(QStringLiteral("VmHWM grew by %1 KiB").arg(after - before)));
}

QTEST_GUILESS_MAIN(TestRankTrace)
#include "test_rank_trace.moc"
