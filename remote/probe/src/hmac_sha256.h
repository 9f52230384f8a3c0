// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), self-contained: the probe runs on
// nodes where no crypto library can be assumed. Used only to authenticate the ranks of
// one run to each other (peer_auth.h); tested against FIPS 180-2 and RFC 4231 vectors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace moeprobe {

using Digest256 = std::array<std::uint8_t, 32>;

class Sha256 {
public:
    Sha256();
    void update(const void* data, std::size_t size);
    void update(const std::string& s) { update(s.data(), s.size()); }
    Digest256 finish();

private:
    void block(const std::uint8_t* p);
    std::uint32_t h_[8];
    std::uint8_t buffer_[64];
    std::size_t buffered_ = 0;
    std::uint64_t total_bytes_ = 0;
};

Digest256 sha256(const std::string& data);
Digest256 hmac_sha256(const std::string& key, const std::string& message);

// Compares without an early exit, so the time taken does not tell how many bytes matched.
bool constant_time_equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t size);

std::string to_hex(const std::uint8_t* data, std::size_t size);

} // namespace moeprobe
