#pragma once
// Router scores for the routing lab: a row-major T×E float32 matrix (token t, expert e
// at t·E + e), generated deterministically from a seed. docs/routing.md defines the modes.
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace moewb::routing {

enum class ScoreMode {
    Uniform,      // every score U(0,1): no expert is preferred
    Preferential, // U(0,1), plus 3 on two distinct experts drawn uniformly per token (seed 001)
    Zipf          // U(0,1), plus 3 on two distinct experts drawn with P(e) ∝ (e+1)^−S
};

struct ScoreSpec {
    ScoreMode mode = ScoreMode::Uniform;
    double zipfExponent = 1.0; // S, Zipf only
    QString text() const;      // "uniform", "preferential", "zipf:1.2"
};

// "uniform", "preferential", "zipf:S" (S > 0); std::nullopt otherwise.
std::optional<ScoreSpec> parseScoreSpec(const QString& text);

// A small, fast generator with a fixed algorithm (splitmix64 seeding xoshiro256**), so that
// the same seed gives the same scores on every platform and standard library.
class SplitMixRandom {
public:
    explicit SplitMixRandom(std::uint64_t seed);
    std::uint64_t next();
    double uniform();         // [0, 1)
    int below(int n);         // [0, n)

private:
    std::uint64_t m_s[4];
};

// Additive preference given to the preferred experts (seed 001: "+3").
inline constexpr float kPreferenceBoost = 3.0f;

std::vector<float> generateScores(std::int64_t tokens, int experts, const ScoreSpec& spec, std::uint64_t seed);

} // namespace moewb::routing
