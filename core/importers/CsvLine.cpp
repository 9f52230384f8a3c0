#include "importers/CsvLine.h"

#include "importers/ImportLimits.h"
#include "importers/ImportSupport.h"
#include "importers/NumberText.h"

#include <algorithm>

namespace moewb::importers {

bool splitCsvLine(std::string_view line, std::vector<std::string_view>& fields, std::vector<std::string>& storage,
                  QString& problem) {
    fields.clear();
    storage.clear();
    // Views point into `storage`: it must never reallocate (one string per quoted field at most).
    // (more than kMaxCsvFields + 1 fields are refused before the next one is kept).
    storage.reserve(std::min(size_t(std::count(line.begin(), line.end(), '"')) / 2 + 1, size_t(kMaxCsvFields) + 2));
    size_t i = 0;
    auto tooMany = [&] {
        if (qsizetype(fields.size()) <= kMaxCsvFields)
            return false;
        problem = ImportTr::tr("has more than %1 fields").arg(kMaxCsvFields);
        return true;
    };
    auto tooLong = [&](size_t bytes) {
        if (qsizetype(bytes) <= kMaxCsvFieldBytes)
            return false;
        problem = ImportTr::tr("field %1 is longer than %2 bytes").arg(fields.size() + 1).arg(kMaxCsvFieldBytes);
        return true;
    };
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
                if (tooLong(text.size()))
                    return false;
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
            if (tooLong(stop - i))
                return false;
            fields.push_back(trimmed(line.substr(i, stop - i)));
            i = stop;
        }
        if (tooMany())
            return false;
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
