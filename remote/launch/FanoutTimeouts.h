#pragma once
// The time bounds of one fan-out (a cluster check, a stage 1 sweep), scaled to what is
// asked instead of fixed. Every node is served by this one client at once: N SSH
// handshakes, N SFTP streams and N helper commands share its CPU and its link, so what
// the nodes do together grows with N; what moves bytes grows with the bytes; a probe
// run grows with its ranks, sizes, warm-up, iterations and repeats. The request's own
// values (connectTimeoutMs, helperTimeoutMs) are the bounds for one node; these add to
// them. Pure arithmetic, no I/O (tested by tests/unit/remote/test_fanout_timeouts).
#include <QList>
#include <QtGlobal>

namespace moewb::remote {

struct FanoutTimeouts {
    // One more SSH handshake (key exchange, host key check, authentication) on this
    // client's CPU, beyond the first.
    static constexpr qint64 kConnectPerNodeMs = 250;
    // One more helper command or SFTP step on this client at once, beyond the first.
    static constexpr qint64 kHelperPerNodeMs = 250;
    // The slowest link assumed: this client's uplink, shared by all nodes' uploads, and
    // each probe rank's own all-to-all rate (10 MB/s = 80 Mbit/s).
    static constexpr qint64 kFloorBytesPerS = 10'000'000;
    // A probe run: starting it on the nodes and the rendezvous, beyond the probe's own
    // --timeout (which must fire first, so that the probe names the rank that failed).
    static constexpr qint64 kRunStartMs = 10000;
    // ...and one more rank started over SSH and joined at the rendezvous.
    static constexpr qint64 kRunPerRankMs = 1000;

    int nodes = 1;       // the nodes reached at once (at least 1)
    int connectMs = 0;   // each SSH connection
    int helperMs = 0;    // each small command or SFTP step on a node (inventory, folders, secret, rm, scancel)

    // For `nodes` nodes, from the request's bounds for one node.
    static FanoutTimeouts scaled(int baseConnectMs, int baseHelperMs, int nodes);

    // Each node's upload of a file of `bytes` (all nodes at once): helperMs + the
    // nodes' bytes through the client's link at the floor rate.
    int uploadMs(qint64 bytes) const;
    // Reading a file of at most `bytes` back from one node (rank 0's report): helperMs +
    // its bytes at the floor rate.
    int collectMs(qint64 bytes) const;

    // One probe run of `ranks` ranks: the probe's --timeout (probeTimeoutS) +
    // kRunStartMs + kRunPerRankMs per rank + the bytes each rank sends (sizes summed,
    // times warm-up + repeats × iterations + 1) at the floor rate.
    static int probeRunMs(int ranks, const QList<quint64>& sizesPerRank, int warmup, int iterations, int repeats,
                          int probeTimeoutS);
    // Rank 0's report of such a run, at most: samples (sizes × repeats × iterations, for
    // the world and each of `groups` EP groups) at 32 bytes, + 64 KiB.
    static qint64 reportBytes(int sizes, int iterations, int repeats, int groups);
};

} // namespace moewb::remote
