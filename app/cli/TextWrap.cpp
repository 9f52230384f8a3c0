#include "TextWrap.h"

#include "TextTable.h"

#include <QStringList>

namespace moewb::cli {

namespace {

bool isWideChar(QChar c) { return TextTable::displayWidth(QString(c)) == 2; }

// Units a line may break between: words (split at spaces) and single wide characters.
QStringList units(const QString& text, QList<bool>* spaceBefore) {
    QStringList out;
    bool space = false;
    QString word;
    auto flush = [&] {
        if (!word.isEmpty()) {
            out << word;
            *spaceBefore << space;
            space = false;
            word.clear();
        }
    };
    for (const QChar c : text) {
        if (c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n')) {
            flush();
            space = true;
        } else if (isWideChar(c)) {
            flush();
            out << QString(c);
            *spaceBefore << space;
            space = false;
        } else {
            word += c;
        }
    }
    flush();
    return out;
}

} // namespace

QString wrapText(const QString& text, int firstIndent, int indent, int width) {
    QList<bool> spaceBefore;
    const QStringList parts = units(text, &spaceBefore);
    QString out(firstIndent, QLatin1Char(' '));
    qsizetype column = firstIndent;
    bool lineEmpty = true;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const qsizetype w = TextTable::displayWidth(parts[i]);
        const qsizetype gap = lineEmpty || !spaceBefore[i] ? 0 : 1;
        if (!lineEmpty && column + gap + w > width) {
            out += QLatin1Char('\n') + QString(indent, QLatin1Char(' '));
            column = indent;
            lineEmpty = true;
        } else if (gap) {
            out += QLatin1Char(' ');
            column += 1;
        }
        out += parts[i];
        column += w;
        lineEmpty = false;
    }
    return out + QLatin1Char('\n');
}

QString wrapLongLines(const QString& text, int width) {
    QString out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (TextTable::displayWidth(line) <= width) {
            out += line;
        } else {
            qsizetype lead = 0;
            while (lead < line.size() && line[lead] == QLatin1Char(' '))
                ++lead;
            // A description column (two or more spaces after the first words, as
            // QCommandLineParser and the command list print): wrapped under itself.
            const qsizetype gap = line.indexOf(QStringLiteral("  "), lead);
            qsizetype d = gap;
            while (gap > lead && d < line.size() && line[d] == QLatin1Char(' '))
                ++d;
            if (gap > lead && d < line.size() && d <= width / 2) {
                const QString wrapped = wrapText(line.mid(d), int(d), int(d), width);
                out += line.left(d) + wrapped.mid(d).chopped(1);
            } else {
                out += wrapText(line.mid(lead), int(lead), int(lead) + 4, width).chopped(1);
            }
        }
        if (i + 1 < lines.size())
            out += QLatin1Char('\n');
    }
    return out;
}

} // namespace moewb::cli
