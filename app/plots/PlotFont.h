#pragma once
// The typeface plots and the PDF report draw text in: DejaVu Sans for Latin text,
// then Noto Sans CJK SC for Chinese. Naming the Simplified Chinese face keeps the
// system's fallback from picking another CJK face first (Noto Sans CJK JP, whose
// glyph forms and centred full-width punctuation are Japanese).
#include <QFont>
#include <QStringList>

namespace moewb::plots {

// {"DejaVu Sans", "Noto Sans CJK SC"}.
QStringList uiFontFamilies();
// A sans-serif font of those families, `pointSize` points.
QFont uiFont(double pointSize, bool bold = false);
// `font` (its size, weight, style kept) drawn in those families.
QFont withUiFamilies(QFont font);

} // namespace moewb::plots
