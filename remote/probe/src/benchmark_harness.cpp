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
                                   AllToAllBackend& backend, ControlPlane& control, int logical_world)
    : options_(options), pattern_(pattern), backend_(backend), control_(control),
      logical_world_(logical_world) {}

std::vector<double> BenchmarkHarness::max_over_ranks(const std::vector<double>& local) {
    std::string payload(local.size() * sizeof(double), '\0');
    if (!local.empty())
        std::memcpy(payload.data(), local.data(), payload.size());
    const std::vector<std::string> all = control_.gather(payload);
    std::vector<double> result = local;
    for (std::size_t r = 1; r < all.size(); ++r) {
        const std::size_t count = std::min(all[r].size() / sizeof(double), result.size());
        for (std::size_t i = 0; i < count; ++i) {
            double v = 0;
            std::memcpy(&v, all[r].data() + i * sizeof(double), sizeof v);
            result[i] = std::max(result[i], v);
        }
    }
    return result;
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

std::vector<SizeResult> BenchmarkHarness::run(const std::vector<std::uint64_t>& sizes,
                                              const std::function<void(const SizeResult&)>& on_result) {
    std::vector<SizeResult> results;
    for (const std::uint64_t size : sizes) {
        SizeResult r;
        r.requested_bytes_per_rank = size;
        r.plan = pattern_.plan(logical_world_, size);
        r.bytes_per_rank = r.plan.mean_sent();
        r.iterations = options_.iterations;
        backend_.prepare(r.plan);
        if (options_.warmup_iterations > 0)
            backend_.run(options_.warmup_iterations); // never counted
        control_.gather({});                          // start every repeat together

        std::vector<double> pooled_us;
        std::vector<double> medians, algbws, busbws, effectives;
        for (int rep = 0; rep < options_.repeats; ++rep) {
            const std::vector<double> local = backend_.run(options_.iterations);
            const std::vector<double> seconds = max_over_ranks(local);
            if (options_.rank != 0)
                continue;
            std::vector<double> us(seconds.size());
            std::transform(seconds.begin(), seconds.end(), us.begin(), [](double s) { return s * 1e6; });
            RepeatResult rr;
            rr.time_us = summarize_samples(us);
            rr.bandwidth = bandwidth_for(r.plan, rr.time_us.median * 1e-6);
            medians.push_back(rr.time_us.median);
            algbws.push_back(rr.bandwidth.algbw_gbps);
            busbws.push_back(rr.bandwidth.busbw_gbps);
            effectives.push_back(rr.bandwidth.effective_gbps);
            pooled_us.insert(pooled_us.end(), us.begin(), us.end());
            rr.samples_us = std::move(us);
            r.repeats.push_back(std::move(rr));
        }
        if (options_.check)
            r.wrong_bytes = validate(r.plan);
        if (options_.rank == 0) {
            r.time_us = summarize_samples(pooled_us);
            r.bandwidth = bandwidth_for(r.plan, r.time_us.median * 1e-6);
            r.median_time_spread = summarize_spread(medians);
            r.algbw_spread = summarize_spread(algbws);
            r.busbw_spread = summarize_spread(busbws);
            r.effective_spread = summarize_spread(effectives);
            if (on_result)
                on_result(r);
            results.push_back(std::move(r));
        }
    }
    return results;
}

} // namespace moeprobe
