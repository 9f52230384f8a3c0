// The moe-probe/2 JSON document; every field is described in docs/probe-json.md.
#include "gpu_driver_facts.h"
#include "json_writer.h"
#include "nccl_library_locator.h"
#include "probe_run_report.h"
#include "probe_version.h"

#include <ctime>
#include <map>
#include <set>

namespace moeprobe {
namespace {

void write_time_summary(JsonWriter& w, const SampleSummary& s) {
    w.key("time_us").begin_object();
    w.field("min", s.min);
    w.field("mean", s.mean);
    w.field("median", s.median);
    w.field("p95", s.p95);
    w.field("p99", s.p99);
    w.field("max", s.max);
    w.field("stddev", s.stddev);
    w.field("samples", s.count);
    w.end_object();
}

void write_bandwidth(JsonWriter& w, const BandwidthFigures& b) {
    w.field("algbw_gbps", b.algbw_gbps);
    w.field("busbw_gbps", b.busbw_gbps);
    w.field("effective_gbps", b.effective_gbps);
    w.field("busiest_rank_gbps", b.busiest_rank_gbps);
}

void write_spread(JsonWriter& w, const std::string& name, const SpreadSummary& s) {
    w.key(name).begin_object();
    w.field("mean", s.mean);
    w.field("variance", s.variance);
    w.field("cv", s.cv);
    w.end_object();
}

void write_options(JsonWriter& w, const ProbeRunReport& r) {
    const ProbeOptions& o = r.options;
    w.key("options").begin_object();
    w.field("backend", o.backend);
    w.field("min_bytes", static_cast<std::uint64_t>(o.min_bytes));
    w.field("max_bytes", static_cast<std::uint64_t>(o.max_bytes));
    w.field("step_factor", static_cast<std::uint64_t>(o.step_factor));
    w.field("step_bytes", static_cast<std::uint64_t>(o.step_bytes));
    w.field("warmup_iters", o.warmup_iterations);
    w.field("iters", o.iterations);
    w.field("repeats", o.repeats);
    w.field("check", o.check);
    w.field("pattern", r.pattern_spec);
    w.field("schedule", o.schedule);
    w.field("gpus_per_process", o.gpus_per_process);
    if (o.first_device >= 0)
        w.field("device", o.first_device);
    else
        w.null_field("device");
    w.field("world", o.world);
    w.field("rendezvous", o.rendezvous);
    w.field("timeout_s", o.timeout_s);
    w.field("launcher", o.launcher);
    w.field("nccl_lib", o.nccl_lib);
    w.field("python_env", o.python_env);
    w.field("json", o.json_path);
    w.field("ep_size", o.ep_size);
    w.field("tp", o.ep_tp);
    w.field("pp", o.ep_pp);
    w.field("ep_order", o.ep_order);
    w.end_object();
}

void write_ep_layout(JsonWriter& w, const EpLayout& l) {
    w.key("ep_layout").begin_object();
    w.field("whole_world", l.whole_world);
    w.field("ep_size", l.ep);
    w.field("tp", l.tp);
    w.field("pp", l.pp);
    w.field("dp", l.dp);
    if (l.whole_world)
        w.null_field("order");
    else
        w.field("order", l.order);
    w.field("group_count", l.group_count());
    w.key("groups").begin_array();
    for (const std::vector<int>& g : l.groups) {
        w.begin_array();
        for (int rank : g)
            w.value(rank);
        w.end_array();
    }
    w.end_array();
    w.end_object();
}

void write_environment(JsonWriter& w, const ProbeRunReport& r) {
    w.key("environment").begin_object();
    w.field("backend", r.backend);
    w.field("pattern", r.pattern_spec);
    w.field("schedule", r.schedule);
    w.field("world", r.logical_world);
    w.field("processes", static_cast<int>(r.ranks.size()));
    std::map<std::string, int> per_host;
    std::vector<std::string> host_order;
    for (const RankFacts& f : r.ranks) {
        if (!per_host.count(f.hostname))
            host_order.push_back(f.hostname);
        per_host[f.hostname] += f.gpus_per_process;
    }
    w.field("nodes", static_cast<int>(host_order.size()));
    w.key("hostnames").begin_array();
    for (const std::string& h : host_order)
        w.value(h);
    w.end_array();
    w.key("ranks_per_node").begin_object();
    for (const std::string& h : host_order)
        w.field(h, per_host[h]);
    w.end_object();

    const RankFacts& first = r.ranks.front();
    std::set<std::string> models;
    int gpu_count = 0;
    for (const RankFacts& f : r.ranks) {
        gpu_count += static_cast<int>(f.gpu_models.size());
        models.insert(f.gpu_models.begin(), f.gpu_models.end());
    }
    w.key("gpu").begin_object();
    if (models.empty())
        w.null_field("model");
    else
        w.field("model", *models.begin());
    w.key("models").begin_array();
    for (const std::string& m : models)
        w.value(m);
    w.end_array();
    w.field("count", gpu_count);
    w.field("driver_version", first.gpu_driver_version);
    w.field("cuda_driver_version", cuda_version_text(first.cuda_driver_version));
    w.end_object();
    if (first.nccl_version_code > 0) {
        w.key("nccl").begin_object();
        w.field("version", nccl_version_text(first.nccl_version_code));
        w.field("version_code", first.nccl_version_code);
        w.field("path", first.nccl_path);
        w.field("alltoall", first.nccl_alltoall);
        w.field("communicators", first.nccl_communicators);
        w.end_object();
    } else {
        w.null_field("nccl");
    }

    w.key("ranks").begin_array();
    for (const RankFacts& f : r.ranks) {
        w.begin_object();
        w.field("rank", f.rank);
        w.field("hostname", f.hostname);
        w.field("pid", static_cast<std::int64_t>(f.pid));
        w.field("local_rank", f.local_rank);
        w.field("listen", f.listen);
        w.key("gpu_devices").begin_array();
        for (int d : f.gpu_devices)
            w.value(d);
        w.end_array();
        w.key("gpu_models").begin_array();
        for (const std::string& m : f.gpu_models)
            w.value(m);
        w.end_array();
        w.field("nccl_version", nccl_version_text(f.nccl_version_code));
        w.field("nccl_path", f.nccl_path);
        w.field("probe_version", f.probe_version);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

void write_result(JsonWriter& w, const SizeResult& s) {
    const TrafficPlan& p = s.plan;
    w.begin_object();
    w.field("requested_bytes_per_rank", s.requested_bytes_per_rank);
    w.field("bytes_per_rank", s.bytes_per_rank);
    w.key("bytes_sent").begin_array();
    for (int r = 0; r < p.world(); ++r)
        w.value(p.sent_by(r));
    w.end_array();
    w.key("bytes_received").begin_array();
    for (int r = 0; r < p.world(); ++r)
        w.value(p.received_by(r));
    w.end_array();
    w.field("busiest_rank", p.busiest_rank());
    w.field("busiest_rank_bytes", p.busiest_rank_bytes());
    w.field("uniform", p.uniform());
    w.field("iterations", s.iterations);
    write_time_summary(w, s.time_us);
    write_bandwidth(w, s.bandwidth);
    w.field("cv", s.median_time_spread.cv);
    w.key("across_repeats").begin_object();
    write_spread(w, "median_time_us", s.median_time_spread);
    write_spread(w, "algbw_gbps", s.algbw_spread);
    write_spread(w, "busbw_gbps", s.busbw_spread);
    write_spread(w, "effective_gbps", s.effective_spread);
    w.end_object();
    w.key("repeats").begin_array();
    for (const RepeatResult& rr : s.repeats) {
        w.begin_object();
        write_time_summary(w, rr.time_us);
        write_bandwidth(w, rr.bandwidth);
        // The raw per-iteration times, so the workbench stores every sample.
        w.key("samples_us").begin_array();
        for (double us : rr.samples_us)
            w.value(us);
        w.end_array();
        w.end_object();
    }
    w.end_array();
    if (s.wrong_bytes >= 0)
        w.field("wrong_bytes", static_cast<std::int64_t>(s.wrong_bytes));
    else
        w.null_field("wrong_bytes");
    // Per EP group (ep_layout.groups order): the max over the group's ranks per iteration.
    // The figures above are, per iteration, the max over these groups.
    w.field("slowest_group", s.slowest_group);
    w.key("groups").begin_array();
    for (std::size_t g = 0; g < s.groups.size(); ++g) {
        const GroupResult& gr = s.groups[g];
        w.begin_object();
        w.field("group", static_cast<int>(g));
        write_time_summary(w, gr.time_us);
        write_bandwidth(w, gr.bandwidth);
        w.field("cv", gr.median_time_spread.cv);
        w.key("repeats").begin_array();
        for (const RepeatResult& rr : gr.repeats) {
            w.begin_object();
            write_time_summary(w, rr.time_us);
            w.key("samples_us").begin_array();
            for (double us : rr.samples_us)
                w.value(us);
            w.end_array();
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

} // namespace

std::string utc_timestamp_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string probe_report_json(const ProbeRunReport& r) {
    JsonWriter w;
    w.begin_object();
    w.field("schema", kProbeJsonSchema);
    w.field("probe_version", kProbeVersion);
    w.field("collective", "alltoall");
    w.field("started_at", r.started_at_utc);
    w.field("duration_s", r.duration_s);
    write_options(w, r);
    write_environment(w, r);
    write_ep_layout(w, r.layout);
    w.key("results").begin_array();
    for (const SizeResult& s : r.results)
        write_result(w, s);
    w.end_array();

    double busbw_sum = 0;
    std::int64_t wrong = 0;
    bool checked = false;
    for (const SizeResult& s : r.results) {
        busbw_sum += s.bandwidth.busbw_gbps;
        if (s.wrong_bytes >= 0) {
            checked = true;
            wrong += s.wrong_bytes;
        }
    }
    w.key("summary").begin_object();
    w.field("avg_busbw_gbps", r.results.empty() ? 0.0 : busbw_sum / static_cast<double>(r.results.size()));
    if (checked)
        w.field("wrong_bytes", wrong);
    else
        w.null_field("wrong_bytes");
    w.end_object();
    w.end_object();
    return w.text();
}

} // namespace moeprobe
