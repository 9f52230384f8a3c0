// The human table on stdout, shaped like nccl-tests' alltoall_perf so the figures can
// be read side by side. Time is the median of the per-iteration max over ranks.
#include "nccl_library_locator.h"
#include "probe_run_report.h"
#include "probe_version.h"

#include <cstdarg>
#include <cstdio>

namespace moeprobe {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

// nccl-tests prints times below 10 ms with two decimals and larger ones as integers.
std::string time_text(double us) {
    return us < 10000 ? format("%.2f", us) : format("%.0f", us);
}

} // namespace

void print_table_header(std::ostream& out, const ProbeRunReport& r) {
    const ProbeOptions& o = r.options;
    out << "# moe-probe " << kProbeVersion << ": alltoall, backend " << r.backend << ", pattern "
        << r.pattern_spec << ", schedule " << r.schedule << '\n';
    out << format("# nRanks %d nProcs %d nGpus %d minBytes %llu maxBytes %llu step: ", r.logical_world,
                  static_cast<int>(r.ranks.size()), o.gpus_per_process,
                  static_cast<unsigned long long>(o.min_bytes), static_cast<unsigned long long>(o.max_bytes));
    if (o.step_bytes > 0)
        out << o.step_bytes << "(bytes)";
    else
        out << o.step_factor << "(factor)";
    out << format(" warmup iters: %d iters: %d repeats: %d validation: %d timeout: %g s\n",
                  o.warmup_iterations, o.iterations, o.repeats, o.check, o.timeout_s);
    out << "#\n# Using ranks\n";
    for (const RankFacts& f : r.ranks) {
        if (f.gpu_devices.empty()) {
            out << format("#  Rank %2d Pid %6ld on %10s", f.rank, f.pid, f.hostname.c_str());
            if (!f.listen.empty())
                out << " listen " << f.listen;
            out << '\n';
        }
        // One line per GPU rank, as nccl-tests prints them.
        const int per_process = static_cast<int>(f.gpu_devices.size());
        for (int i = 0; i < per_process; ++i)
            out << format("#  Rank %2d Pid %6ld on %10s device %2d %s\n", f.rank * per_process + i, f.pid,
                          f.hostname.c_str(), f.gpu_devices[static_cast<std::size_t>(i)],
                          static_cast<std::size_t>(i) < f.gpu_models.size()
                              ? f.gpu_models[static_cast<std::size_t>(i)].c_str()
                              : "");
    }
    const RankFacts& first = r.ranks.front();
    if (first.nccl_version_code > 0)
        out << "NCCL version " << nccl_version_text(first.nccl_version_code) << " (" << first.nccl_path
            << ") using " << first.nccl_alltoall << '\n';
    const EpLayout& l = r.layout;
    if (!l.whole_world) {
        out << format("# EP groups: %d groups of %d ranks at once (tp %d, pp %d, dp %d, order %s):", l.group_count(),
                      l.ep, l.tp, l.pp, l.dp, l.order.c_str());
        for (const std::vector<int>& g : l.groups) {
            out << " {";
            for (std::size_t i = 0; i < g.size(); ++i)
                out << (i ? "," : "") << g[i];
            out << '}';
        }
        out << "\n# time and bandwidth below: per iteration the max over groups (the slowest group)\n";
    }
    out << "#\n";
    out << "#                               per-iteration time, max over ranks        bandwidth              "
           "   repeats\n";
    out << "#       size  busiest       min    median       p99     algbw   busbw   effbw      cv  #wrong\n";
    out << "#        (B)     rank      (us)      (us)      (us)    (GB/s)  (GB/s)  (GB/s)     (%)\n";
    out.flush();
}

void print_table_row(std::ostream& out, const SizeResult& s) {
    print_table_row(out, s, nullptr);
}

void print_table_row(std::ostream& out, const SizeResult& s, const EpLayout* layout) {
    const std::string wrong = s.wrong_bytes < 0 ? "N/A" : std::to_string(s.wrong_bytes);
    out << format("%12llu  %7d %9s %9s %9s  %8.2f %7.2f %7.2f  %6.2f  %6s\n",
                  static_cast<unsigned long long>(s.requested_bytes_per_rank), s.plan.busiest_rank(),
                  time_text(s.time_us.min).c_str(), time_text(s.time_us.median).c_str(),
                  time_text(s.time_us.p99).c_str(), s.bandwidth.algbw_gbps, s.bandwidth.busbw_gbps,
                  s.bandwidth.effective_gbps, s.median_time_spread.cv * 100.0, wrong.c_str());
    if (layout && !layout->whole_world)
        for (std::size_t g = 0; g < s.groups.size(); ++g) {
            const GroupResult& gr = s.groups[g];
            out << format("#   group %-4zu        %9s %9s %9s  %8.2f %7.2f %7.2f  %6.2f%s\n", g,
                          time_text(gr.time_us.min).c_str(), time_text(gr.time_us.median).c_str(),
                          time_text(gr.time_us.p99).c_str(), gr.bandwidth.algbw_gbps, gr.bandwidth.busbw_gbps,
                          gr.bandwidth.effective_gbps, gr.median_time_spread.cv * 100.0,
                          static_cast<int>(g) == s.slowest_group ? "  slowest" : "");
        }
    out.flush();
}

void print_table_footer(std::ostream& out, const ProbeRunReport& r) {
    std::int64_t wrong = 0;
    bool checked = false;
    double busbw = 0;
    for (const SizeResult& s : r.results) {
        busbw += s.bandwidth.busbw_gbps;
        if (s.wrong_bytes >= 0) {
            checked = true;
            wrong += s.wrong_bytes;
        }
    }
    if (checked)
        out << "# Out of bounds values : " << wrong << (wrong == 0 ? " OK" : " FAILED") << '\n';
    out << format("# Avg bus bandwidth    : %g\n",
                  r.results.empty() ? 0.0 : busbw / static_cast<double>(r.results.size()));
    out << "#\n";
    out.flush();
}

} // namespace moeprobe
