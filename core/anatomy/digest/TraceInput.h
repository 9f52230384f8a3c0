#pragma once
// A trace file as a sliding window of its (uncompressed) bytes: read in blocks from
// the file, through zlib's inflate when it starts with the gzip magic (1f 8b; the
// name is not consulted). The window is followed by a NUL byte, so a scanner can run
// without bounds checks and stop at the NUL. Memory: the window (4 MiB, grown up to
// kMaxWindowBytes for one event that does not fit) and zlib's input block.
#include "anatomy/digest/DigestText.h"
#include "anatomy/digest/RankDigest.h"

#include <cstdint>
#include <string>

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace moewb::anatomy::digest {

class TraceInput {
public:
    static constexpr std::int64_t kBlockBytes = 4LL << 20;
    // One unit (an event, a top-level value) larger than this is refused.
    static constexpr std::int64_t kMaxWindowBytes = 16LL << 20;

    TraceInput();
    ~TraceInput();
    TraceInput(const TraceInput&) = delete;
    TraceInput& operator=(const TraceInput&) = delete;

    // Opens the file (a regular file only: a FIFO or a device is refused before it is
    // read) and reads the first block. False with error() set.
    bool open(const std::string& path, const std::string& shown, Texts texts = {});

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
    std::int64_t lineAt(const char* p) const;
    // Uncompressed bytes read so far.
    std::int64_t bytesRead() const { return m_bytesRead; }

    void setProgress(std::function<bool(std::int64_t)> progress) { m_progress = std::move(progress); }
    const DigestFailure& error() const { return m_error; }
    // The last refill failed because one unit would not fit kMaxWindowBytes.
    bool tooLarge() const { return m_tooLarge; }

private:
    bool readMore(); // appends to the window; false on error
    std::int64_t readPlain(char* to, std::int64_t room);
    std::int64_t readGzip(char* to, std::int64_t room);
    bool fail(const std::string& message, bool unreadable = false);
    std::int64_t readFile(char* to, std::int64_t room); // -1 on error (error() set)

    Texts m_texts;
    std::string m_shown;
    int m_fd = -1;
    std::vector<char> m_buf; // capacity + 1 for the NUL sentinel
    std::int64_t m_size = 0;
    std::int64_t m_lineBase = 1; // line of m_buf[0]
    std::int64_t m_bytesRead = 0;
    bool m_eof = false;
    bool m_gzip = false;
    bool m_tooLarge = false;
    struct Inflate;
    std::unique_ptr<Inflate> m_inflate;
    std::function<bool(std::int64_t)> m_progress;
    DigestFailure m_error;
};

} // namespace moewb::anatomy::digest
