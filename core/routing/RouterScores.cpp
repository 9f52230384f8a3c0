#include "routing/RouterScores.h"

#include <algorithm>
#include <cmath>

namespace moewb::routing {

QString ScoreSpec::text() const {
    switch (mode) {
    case ScoreMode::Uniform:
        return QStringLiteral("uniform");
    case ScoreMode::Preferential:
        return QStringLiteral("preferential");
    case ScoreMode::Zipf:
        return QStringLiteral("zipf:") + QString::number(zipfExponent);
    }
    return {};
}

std::optional<ScoreSpec> parseScoreSpec(const QString& text) {
    if (text == QLatin1String("uniform"))
        return ScoreSpec{ScoreMode::Uniform, 1.0};
    if (text == QLatin1String("preferential"))
        return ScoreSpec{ScoreMode::Preferential, 1.0};
    if (text.startsWith(QLatin1String("zipf:"))) {
        bool ok = false;
        const double s = text.mid(5).toDouble(&ok);
        if (ok && std::isfinite(s) && s > 0.0)
            return ScoreSpec{ScoreMode::Zipf, s};
    }
    return std::nullopt;
}

namespace {
std::uint64_t splitMix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}
} // namespace

SplitMixRandom::SplitMixRandom(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& s : m_s)
        s = splitMix(x);
}

std::uint64_t SplitMixRandom::next() {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

double SplitMixRandom::uniform() {
    return double(next() >> 11) * (1.0 / 9007199254740992.0);
}

int SplitMixRandom::below(int n) {
    return int((next() >> 32) * std::uint64_t(n) >> 32);
}

std::vector<float> generateScores(std::int64_t tokens, int experts, const ScoreSpec& spec, std::uint64_t seed) {
    std::vector<float> scores(std::size_t(tokens) * std::size_t(experts));
    SplitMixRandom rng(seed);
    for (float& s : scores)
        s = float(rng.uniform());
    if (spec.mode == ScoreMode::Uniform || experts < 2)
        return scores;

    // Cumulative Zipf weights for drawing the preferred experts.
    std::vector<double> cumulative(static_cast<std::size_t>(experts));
    double sum = 0.0;
    for (int e = 0; e < experts; ++e) {
        sum += spec.mode == ScoreMode::Zipf ? std::pow(double(e + 1), -spec.zipfExponent) : 1.0;
        cumulative[std::size_t(e)] = sum;
    }
    auto draw = [&]() {
        if (spec.mode == ScoreMode::Preferential)
            return rng.below(experts);
        const double u = rng.uniform() * sum;
        const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
        return std::min(int(it - cumulative.begin()), experts - 1);
    };
    for (std::int64_t t = 0; t < tokens; ++t) {
        const int a = draw();
        int b = draw();
        // A steep Zipf makes a second distinct expert rare: stop redrawing after a while.
        for (int tries = 0; b == a && tries < 64; ++tries)
            b = draw();
        if (b == a)
            b = (a + 1) % experts;
        float* row = scores.data() + std::size_t(t) * std::size_t(experts);
        row[a] += kPreferenceBoost;
        row[b] += kPreferenceBoost;
    }
    return scores;
}

} // namespace moewb::routing
