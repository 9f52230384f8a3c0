// The moe-probe command line (nccl-tests style flags plus the probe's own) and the
// rank/world discovery from mpirun and Slurm environments.
#pragma once

#include "ep_layout.h"

#include <cstdint>
#include <string>
#include <vector>

namespace moeprobe {

struct ProbeOptions {
    std::string backend = "tcp";
    std::uint64_t min_bytes = 32ull << 20; // nccl-tests defaults: -b 32M -e 32M
    std::uint64_t max_bytes = 32ull << 20;
    bool min_bytes_given = false;
    bool max_bytes_given = false;
    std::uint64_t step_factor = 2;
    std::uint64_t step_bytes = 0; // -i: additive step; used when given (factor then ignored)
    int iterations = 20;
    int warmup_iterations = 5;
    int repeats = 1;
    int check = 0;
    std::string json_path;
    std::string pattern = "uniform";
    // tcp only: "mesh" (every pair in flight at once) or "pairwise" (n-1 steps; in step k
    // rank r sends to r+k and receives from r-k, and the step ends before the next starts).
    std::string schedule = "mesh";
    // Expert-parallel groups (--ep-size N, 0: one group over the whole world), laid out
    // as Megatron-Core's expert grid: --tp (expert tensor-parallel size), --pp, --ep-order.
    int ep_size = 0;
    int ep_tp = 1;
    int ep_pp = 1;
    std::string ep_order = "tp-cp-ep-dp-pp";
    EpLayout layout; // filled by parse_probe_options from the above and world x -g
    int rank = -1;
    int world = -1;
    std::string rendezvous; // HOST:PORT
    std::string listen;     // ADDR or ADDR:PORT
    double timeout_s = 60.0;
    // The run's secret (MOEWB_PROBE_SECRET, read by main, never from the command line):
    // every rendezvous and mesh connection proves it (peer_auth.h). Never printed.
    std::string secret;
    bool inventory = false;
    int gpus_per_process = 1; // -g
    int first_device = -1;    // --device; -1: local rank x gpus_per_process
    std::string nccl_lib;
    std::string python_env;
    std::string launcher = "command-line"; // where rank/world came from
    int launcher_local_rank = -1;
    bool show_help = false;
    bool show_version = false;
};

// Parses argv; throws UsageError on anything malformed. Reads the launcher environment
// (OMPI_COMM_WORLD_*, PMI_*, SLURM_*) when --rank/--world are absent.
ProbeOptions parse_probe_options(int argc, const char* const* argv);

// "64K", "1M", "2G", "123": bytes (binary multiples, as nccl-tests). Throws UsageError.
std::uint64_t parse_byte_size(const std::string& text);

// The message sizes of the sweep, nccl-tests' loop: factor or additive step.
std::vector<std::uint64_t> sweep_sizes(const ProbeOptions& options);

std::string probe_usage_text();

} // namespace moeprobe
