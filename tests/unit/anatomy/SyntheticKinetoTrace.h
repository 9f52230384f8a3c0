#pragma once
// A large Kineto-shaped trace written to a file in pieces (never held whole), for the
// bounded-memory test and bench_trace_read: steps of CPU ops with Kineto's args, their
// cudaLaunchKernel calls, GEMM kernels with CUPTI's args and the ac2g flow events,
// every 40th op an NCCL all-reduce (record_param_comms + kernel with c10d args), every
// 16th a memcpy. Layout and key order as libkineto's output_json.cpp writes them.
#include <QFile>
#include <QString>

#include <cstdio>

namespace moewb::testing {

struct SyntheticTraceStats {
    qint64 bytes = 0;
    qint64 events = 0;
    qint64 steps = 0;
    qint64 kernels = 0; // GPU activities (kernels and memcpys)
};

// Ops per step; the trace grows by whole steps until it holds at least targetBytes.
inline SyntheticTraceStats writeSyntheticKinetoTrace(const QString& path, qint64 targetBytes, int opsPerStep = 2000) {
    SyntheticTraceStats stats;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return stats;
    QByteArray out;
    out.reserve(1 << 21);
    char b[2048];
    auto put = [&](int n) {
        out.append(b, n);
        if (out.size() >= (1 << 20)) {
            f.write(out);
            stats.bytes += out.size();
            out.clear();
        }
    };
    auto ts = [](qint64 ns) { return std::pair<qint64, int>(ns / 1000, int(ns % 1000)); };
    put(std::snprintf(b, sizeof b,
                      "\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\n      \"id\": 0, \"name\": "
                      "\"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 84929216512,\n      \"computeMajor\": 9, "
                      "\"computeMinor\": 0,\n      \"maxThreadsPerBlock\": 1024, \"numSms\": 132\n    }\n  ],\n"
                      "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8, \"pg_count\": 1, "
                      "\"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", \"backend_config\": "
                      "\"cuda:nccl\", \"pg_size\": 8, \"ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}], \"nccl_version\": "
                      "\"2.21.5\"},\n  \"traceEvents\": ["));
    const qint64 base = 1712195495520870926LL;
    qint64 t = base;
    qint64 correlation = 1000, externalId = 1;
    bool first = true;
    auto sep = [&]() -> const char* {
        const char* s = first ? "" : ",";
        first = false;
        return s;
    };
    while (stats.bytes + out.size() < targetBytes) {
        const qint64 step = ++stats.steps;
        const qint64 stepStart = t;
        const qint64 stepDur = qint64(opsPerStep) * 30000 + 5000;
        auto [s0, s0f] = ts(stepStart);
        auto [sd, sdf] = ts(stepDur);
        put(std::snprintf(b, sizeof b,
                          "%s\n  {\n    \"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%lld\", "
                          "\"pid\": 2910249, \"tid\": 2910249,\n    \"ts\": %lld.%03d, \"dur\": %lld.%03d,\n    \"args\": "
                          "{\n      \"External id\": %lld,\"Record function id\": %lld, \"Ev Idx\": %lld\n    }\n  }",
                          sep(), (long long)step, (long long)s0, s0f, (long long)sd, sdf, (long long)externalId,
                          (long long)externalId, (long long)stats.events));
        ++stats.events;
        ++externalId;
        t += 1000;
        for (int op = 0; op < opsPerStep; ++op, t += 30000) {
            const bool comm = op % 40 == 39;
            const bool memcpy = !comm && op % 16 == 15;
            auto [o, of] = ts(t);
            auto [l, lf] = ts(t + 4210);
            auto [k, kf] = ts(t + 12500);
            const qint64 ext = externalId++;
            const qint64 corr = correlation++;
            if (comm) {
                put(std::snprintf(b, sizeof b,
                                  ",\n  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", "
                                  "\"pid\": 2910249, \"tid\": 2919752,\n    \"ts\": %lld.%03d, \"dur\": 21.442,\n    "
                                  "\"args\": {\n      \"External id\": %lld,\"Record function id\": %lld, \"Process Group "
                                  "Name\": \"0\", \"Out msg nelems\": 2049000, \"Process Group Ranks\": \"[0, 1, 2, 3, 4, "
                                  "5, 6, 7]\", \"Group size\": 8, \"Ev Idx\": %lld, \"In msg nelems\": 2049000, \"In "
                                  "split size\": \"[]\", \"Out split size\": \"[]\", \"dtype\": \"BFloat16\", \"Process "
                                  "Group Description\": \"default_pg\", \"Collective name\": \"allreduce\", \"Seq\": "
                                  "%lld\n    }\n  }",
                                  (long long)o, of, (long long)ext, (long long)ext, (long long)stats.events,
                                  (long long)op));
            } else {
                put(std::snprintf(b, sizeof b,
                                  ",\n  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"pid\": "
                                  "2910249, \"tid\": 2910249,\n    \"ts\": %lld.%03d, \"dur\": 18.911,\n    \"args\": {\n      "
                                  "\"External id\": %lld,\"Record function id\": %lld, \"Sequence number\": %lld, \"Fwd "
                                  "thread id\": 0, \"Ev Idx\": %lld, \"Input Dims\": [[4096], [8192, 4096], [4096, 4096], "
                                  "[], []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", "
                                  "\"Scalar\", \"Scalar\"], \"Input Strides\": [[1], [4096, 1], [1, 4096], [], []], "
                                  "\"Concrete Inputs\": [\"\", \"\", \"\", \"1\", \"1\"]\n    }\n  }",
                                  (long long)o, of, (long long)ext, (long long)ext, (long long)op,
                                  (long long)stats.events));
            }
            put(std::snprintf(b, sizeof b,
                              ",\n  {\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"%s\", \"pid\": 2910249, "
                              "\"tid\": 2910249,\n    \"ts\": %lld.%03d, \"dur\": 5.118,\n    \"args\": {\n      "
                              "\"External id\": %lld,      \"cbid\": 211, \"correlation\": %lld\n    }\n  },\n  {\n    "
                              "\"ph\": \"s\", \"id\": %lld, \"pid\": 2910249, \"tid\": 2910249, \"ts\": %lld.%03d,\n    "
                              "\"cat\": \"ac2g\", \"name\": \"ac2g\"\n  }",
                              memcpy ? "cudaMemcpyAsync" : comm ? "cudaLaunchKernelExC" : "cudaLaunchKernel",
                              (long long)l, lf, (long long)ext, (long long)corr, (long long)corr, (long long)l, lf));
            if (memcpy) {
                put(std::snprintf(b, sizeof b,
                                  ",\n  {\n    \"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy DtoD (Device -> "
                                  "Device)\", \"pid\": 0, \"tid\": 7,\n    \"ts\": %lld.%03d, \"dur\": 9.216,\n    \"args\": "
                                  "{\n      \"External id\": %lld,      \"device\": 0, \"context\": 1,\n      \"stream\": 7, "
                                  "\"correlation\": %lld,\n      \"bytes\": 16777216, \"memory bandwidth (GB/s)\": "
                                  "1820.44\n    }\n  }",
                                  (long long)k, kf, (long long)ext, (long long)corr));
            } else if (comm) {
                put(std::snprintf(b, sizeof b,
                                  ",\n  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
                                  "\"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)\", "
                                  "\"pid\": 0, \"tid\": 20,\n    \"ts\": %lld.%03d, \"dur\": 14.336,\n    \"args\": {\n      "
                                  "\"External id\": %lld,      \"queued\": 0, \"device\": 0, \"context\": 1,      "
                                  "\"stream\": 20, \"correlation\": %lld,      \"registers per thread\": 96,      "
                                  "\"shared memory\": 87568,      \"blocks per SM\": 0.121212,      \"warps per SM\": "
                                  "1.939394,      \"grid\": [16, 1, 1],      \"block\": [512, 1, 1],      \"est. achieved "
                                  "occupancy %%\": 3, \"Collective name\": \"allreduce\", \"In msg nelems\": 2049000, "
                                  "\"Out msg nelems\": 2049000, \"Group size\": 8, \"dtype\": \"BFloat16\", \"In split "
                                  "size\": \"[]\", \"Out split size\": \"[]\", \"Process Group Name\": \"0\", \"Process "
                                  "Group Description\": \"default_pg\", \"Process Group Ranks\": \"[0, 1, 2, 3, 4, 5, 6, "
                                  "7]\"\n    }\n  }",
                                  (long long)k, kf, (long long)ext, (long long)corr));
            } else {
                put(std::snprintf(b, sizeof b,
                                  ",\n  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm_bf16bf16_"
                                  "bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__"
                                  "5x_cublas\", \"pid\": 0, \"tid\": 7,\n    \"ts\": %lld.%03d, \"dur\": 11.872,\n    "
                                  "\"args\": {\n      \"External id\": %lld,      \"queued\": 0, \"device\": 0, "
                                  "\"context\": 1,      \"stream\": 7, \"correlation\": %lld,      \"registers per "
                                  "thread\": 168,      \"shared memory\": 213248,      \"blocks per SM\": 0.969697,      "
                                  "\"warps per SM\": 11.636364,      \"grid\": [2, 64, 1],      \"block\": [384, 1, 1],  "
                                  "    \"est. achieved occupancy %%\": 19\n    }\n  }",
                                  (long long)k, kf, (long long)ext, (long long)corr));
            }
            put(std::snprintf(b, sizeof b,
                              ",\n  {\n    \"ph\": \"f\", \"id\": %lld, \"pid\": 0, \"tid\": 7, \"ts\": %lld.%03d,\n    "
                              "\"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  }",
                              (long long)corr, (long long)k, kf));
            stats.events += 5;
            ++stats.kernels;
        }
        t = stepStart + stepDur + 10000; // the next step starts after this one ends
    }
    put(std::snprintf(b, sizeof b,
                      "\n  ],\n  \"traceName\": \"synthetic\",\n  \"displayTimeUnit\": \"ms\",\n  "
                      "\"baseTimeNanoseconds\": 1712195400000000000\n}"));
    f.write(out);
    stats.bytes += out.size();
    return stats;
}

} // namespace moewb::testing
