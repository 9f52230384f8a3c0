#include "anatomy/TraceInput.h"

#include "anatomy/AnatomyTr.h"
#include "importers/ImportFile.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace moewb::anatomy {

namespace {
constexpr qint64 kGzipInputBytes = 1LL << 20;

// Newlines in [p, end): 16 bytes a step (this runs over every byte of the file).
qint64 countNewlines(const char* p, const char* end) {
    qint64 n = 0;
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
TraceInput::~TraceInput() = default;

bool TraceInput::fail(const QString& message, bool unreadable) {
    if (m_error.message.isEmpty()) {
        m_error = importers::ImportError{m_shown, 0, QString(), message, unreadable};
    }
    return false;
}

bool TraceInput::open(const QString& path, const QString& shown) {
    m_shown = shown;
    // A regular file only, opened without waiting on a FIFO (importers::openImportFile).
    if (auto refused = importers::openImportFile(m_file, path, shown))
        return fail(refused->message, true);
    m_buf.assign(size_t(kBlockBytes) + 1, '\0');
    unsigned char magic[2] = {0, 0};
    const qint64 got = m_file.peek(reinterpret_cast<char*>(magic), 2);
    m_gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (m_gzip) {
        m_inflate = std::make_unique<Inflate>();
        if (inflateInit2(&m_inflate->z, 15 + 16) != Z_OK)
            return fail(AnatomyTr::tr("zlib could not be initialised"), true);
    }
    return readMore();
}

qint64 TraceInput::readPlain(char* to, qint64 room) {
    const qint64 n = m_file.read(to, room);
    if (n < 0) {
        fail(AnatomyTr::tr("read error: %1").arg(m_file.errorString()), true);
        return -1;
    }
    if (n == 0)
        m_eof = true;
    return n;
}

qint64 TraceInput::readGzip(char* to, qint64 room) {
    Inflate& f = *m_inflate;
    z_stream& z = f.z;
    z.next_out = reinterpret_cast<Bytef*>(to);
    z.avail_out = uInt(room);
    while (z.avail_out > 0 && !f.streamEnded) {
        if (z.avail_in == 0 && !f.fileEnded) {
            const qint64 n = m_file.read(reinterpret_cast<char*>(f.in.data()), qint64(f.in.size()));
            if (n < 0) {
                fail(AnatomyTr::tr("read error: %1").arg(m_file.errorString()), true);
                return -1;
            }
            if (n == 0)
                f.fileEnded = true;
            z.next_in = f.in.data();
            z.avail_in = uInt(n);
        }
        if (z.avail_in == 0 && f.fileEnded) {
            // Input over before the member's end (its trailer): a cut file.
            fail(AnatomyTr::tr("the gzip stream ends early (the file is truncated)"));
            return -1;
        }
        const int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            // Concatenated members (gzip -c a b) read on; anything else after the last
            // member (zero padding) is left alone, as gzip does.
            if (z.avail_in == 0 && !f.fileEnded) {
                const qint64 n = m_file.read(reinterpret_cast<char*>(f.in.data()), qint64(f.in.size()));
                if (n <= 0)
                    f.fileEnded = true;
                z.next_in = f.in.data();
                z.avail_in = uInt(std::max<qint64>(n, 0));
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
            fail(AnatomyTr::tr("the gzip stream is corrupt (zlib: %1)")
                     .arg(QString::fromLatin1(z.msg ? z.msg : "error")));
            return -1;
        }
    }
    const qint64 n = room - qint64(z.avail_out);
    if (n == 0 && f.streamEnded)
        m_eof = true;
    return n;
}

bool TraceInput::readMore() {
    // Fill what room there is (at least one block's worth when the window is larger).
    while (!m_eof) {
        const qint64 capacity = qint64(m_buf.size()) - 1;
        const qint64 room = capacity - m_size;
        if (room <= 0)
            break;
        char* to = m_buf.data() + m_size;
        const qint64 n = m_gzip ? readGzip(to, room) : readPlain(to, room);
        if (n < 0)
            return false;
        m_size += n;
        m_bytesRead += n;
        if (n > 0)
            break; // enough for now: a partial block is fine, the scanner asks again
    }
    m_buf[size_t(m_size)] = '\0';
    if (m_progress && !m_progress(m_bytesRead))
        return fail(AnatomyTr::tr("cancelled"));
    return true;
}

TraceInput::Fill TraceInput::refill(const char* keep) {
    const qint64 drop = keep - m_buf.data();
    if (drop > 0) {
        m_lineBase += countNewlines(m_buf.data(), m_buf.data() + drop);
        std::memmove(m_buf.data(), m_buf.data() + drop, size_t(m_size - drop));
        m_size -= drop;
    }
    if (m_eof)
        return Fill::End;
    const qint64 capacity = qint64(m_buf.size()) - 1;
    if (m_size >= capacity) {
        // One unit fills the whole window: grow it, up to the bound.
        if (capacity >= kMaxWindowBytes) {
            m_tooLarge = true;
            fail(AnatomyTr::tr("one event or value is larger than %1 MiB").arg(kMaxWindowBytes >> 20));
            return Fill::Failed;
        }
        m_buf.resize(size_t(std::min(capacity * 2, kMaxWindowBytes)) + 1);
    }
    const qint64 before = m_size;
    if (!readMore())
        return Fill::Failed;
    return m_size > before ? Fill::More : Fill::End;
}

qint64 TraceInput::lineAt(const char* p) const {
    const char* b = m_buf.data();
    p = std::clamp(p, b, b + m_size);
    return m_lineBase + countNewlines(b, p);
}

} // namespace moewb::anatomy
