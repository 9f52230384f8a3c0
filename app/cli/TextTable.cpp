#include "TextTable.h"

#include <QStringView>

#include <algorithm>

namespace moewb::cli {

namespace {

bool isWide(char32_t cp) {
    // East Asian Wide and Fullwidth ranges (Unicode TR 11): a terminal gives them two columns.
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
           (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
           (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
           (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x2FFFD) ||
           (cp >= 0x30000 && cp <= 0x3FFFD);
}

} // namespace

qsizetype TextTable::displayWidth(const QString& text) {
    qsizetype width = 0;
    for (const char32_t cp : text.toUcs4()) {
        const auto category = QChar::category(cp);
        if (category == QChar::Mark_NonSpacing || category == QChar::Mark_Enclosing || cp == 0x200B)
            continue; // combining marks and zero-width space take no column
        width += isWide(cp) ? 2 : 1;
    }
    return width;
}

void TextTable::addColumn(const QString& header, Align align) {
    m_headers << header;
    m_align << align;
}

void TextTable::addRow(const QStringList& cells) { m_rows << cells; }

QString TextTable::render() const {
    QList<qsizetype> width;
    for (const QString& h : m_headers)
        width << displayWidth(h);
    for (const QStringList& row : m_rows)
        for (qsizetype c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], displayWidth(row[c]));
    auto line = [&](const QStringList& cells) {
        QString s;
        for (qsizetype c = 0; c < width.size(); ++c) {
            const QString cell = c < cells.size() ? cells[c] : QString();
            if (c > 0)
                s += QStringLiteral("  ");
            const QString pad(std::max<qsizetype>(0, width[c] - displayWidth(cell)), QLatin1Char(' '));
            s += m_align[c] == Align::Right ? pad + cell : cell + pad;
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
