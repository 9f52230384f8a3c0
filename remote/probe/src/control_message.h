// The control plane's wire format, apart from the sockets: a frame is a 16-byte header
// (magic "MPRB" as a host-order uint32, type uint32, payload length uint64) and the
// payload. The parser takes bytes as they come and never reads past one frame, so
// every size it asks for is bounded; it is what tests/fuzz/control_frame_fuzz.cpp runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace moeprobe {

constexpr std::uint32_t kControlMagic = 0x4d505242; // "MPRB"

enum class ControlType : std::uint32_t { Hello = 1, Table = 2, Data = 3, Release = 4, Abort = 5 };

struct ControlHeader {
    std::uint32_t magic;
    std::uint32_t type;
    std::uint64_t length;
};
static_assert(sizeof(ControlHeader) == 16, "the control header is 16 bytes on the wire");

std::string encode_control_frame(ControlType type, const std::string& payload);

class ControlFrameParser {
public:
    enum class Status { NeedMore, Complete, Malformed };
    explicit ControlFrameParser(std::uint64_t max_payload) : max_payload_(max_payload) {}
    // Bytes the current frame still needs (read at most this many, so that nothing of the
    // next frame is taken).
    std::size_t wanted() const;
    // Takes up to size bytes (never more than wanted()); consumed says how many.
    Status feed(const char* data, std::size_t size, std::size_t& consumed);
    // After Complete: the frame; the parser is ready for the next one.
    ControlType type() const { return static_cast<ControlType>(header_.type); }
    std::string take_payload();
    // After Malformed: why, in words.
    const std::string& error() const { return error_; }

private:
    std::uint64_t max_payload_;
    char header_bytes_[sizeof(ControlHeader)] = {};
    std::size_t header_have_ = 0;
    ControlHeader header_{};
    std::string payload_;
    bool complete_ = false;
    std::string error_;
};

// Text that came from a peer, safe to print: bytes outside printable ASCII become \xNN
// (terminal escapes included), and at most max_bytes of it are kept.
std::string printable_peer_text(const std::string& text, std::size_t max_bytes = 1000);

// An abort notice's payload: the missing rank (int32, -1: unknown) and its words,
// already made printable. A payload too short for the rank gives -1 and no words.
std::pair<int, std::string> decode_abort_payload(const std::string& payload);
std::string encode_abort_payload(int missing_rank, const std::string& message);

} // namespace moeprobe
