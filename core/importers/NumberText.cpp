#include "importers/NumberText.h"

#include "importers/ImportSupport.h"

#include <charconv>
#include <cmath>

namespace moewb::importers {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

namespace {

bool looksNonFinite(std::string_view t) {
    if (!t.empty() && (t.front() == '-' || t.front() == '+'))
        t.remove_prefix(1);
    if (t.size() < 3)
        return false;
    const auto lower = [](char c) { return char(c | 0x20); };
    const char a = lower(t[0]), b = lower(t[1]), c = lower(t[2]);
    return (a == 'n' && b == 'a' && c == 'n') || (a == 'i' && b == 'n' && c == 'f');
}

} // namespace

bool parseFiniteDouble(std::string_view text, double& value, QString& problem) {
    std::string_view t = trimmed(text);
    if (t.empty()) {
        problem = ImportTr::tr("is empty (a number was expected)");
        return false;
    }
    if (looksNonFinite(t)) {
        problem = ImportTr::tr("is not finite (%1)").arg(excerpt(t));
        return false;
    }
    if (t.front() == '+')
        t.remove_prefix(1);
    const char* end = t.data() + t.size();
    const auto [ptr, ec] = std::from_chars(t.data(), end, value);
    if (ec == std::errc::result_out_of_range) {
        problem = ImportTr::tr("is out of range (not finite): %1").arg(excerpt(text));
        return false;
    }
    if (ec != std::errc() || ptr != end) {
        problem = ImportTr::tr("is not a number: \"%1\"").arg(excerpt(trimmed(text)));
        return false;
    }
    if (!std::isfinite(value)) {
        problem = ImportTr::tr("is not finite (%1)").arg(excerpt(t));
        return false;
    }
    return true;
}

bool parseIntegral(std::string_view text, qint64 min, qint64 max, qint64& value, QString& problem) {
    std::string_view t = trimmed(text);
    if (!t.empty() && t.front() == '+')
        t.remove_prefix(1);
    const char* end = t.data() + t.size();
    qint64 v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), end, v);
    if (ec == std::errc() && ptr == end) {
        value = v;
    } else {
        double d = 0;
        if (!parseFiniteDouble(text, d, problem))
            return false;
        if (d != std::floor(d)) {
            problem = ImportTr::tr("must be a whole number, got %1").arg(excerpt(trimmed(text)));
            return false;
        }
        if (d < -9.2e18 || d > 9.2e18) {
            problem = ImportTr::tr("is out of range: %1").arg(excerpt(trimmed(text)));
            return false;
        }
        value = qint64(d);
    }
    if (value < min || value > max) {
        problem = ImportTr::tr("must be between %1 and %2, got %3").arg(min).arg(max).arg(excerpt(trimmed(text)));
        return false;
    }
    return true;
}

} // namespace moewb::importers
