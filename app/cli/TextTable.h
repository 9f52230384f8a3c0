#pragma once
// A plain-text table for terminal output: columns padded, numbers right-aligned.
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

private:
    QStringList m_headers;
    QList<Align> m_align;
    QList<QStringList> m_rows;
};

} // namespace moewb::cli
