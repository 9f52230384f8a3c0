#include "store/ExpertLoadCodec.h"

#include "stats/LoadImbalance.h"
#include "store/SqlSupport.h"

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

void setWhy(QString* why, const QString& text) {
    if (why)
        *why = text;
}

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
    // False (with why) unless the blob is exactly one zstd frame that declares its
    // content size, that size lies in minBytes..maxBytes, and the frame inflates to
    // exactly that size. Nothing beyond the declared (and checked) size is allocated:
    // a bomb costs at most maxBytes, and a frame that lies about its size is refused.
    bool open(const QByteArray& blob, std::size_t minBytes, std::size_t maxBytes, QString* why) {
        const std::size_t blobSize = std::size_t(blob.size());
        if (blobSize == 0 || ZSTD_findFrameCompressedSize(blob.constData(), blobSize) != blobSize) {
            setWhy(why, StoreTr::tr("its blob is not one whole zstd frame"));
            return false;
        }
        const unsigned long long size = ZSTD_getFrameContentSize(blob.constData(), blobSize);
        if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
            setWhy(why, StoreTr::tr("its zstd frame does not declare its size"));
            return false;
        }
        maxBytes = std::min(maxBytes, kMaxStreamBytes);
        if (size < minBytes || size > maxBytes) {
            setWhy(why, StoreTr::tr("its zstd frame claims %1 bytes where its shape allows %2 to %3")
                            .arg(size)
                            .arg(minBytes)
                            .arg(maxBytes));
            return false;
        }
        m_buf.resize(std::size_t(size));
        const std::size_t n = ZSTD_decompressDCtx(contexts().d.get(), m_buf.data(), m_buf.size(), blob.constData(),
                                                  blobSize);
        if (ZSTD_isError(n) || n != m_buf.size()) {
            setWhy(why, StoreTr::tr("its zstd frame does not inflate to the %1 bytes it claims").arg(size));
            m_buf = {};
            return false;
        }
        m_pos = 0;
        return true;
    }
    // At most 10 bytes, the 10th holding bit 63 only: never a shift past 63 bits, never
    // a read past the buffer.
    bool varint(std::uint64_t* out) {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_buf.size())
                return false;
            const std::uint8_t b = m_buf[m_pos++];
            if (shift == 63 && b > 1)
                return false;
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
    // rows steps, each the zigzag difference from the one before (the first from 0),
    // strictly increasing, summed without overflow.
    bool steps(int rows, QVector<qint64>* out, QString* why) {
        out->resize(rows);
        std::int64_t step = 0;
        for (int i = 0; i < rows; ++i) {
            std::int64_t d;
            if (!signedVarint(&d))
                return ended(why);
            if ((i > 0 && d <= 0) || __builtin_add_overflow(step, d, &step)) {
                setWhy(why, StoreTr::tr("its steps do not increase"));
                return false;
            }
            (*out)[i] = step;
        }
        return true;
    }
    bool ended(QString* why) const {
        setWhy(why, m_pos >= m_buf.size() ? StoreTr::tr("it ends before its last value")
                                          : StoreTr::tr("it holds a malformed number"));
        return false;
    }
    bool atEnd(QString* why) const {
        if (m_pos == m_buf.size())
            return true;
        setWhy(why, StoreTr::tr("it holds %1 bytes after its last value").arg(m_buf.size() - m_pos));
        return false;
    }

private:
    std::vector<std::uint8_t> m_buf;
    std::size_t m_pos = 0;
};

// The two varints every blob starts with: its row count and its expert (or flags)
// figure, which must be the row's.
QString headerMismatch(std::uint64_t n, std::uint64_t e, int rows, int experts) {
    return StoreTr::tr("its header says %1 steps × %2 experts where its row says %3 × %4")
        .arg(n)
        .arg(e)
        .arg(rows)
        .arg(experts);
}

QString badCodec(int codec) {
    return StoreTr::tr("its encoding %1 is unknown").arg(codec);
}

enum SummaryFlags : std::uint8_t { HasBusiest = 1, HasDropped = 2 };

// The largest difference between two uint32 counts, and the largest sum of a row of
// kMaxChunkExperts such counts: a decoded figure beyond them cannot be one.
constexpr std::int64_t kMaxCountDelta = std::int64_t(UINT32_MAX);
constexpr std::int64_t kMaxRowSum = std::int64_t(UINT32_MAX) * kMaxChunkExperts;

} // namespace

std::size_t maxChunkStreamBytes(int rows, int experts) {
    const auto r = std::size_t(std::max(rows, 0)), e = std::size_t(std::max(experts, 0));
    return 20 + 10 * r + 5 * r * e;
}

QString chunkShapeProblem(qint64 layer, qint64 rows, qint64 experts) {
    if (layer < 0 || layer > kMaxLayer)
        return StoreTr::tr("its layer %1 is outside 0 to %2").arg(layer).arg(kMaxLayer);
    if (rows < 1 || rows > kChunkSteps)
        return StoreTr::tr("it claims %1 steps (1 to %2)").arg(rows).arg(kChunkSteps);
    if (experts < 1 || experts > kMaxChunkExperts)
        return StoreTr::tr("it claims %1 experts (1 to %2)").arg(experts).arg(kMaxChunkExperts);
    return {};
}

QByteArray encodeExpertLoad(const QVector<quint32>& tokensPerExpert, ExpertLoadCodec codec) {
    Q_UNUSED(codec); // the per-block form has only RawUInt32LE
    QByteArray blob(tokensPerExpert.size() * qsizetype(sizeof(quint32)), Qt::Uninitialized);
    auto* out = reinterpret_cast<uchar*>(blob.data());
    for (qsizetype i = 0; i < tokensPerExpert.size(); ++i)
        qToLittleEndian<quint32>(tokensPerExpert[i], out + i * qsizetype(sizeof(quint32)));
    return blob;
}

std::optional<QVector<quint32>> decodeExpertLoad(int codec, const QByteArray& blob) {
    if (codec != int(ExpertLoadCodec::RawUInt32LE) || blob.size() % qsizetype(sizeof(quint32)) != 0 ||
        blob.size() / qsizetype(sizeof(quint32)) > kMaxChunkExperts)
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

std::optional<DecodedChunk> decodeExpertLoadChunk(int codec, const QByteArray& blob, int rows, int experts,
                                                  QString* why) {
    if (codec != int(ExpertLoadCodec::DeltaVarintZstd)) {
        setWhy(why, badCodec(codec));
        return std::nullopt;
    }
    if (const QString problem = chunkShapeProblem(0, rows, experts); !problem.isEmpty()) {
        setWhy(why, problem);
        return std::nullopt;
    }
    // Every count takes at least one byte: 2 header bytes, rows steps, rows × experts counts.
    const std::size_t cells = std::size_t(rows) * std::size_t(experts);
    Reader r;
    std::uint64_t n = 0, e = 0;
    if (!r.open(blob, 2 + std::size_t(rows) + cells, maxChunkStreamBytes(rows, experts), why))
        return std::nullopt;
    if (!r.varint(&n) || !r.varint(&e)) {
        r.ended(why);
        return std::nullopt;
    }
    if (n != std::uint64_t(rows) || e != std::uint64_t(experts)) {
        setWhy(why, headerMismatch(n, e, rows, experts));
        return std::nullopt;
    }
    DecodedChunk out;
    out.experts = experts;
    if (!r.steps(rows, &out.steps, why))
        return std::nullopt;
    out.counts.resize(qsizetype(cells));
    quint32* counts = out.counts.data();
    for (int x = 0; x < experts; ++x) {
        std::int64_t c = 0;
        for (int i = 0; i < rows; ++i) {
            std::int64_t d;
            if (!r.signedVarint(&d)) {
                r.ended(why);
                return std::nullopt;
            }
            // |d| ≤ 2^32 − 1 keeps c + d inside int64; c itself must stay a uint32.
            if (d < -kMaxCountDelta || d > kMaxCountDelta || (c += d) < 0 || c > std::int64_t(UINT32_MAX)) {
                setWhy(why, StoreTr::tr("expert %1 has an impossible count at step %2").arg(x).arg(out.steps[i]));
                return std::nullopt;
            }
            counts[qsizetype(i) * experts + x] = quint32(c);
        }
    }
    if (!r.atEnd(why))
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

std::optional<QVector<LoadSummaryValues>> decodeLoadSummary(int codec, const QByteArray& blob, int rows, int experts,
                                                            QString* why) {
    if (codec != int(ExpertLoadCodec::DeltaVarintZstd)) {
        setWhy(why, badCodec(codec));
        return std::nullopt;
    }
    if (const QString problem = chunkShapeProblem(0, rows, experts); !problem.isEmpty()) {
        setWhy(why, problem);
        return std::nullopt;
    }
    // Per row: step, sum, max, argmax and up to two more varints, 1 to 10 bytes each.
    Reader r;
    std::uint64_t n = 0, flags = 0;
    if (!r.open(blob, 2 + 4 * std::size_t(rows), 2 + 60 * std::size_t(rows), why))
        return std::nullopt;
    if (!r.varint(&n) || !r.varint(&flags)) {
        r.ended(why);
        return std::nullopt;
    }
    if (n != std::uint64_t(rows) || flags > 3) {
        setWhy(why, flags > 3 ? StoreTr::tr("its header holds unknown flags %1").arg(flags)
                              : headerMismatch(n, std::uint64_t(experts), rows, experts));
        return std::nullopt;
    }
    const std::int64_t mostSum = std::int64_t(UINT32_MAX) * experts;
    QVector<LoadSummaryValues> out(rows);
    std::int64_t step = 0, sum = 0, mx = 0;
    for (int i = 0; i < rows; ++i) {
        std::int64_t ds, dsum, dmax;
        std::uint64_t arg;
        if (!r.signedVarint(&ds) || !r.signedVarint(&dsum) || !r.signedVarint(&dmax) || !r.varint(&arg)) {
            r.ended(why);
            return std::nullopt;
        }
        if ((i > 0 && ds <= 0) || __builtin_add_overflow(step, ds, &step)) {
            setWhy(why, StoreTr::tr("its steps do not increase"));
            return std::nullopt;
        }
        // Each difference bounded first, so that the running figures cannot overflow.
        const bool sane = dsum >= -kMaxRowSum && dsum <= kMaxRowSum && dmax >= -kMaxCountDelta &&
                          dmax <= kMaxCountDelta && (sum += dsum) >= 0 && sum <= mostSum && (mx += dmax) >= 0 &&
                          mx <= std::int64_t(UINT32_MAX) && mx <= sum && arg < std::uint64_t(experts);
        std::uint64_t b = 0, d = 0;
        const bool extra = (!(flags & HasBusiest) || r.varint(&b)) && (!(flags & HasDropped) || r.varint(&d));
        if (!extra) {
            r.ended(why);
            return std::nullopt;
        }
        if (!sane || (b > 0 && b - 1 > std::uint64_t(sum)) || (d > 0 && d - 1 > std::uint64_t(INT64_MAX))) {
            setWhy(why, StoreTr::tr("its figures at step %1 are impossible for %2 experts").arg(step).arg(experts));
            return std::nullopt;
        }
        LoadSummaryValues& v = out[i];
        v.step = step;
        v.sum = std::uint64_t(sum);
        v.max = std::uint32_t(mx);
        v.argmax = int(arg);
        if (b > 0)
            v.busiestRankTokens = b - 1;
        if (d > 0)
            v.droppedTokens = qint64(d - 1);
    }
    if (!r.atEnd(why))
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

std::optional<DecodedTotals> decodeExpertTotals(int codec, const QByteArray& blob, int rows, int experts,
                                                QString* why) {
    if (codec != int(ExpertLoadCodec::DeltaVarintZstd)) {
        setWhy(why, badCodec(codec));
        return std::nullopt;
    }
    if (const QString problem = chunkShapeProblem(0, rows, experts); !problem.isEmpty()) {
        setWhy(why, problem);
        return std::nullopt;
    }
    Reader r;
    std::uint64_t n = 0, e = 0;
    if (!r.open(blob, 2 + std::size_t(rows) + std::size_t(experts),
                20 + 10 * std::size_t(rows) + 10 * std::size_t(experts), why))
        return std::nullopt;
    if (!r.varint(&n) || !r.varint(&e)) {
        r.ended(why);
        return std::nullopt;
    }
    if (n != std::uint64_t(rows) || e != std::uint64_t(experts)) {
        setWhy(why, headerMismatch(n, e, rows, experts));
        return std::nullopt;
    }
    DecodedTotals out;
    if (!r.steps(rows, &out.steps, why))
        return std::nullopt;
    out.totals.resize(std::size_t(experts));
    // A total of at most 2^32 − 1 tokens at each of the chunk's rows.
    const std::uint64_t most = std::uint64_t(UINT32_MAX) * std::uint64_t(rows);
    for (std::size_t x = 0; x < out.totals.size(); ++x) {
        if (!r.varint(&out.totals[x])) {
            r.ended(why);
            return std::nullopt;
        }
        if (out.totals[x] > most) {
            setWhy(why, StoreTr::tr("expert %1's total is more than %2 steps can hold").arg(x).arg(rows));
            return std::nullopt;
        }
    }
    if (!r.atEnd(why))
        return std::nullopt;
    return out;
}

} // namespace moewb::store
