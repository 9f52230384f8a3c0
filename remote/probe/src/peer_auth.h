// Who may join a run: every rank holds the run's secret (MOEWB_PROBE_SECRET, handed out
// by the launcher out of band, never on the command line), and every rendezvous and
// mesh connection starts with a mutual challenge-response before anything else:
//
//   connector -> acceptor  hello: "MPRBAUTH", channel (1 byte), rank (int32), nonce C (16)
//   acceptor  -> connector nonce S (16)
//   connector -> acceptor  HMAC-SHA256(secret, "moe-probe connector" | channel | rank | C | S)
//   acceptor  -> connector HMAC-SHA256(secret, "moe-probe acceptor"  | channel | rank | C | S)
//
// The acceptor sends nothing but its nonce before the connector has proved itself; a
// connection that fails, stalls past the handshake deadline or comes while too many are
// pending is closed without another byte. The rank claimed in the hello is covered by
// the proof. See docs/probe.md (threat model).
#pragma once

#include "socket_io.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>

namespace moeprobe {

constexpr const char* kSecretVariable = "MOEWB_PROBE_SECRET";
constexpr std::size_t kSecretMinHexDigits = 32; // 128 bits

// The run's secret from MOEWB_PROBE_SECRET, removed from the environment once read.
// Throws UsageError when required and absent, or when it is not at least 32 hex digits.
// Returns "" when not required and absent.
std::string take_run_secret(bool required);

// How long one connection may take to prove itself: short, so that a silent stranger
// holds a slot only briefly; never past the run's own timeout.
inline double handshake_seconds(double timeout_s) {
    return timeout_s < 5.0 ? timeout_s : 5.0;
}

enum class AuthChannel : std::uint8_t { Rendezvous = 1, Mesh = 2 };

constexpr std::size_t kAuthNonceBytes = 16;
constexpr std::size_t kAuthHelloBytes = 8 + 1 + 4 + kAuthNonceBytes;
constexpr std::size_t kAuthProofBytes = 32;

struct AuthHello {
    AuthChannel channel = AuthChannel::Rendezvous;
    std::int32_t rank = -1;
    std::array<std::uint8_t, kAuthNonceBytes> nonce{};
};
// Parses a hello of exactly kAuthHelloBytes; false when it is not one.
bool parse_auth_hello(const std::uint8_t* bytes, std::size_t size, AuthHello& out);
std::string encode_auth_hello(const AuthHello& hello);
// The proofs of each side (different labels: one side's proof is no use as the other's).
std::array<std::uint8_t, kAuthProofBytes> auth_proof(const std::string& secret, bool acceptor, const AuthHello& hello,
                                                     const std::array<std::uint8_t, kAuthNonceBytes>& acceptor_nonce);
std::array<std::uint8_t, kAuthNonceBytes> random_nonce();

// The connector's side, on a connected socket, within deadline. Throws AuthRefused when
// the acceptor closed the connection (it did not take our proof: another secret, or it
// dropped us), PeerFailure naming peer_rank when the acceptor's proof is wrong or the
// deadline passes.
class AuthRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
void authenticate_to_acceptor(int fd, const std::string& secret, AuthChannel channel, int my_rank,
                              const Deadline& deadline, int peer_rank, const std::string& what);

// The acceptor's side: accepts connections on a listening socket and runs their
// handshakes side by side in one poll() loop, each within handshake_s, holding at most
// max_pending unproven connections (the oldest is dropped for a new one).
class AuthenticatingListener {
public:
    AuthenticatingListener(int listen_fd, std::string secret, AuthChannel channel, double handshake_s,
                           std::size_t max_pending = 64);
    ~AuthenticatingListener();
    AuthenticatingListener(const AuthenticatingListener&) = delete;
    AuthenticatingListener& operator=(const AuthenticatingListener&) = delete;

    struct Peer {
        UniqueFd fd;
        int rank = -1; // as claimed in the (proven) hello
    };
    // The next connection that proved itself, or an invalid fd once deadline passes.
    Peer next(const Deadline& deadline);
    // Connections closed unproven so far (failed proof, silence, over the cap, garbage).
    std::size_t dropped() const { return dropped_; }

private:
    struct Pending;
    void accept_all();
    void drop(std::size_t index);
    // Reads what the connection offers; returns true when it proved itself (then fills peer).
    bool advance(Pending& p, Peer& peer);

    int listen_fd_;
    std::string secret_;
    AuthChannel channel_;
    double handshake_s_;
    std::size_t max_pending_;
    std::deque<Pending> pending_;
    std::size_t dropped_ = 0;
};

} // namespace moeprobe
