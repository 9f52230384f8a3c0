#include "PlotFont.h"

namespace moewb::plots {

QStringList uiFontFamilies()
{
    return {QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans CJK SC")};
}

QFont withUiFamilies(QFont font)
{
    font.setFamilies(uiFontFamilies());
    font.setStyleHint(QFont::SansSerif);
    return font;
}

QFont uiFont(double pointSize, bool bold)
{
    QFont font(uiFontFamilies().constFirst());
    font.setPointSizeF(pointSize);
    font.setBold(bold);
    return withUiFamilies(font);
}

} // namespace moewb::plots
