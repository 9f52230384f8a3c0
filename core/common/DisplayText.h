#pragma once
// Text from someone else's file, as every surface shows it (window, CLI, report, plots).
// A project or a log may come from anyone, so its names and words must not be able to
// move a terminal's cursor, retitle a window, hide characters or reorder the text around
// them (a right-to-left override, U+202E, between "invoice" and "txt.exe" shows it as
// "invoiceexe.txt"). One rule, one function: the store reads names and texts through
// it (store/SqlSupport.h), the CLI's terminal device escapes by the same rule, and name
// checks refuse the same characters (store/NameRules.h).
#include <QString>

namespace moewb {

// True for a character shown escaped, never as itself: C0 and C1 controls and DEL
// (Unicode Cc), format characters (Cf: the bidirectional marks, embeddings, overrides
// and isolates U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069, zero-width characters,
// soft hyphen, tags …), the line and paragraph separators U+2028/U+2029, and lone
// surrogates.
bool isHiddenCharacter(char32_t cp);

enum class LineBreaks { Escape, Keep };

// `text` as shown: each hidden character written as \xNN (below U+0100) or \u{nnnn}
// (lower-case hex, 4 or more digits), and — once anything is escaped — each backslash
// as "\\", so that the escapes are unambiguous. What is shown is at most `maxChars`
// characters (UTF-16 code units), escapes included: a longer result ends with "…" after
// the last whole character or escape that fits (never inside an escape or a surrogate
// pair). With
// LineBreaks::Keep, newlines and tabs stay as they are (multi-line reasons and notes).
// Text that needs neither comes back unchanged (shared, no copy).
QString displayText(const QString& text, qsizetype maxChars, LineBreaks lineBreaks = LineBreaks::Escape);

} // namespace moewb
