#pragma once
// The one error type of remote/: what went wrong, on which node, in words that name
// the node. Never carries a secret (no passphrase, no key material).
#include <QString>

namespace moewb::remote {

struct RemoteError {
    enum class Kind {
        InvalidArgument,   // bad address, bad path, session used on the wrong thread
        Unreachable,       // connection refused, no route, name not resolved
        TimedOut,          // connect or command ran past its timeout
        HostKeyUnknown,    // not in known_hosts and not accepted
        HostKeyChanged,    // known_hosts holds another key (or a key of another type)
        AuthRefused,       // no offered credential was accepted
        Protocol,          // channel / SFTP / libssh error
        Cancelled,         // cancelled by the caller
        Verification,      // an uploaded file does not match its checksum
    };
    Kind kind = Kind::Protocol;
    QString node;     // NodeAddress::display()
    QString message;  // full sentence; always names the node
};

} // namespace moewb::remote
