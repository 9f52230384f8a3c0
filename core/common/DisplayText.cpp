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
    const bool cut = text.size() > maxChars && maxChars >= 1;
    const qsizetype keep = cut ? maxChars - 1 : text.size();
    QString out;
    out.reserve(keep + 16);
    for (qsizetype i = 0; i < keep;) {
        int units = 1;
        const char32_t cp = codePointAt(text, i, &units);
        if (i + units > keep)
            break;
        if (escape && cp == u'\\')
            out += QStringLiteral("\\\\");
        else if (isHiddenCharacter(cp) && !keptBreak(cp, lineBreaks))
            out += cp < 0x100 ? QStringLiteral("\\x%1").arg(uint(cp), 2, 16, QLatin1Char('0'))
                              : QStringLiteral("\\u{%1}").arg(uint(cp), 4, 16, QLatin1Char('0'));
        else
            out += text.mid(i, units);
        i += units;
    }
    if (cut)
        out += QChar(0x2026);
    return out;
}

} // namespace moewb
