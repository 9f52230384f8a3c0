// moe-probe: the bundled all-to-all probe. Exit codes: 0 ok, 2 usage, 3 runtime failure.
#include "alltoall_backend.h"
#include "benchmark_harness.h"
#include "control_message.h"
#include "control_plane.h"
#include "node_inventory.h"
#include "peer_auth.h"
#include "probe_errors.h"
#include "probe_options.h"
#include "probe_run_report.h"
#include "probe_version.h"
#include "traffic_pattern.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <tuple>
#include <thread>
#include <unistd.h>

using namespace moeprobe;

namespace {

// A rank that fails because of another rank keeps its connections open a moment
// before exiting, so that its own exit is not mistaken for the original failure.
void linger_before_exit(const ProbeOptions& o) {
    if (o.world > 1)
        std::this_thread::sleep_for(std::chrono::duration<double>(std::min(1.0, o.timeout_s / 2)));
}

std::string rank_prefix(const ProbeOptions& o) {
    return "moe-probe (rank " + std::to_string(o.rank) + " of " + std::to_string(o.world) + "): error: ";
}

int run_sweep(const ProbeOptions& options_in, ControlPlane& control) {
    ProbeOptions options = options_in;
    const std::unique_ptr<TrafficPattern> pattern = make_traffic_pattern(options.pattern);
    if (const std::uint64_t natural = pattern->natural_bytes_per_rank();
        natural > 0 && !options.min_bytes_given && !options.max_bytes_given)
        options.min_bytes = options.max_bytes = natural; // replay the matrix as it is
    const std::vector<std::uint64_t> sizes = sweep_sizes(options);

    const std::unique_ptr<AllToAllBackend> backend = make_alltoall_backend(options, control);
    const auto started = SteadyClock::now();
    ProbeRunReport report;
    report.options = options;
    report.pattern_spec = pattern->spec();
    report.backend = backend->name();
    report.schedule = backend->schedule();
    report.started_at_utc = utc_timestamp_now();

    control.open();
    RankFacts mine;
    mine.rank = options.rank;
    mine.world = options.world;
    mine.gpus_per_process = backend->local_rank_count();
    mine.pid = static_cast<long>(::getpid());
    mine.hostname = local_hostname();
    mine.backend = backend->name();
    mine.pattern = pattern->spec();
    mine.schedule = backend->schedule();
    mine.ep_layout = options.layout.signature();
    mine.probe_version = kProbeVersion;
    std::string blob;
    backend->describe(mine, blob);
    report.ranks = control.exchange_facts(mine, blob);
    backend->connect(report.ranks, blob);
    backend->update_facts(mine);
    if (const std::vector<std::string> facts = control.gather(serialize_rank_facts(mine)); !facts.empty())
        for (std::size_t r = 0; r < facts.size(); ++r) {
            const std::string listen = report.ranks[r].listen; // as resolved at the rendezvous
            report.ranks[r] = deserialize_rank_facts(facts[r]);
            report.ranks[r].listen = listen;
            if (r > 0) // a peer's words: printed in the table and the JSON, so made printable
                make_peer_facts_printable(report.ranks[r]);
        }
    assign_local_ranks(report.ranks);
    report.logical_world = options.world * backend->local_rank_count();
    report.layout = options.layout;
    (void)pattern->plan(options.layout.ep,
                        sizes.empty() ? 0 : sizes.front()); // a wrong-sized matrix fails here

    const bool root = options.rank == 0;
    if (root)
        print_table_header(std::cout, report);
    BenchmarkHarness harness(options, *pattern, *backend, control, options.layout);
    report.results =
        harness.run(sizes, [&](const SizeResult& r) { print_table_row(std::cout, r, &options.layout); });
    backend->finish();
    if (!root)
        return kExitOk;

    report.duration_s = std::chrono::duration<double>(SteadyClock::now() - started).count();
    print_table_footer(std::cout, report);
    if (!options.json_path.empty()) {
        std::ofstream out(options.json_path, std::ios::trunc);
        out << probe_report_json(report);
        out.close();
        if (!out)
            throw RuntimeFailure("cannot write " + options.json_path);
    }
    std::int64_t wrong = 0;
    for (const SizeResult& r : report.results)
        wrong += r.wrong_bytes > 0 ? r.wrong_bytes : 0;
    if (wrong > 0) {
        std::cerr << rank_prefix(options) << "validation found " << wrong << " wrong bytes\n";
        return kExitRuntime;
    }
    return kExitOk;
}

} // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);
    ProbeOptions options;
    try {
        options = parse_probe_options(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "moe-probe: error: " << e.what() << "\n\n" << probe_usage_text();
        return kExitUsage;
    }
    if (options.show_help) {
        std::cout << probe_usage_text();
        return kExitOk;
    }
    if (options.show_version) {
        std::cout << "moe-probe " << kProbeVersion << " (schema " << kProbeJsonSchema << "; backends: tcp"
                  << (nccl_backend_built() ? ", nccl" : "") << ")\n";
        return kExitOk;
    }
    if (options.inventory) {
        std::cout << node_inventory_json(options);
        return kExitOk;
    }

    try {
        options.secret = take_run_secret(options.world > 1);
    } catch (const UsageError& e) {
        std::cerr << "moe-probe: error: " << e.what() << '\n';
        return kExitUsage;
    }
    ControlPlane control(options);
    try {
        return run_sweep(options, control);
    } catch (const UsageError& e) {
        control.broadcast_abort(-1, "rank " + std::to_string(options.rank) + ": " + e.what());
        std::cerr << rank_prefix(options) << e.what() << "\n\n" << probe_usage_text();
        return kExitUsage;
    } catch (const PeerFailure& e) {
        int missing_rank = e.missing_rank();
        std::string what = e.what();
        const bool notice = dynamic_cast<const AbortNotice*>(&e) != nullptr;
        if (options.rank == 0) {
            // A dead rank's control connection closes at once; prefer it over the first
            // symptom seen, which may be a survivor leaving or a rank waiting on another
            // (rank 0 may be gathering while a rank still waits on the hung one). Else
            // follow the notices. The others wait longer for this verdict (see below).
            std::tie(missing_rank, what) =
                control.attribute(missing_rank, what, std::min(0.75, options.timeout_s / 4));
            control.broadcast_abort(missing_rank, what);
        } else if (!notice) {
            control.broadcast_abort(missing_rank, what); // tell rank 0, then hear its verdict
            if (auto verdict = control.await_verdict(std::min(1.0, options.timeout_s / 2));
                verdict.first >= 0) {
                missing_rank = verdict.first;
                what = verdict.second;
            }
        }
        const std::string missing =
            missing_rank >= 0 ? "rank " + std::to_string(missing_rank) + " is missing: " : "";
        std::cerr << rank_prefix(options) << missing << what << '\n';
        linger_before_exit(options);
        return kExitRuntime;
    } catch (const std::exception& e) {
        control.broadcast_abort(-1, "rank " + std::to_string(options.rank) + ": " + e.what());
        std::cerr << rank_prefix(options) << e.what() << '\n';
        linger_before_exit(options);
        return kExitRuntime;
    }
}
