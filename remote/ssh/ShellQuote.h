#pragma once
// POSIX shell quoting: every argument becomes one single-quoted word, so a remote
// shell sees exactly the argv that was given -- no expansion, globbing, splitting,
// command substitution or statement separation.
#include <QByteArray>
#include <QString>
#include <QStringList>

namespace moewb::remote {

// 'text' with each ' written as '\'' ; the empty string becomes ''.
QString shellQuote(const QString& arg);
// The argv as one command line: each argument quoted, separated by single spaces.
QString shellJoin(const QStringList& argv);

} // namespace moewb::remote
