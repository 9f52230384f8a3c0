#include "common/DisplayText.h"

#include <QChar>

namespace moewb {

bool isHiddenCharacter(char32_t cp) {
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
        return true;
    if (cp < 0xA0)
        return false;
    if (cp == 0x2028 || cp == 0x2029)
        return true;
    switch (QChar::category(cp)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return true;
    default:
        return false;
    }
}

namespace {

bool keptBreak(char32_t cp, LineBreaks lineBreaks) {
    return lineBreaks == LineBreaks::Keep && (cp == u'\n' || cp == u'\t');
}

// The code point at text[i] and how many UTF-16 units it takes (a lone surrogate: 1).
char32_t codePointAt(const QString& text, qsizetype i, int* units) {
    const QChar c = text[i];
    if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
        *units = 2;
        return QChar::surrogateToUcs4(c, text[i + 1]);
    }
    *units = 1;
    return c.unicode();
}

} // namespace

QString displayText(const QString& text, qsizetype maxChars, LineBreaks lineBreaks) {
    bool escape = false;
    for (qsizetype i = 0; i < text.size() && !escape;) {
        int units = 1;
        const char32_t cp = codePointAt(text, i, &units);
        escape = isHiddenCharacter(cp) && !keptBreak(cp, lineBreaks);
        i += units;
    }
    if (!escape && text.size() <= maxChars)
        return text;
    // What is shown is capped, escapes included: pieces (a character or its escape) are
    // added while they fit; when the next does not, the text ends after the last piece
    // that leaves room for "…".
    QString out;
    out.reserve(std::min(text.size(), maxChars) + 16);
    qsizetype lastFit = 0;
    bool cut = false;
    for (qsizetype i = 0; i < text.size();) {
        int units = 1;
        const char32_t cp = codePointAt(text, i, &units);
        QString piece;
        if (escape && cp == u'\\')
            piece = QStringLiteral("\\\\");
        else if (isHiddenCharacter(cp) && !keptBreak(cp, lineBreaks))
            piece = cp < 0x100 ? QStringLiteral("\\x%1").arg(uint(cp), 2, 16, QLatin1Char('0'))
                               : QStringLiteral("\\u{%1}").arg(uint(cp), 4, 16, QLatin1Char('0'));
        else
            piece = text.mid(i, units);
        if (out.size() + piece.size() > maxChars) {
            cut = true;
            break;
        }
        out += piece;
        if (out.size() <= maxChars - 1)
            lastFit = out.size();
        i += units;
    }
    if (cut) {
        out.truncate(lastFit);
        out += QChar(0x2026);
    }
    return out;
}

} // namespace moewb
