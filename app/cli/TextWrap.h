#pragma once
// Wrapping help text for an 80-column terminal: words move to the next line, which
// starts with `indent` spaces; a Chinese (wide) character counts two columns and a
// line may break between two of them. A single word wider than the line stays whole.
#include <QString>

namespace moewb::cli {

constexpr int kHelpWidth = 80;

// `text` as lines of at most `width` columns: the first starts with `firstIndent`
// spaces, the others with `indent`. Ends with a newline.
QString wrapText(const QString& text, int firstIndent, int indent, int width = kHelpWidth);

// Rewraps every line of `text` that is wider than `width`, continuing it under its own
// first word after the leading spaces (the layout QCommandLineParser prints options in).
QString wrapLongLines(const QString& text, int width = kHelpWidth);

} // namespace moewb::cli
