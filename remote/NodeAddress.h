#pragma once
// A node as the user names it: an ~/.ssh/config alias, or [user@]host[:port], with
// IPv6 literals in brackets ([user@][::1]:port). Parsing only; nothing is resolved.
#include "common/Expected.h"

#include <QString>

namespace moewb::remote {

struct NodeAddress {
    QString user;  // empty: from ~/.ssh/config or the local user
    QString host;  // alias, host name, IPv4 or IPv6 literal (without brackets)
    int port = 0;  // 0: from ~/.ssh/config or 22

    // "user@host:port", with brackets around IPv6 literals; the name used in messages.
    QString display() const;

    static Expected<NodeAddress, QString> parse(const QString& text);
};

} // namespace moewb::remote
