// What each rank tells rank 0 at the rendezvous: where it listens and what it runs on.
#pragma once

#include <string>
#include <vector>

namespace moeprobe {

struct RankFacts {
    int rank = 0;
    int world = 1;
    int gpus_per_process = 1;
    long pid = 0;
    std::string hostname;
    std::string listen; // HOST:PORT of this rank's mesh listener ("" for nccl)
    std::string backend;
    std::string pattern;
    std::string schedule; // "mesh" or "pairwise"
    std::string ep_layout; // EpLayout::signature(): every rank must run the same groups
    std::string probe_version;
    std::vector<std::string> gpu_models; // the GPUs this process drives
    std::vector<int> gpu_devices;
    std::string gpu_driver_version; // e.g. "570.86.15" when known, else ""
    int cuda_driver_version = 0;    // cuDriverGetVersion, e.g. 12080; 0 unknown
    int nccl_version_code = 0;      // ncclGetVersion, e.g. 22809; 0 unknown
    std::string nccl_path;
    std::string nccl_alltoall; // "ncclAlltoAll" or "grouped ncclSend/ncclRecv"
    std::string nccl_communicators; // "world", "ncclCommSplit" or "ncclCommInitRank per group"
    int local_rank = 0;        // index among the processes on the same host
};

std::string serialize_rank_facts(const RankFacts& f);
RankFacts deserialize_rank_facts(const std::string& text); // throws RuntimeFailure

std::string serialize_rank_table(const std::vector<RankFacts>& table);
std::vector<RankFacts> deserialize_rank_table(const std::string& text);

// A peer's facts are its own words: every text field is made printable (control
// characters and terminal escapes shown as \xNN, printable_peer_text) and capped, and at
// most kMaxPeerGpus GPU models are kept, before anything prints or compares them.
constexpr std::size_t kMaxPeerGpus = 64;
void make_peer_facts_printable(RankFacts& f);
// Empty when the peer's mesh address (listen) is empty or HOST:PORT; else what is wrong
// with it (on facts already made printable) ("sent an unusable mesh address '…': …"), for an error that names the peer.
std::string unusable_listen_address(const RankFacts& f);

// Index of each rank among the ranks sharing its hostname, in rank order.
void assign_local_ranks(std::vector<RankFacts>& table);

} // namespace moeprobe
