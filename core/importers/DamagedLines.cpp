#include "importers/DamagedLines.h"

#include "importers/ImportSupport.h"

#include <QJsonArray>

#include <algorithm>
#include <climits>

namespace moewb::importers {

void DamagedLines::add(const ImportError& why, qint64 fieldsKept, qint64 fieldsLeftOut) {
    ++m_total;
    if (m_listed.size() < kListed)
        m_listed.push_back(Line{why, fieldsKept, fieldsLeftOut});
}

std::optional<ImportError> DamagedLines::refusal() const {
    if (m_listed.empty())
        return std::nullopt;
    ImportError first = m_listed.front().why;
    if (m_total > 1)
        first.message = clipped(ImportTr::tr("%1 (and %n more damaged line(s); nothing usable remains)", "",
                                             int(std::min<qint64>(m_total - 1, INT_MAX)))
                                    .arg(first.message),
                                kMaxMessageChars);
    return first;
}

void DamagedLines::note(QJsonObject& environment) const {
    if (m_total == 0)
        return;
    QJsonArray lines;
    for (const Line& l : m_listed) {
        QJsonObject o{{QStringLiteral("line"), l.why.line},
                      {QStringLiteral("reason"), l.why.message},
                      {QStringLiteral("kept"), l.kept},
                      {QStringLiteral("left_out"), l.leftOut}};
        if (!l.why.field.isEmpty())
            o.insert(QStringLiteral("field"), l.why.field);
        lines.append(o);
    }
    environment.insert(QStringLiteral("damaged_lines"), lines);
    environment.insert(QStringLiteral("damaged_lines_total"), m_total);
}

} // namespace moewb::importers
