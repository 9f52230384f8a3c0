#include "importers/CsvLine.h"

#include "importers/ImportSupport.h"
#include "importers/NumberText.h"

#include <algorithm>

namespace moewb::importers {

bool splitCsvLine(std::string_view line, std::vector<std::string_view>& fields, std::vector<std::string>& storage,
                  QString& problem) {
    fields.clear();
    storage.clear();
    // Views point into `storage`: it must never reallocate (one string per quoted field at most).
    storage.reserve(size_t(std::count(line.begin(), line.end(), '"')) / 2 + 1);
    size_t i = 0;
    while (true) {
        // Skip spaces before a field.
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i < line.size() && line[i] == '"') {
            std::string text;
            ++i;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        text += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    closed = true;
                    break;
                }
                text += line[i++];
            }
            if (!closed) {
                problem = ImportTr::tr("a quoted field is not closed on its line");
                return false;
            }
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                ++i;
            if (i < line.size() && line[i] != ',') {
                problem = ImportTr::tr("text after a closing quote");
                return false;
            }
            storage.push_back(std::move(text));
            fields.push_back(storage.back());
        } else {
            const size_t comma = line.find(',', i);
            const size_t stop = comma == std::string_view::npos ? line.size() : comma;
            fields.push_back(trimmed(line.substr(i, stop - i)));
            i = stop;
        }
        if (i >= line.size())
            break;
        ++i; // the comma
        if (i == line.size()) {
            fields.emplace_back();
            break;
        }
    }
    return true;
}

} // namespace moewb::importers
