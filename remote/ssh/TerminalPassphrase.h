#pragma once
// A key's passphrase asked on the user's terminal (/dev/tty, echo off) when no
// SshOptions::passphrase callback is given and no agent holds the key. Only a
// program with a terminal user turns it on (the CLI); the passphrase is handed to
// libssh once, wiped, and never stored or logged.
#include <QByteArray>
#include <QString>

#include <optional>

namespace moewb::remote {

// Off by default: a window or a batch job never reads a terminal.
void setTerminalPassphrasePrompt(bool enabled);
bool terminalPassphrasePrompt();

// Writes `prompt` to the controlling terminal and reads one line with echo off (at
// most 1023 bytes; the rest of a longer line is read and dropped, and nothing is
// returned). nullopt when the process has no controlling terminal or reading fails.
// The caller wipes the bytes after use.
std::optional<QByteArray> askOnTerminal(const QString& prompt);

} // namespace moewb::remote
