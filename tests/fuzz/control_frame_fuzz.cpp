// libFuzzer target for the probe's control plane (tests/fuzz/run-fuzzers.sh): the bytes
// a stranger or a broken peer can put on a rendezvous or mesh connection. The first
// input byte picks how the stream is cut into reads (1..64 bytes); the rest goes through
// ControlFrameParser, each complete frame through the decoder of its type, and the
// input's head through the handshake hello parser. Besides memory errors, it stops on a
// broken promise: a read past what the parser asked for, no progress, a payload over
// the cap, printable text that is not, a hello that does not encode back to its bytes.
#include "control_message.h"
#include "peer_auth.h"
#include "rank_facts.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace moeprobe;

namespace {
constexpr std::uint64_t kCap = 1u << 16;

void checkPrintable(const std::string& s) {
    for (char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::size_t chunk = (data[0] % 64) + 1;
    const char* p = reinterpret_cast<const char*>(data + 1);
    std::size_t left = size - 1;
    ControlFrameParser parser(kCap);
    while (left > 0) {
        const std::size_t offer = std::min({parser.wanted(), chunk, left});
        if (offer == 0)
            std::abort(); // the parser must always want something
        std::size_t used = 0;
        const auto status = parser.feed(p, offer, used);
        if (used > offer)
            std::abort();
        p += used;
        left -= used;
        if (status == ControlFrameParser::Status::Malformed) {
            if (parser.error().empty())
                std::abort();
            break;
        }
        if (status == ControlFrameParser::Status::NeedMore && used == 0)
            std::abort();
        if (status != ControlFrameParser::Status::Complete)
            continue;
        const ControlType type = parser.type();
        const std::string payload = parser.take_payload();
        if (payload.size() > kCap)
            std::abort();
        try {
            switch (type) {
            case ControlType::Abort: {
                const auto [rank, text] = decode_abort_payload(payload);
                if (rank < -1)
                    std::abort();
                checkPrintable(text);
                break;
            }
            case ControlType::Hello:
            case ControlType::Data:
                (void)deserialize_rank_facts(payload);
                break;
            case ControlType::Table: {
                const auto sep = payload.find('\x1d');
                (void)deserialize_rank_table(payload.substr(0, sep));
                break;
            }
            case ControlType::Release:
                break;
            }
        } catch (const std::exception&) {
            // A refusal is the expected answer to most inputs.
        }
    }
    checkPrintable(printable_peer_text(std::string(reinterpret_cast<const char*>(data), size), 300));
    if (size >= kAuthHelloBytes) {
        AuthHello hello;
        if (parse_auth_hello(data, kAuthHelloBytes, hello) &&
            encode_auth_hello(hello) != std::string(reinterpret_cast<const char*>(data), kAuthHelloBytes))
            std::abort();
    }
    return 0;
}
