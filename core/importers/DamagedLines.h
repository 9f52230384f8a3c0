#pragma once
// The damaged lines of a console log (a field cut, another process's print glued onto
// an iteration line, a value that is not a number): what the importer kept of each and
// why the rest was left out. Console logs keep what is good; `moewb import --strict`
// refuses the file at the first damaged line instead (docs/formats.md, "Damaged lines").
#include "importers/ImportError.h"

#include <QJsonObject>

#include <optional>
#include <vector>

namespace moewb::importers {

class DamagedLines {
public:
    // Lines listed one by one; the others are counted.
    static constexpr size_t kListed = 50;

    // A damaged line: `why` names its line and first fault; fieldsKept of its fields were
    // read, fieldsLeftOut were not (0 kept: the whole line was left out).
    void add(const ImportError& why, qint64 fieldsKept, qint64 fieldsLeftOut = 1);
    bool empty() const { return m_total == 0; }
    qint64 total() const { return m_total; }

    // When nothing usable remains: the first damaged line's error, saying how many more
    // there were.
    std::optional<ImportError> refusal() const;

    // environment.damaged_lines: [{line, field, reason, kept, left_out}] for the first
    // kListed lines, and environment.damaged_lines_total.
    void note(QJsonObject& environment) const;

private:
    struct Line {
        ImportError why;
        qint64 kept = 0, leftOut = 0;
    };
    std::vector<Line> m_listed;
    qint64 m_total = 0;
};

} // namespace moewb::importers
