#include "FanoutTimeouts.h"

#include <limits>

namespace moewb::remote {

namespace {

int clampMs(qint64 ms) {
    return static_cast<int>(qBound(qint64(1), ms, qint64(std::numeric_limits<int>::max())));
}

// ms to move `bytes` at the floor rate, rounded up; saturates instead of overflowing.
qint64 msAtFloor(qint64 bytes) {
    if (bytes <= 0)
        return 0;
    const qint64 seconds = bytes / FanoutTimeouts::kFloorBytesPerS;
    const qint64 rest = bytes % FanoutTimeouts::kFloorBytesPerS;
    if (seconds > std::numeric_limits<qint64>::max() / 2000)
        return std::numeric_limits<int>::max();
    return seconds * 1000 + (rest * 1000 + FanoutTimeouts::kFloorBytesPerS - 1) / FanoutTimeouts::kFloorBytesPerS;
}

} // namespace

FanoutTimeouts FanoutTimeouts::scaled(int baseConnectMs, int baseHelperMs, int nodes) {
    FanoutTimeouts t;
    t.nodes = qMax(1, nodes);
    const qint64 more = t.nodes - 1;
    t.connectMs = clampMs(qint64(qMax(1, baseConnectMs)) + more * kConnectPerNodeMs);
    t.helperMs = clampMs(qint64(qMax(1, baseHelperMs)) + more * kHelperPerNodeMs);
    return t;
}

int FanoutTimeouts::uploadMs(qint64 bytes) const {
    const qint64 all = bytes > std::numeric_limits<qint64>::max() / qMax(1, nodes) ? std::numeric_limits<qint64>::max()
                                                                                     : bytes * qMax(1, nodes);
    return clampMs(qint64(helperMs) + msAtFloor(all));
}

int FanoutTimeouts::collectMs(qint64 bytes) const { return clampMs(qint64(helperMs) + msAtFloor(bytes)); }

int FanoutTimeouts::probeRunMs(int ranks, const QList<quint64>& sizesPerRank, int warmup, int iterations, int repeats,
                               int probeTimeoutS) {
    const qint64 passes = qint64(qMax(0, warmup)) + qint64(qMax(1, repeats)) * qint64(qMax(1, iterations)) + 1;
    qint64 bytes = 0;
    for (quint64 s : sizesPerRank) {
        const qint64 size = s > quint64(std::numeric_limits<qint64>::max()) ? std::numeric_limits<qint64>::max() : qint64(s);
        if (size > (std::numeric_limits<qint64>::max() - bytes) / passes) {
            bytes = std::numeric_limits<qint64>::max();
            break;
        }
        bytes += size * passes;
    }
    const qint64 ms = qint64(qMax(0, probeTimeoutS)) * 1000 + kRunStartMs + qint64(qMax(1, ranks)) * kRunPerRankMs +
                      msAtFloor(bytes);
    return clampMs(ms);
}

qint64 FanoutTimeouts::reportBytes(int sizes, int iterations, int repeats, int groups) {
    const qint64 samples = qint64(qMax(1, sizes)) * qMax(1, repeats) * qMax(1, iterations) * (qint64(qMax(0, groups)) + 1);
    return (64 << 10) + samples * 32;
}

} // namespace moewb::remote
