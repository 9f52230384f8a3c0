#pragma once
// Names of config records, runs and clusters: what they may hold, and how a name is
// printed. A project is shared between people, so a name must not be able to move
// a terminal's cursor, change its colours or reorder the text around it; projects
// written before the rule may already hold such names, so output escapes them too.
#include <QString>

namespace moewb::store {

// Longest name, in characters (UTF-16 code units).
inline constexpr int kMaxNameLength = 256;

enum class NameKind { Record, Run, Cluster };

// Empty when `name` may be used; else a sentence naming the rule it breaks: empty or
// blank, longer than kMaxNameLength, or holding a hidden character (isHiddenCharacter,
// common/DisplayText.h: a control character, a bidirectional mark, override or isolate,
// another invisible format character, a line or paragraph separator), named by its
// code point and position.
QString nameProblem(NameKind kind, const QString& name);

// `name` for output: displayText(name, kMaxNameLength) — every hidden character written
// as \xNN or \u{nnnn} (and then a backslash as "\\"), longer names cut to
// kMaxNameLength − 1 characters and "…". A name that follows the rules comes back
// unchanged.
QString printableName(const QString& name);

} // namespace moewb::store
