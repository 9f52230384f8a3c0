#include "benchmark_harness.h"

#include "control_plane.h"
#include "probe_options.h"

#include <algorithm>
#include <cstring>

namespace moeprobe {

BandwidthFigures bandwidth_for(const TrafficPlan& plan, double seconds) {
    BandwidthFigures b;
    if (!(seconds > 0))
        return b;
    const double n = plan.world();
    b.algbw_gbps = plan.mean_sent() / seconds / 1e9;
    b.busbw_gbps = n > 0 ? b.algbw_gbps * (n - 1) / n : 0;
    b.effective_gbps = plan.mean_sent_off_rank() / seconds / 1e9;
    b.busiest_rank_gbps = static_cast<double>(plan.busiest_rank_bytes()) / seconds / 1e9;
    return b;
}

unsigned char check_byte(int src, int dst, std::uint64_t k) {
    // Differs between neighbouring bytes, senders and receivers, so a misplaced chunk
    // or a shifted offset shows up.
    const std::uint64_t x = k * 0x9e3779b1ull + static_cast<std::uint64_t>(src) * 0x85ebca6bull +
                            static_cast<std::uint64_t>(dst) * 0xc2b2ae35ull;
    return static_cast<unsigned char>((x >> 24) ^ (x >> 7));
}

BenchmarkHarness::BenchmarkHarness(const ProbeOptions& options, const TrafficPattern& pattern,
                                   AllToAllBackend& backend, ControlPlane& control, const EpLayout& layout)
    : options_(options), pattern_(pattern), backend_(backend), control_(control), layout_(layout) {}

std::vector<std::vector<double>>
BenchmarkHarness::gather_times(const std::vector<std::vector<double>>& local) {
    // Payload: the local ranks' times one after the other, iterations each.
    const std::size_t iterations = local.empty() ? 0 : local.front().size();
    std::string payload;
    for (const std::vector<double>& times : local) {
        const std::size_t at = payload.size();
        payload.resize(at + iterations * sizeof(double));
        if (iterations > 0)
            std::memcpy(payload.data() + at, times.data(), std::min(times.size(), iterations) * sizeof(double));
    }
    const std::vector<std::string> all = control_.gather(payload);
    if (options_.rank != 0)
        return {};
    const int per_process = backend_.local_rank_count();
    std::vector<std::vector<double>> by_rank(static_cast<std::size_t>(layout_.world),
                                             std::vector<double>(iterations, 0.0));
    for (std::size_t p = 0; p < all.size(); ++p)
        for (int i = 0; i < per_process; ++i) {
            const std::size_t rank = p * static_cast<std::size_t>(per_process) + static_cast<std::size_t>(i);
            if (rank >= by_rank.size())
                break;
            for (std::size_t k = 0; k < iterations; ++k) {
                const std::size_t at = (static_cast<std::size_t>(i) * iterations + k) * sizeof(double);
                if (at + sizeof(double) <= all[p].size())
                    std::memcpy(&by_rank[rank][k], all[p].data() + at, sizeof(double));
            }
        }
    return by_rank;
}

std::int64_t BenchmarkHarness::validate(const TrafficPlan& plan) {
    const int local_count = backend_.local_rank_count();
    const int first = options_.rank * local_count;
    for (int i = 0; i < local_count; ++i) {
        const int src = first + i;
        std::vector<unsigned char> bytes(plan.sent_by(src));
        for (int dst = 0; dst < plan.world(); ++dst) {
            const std::uint64_t off = plan.send_offset(src, dst);
            for (std::uint64_t k = 0; k < plan.bytes(src, dst); ++k)
                bytes[off + k] = check_byte(src, dst, k);
        }
        backend_.write_send_data(i, bytes);
    }
    backend_.run(1);
    std::uint64_t wrong = 0;
    for (int i = 0; i < local_count; ++i) {
        const int dst = first + i;
        const std::vector<unsigned char> got = backend_.read_received_data(i);
        for (int src = 0; src < plan.world(); ++src) {
            const std::uint64_t off = plan.recv_offset(dst, src);
            for (std::uint64_t k = 0; k < plan.bytes(src, dst); ++k)
                wrong += (off + k >= got.size() || got[off + k] != check_byte(src, dst, k));
        }
    }
    std::string payload(sizeof wrong, '\0');
    std::memcpy(payload.data(), &wrong, sizeof wrong);
    const std::vector<std::string> all = control_.gather(payload);
    std::uint64_t total = 0;
    for (const std::string& p : all) {
        std::uint64_t v = 0;
        if (p.size() >= sizeof v)
            std::memcpy(&v, p.data(), sizeof v);
        total += v;
    }
    return static_cast<std::int64_t>(total);
}

namespace {

// Per-repeat figures from one list of per-iteration times (us).
RepeatResult repeat_result(std::vector<double> us, const TrafficPlan& group_plan) {
    RepeatResult rr;
    rr.time_us = summarize_samples(us);
    rr.bandwidth = bandwidth_for(group_plan, rr.time_us.median * 1e-6);
    rr.samples_us = std::move(us);
    return rr;
}

std::vector<double> medians_of(const std::vector<RepeatResult>& repeats) {
    std::vector<double> m;
    for (const RepeatResult& rr : repeats)
        m.push_back(rr.time_us.median);
    return m;
}

} // namespace

std::vector<SizeResult> BenchmarkHarness::run(const std::vector<std::uint64_t>& sizes,
                                              const std::function<void(const SizeResult&)>& on_result) {
    std::vector<SizeResult> results;
    const std::size_t group_count = layout_.groups.size();
    for (const std::uint64_t size : sizes) {
        SizeResult r;
        r.requested_bytes_per_rank = size;
        // Every EP group runs the pattern among its own ranks, all groups at once.
        r.group_plan = pattern_.plan(layout_.ep, size);
        r.plan = TrafficPlan::for_groups(r.group_plan, layout_);
        r.bytes_per_rank = r.group_plan.mean_sent();
        r.iterations = options_.iterations;
        r.groups.resize(group_count);
        backend_.prepare(r.plan);
        if (options_.warmup_iterations > 0)
            backend_.run(options_.warmup_iterations); // never counted
        control_.gather({});                          // start every repeat together

        std::vector<double> pooled_us;
        std::vector<std::vector<double>> group_pooled_us(group_count);
        std::vector<double> algbws, busbws, effectives;
        for (int rep = 0; rep < options_.repeats; ++rep) {
            const std::vector<std::vector<double>> by_rank = gather_times(backend_.run(options_.iterations));
            if (options_.rank != 0)
                continue;
            const auto iterations = static_cast<std::size_t>(options_.iterations);
            // Per group: the max over its ranks; over groups: the max of those.
            std::vector<double> max_us(iterations, 0.0);
            for (std::size_t g = 0; g < group_count; ++g) {
                std::vector<double> us(iterations, 0.0);
                for (const int rank : layout_.groups[g])
                    for (std::size_t k = 0; k < iterations; ++k)
                        us[k] = std::max(us[k], by_rank[static_cast<std::size_t>(rank)][k] * 1e6);
                for (std::size_t k = 0; k < iterations; ++k)
                    max_us[k] = std::max(max_us[k], us[k]);
                group_pooled_us[g].insert(group_pooled_us[g].end(), us.begin(), us.end());
                r.groups[g].repeats.push_back(repeat_result(std::move(us), r.group_plan));
            }
            pooled_us.insert(pooled_us.end(), max_us.begin(), max_us.end());
            RepeatResult rr = repeat_result(std::move(max_us), r.group_plan);
            algbws.push_back(rr.bandwidth.algbw_gbps);
            busbws.push_back(rr.bandwidth.busbw_gbps);
            effectives.push_back(rr.bandwidth.effective_gbps);
            r.repeats.push_back(std::move(rr));
        }
        if (options_.check)
            r.wrong_bytes = validate(r.plan);
        if (options_.rank == 0) {
            r.time_us = summarize_samples(pooled_us);
            r.bandwidth = bandwidth_for(r.group_plan, r.time_us.median * 1e-6);
            r.median_time_spread = summarize_spread(medians_of(r.repeats));
            r.algbw_spread = summarize_spread(algbws);
            r.busbw_spread = summarize_spread(busbws);
            r.effective_spread = summarize_spread(effectives);
            for (std::size_t g = 0; g < group_count; ++g) {
                GroupResult& gr = r.groups[g];
                gr.time_us = summarize_samples(group_pooled_us[g]);
                gr.bandwidth = bandwidth_for(r.group_plan, gr.time_us.median * 1e-6);
                gr.median_time_spread = summarize_spread(medians_of(gr.repeats));
                if (gr.time_us.median > r.groups[static_cast<std::size_t>(r.slowest_group)].time_us.median)
                    r.slowest_group = static_cast<int>(g);
            }
            if (on_result)
                on_result(r);
            results.push_back(std::move(r));
        }
    }
    return results;
}

} // namespace moeprobe
