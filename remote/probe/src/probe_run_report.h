// Everything one run produced, as rank 0 sees it, and its two renderings: the
// moe-probe/2 JSON document (docs/probe-json.md) and the alltoall_perf-like table.
#pragma once

#include "benchmark_harness.h"
#include "probe_options.h"
#include "rank_facts.h"

#include <ostream>
#include <string>
#include <vector>

namespace moeprobe {

struct ProbeRunReport {
    ProbeOptions options;
    std::string pattern_spec;
    std::string backend;
    std::string schedule;         // "mesh" or "pairwise", as run
    int logical_world = 1;        // ranks of the all-to-all (processes x -g)
    EpLayout layout;              // the EP groups measured (one, the world, without --ep-size)
    std::vector<RankFacts> ranks; // per process, index = process rank
    std::string started_at_utc;   // ISO 8601
    double duration_s = 0;
    std::vector<SizeResult> results;
};

std::string probe_report_json(const ProbeRunReport& report);

// The header (options, ranks), then one line per size as it completes, then the footer.
void print_table_header(std::ostream& out, const ProbeRunReport& report);
void print_table_row(std::ostream& out, const SizeResult& result);
// With EP groups (layout not whole-world): one line per group after the size's line.
void print_table_row(std::ostream& out, const SizeResult& result, const EpLayout* layout);
void print_table_footer(std::ostream& out, const ProbeRunReport& report);

std::string utc_timestamp_now();

} // namespace moeprobe
