#include "store/ExpertLoadCodec.h"

#include "stats/LoadImbalance.h"

#include <QtEndian>

#include <zstd.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace moewb::store {

namespace {

// zstd level 1: the chunks are small varints with little long-range structure, and
// higher levels save a few percent for several times the time (docs/store.md).
constexpr int kZstdLevel = 1;
// A chunk's uncompressed stream is at most this large (a guard against a damaged
// frame header claiming gigabytes).
constexpr std::size_t kMaxChunkBytes = std::size_t(64) << 20;

struct ZstdContexts {
    std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> c{ZSTD_createCCtx(), &ZSTD_freeCCtx};
    std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> d{ZSTD_createDCtx(), &ZSTD_freeDCtx};
};
ZstdContexts& contexts() {
    thread_local ZstdContexts ctx; // one per thread: import workers compress in parallel
    return ctx;
}

inline std::uint64_t zigzag(std::int64_t v) {
    return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t v) {
    return std::int64_t(v >> 1) ^ -std::int64_t(v & 1);
}

class Writer {
public:
    explicit Writer(std::size_t reserve) { m_buf.resize(reserve); }
    void varint(std::uint64_t v) {
        if (m_pos + 10 > m_buf.size())
            m_buf.resize(m_buf.size() * 2 + 16);
        auto* p = m_buf.data() + m_pos;
        while (v >= 0x80) {
            *p++ = std::uint8_t(v | 0x80);
            v >>= 7;
        }
        *p++ = std::uint8_t(v);
        m_pos = std::size_t(p - m_buf.data());
    }
    void signedVarint(std::int64_t v) { varint(zigzag(v)); }
    // Many values below 2^35 at once (at most 5 bytes each), the buffer sized up front.
    void varints(const std::uint64_t* values, std::size_t count) {
        if (m_pos + count * 5 > m_buf.size())
            m_buf.resize(std::max(m_pos + count * 5, m_buf.size() * 2));
        std::uint8_t* p = m_buf.data() + m_pos;
        for (const std::uint64_t* end = values + count; values != end; ++values) {
            std::uint64_t v = *values;
            while (v >= 0x80) {
                *p++ = std::uint8_t(v | 0x80);
                v >>= 7;
            }
            *p++ = std::uint8_t(v);
        }
        m_pos = std::size_t(p - m_buf.data());
    }
    QByteArray compressed() const {
        QByteArray out(qsizetype(ZSTD_compressBound(m_pos)), Qt::Uninitialized);
        const std::size_t n =
            ZSTD_compressCCtx(contexts().c.get(), out.data(), std::size_t(out.size()), m_buf.data(), m_pos, kZstdLevel);
        if (ZSTD_isError(n))
            return {};
        out.truncate(qsizetype(n));
        return out;
    }

private:
    std::vector<std::uint8_t> m_buf;
    std::size_t m_pos = 0;
};

class Reader {
public:
    // False when the blob is not one whole zstd frame of a sane size.
    bool open(const QByteArray& blob) {
        const unsigned long long size = ZSTD_getFrameContentSize(blob.constData(), std::size_t(blob.size()));
        if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kMaxChunkBytes)
            return false;
        m_buf.resize(std::size_t(size));
        const std::size_t n = ZSTD_decompressDCtx(contexts().d.get(), m_buf.data(), m_buf.size(), blob.constData(),
                                                  std::size_t(blob.size()));
        if (ZSTD_isError(n) || n != m_buf.size())
            return false;
        m_pos = 0;
        return true;
    }
    bool varint(std::uint64_t* out) {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_buf.size())
                return false;
            const std::uint8_t b = m_buf[m_pos++];
            v |= std::uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) {
                *out = v;
                return true;
            }
        }
        return false;
    }
    bool signedVarint(std::int64_t* out) {
        std::uint64_t v;
        if (!varint(&v))
            return false;
        *out = unzigzag(v);
        return true;
    }
    bool atEnd() const { return m_pos == m_buf.size(); }

private:
    std::vector<std::uint8_t> m_buf;
    std::size_t m_pos = 0;
};

enum SummaryFlags : std::uint8_t { HasBusiest = 1, HasDropped = 2 };

} // namespace

QByteArray encodeExpertLoad(const QVector<quint32>& tokensPerExpert, ExpertLoadCodec codec) {
    Q_UNUSED(codec); // the per-block form has only RawUInt32LE
    QByteArray blob(tokensPerExpert.size() * qsizetype(sizeof(quint32)), Qt::Uninitialized);
    auto* out = reinterpret_cast<uchar*>(blob.data());
    for (qsizetype i = 0; i < tokensPerExpert.size(); ++i)
        qToLittleEndian<quint32>(tokensPerExpert[i], out + i * qsizetype(sizeof(quint32)));
    return blob;
}

std::optional<QVector<quint32>> decodeExpertLoad(int codec, const QByteArray& blob) {
    if (codec != int(ExpertLoadCodec::RawUInt32LE) || blob.size() % qsizetype(sizeof(quint32)) != 0)
        return std::nullopt;
    QVector<quint32> counts(blob.size() / qsizetype(sizeof(quint32)));
    const auto* in = reinterpret_cast<const uchar*>(blob.constData());
    for (qsizetype i = 0; i < counts.size(); ++i)
        counts[i] = qFromLittleEndian<quint32>(in + i * qsizetype(sizeof(quint32)));
    return counts;
}

QByteArray encodeExpertLoadChunk(std::span<const qint64> steps, std::span<const quint32> counts, int experts) {
    const std::size_t rows = steps.size();
    const auto e = std::size_t(std::max(experts, 0));
    Writer w(32 + rows * 10 + rows * e * 2);
    w.varint(rows);
    w.varint(std::uint64_t(experts));
    qint64 previousStep = 0;
    for (qint64 s : steps) {
        w.signedVarint(s - previousStep);
        previousStep = s;
    }
    // Experts 16 at a time (one cache line of each row): their differences from the
    // step before, read row by row, then each expert's column of varints. A count's
    // difference fits 33 bits, at most 5 varint bytes.
    constexpr std::size_t kGroup = 16;
    std::vector<std::uint64_t> column(kGroup * rows);
    for (std::size_t g = 0; rows > 0 && g < e; g += kGroup) {
        const std::size_t n = std::min(kGroup, e - g);
        for (std::size_t k = 0; k < n; ++k)
            column[k * rows] = zigzag(std::int64_t(counts[g + k])); // the first row: from 0
        for (std::size_t r = 1; r < rows; ++r) {
            const quint32* row = counts.data() + r * e + g;
            const quint32* previous = row - e;
            for (std::size_t k = 0; k < n; ++k)
                column[k * rows + r] = zigzag(std::int64_t(row[k]) - std::int64_t(previous[k]));
        }
        for (std::size_t k = 0; k < n; ++k)
            w.varints(column.data() + k * rows, rows);
    }
    return w.compressed();
}

std::optional<DecodedChunk> decodeExpertLoadChunk(int codec, const QByteArray& blob, int rows, int experts) {
    if (codec != int(ExpertLoadCodec::DeltaVarintZstd) || rows < 0 || experts <= 0)
        return std::nullopt;
    Reader r;
    std::uint64_t n = 0, e = 0;
    if (!r.open(blob) || !r.varint(&n) || !r.varint(&e) || n != std::uint64_t(rows) || e != std::uint64_t(experts))
        return std::nullopt;
    DecodedChunk out;
    out.experts = experts;
    out.steps.resize(rows);
    out.counts.resize(qsizetype(rows) * experts);
    std::int64_t step = 0;
    for (int i = 0; i < rows; ++i) {
        std::int64_t d;
        if (!r.signedVarint(&d))
            return std::nullopt;
        step += d;
        out.steps[i] = step;
    }
    quint32* counts = out.counts.data();
    for (int x = 0; x < experts; ++x) {
        std::int64_t c = 0;
        for (int i = 0; i < rows; ++i) {
            std::int64_t d;
            if (!r.signedVarint(&d))
                return std::nullopt;
            c += d;
            if (c < 0 || c > std::int64_t(UINT32_MAX))
                return std::nullopt;
            counts[qsizetype(i) * experts + x] = quint32(c);
        }
    }
    if (!r.atEnd())
        return std::nullopt;
    return out;
}

LoadSummaryValues summarizeCounts(qint64 step, std::span<const quint32> counts, int expertParallel) {
    LoadSummaryValues v;
    v.step = step;
    std::uint64_t sum = 0;
    std::uint32_t mx = 0;
    int arg = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        sum += counts[i];
        if (counts[i] > mx) {
            mx = counts[i];
            arg = int(i);
        }
    }
    v.sum = sum;
    v.max = mx;
    v.argmax = arg;
    if (expertParallel > 0)
        v.busiestRankTokens = stats::busiestRankLoad(counts, expertParallel);
    return v;
}

QByteArray encodeLoadSummary(std::span<const LoadSummaryValues> rows) {
    std::uint8_t flags = 0;
    for (const LoadSummaryValues& v : rows) {
        if (v.busiestRankTokens)
            flags |= HasBusiest;
        if (v.droppedTokens)
            flags |= HasDropped;
    }
    Writer w(16 + rows.size() * 12);
    w.varint(rows.size());
    w.varint(flags);
    LoadSummaryValues prev;
    for (const LoadSummaryValues& v : rows) {
        w.signedVarint(v.step - prev.step);
        w.signedVarint(std::int64_t(v.sum) - std::int64_t(prev.sum));
        w.signedVarint(std::int64_t(v.max) - std::int64_t(prev.max));
        w.varint(std::uint64_t(v.argmax));
        if (flags & HasBusiest) {
            // 0: not known for this row; else tokens + 1
            w.varint(v.busiestRankTokens ? *v.busiestRankTokens + 1 : 0);
        }
        if (flags & HasDropped)
            w.varint(v.droppedTokens && *v.droppedTokens >= 0 ? std::uint64_t(*v.droppedTokens) + 1 : 0);
        prev = v;
    }
    return w.compressed();
}

std::optional<QVector<LoadSummaryValues>> decodeLoadSummary(int codec, const QByteArray& blob, int rows) {
    if (codec != int(ExpertLoadCodec::DeltaVarintZstd) || rows < 0)
        return std::nullopt;
    Reader r;
    std::uint64_t n = 0, flags = 0;
    if (!r.open(blob) || !r.varint(&n) || !r.varint(&flags) || n != std::uint64_t(rows) || flags > 3)
        return std::nullopt;
    QVector<LoadSummaryValues> out(rows);
    std::int64_t step = 0, sum = 0, mx = 0;
    for (int i = 0; i < rows; ++i) {
        std::int64_t ds, dsum, dmax;
        std::uint64_t arg;
        if (!r.signedVarint(&ds) || !r.signedVarint(&dsum) || !r.signedVarint(&dmax) || !r.varint(&arg))
            return std::nullopt;
        step += ds, sum += dsum, mx += dmax;
        if (sum < 0 || mx < 0 || mx > std::int64_t(UINT32_MAX) || arg > 65535)
            return std::nullopt;
        LoadSummaryValues& v = out[i];
        v.step = step;
        v.sum = std::uint64_t(sum);
        v.max = std::uint32_t(mx);
        v.argmax = int(arg);
        if (flags & HasBusiest) {
            std::uint64_t b;
            if (!r.varint(&b))
                return std::nullopt;
            if (b > 0)
                v.busiestRankTokens = b - 1;
        }
        if (flags & HasDropped) {
            std::uint64_t d;
            if (!r.varint(&d))
                return std::nullopt;
            if (d > 0)
                v.droppedTokens = qint64(d - 1);
        }
    }
    if (!r.atEnd())
        return std::nullopt;
    return out;
}

QByteArray encodeExpertTotals(std::span<const qint64> steps, std::span<const std::uint64_t> totals) {
    Writer w(32 + steps.size() * 10 + totals.size() * 10);
    w.varint(steps.size());
    w.varint(totals.size());
    qint64 previousStep = 0;
    for (qint64 s : steps) {
        w.signedVarint(s - previousStep);
        previousStep = s;
    }
    for (std::uint64_t t : totals)
        w.varint(t);
    return w.compressed();
}

std::vector<std::uint64_t> chunkTotals(std::span<const quint32> counts, int experts) {
    const auto e = std::size_t(std::max(experts, 0));
    std::vector<std::uint64_t> totals(e, 0);
    for (std::size_t i = 0; e > 0 && i + e <= counts.size(); i += e)
        for (std::size_t x = 0; x < e; ++x)
            totals[x] += counts[i + x];
    return totals;
}

std::optional<DecodedTotals> decodeExpertTotals(int codec, const QByteArray& blob, int rows, int experts) {
    if (codec != int(ExpertLoadCodec::DeltaVarintZstd) || rows < 0 || experts <= 0)
        return std::nullopt;
    Reader r;
    std::uint64_t n = 0, e = 0;
    if (!r.open(blob) || !r.varint(&n) || !r.varint(&e) || n != std::uint64_t(rows) || e != std::uint64_t(experts))
        return std::nullopt;
    DecodedTotals out;
    out.steps.resize(rows);
    std::int64_t step = 0;
    for (int i = 0; i < rows; ++i) {
        std::int64_t d;
        if (!r.signedVarint(&d))
            return std::nullopt;
        step += d;
        out.steps[i] = step;
    }
    out.totals.resize(std::size_t(experts));
    // A total of at most 2^32 − 1 tokens at each of the chunk's rows.
    const std::uint64_t most = std::uint64_t(UINT32_MAX) * std::uint64_t(std::max(rows, 1));
    for (std::uint64_t& t : out.totals)
        if (!r.varint(&t) || t > most)
            return std::nullopt;
    if (!r.atEnd())
        return std::nullopt;
    return out;
}

} // namespace moewb::store
