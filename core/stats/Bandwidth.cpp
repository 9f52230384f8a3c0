#include "stats/Bandwidth.h"

#include <limits>

namespace moewb::stats {

double algorithmBandwidth(double bytesPerRank, double timeUs) {
    if (!(timeUs > 0.0))
        return std::numeric_limits<double>::quiet_NaN();
    return bytesPerRank / (timeUs * 1e-6);
}

double effectiveBandwidthUniform(double bytesPerRank, int world, double timeUs) {
    if (world < 1)
        return std::numeric_limits<double>::quiet_NaN();
    return algorithmBandwidth(bytesPerRank * double(world - 1) / double(world), timeUs);
}

} // namespace moewb::stats
