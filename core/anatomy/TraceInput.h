#pragma once
// A trace file as a sliding window of its (uncompressed) bytes: read in blocks from
// the file, through zlib's inflate when it starts with the gzip magic (1f 8b; the
// name is not consulted). The window is followed by a NUL byte, so a scanner can run
// without bounds checks and stop at the NUL. Memory: the window (4 MiB, grown up to
// kMaxWindowBytes for one event that does not fit) and zlib's input block.
#include "importers/ImportError.h"

#include <QFile>

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace moewb::anatomy {

class TraceInput {
public:
    static constexpr qint64 kBlockBytes = 4LL << 20;
    // One unit (an event, a top-level value) larger than this is refused.
    static constexpr qint64 kMaxWindowBytes = 16LL << 20;

    TraceInput();
    ~TraceInput();
    TraceInput(const TraceInput&) = delete;
    TraceInput& operator=(const TraceInput&) = delete;

    // Opens the file and reads the first block. False with error() set.
    bool open(const QString& path, const QString& shown);

    const char* begin() const { return m_buf.data(); }
    const char* end() const { return m_buf.data() + m_size; }
    bool gzip() const { return m_gzip; }

    enum class Fill { More, End, Failed };
    // Drops the bytes before `keep` (a position in the window; the bytes from it on
    // move to the front) and reads more behind them. End: nothing more to read (the
    // window is unchanged but moved). Failed: error() says why (I/O, gzip, a unit past
    // kMaxWindowBytes, cancelled).
    Fill refill(const char* keep);
    bool atEof() const { return m_eof; }

    // The 1-based line of a position in the window.
    qint64 lineAt(const char* p) const;
    // Uncompressed bytes read so far.
    qint64 bytesRead() const { return m_bytesRead; }

    void setProgress(std::function<bool(qint64)> progress) { m_progress = std::move(progress); }
    const importers::ImportError& error() const { return m_error; }
    // The last refill failed because one unit would not fit kMaxWindowBytes.
    bool tooLarge() const { return m_tooLarge; }

private:
    bool readMore(); // appends to the window; false on error
    qint64 readPlain(char* to, qint64 room);
    qint64 readGzip(char* to, qint64 room);
    bool fail(const QString& message, bool unreadable = false);

    QString m_shown;
    QFile m_file;
    std::vector<char> m_buf; // capacity + 1 for the NUL sentinel
    qint64 m_size = 0;
    qint64 m_lineBase = 1; // line of m_buf[0]
    qint64 m_bytesRead = 0;
    bool m_eof = false;
    bool m_gzip = false;
    bool m_tooLarge = false;
    struct Inflate;
    std::unique_ptr<Inflate> m_inflate;
    std::function<bool(qint64)> m_progress;
    importers::ImportError m_error;
};

} // namespace moewb::anatomy
