#include "traffic_pattern.h"

#include "probe_errors.h"
#include "probe_options.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <sstream>

namespace moeprobe {
namespace {

TrafficPlan plan_from_row_weights(int world, std::uint64_t bytes_per_rank,
                                  const std::vector<double>& weights) {
    const std::vector<std::uint64_t> row = split_by_weights(bytes_per_rank, weights);
    std::vector<std::uint64_t> bytes;
    bytes.reserve(static_cast<std::size_t>(world) * static_cast<std::size_t>(world));
    for (int s = 0; s < world; ++s)
        bytes.insert(bytes.end(), row.begin(), row.end());
    const bool uniform = std::all_of(row.begin(), row.end(), [&](std::uint64_t b) { return b == row[0]; });
    return TrafficPlan(world, std::move(bytes), uniform);
}

double parse_number(const std::string& what, const std::string& text) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || errno != 0 || *end != '\0' || !std::isfinite(v))
        throw UsageError(what + ": '" + text + "' is not a number");
    return v;
}

} // namespace

std::vector<std::uint64_t> split_by_weights(std::uint64_t total, const std::vector<double>& weights) {
    std::vector<std::uint64_t> parts(weights.size(), 0);
    const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
    if (weights.empty() || !(sum > 0))
        return parts;
    std::vector<std::pair<long double, std::size_t>> remainders;
    std::uint64_t assigned = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        const long double exact = static_cast<long double>(total) * weights[i] / sum;
        const long double whole = std::floor(exact);
        parts[i] = static_cast<std::uint64_t>(whole);
        assigned += parts[i];
        remainders.emplace_back(exact - whole, i);
    }
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; assigned < total && k < remainders.size(); ++k, ++assigned)
        ++parts[remainders[k].second];
    return parts;
}

TrafficPlan UniformPattern::plan(int world, std::uint64_t bytes_per_rank) const {
    const std::uint64_t per_peer = bytes_per_rank / static_cast<std::uint64_t>(world);
    return TrafficPlan(world, std::vector<std::uint64_t>(static_cast<std::size_t>(world) * world, per_peer),
                       true);
}

std::string HotDestinationsPattern::spec() const {
    std::ostringstream s;
    s << "hot:" << hot_count_ << ':' << factor_;
    return s.str();
}

TrafficPlan HotDestinationsPattern::plan(int world, std::uint64_t bytes_per_rank) const {
    std::vector<double> w(static_cast<std::size_t>(world), 1.0);
    for (int d = 0; d < std::min(hot_count_, world); ++d)
        w[static_cast<std::size_t>(d)] = factor_;
    return plan_from_row_weights(world, bytes_per_rank, w);
}

std::string ZipfPattern::spec() const {
    std::ostringstream s;
    s << "zipf:" << exponent_;
    return s.str();
}

TrafficPlan ZipfPattern::plan(int world, std::uint64_t bytes_per_rank) const {
    std::vector<double> w(static_cast<std::size_t>(world));
    for (int d = 0; d < world; ++d)
        w[static_cast<std::size_t>(d)] = 1.0 / std::pow(static_cast<double>(d + 1), exponent_);
    return plan_from_row_weights(world, bytes_per_rank, w);
}

MatrixPattern::MatrixPattern(std::string path, int rows, std::vector<std::uint64_t> bytes)
    : path_(std::move(path)), rows_(rows), bytes_(std::move(bytes)) {}

std::unique_ptr<MatrixPattern> MatrixPattern::load(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw UsageError("matrix file '" + path + "' cannot be read");
    std::vector<std::uint64_t> bytes;
    int rows = 0;
    int first_columns = 0;
    std::string line;
    for (int line_no = 1; std::getline(in, line); ++line_no) {
        if (const auto hash = line.find('#'); hash != std::string::npos)
            line.erase(hash);
        std::replace(line.begin(), line.end(), ',', ' ');
        std::replace(line.begin(), line.end(), '\t', ' ');
        std::istringstream cells(line);
        std::string cell;
        int columns = 0;
        while (cells >> cell) {
            try {
                bytes.push_back(parse_byte_size(cell));
            } catch (const UsageError& e) {
                throw UsageError(path + ":" + std::to_string(line_no) + ": " + e.what());
            }
            ++columns;
        }
        if (columns == 0)
            continue;
        if (rows == 0)
            first_columns = columns;
        else if (columns != first_columns)
            throw UsageError(path + ":" + std::to_string(line_no) + ": row has " + std::to_string(columns) +
                             " entries, the first row has " + std::to_string(first_columns));
        ++rows;
    }
    if (rows == 0)
        throw UsageError("matrix file '" + path + "' has no rows");
    if (first_columns != rows)
        throw UsageError("matrix file '" + path + "' is not square: " + std::to_string(rows) + " rows of " +
                         std::to_string(first_columns) + " entries");
    return std::make_unique<MatrixPattern>(path, rows, std::move(bytes));
}

std::uint64_t MatrixPattern::natural_bytes_per_rank() const {
    const std::uint64_t total = std::accumulate(bytes_.begin(), bytes_.end(), std::uint64_t{0});
    return total / static_cast<std::uint64_t>(rows_);
}

TrafficPlan MatrixPattern::plan(int world, std::uint64_t bytes_per_rank) const {
    if (world != rows_)
        throw UsageError("matrix file '" + path_ + "' is " + std::to_string(rows_) + "x" +
                         std::to_string(rows_) + " but the world has " + std::to_string(world) + " ranks");
    const std::uint64_t natural = natural_bytes_per_rank();
    std::vector<std::uint64_t> scaled;
    if (natural == bytes_per_rank) {
        scaled = bytes_;
    } else {
        // Scale the whole matrix (its shape kept) so the mean row sum is bytes_per_rank.
        std::vector<double> weights(bytes_.begin(), bytes_.end());
        scaled = split_by_weights(bytes_per_rank * static_cast<std::uint64_t>(world), weights);
    }
    const bool uniform =
        std::all_of(scaled.begin(), scaled.end(), [&](std::uint64_t b) { return b == scaled[0]; });
    return TrafficPlan(world, std::move(scaled), uniform);
}

std::unique_ptr<TrafficPattern> make_traffic_pattern(const std::string& spec) {
    if (spec == "uniform")
        return std::make_unique<UniformPattern>();
    if (spec.rfind("hot:", 0) == 0) {
        const std::string rest = spec.substr(4);
        const auto colon = rest.find(':');
        if (colon == std::string::npos)
            throw UsageError("--pattern hot:K:F needs K (hot destinations) and F (their byte factor)");
        const double k = parse_number("hot:K", rest.substr(0, colon));
        const double f = parse_number("hot:F", rest.substr(colon + 1));
        if (k < 1 || k != std::floor(k) || k > 1e6)
            throw UsageError("hot:K must be a positive integer");
        if (f <= 0)
            throw UsageError("hot:F must be positive");
        return std::make_unique<HotDestinationsPattern>(static_cast<int>(k), f);
    }
    if (spec.rfind("zipf:", 0) == 0) {
        const double s = parse_number("zipf:S", spec.substr(5));
        if (s < 0)
            throw UsageError("zipf:S must not be negative");
        return std::make_unique<ZipfPattern>(s);
    }
    if (spec.rfind("matrix:", 0) == 0) {
        const std::string path = spec.substr(7);
        if (path.empty())
            throw UsageError("--pattern matrix:FILE needs a file");
        return MatrixPattern::load(path);
    }
    throw UsageError("unknown --pattern '" + spec + "' (uniform, hot:K:F, zipf:S, matrix:FILE)");
}

} // namespace moeprobe
