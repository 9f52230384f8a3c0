#include "rank_facts.h"

#include "control_message.h"
#include "probe_errors.h"
#include "socket_io.h"

#include <map>
#include <sstream>

namespace moeprobe {
namespace {

// Values never contain newlines or '|' (hostnames, paths, model names); they are replaced.
std::string clean(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '|')
            c = ' ';
    return s;
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? "|" : "") + clean(v[i]);
    return out;
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    if (s.empty())
        return out;
    std::size_t start = 0;
    while (true) {
        const auto bar = s.find('|', start);
        out.push_back(s.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
        if (bar == std::string::npos)
            break;
        start = bar + 1;
    }
    return out;
}

long to_long(const std::string& s) {
    try {
        return std::stol(s);
    } catch (...) {
        throw RuntimeFailure("malformed rendezvous message (number '" + printable_peer_text(s, 64) + "')");
    }
}

} // namespace

std::string serialize_rank_facts(const RankFacts& f) {
    std::string devices;
    for (std::size_t i = 0; i < f.gpu_devices.size(); ++i)
        devices += (i ? "|" : "") + std::to_string(f.gpu_devices[i]);
    std::ostringstream s;
    s << "rank=" << f.rank << '\n'
      << "world=" << f.world << '\n'
      << "gpus_per_process=" << f.gpus_per_process << '\n'
      << "pid=" << f.pid << '\n'
      << "hostname=" << clean(f.hostname) << '\n'
      << "listen=" << clean(f.listen) << '\n'
      << "backend=" << clean(f.backend) << '\n'
      << "pattern=" << clean(f.pattern) << '\n'
      << "schedule=" << clean(f.schedule) << '\n'
      << "ep_layout=" << clean(f.ep_layout) << '\n'
      << "probe_version=" << clean(f.probe_version) << '\n'
      << "gpu_models=" << join(f.gpu_models) << '\n'
      << "gpu_devices=" << devices << '\n'
      << "gpu_driver_version=" << clean(f.gpu_driver_version) << '\n'
      << "cuda_driver_version=" << f.cuda_driver_version << '\n'
      << "nccl_version_code=" << f.nccl_version_code << '\n'
      << "nccl_path=" << clean(f.nccl_path) << '\n'
      << "nccl_alltoall=" << clean(f.nccl_alltoall) << '\n'
      << "nccl_communicators=" << clean(f.nccl_communicators) << '\n'
      << "local_rank=" << f.local_rank << '\n';
    return s.str();
}

RankFacts deserialize_rank_facts(const std::string& text) {
    std::map<std::string, std::string> kv;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (eq != std::string::npos)
            kv[line.substr(0, eq)] = line.substr(eq + 1);
    }
    if (!kv.count("rank") || !kv.count("world"))
        throw RuntimeFailure("malformed rendezvous message (no rank)");
    RankFacts f;
    f.rank = static_cast<int>(to_long(kv["rank"]));
    f.world = static_cast<int>(to_long(kv["world"]));
    f.gpus_per_process = static_cast<int>(to_long(kv["gpus_per_process"]));
    f.pid = to_long(kv["pid"]);
    f.hostname = kv["hostname"];
    f.listen = kv["listen"];
    f.backend = kv["backend"];
    f.pattern = kv["pattern"];
    f.schedule = kv["schedule"];
    f.ep_layout = kv["ep_layout"];
    f.probe_version = kv["probe_version"];
    f.gpu_models = split(kv["gpu_models"]);
    for (const std::string& d : split(kv["gpu_devices"]))
        f.gpu_devices.push_back(static_cast<int>(to_long(d)));
    f.gpu_driver_version = kv["gpu_driver_version"];
    f.cuda_driver_version = static_cast<int>(to_long(kv["cuda_driver_version"]));
    f.nccl_version_code = static_cast<int>(to_long(kv["nccl_version_code"]));
    f.nccl_path = kv["nccl_path"];
    f.nccl_alltoall = kv["nccl_alltoall"];
    f.nccl_communicators = kv["nccl_communicators"];
    f.local_rank = static_cast<int>(to_long(kv["local_rank"]));
    return f;
}

std::string serialize_rank_table(const std::vector<RankFacts>& table) {
    std::string out;
    for (const RankFacts& f : table)
        out += serialize_rank_facts(f) + "\x1e\n";
    return out;
}

std::vector<RankFacts> deserialize_rank_table(const std::string& text) {
    std::vector<RankFacts> table;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto sep = text.find('\x1e', start);
        if (sep == std::string::npos)
            break;
        table.push_back(deserialize_rank_facts(text.substr(start, sep - start)));
        start = sep + 2;
    }
    return table;
}

void assign_local_ranks(std::vector<RankFacts>& table) {
    std::map<std::string, int> seen;
    for (RankFacts& f : table)
        f.local_rank = seen[f.hostname]++;
}

void make_peer_facts_printable(RankFacts& f) {
    for (std::string* text : {&f.hostname, &f.listen, &f.backend, &f.pattern, &f.schedule, &f.probe_version,
                              &f.gpu_driver_version, &f.nccl_path, &f.nccl_alltoall, &f.nccl_communicators})
        *text = printable_peer_text(*text, 256);
    f.ep_layout = printable_peer_text(f.ep_layout, 1000);
    if (f.gpu_models.size() > kMaxPeerGpus)
        f.gpu_models.resize(kMaxPeerGpus);
    if (f.gpu_devices.size() > kMaxPeerGpus)
        f.gpu_devices.resize(kMaxPeerGpus);
    for (std::string& model : f.gpu_models)
        model = printable_peer_text(model, 256);
}

std::string unusable_listen_address(const RankFacts& f) {
    if (f.listen.empty())
        return {};
    try {
        (void)parse_host_port(f.listen, true);
        return {};
    } catch (const UsageError& e) {
        return "sent an unusable mesh address '" + f.listen + "': " + printable_peer_text(e.what(), 300);
    }
}

} // namespace moeprobe
