#pragma once
// Numbers as logs print them: "1.155841E+01", "8589934592", "1.2e+05", "N/A".
// Every reader refuses NaN and infinity and says why in words for the message.
#include <QString>

#include <string_view>

namespace moewb::importers {

// Leading/trailing spaces are ignored, a leading '+' is accepted. On failure
// `problem` gets a sentence such as `is not a number: "abc"` or `is not finite (NaN)`.
bool parseFiniteDouble(std::string_view text, double& value, QString& problem);

// An integer, also in the exponent or fixed form when the value is integral
// ("1e+10", "2048.0"), within [min, max].
bool parseIntegral(std::string_view text, qint64 min, qint64 max, qint64& value, QString& problem);

std::string_view trimmed(std::string_view text);

} // namespace moewb::importers
