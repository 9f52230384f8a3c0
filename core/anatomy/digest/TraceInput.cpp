#include "anatomy/digest/TraceInput.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace moewb::anatomy::digest {

namespace {
constexpr std::int64_t kGzipInputBytes = 1LL << 20;

// Newlines in [p, end): 16 bytes a step (this runs over every byte of the file).
std::int64_t countNewlines(const char* p, const char* end) {
    std::int64_t n = 0;
#ifdef __SSE2__
    const __m128i nl = _mm_set1_epi8('\n');
    while (end - p >= 16) {
        // Per-byte counters (cmpeq gives -1 per match), summed before they can wrap.
        __m128i counts = _mm_setzero_si128();
        for (int i = 0; i < 255 && end - p >= 16; ++i, p += 16)
            counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), nl));
        const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
        n += _mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
    }
#endif
    for (; p < end; ++p)
        n += *p == '\n';
    return n;
}
} // namespace

struct TraceInput::Inflate {
    z_stream z{};
    std::vector<unsigned char> in = std::vector<unsigned char>(size_t(kGzipInputBytes));
    bool fileEnded = false;
    bool streamEnded = false; // the last member ended (Z_STREAM_END) and nothing follows
    ~Inflate() { inflateEnd(&z); }
};

TraceInput::TraceInput() = default;
TraceInput::~TraceInput() {
    if (m_fd >= 0)
        ::close(m_fd);
}

bool TraceInput::fail(const std::string& message, bool unreadable) {
    if (m_error.message.empty())
        m_error = DigestFailure{m_shown, 0, std::string(), message, unreadable};
    return false;
}

std::int64_t TraceInput::readFile(char* to, std::int64_t room) {
    for (;;) {
        const ssize_t n = ::read(m_fd, to, size_t(room));
        if (n >= 0)
            return std::int64_t(n);
        if (errno == EINTR)
            continue;
        fail(m_texts(QT_TRANSLATE_NOOP("Anatomy", "read error: %1"), {std::strerror(errno)}), true);
        return -1;
    }
}

bool TraceInput::open(const std::string& path, const std::string& shown, Texts texts) {
    m_shown = shown;
    m_texts = texts;
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (m_fd < 0)
        return fail(m_texts(QT_TRANSLATE_NOOP("Anatomy", "cannot be opened: %1"), {std::strerror(errno)}), true);
    struct stat st {};
    if (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode))
        return fail(m_texts(QT_TRANSLATE_NOOP("Anatomy", "cannot be opened: %1"),
                            {m_texts(QT_TRANSLATE_NOOP("Anatomy", "not a regular file"))}),
                    true);
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) & ~O_NONBLOCK);
    m_buf.assign(size_t(kBlockBytes) + 1, '\0');
    unsigned char magic[2] = {0, 0};
    const ssize_t got = ::pread(m_fd, magic, 2, 0);
    m_gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (m_gzip) {
        m_inflate = std::make_unique<Inflate>();
        if (inflateInit2(&m_inflate->z, 15 + 16) != Z_OK)
            return fail(m_texts(QT_TRANSLATE_NOOP("Anatomy", "zlib could not be initialised")), true);
    }
    return readMore();
}

std::int64_t TraceInput::readPlain(char* to, std::int64_t room) {
    const std::int64_t n = readFile(to, room);
    if (n == 0)
        m_eof = true;
    return n;
}

std::int64_t TraceInput::readGzip(char* to, std::int64_t room) {
    Inflate& f = *m_inflate;
    z_stream& z = f.z;
    z.next_out = reinterpret_cast<Bytef*>(to);
    z.avail_out = uInt(room);
    while (z.avail_out > 0 && !f.streamEnded) {
        if (z.avail_in == 0 && !f.fileEnded) {
            const std::int64_t n = readFile(reinterpret_cast<char*>(f.in.data()), std::int64_t(f.in.size()));
            if (n < 0)
                return -1;
            if (n == 0)
                f.fileEnded = true;
            z.next_in = f.in.data();
            z.avail_in = uInt(n);
        }
        if (z.avail_in == 0 && f.fileEnded) {
            // Input over before the member's end (its trailer): a cut file.
            fail(m_texts(QT_TRANSLATE_NOOP("Anatomy", "the gzip stream ends early (the file is truncated)")));
            return -1;
        }
        const int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            // Concatenated members (gzip -c a b) read on; anything else after the last
            // member (zero padding) is left alone, as gzip does.
            if (z.avail_in == 0 && !f.fileEnded) {
                const std::int64_t n = readFile(reinterpret_cast<char*>(f.in.data()), std::int64_t(f.in.size()));
                if (n <= 0)
                    f.fileEnded = true;
                z.next_in = f.in.data();
                z.avail_in = uInt(std::max<std::int64_t>(n, 0));
            }
            if (z.avail_in >= 2 && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b) {
                inflateReset(&z);
            } else {
                f.streamEnded = true;
            }
        } else if (rc == Z_BUF_ERROR) {
            // No progress possible: output full (loop ends) or input needed (loop reads).
            continue;
        } else if (rc != Z_OK) {
            fail(m_texts(QT_TRANSLATE_NOOP("Anatomy", "the gzip stream is corrupt (zlib: %1)"), {z.msg ? z.msg : "error"}));
            return -1;
        }
    }
    const std::int64_t n = room - std::int64_t(z.avail_out);
    if (n == 0 && f.streamEnded)
        m_eof = true;
    return n;
}

bool TraceInput::readMore() {
    // Fill what room there is (at least one block's worth when the window is larger).
    while (!m_eof) {
        const std::int64_t capacity = std::int64_t(m_buf.size()) - 1;
        const std::int64_t room = capacity - m_size;
        if (room <= 0)
            break;
        char* to = m_buf.data() + m_size;
        const std::int64_t n = m_gzip ? readGzip(to, room) : readPlain(to, room);
        if (n < 0)
            return false;
        m_size += n;
        m_bytesRead += n;
        if (n > 0)
            break; // enough for now: a partial block is fine, the scanner asks again
    }
    m_buf[size_t(m_size)] = '\0';
    if (m_progress && !m_progress(m_bytesRead))
        return fail(m_texts(QT_TRANSLATE_NOOP("Anatomy", "cancelled")));
    return true;
}

TraceInput::Fill TraceInput::refill(const char* keep) {
    const std::int64_t drop = keep - m_buf.data();
    if (drop > 0) {
        m_lineBase += countNewlines(m_buf.data(), m_buf.data() + drop);
        std::memmove(m_buf.data(), m_buf.data() + drop, size_t(m_size - drop));
        m_size -= drop;
    }
    if (m_eof)
        return Fill::End;
    const std::int64_t capacity = std::int64_t(m_buf.size()) - 1;
    if (m_size >= capacity) {
        // One unit fills the whole window: grow it, up to the bound.
        if (capacity >= kMaxWindowBytes) {
            m_tooLarge = true;
            fail(m_texts(QT_TRANSLATE_NOOP("Anatomy", "one event or value is larger than %1 MiB"), {number(kMaxWindowBytes >> 20)}));
            return Fill::Failed;
        }
        m_buf.resize(size_t(std::min(capacity * 2, kMaxWindowBytes)) + 1);
    }
    const std::int64_t before = m_size;
    if (!readMore())
        return Fill::Failed;
    return m_size > before ? Fill::More : Fill::End;
}

std::int64_t TraceInput::lineAt(const char* p) const {
    const char* b = m_buf.data();
    p = std::clamp(p, b, b + m_size);
    return m_lineBase + countNewlines(b, p);
}

} // namespace moewb::anatomy::digest
