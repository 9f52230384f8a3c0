#pragma once
// Which GPU kernels are communication, from their names: one table of name patterns,
// each with the library that launches such kernels (CommKernels.cpp cites the source
// file of each). What they are for (expert parallelism or not) is decided later, across
// ranks (StepAnatomy): an NCCL SendRecv kernel is the all-to-all only in an EP group.
#include "anatomy/digest/CommKind.h"

#include <optional>
#include <string_view>

namespace moewb::anatomy {

struct CommKernelPattern {
    std::string_view library; // "NCCL", "DeepEP", "HybridEP", "NCCL-EP"
    std::string_view pattern; // what the name holds (see CommKernelPattern::Match)
    enum class Match : std::uint8_t {
        Prefix,    // the name (after an optional "void ") starts with the pattern
        Namespace, // the qualified function name contains the pattern ("deep_ep::")
    } match = Match::Prefix;
    std::string_view source; // the file that defines or generates these kernels
};

// The table, in the order classifyKernel tries it.
const CommKernelPattern* commKernelPatterns(int& count);

// The kind of a communication kernel, or nothing for a compute (or memcpy) kernel.
// `collectiveName` is c10d's "Collective name" where the trace gives it (on the
// kernel's own args or on its record_param_comms CPU op); all_to_all* / alltoall*
// there make an NcclAllToAll whatever the kernel's name (all_to_all_single runs on
// SendRecv kernels).
std::optional<CommKind> classifyKernel(std::string_view name, std::string_view collectiveName = {});

// Memcpy / memset GPU activity: Kineto's "gpu_memcpy" / "gpu_memset" categories, or a
// name Kineto gives them ("Memcpy HtoD (Pageable -> Device)", "Memset (Device)").
bool isMemcpyOrMemset(std::string_view category, std::string_view name);

// The size in bytes of a c10d dtype name ("Float" 4, "BFloat16" 2, "Float8_e4m3fn" 1,
// ...), 0 when unknown.
int dtypeBytes(std::string_view dtype);

} // namespace moewb::anatomy
