#pragma once
// One CSV record on one line: comma-separated, fields optionally in double quotes
// ("" inside quotes is a quote). A quoted field may not span lines.
#include <QString>

#include <string>
#include <string_view>
#include <vector>

namespace moewb::importers {

// Splits `line` into `fields` (views into `line` or into `storage` for unquoted text).
// False with `problem` set on an unterminated quote or text after a closing quote.
bool splitCsvLine(std::string_view line, std::vector<std::string_view>& fields, std::vector<std::string>& storage,
                  QString& problem);

} // namespace moewb::importers
