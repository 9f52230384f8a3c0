#include "probe_options.h"

#include "probe_errors.h"
#include "probe_version.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace moeprobe {
namespace {

long long parse_integer(const std::string& flag, const std::string& text, long long lo, long long hi) {
    if (text.empty())
        throw UsageError(flag + " needs a number");
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || *end != '\0')
        throw UsageError(flag + ": '" + text + "' is not an integer");
    if (v < lo || v > hi)
        throw UsageError(flag + ": " + text + " is out of range [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
    return v;
}

double parse_positive_double(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (errno != 0 || end == text.c_str() || *end != '\0' || !std::isfinite(v) || v <= 0)
        throw UsageError(flag + ": '" + text + "' is not a positive number");
    return v;
}

const char* env_value(const char* name) {
    const char* v = std::getenv(name);
    return (v && *v) ? v : nullptr;
}

// Rank and world from the first launcher whose variables are all present.
void apply_launcher_environment(ProbeOptions& o) {
    struct Source {
        const char* name;
        const char* rank;
        const char* size;
        const char* local;
    };
    static const Source sources[] = {
        {"mpirun (Open MPI)", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
        {"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
        {"pmi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    };
    for (const Source& s : sources) {
        const char* r = env_value(s.rank);
        const char* n = env_value(s.size);
        if (!r || !n)
            continue;
        if (o.rank < 0)
            o.rank = static_cast<int>(parse_integer(s.rank, r, 0, 1 << 24));
        if (o.world < 0)
            o.world = static_cast<int>(parse_integer(s.size, n, 1, 1 << 24));
        if (const char* l = env_value(s.local))
            o.launcher_local_rank = static_cast<int>(parse_integer(s.local, l, 0, 1 << 24));
        o.launcher = s.name;
        return;
    }
}

} // namespace

std::uint64_t parse_byte_size(const std::string& text) {
    if (text.empty())
        throw UsageError("empty size");
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
        ++digits;
    if (digits == 0)
        throw UsageError("size '" + text + "' does not start with a number");
    const std::string suffix = text.substr(digits);
    unsigned shift = 0;
    if (suffix.empty() || suffix == "B" || suffix == "b")
        shift = 0;
    else if (suffix == "K" || suffix == "k" || suffix == "KiB" || suffix == "KB")
        shift = 10;
    else if (suffix == "M" || suffix == "m" || suffix == "MiB" || suffix == "MB")
        shift = 20;
    else if (suffix == "G" || suffix == "g" || suffix == "GiB" || suffix == "GB")
        shift = 30;
    else
        throw UsageError("size '" + text + "' has an unknown suffix (use K, M or G)");
    errno = 0;
    const unsigned long long base = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
    if (errno != 0 || base > (std::numeric_limits<std::uint64_t>::max() >> shift))
        throw UsageError("size '" + text + "' is too large");
    return static_cast<std::uint64_t>(base) << shift;
}

std::vector<std::uint64_t> sweep_sizes(const ProbeOptions& o) {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t s = o.min_bytes; s <= o.max_bytes;) {
        sizes.push_back(s);
        const std::uint64_t next = o.step_bytes > 0 ? s + o.step_bytes : s * o.step_factor;
        if (next <= s) // a zero start with a factor, or overflow
            break;
        s = next;
    }
    return sizes;
}

std::string probe_usage_text() {
    return "usage: moe-probe [options]\n"
           "  Sweep (sizes are bytes each rank sends; K/M/G suffixes):\n"
           "    -b SIZE            smallest size (default 32M)\n"
           "    -e SIZE            largest size (default 32M)\n"
           "    -f FACTOR          multiply the size by FACTOR each step (default 2)\n"
           "    -i BYTES           add BYTES each step instead of multiplying\n"
           "    -w N               warm-up iterations per size, never timed (default 5)\n"
           "    -n N               timed iterations per repeat (default 20)\n"
           "    -R N               repeats per size (default 1)\n"
           "    -c 0|1             validate received data after timing (default 0)\n"
           "    -J FILE            write the moe-probe/2 JSON report to FILE\n"
           "  Backend and traffic:\n"
           "    --backend tcp|nccl (default tcp)\n"
           "    --pattern uniform|hot:K:F|zipf:S|matrix:FILE (default uniform)\n"
           "    --schedule mesh|pairwise  tcp: every pair in flight at once (mesh, default), or\n"
           "                       n-1 steps, each sending to rank+k while receiving from rank-k\n"
           "  Expert-parallel groups (Megatron-Core's expert rank layout; all groups run at once):\n"
           "    --ep-size N        ranks per EP group; N must divide world/(T*P) (default 0: one\n"
           "                       all-to-all over the whole world)\n"
           "    --tp T             expert tensor-parallel size of the layout (default 1)\n"
           "    --pp P             pipeline-parallel size of the layout (default 1)\n"
           "    --ep-order ORDER   rank order, first name fastest (default tp-cp-ep-dp-pp)\n"
           "    -g N               GPUs driven by this process (nccl; default 1)\n"
           "    --device N         first local GPU of this process (nccl)\n"
           "    --nccl-lib PATH    libnccl.so.2 to load (file or directory)\n"
           "    --python-env DIR   Python environment whose nvidia/nccl/lib to use\n"
           "  Ranks (from OMPI_COMM_WORLD_*, SLURM_*, PMI_* when not given):\n"
           "    --rank R --world N --rendezvous HOST:PORT\n"
           "    --listen ADDR[:PORT]  this rank's address for the mesh\n"
           "    --timeout SEC      longest silence tolerated from a peer, and the deadline of\n"
           "                       the whole rendezvous (default 60)\n"
           "    More than one rank: every rank needs the run's secret in MOEWB_PROBE_SECRET\n"
           "    (the same value, at least 32 hex digits; environment only, never an argument)\n"
           "  Other:\n"
           "    --inventory        print this node's facts as JSON and exit\n"
           "    --version, -h/--help\n"
           "Exit codes: 0 success, 2 usage error, 3 runtime failure (peer missing, timeout, NCCL).\n";
}

ProbeOptions parse_probe_options(int argc, const char* const* argv) {
    ProbeOptions o;
    bool rank_given = false;
    bool world_given = false;
    std::string ep_detail_flag; // --tp, --pp or --ep-order, which need --ep-size
    for (int i = 1; i < argc; ++i) {
        std::string flag = argv[i];
        std::string value;
        bool inline_value = false;
        if (flag.rfind("--", 0) == 0) {
            const auto eq = flag.find('=');
            if (eq != std::string::npos) {
                value = flag.substr(eq + 1);
                flag = flag.substr(0, eq);
                inline_value = true;
            }
        }
        auto next = [&]() -> std::string {
            if (inline_value)
                return value;
            if (i + 1 >= argc)
                throw UsageError(flag + " needs a value");
            return argv[++i];
        };
        if (flag == "-h" || flag == "--help") {
            o.show_help = true;
        } else if (flag == "--version") {
            o.show_version = true;
        } else if (flag == "-b" || flag == "--minbytes") {
            o.min_bytes = parse_byte_size(next());
            o.min_bytes_given = true;
        } else if (flag == "-e" || flag == "--maxbytes") {
            o.max_bytes = parse_byte_size(next());
            o.max_bytes_given = true;
        } else if (flag == "-f" || flag == "--stepfactor") {
            o.step_factor = static_cast<std::uint64_t>(parse_integer(flag, next(), 2, 1 << 20));
        } else if (flag == "-i" || flag == "--stepbytes") {
            o.step_bytes = parse_byte_size(next());
        } else if (flag == "-n" || flag == "--iters") {
            o.iterations = static_cast<int>(parse_integer(flag, next(), 1, 1 << 24));
        } else if (flag == "-w" || flag == "--warmup_iters") {
            o.warmup_iterations = static_cast<int>(parse_integer(flag, next(), 0, 1 << 24));
        } else if (flag == "-R" || flag == "--repeats") {
            o.repeats = static_cast<int>(parse_integer(flag, next(), 1, 1 << 16));
        } else if (flag == "-c" || flag == "--check") {
            o.check = static_cast<int>(parse_integer(flag, next(), 0, 1));
        } else if (flag == "-J" || flag == "--output_file") {
            o.json_path = next();
            if (o.json_path.empty())
                throw UsageError(flag + " needs a file name");
        } else if (flag == "-g" || flag == "--ngpus") {
            o.gpus_per_process = static_cast<int>(parse_integer(flag, next(), 1, 64));
        } else if (flag == "--device") {
            o.first_device = static_cast<int>(parse_integer(flag, next(), 0, 1024));
        } else if (flag == "--backend") {
            o.backend = next();
            if (o.backend != "tcp" && o.backend != "nccl")
                throw UsageError("--backend must be tcp or nccl, not '" + o.backend + "'");
        } else if (flag == "--pattern") {
            o.pattern = next();
        } else if (flag == "--schedule") {
            o.schedule = next();
            if (o.schedule != "mesh" && o.schedule != "pairwise")
                throw UsageError("--schedule must be mesh or pairwise, not '" + o.schedule + "'");
        } else if (flag == "--ep-size") {
            o.ep_size = static_cast<int>(parse_integer(flag, next(), 0, 1 << 24));
        } else if (flag == "--tp") {
            o.ep_tp = static_cast<int>(parse_integer(flag, next(), 1, 1 << 24));
            ep_detail_flag = flag;
        } else if (flag == "--pp") {
            o.ep_pp = static_cast<int>(parse_integer(flag, next(), 1, 1 << 24));
            ep_detail_flag = flag;
        } else if (flag == "--ep-order") {
            o.ep_order = next();
            if (const std::string problem = ep_order_problem(o.ep_order); !problem.empty())
                throw UsageError("--ep-order " + problem);
            ep_detail_flag = flag;
        } else if (flag == "--rank") {
            o.rank = static_cast<int>(parse_integer(flag, next(), 0, 1 << 24));
            rank_given = true;
        } else if (flag == "--world") {
            o.world = static_cast<int>(parse_integer(flag, next(), 1, 1 << 24));
            world_given = true;
        } else if (flag == "--rendezvous") {
            o.rendezvous = next();
        } else if (flag == "--listen") {
            o.listen = next();
        } else if (flag == "--timeout") {
            o.timeout_s = parse_positive_double(flag, next());
        } else if (flag == "--inventory") {
            o.inventory = true;
        } else if (flag == "--nccl-lib") {
            o.nccl_lib = next();
        } else if (flag == "--python-env") {
            o.python_env = next();
        } else {
            throw UsageError("unknown option '" + flag + "'");
        }
    }
    if (o.show_help || o.show_version || o.inventory)
        return o;

    if (rank_given != world_given)
        throw UsageError("--rank and --world go together");
    if (!rank_given)
        apply_launcher_environment(o);
    if (o.rank < 0 && o.world < 0) {
        o.rank = 0;
        o.world = 1;
        o.launcher = "single";
    }
    if (o.rank >= o.world)
        throw UsageError("--rank " + std::to_string(o.rank) + " is not below --world " +
                         std::to_string(o.world));
    if (o.world > 1 && o.rendezvous.empty())
        throw UsageError("--rendezvous HOST:PORT is required when the world has more than one rank");
    if (o.min_bytes > o.max_bytes)
        throw UsageError("-b is larger than -e");
    if (o.pattern.rfind("matrix:", 0) != 0 && o.min_bytes == 0 && o.step_bytes == 0 && o.max_bytes > 0)
        throw UsageError("-b 0 with a step factor never grows; give -i or a non-zero -b");
    if (o.backend == "tcp" && o.gpus_per_process != 1)
        throw UsageError("-g applies to the nccl backend only");
    if (o.backend != "tcp" && o.schedule != "mesh")
        throw UsageError("--schedule " + o.schedule +
                         " applies to the tcp backend only (NCCL schedules its own all-to-all)");
    if (!ep_detail_flag.empty() && o.ep_size == 0)
        throw UsageError(ep_detail_flag + " describes the EP layout and needs --ep-size N (N >= 1)");
    const int logical_world = o.world * o.gpus_per_process;
    o.layout = o.ep_size == 0 ? whole_world_ep_layout(logical_world)
                              : make_ep_layout(logical_world, o.ep_size, o.ep_tp, o.ep_pp, o.ep_order);
    return o;
}

} // namespace moeprobe
