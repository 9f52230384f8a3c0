#include "TextTable.h"

#include <algorithm>

namespace moewb::cli {

void TextTable::addColumn(const QString& header, Align align) {
    m_headers << header;
    m_align << align;
}

void TextTable::addRow(const QStringList& cells) { m_rows << cells; }

QString TextTable::render() const {
    QList<qsizetype> width;
    for (const QString& h : m_headers)
        width << h.size();
    for (const QStringList& row : m_rows)
        for (qsizetype c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    auto line = [&](const QStringList& cells) {
        QString s;
        for (qsizetype c = 0; c < width.size(); ++c) {
            const QString cell = c < cells.size() ? cells[c] : QString();
            if (c > 0)
                s += QStringLiteral("  ");
            s += m_align[c] == Align::Right ? cell.rightJustified(width[c]) : cell.leftJustified(width[c]);
        }
        while (s.endsWith(QLatin1Char(' ')))
            s.chop(1);
        return s + QLatin1Char('\n');
    };
    QString out = line(m_headers);
    for (const QStringList& row : m_rows)
        out += line(row);
    return out;
}

} // namespace moewb::cli
