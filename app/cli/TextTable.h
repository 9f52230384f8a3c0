#pragma once
// A plain-text table for terminal output: columns padded by terminal width (a Chinese
// character takes two columns), numbers right-aligned.
#include <QList>
#include <QString>
#include <QStringList>

namespace moewb::cli {

class TextTable {
public:
    enum class Align { Left, Right };
    void addColumn(const QString& header, Align align = Align::Left);
    void addRow(const QStringList& cells);
    QString render() const;
    // Terminal columns the text takes: CJK and other wide characters count 2, combining marks 0.
    static qsizetype displayWidth(const QString& text);

private:
    QStringList m_headers;
    QList<Align> m_align;
    QList<QStringList> m_rows;
};

} // namespace moewb::cli
