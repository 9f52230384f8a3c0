#pragma once
// The CLI's stdout and stderr: a write-only device that passes text on unchanged except
// for what could drive a terminal. Names, file contents quoted in errors and peers'
// text all reach the terminal through it, so a project or a log written by somebody
// else cannot move the cursor, retitle the window, change colours or reorder the text
// around it: C0 controls other than newline and tab, DEL and the C1 controls are
// written as \xNN; every other hidden character (common/DisplayText.h's rule: bidi
// marks, overrides and isolates, other invisible format characters, line/paragraph
// separators) as \u{nnnn} — the escapes of displayText.
#include <QByteArray>
#include <QIODevice>
#include <cstdio>

namespace moewb::cli {

class TerminalSafeDevice : public QIODevice {
public:
    explicit TerminalSafeDevice(std::FILE* stream);
    ~TerminalSafeDevice() override;

    bool isSequential() const override { return true; }

    // The bytes `in` as written to the terminal (a trailing incomplete UTF-8 sequence
    // that could become an escaped character is held in `pending` for the next call).
    static QByteArray escape(QByteArray& pending, const char* in, qint64 len);

protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char* data, qint64 len) override;

private:
    std::FILE* m_stream;
    QByteArray m_pending;
};

// `json` (UTF-8 text of a JSON document) with the characters above that a JSON
// writer leaves raw written as \uNNNN escapes: still the same JSON values.
QByteArray escapeJsonForTerminal(const QByteArray& json);

} // namespace moewb::cli
