// Failure kinds of moe-probe and the exit codes they map to.
#pragma once

#include <stdexcept>
#include <string>

namespace moeprobe {

enum ExitCode : int { kExitOk = 0, kExitUsage = 2, kExitRuntime = 3 };

// A bad command line or pattern specification: usage message, exit 2.
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const std::string& what) : std::runtime_error(what) {}
};

// A failure while running (I/O, library, NCCL, CUDA): exit 3.
class RuntimeFailure : public std::runtime_error {
public:
    explicit RuntimeFailure(const std::string& what) : std::runtime_error(what) {}
};

// A peer rank died, closed its connection or stayed silent past --timeout: exit 3.
// missing_rank is -1 when the rank cannot be told.
class PeerFailure : public RuntimeFailure {
public:
    PeerFailure(int missing_rank, const std::string& what)
        : RuntimeFailure(what), missing_rank_(missing_rank) {}
    int missing_rank() const { return missing_rank_; }

private:
    int missing_rank_;
};

// Another rank's notice that the run is over (it names the missing rank when known).
class AbortNotice : public PeerFailure {
public:
    using PeerFailure::PeerFailure;
};

} // namespace moeprobe
