#include "importers/ExpertLoadJsonl.h"
#include "importers/TextLines.h"

#include "importers/ImportLimits.h"
#include "importers/JsonCursor.h"
#include "importers/MetricNames.h"

#include <QHash>
#include <QIODevice>
#include <QJsonArray>

#include <algorithm>
#include <bit>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <limits>
#include <vector>

namespace moewb::importers {

namespace {


constexpr quint64 kMaxCount = std::numeric_limits<quint32>::max();

inline bool blankChar(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// The digits at p (at least 8 bytes readable there), as many as there are up to 8:
// their count, and their value in v. Eight bytes at once (SWAR): a byte is a digit
// when its high nibble is 3 and adding 6 keeps it so; the first that is not ends the
// number (a carry out of a non-digit byte only reaches the bytes after it).
inline int digitsAt(const char* p, quint64& v) {
    quint64 w;
    memcpy(&w, p, 8);
    const quint64 t = ((w & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) |
                      (((w + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull);
    const int n = t == 0 ? 8 : std::countr_zero(t) >> 3;
    if (n == 0)
        return 0;
    quint64 d = (w & 0x0F0F0F0F0F0F0F0Full) << (8 * (8 - n)); // the first digit most significant
    d = ((d * 10) + (d >> 8)) & 0x00FF00FF00FF00FFull;
    d = ((d * 100) + (d >> 16)) & 0x0000FFFF0000FFFFull;
    d = (d * 10000) + (d >> 32);
    v = d & 0xFFFFFFFFull;
    return n;
}

// Moves the cursor to p (on the same line: no newline between).
void advanceTo(JsonCursor& c, const char* p) {
    JsonCursor::State s = c.state();
    s.pos = p;
    c.restore(s);
}

// The tight loop for the common case, one array of plain counts on one line after its
// '[': "123, 45, 6]" into out (cleared first), p left after the ']'. False on anything
// else (an empty array, a leading zero, a fraction, a count over 2^32 - 1, a newline,
// the end of the input, more than kMaxExperts values): the caller then reads the array
// the general way, from its start, which says exactly what is wrong.
bool readCountsFast(const char*& pos, const char* end, std::vector<quint32>& out) {
    out.clear();
    const char* p = pos;
    while (p < end && blankChar(*p))
        ++p;
    for (;;) {
        const char* start = p;
        quint64 v = 0;
        if (end - p >= 16) {
            const int n = digitsAt(p, v);
            p += n;
            if (n == 8) {
                // 9 or 10 digits (4294967295 at most): the rest one at a time.
                for (int k = 0; k < 2 && quint8(*p - '0') < 10; ++k)
                    v = v * 10 + quint64(*p++ - '0');
            }
        } else {
            // At most 10 digits (4294967295): the value cannot overflow 64 bits.
            const char* const digitsEnd = end - p > 10 ? p + 10 : end;
            while (p < digitsEnd && quint8(*p - '0') < 10)
                v = v * 10 + quint64(*p++ - '0');
        }
        if (p == start || p == end || v > kMaxCount || (*start == '0' && p - start > 1))
            return false;
        if (out.size() >= size_t(kMaxExperts))
            return false;
        out.push_back(quint32(v));
        char ch = *p;
        if (ch == ',') {
            ++p;
            while (p < end && blankChar(*p))
                ++p;
            continue;
        }
        while (blankChar(ch)) {
            if (++p == end)
                return false;
            ch = *p;
        }
        if (ch == ']') {
            pos = p + 1;
            return true;
        }
        if (ch != ',')
            return false; // a digit after 10, '.', 'e', a newline, a stray character
        ++p;
        while (p < end && blankChar(*p))
            ++p;
    }
}

// Scan: one array of counts after its '[' skipped, its length taken from its commas;
// false where it is not plainly one line's array (the caller reads it the general way).
bool skipCountsFast(const char*& pos, const char* end, qint64& length) {
    const char* p = pos;
    while (p < end && blankChar(*p))
        ++p;
    if (p == end || quint8(*p - '0') >= 10)
        return false; // empty, or not a count: the general way says what
    // Up to the ']', digits, commas and spaces only: anything else — a fraction, a sign,
    // a string, a newline — is read the general way, so that the plan names it. What
    // the scan cannot see (a count over 2^32 - 1, a leading zero, ",,") is found when
    // the counts are read at save. Sixteen bytes at a time where SSE2 is there.
    size_t commas = 0;
    const char* close = nullptr;
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(','), space = _mm_set1_epi8(' '), bracket = _mm_set1_epi8(']');
    const __m128i belowZero = _mm_set1_epi8('0' - 1), aboveNine = _mm_set1_epi8('9' + 1);
    const __m128i one = _mm_set1_epi8(1), zero = _mm_setzero_si128();
    __m128i commaSums = zero; // two 64-bit sums of the whole blocks' commas
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i isComma = _mm_cmpeq_epi8(v, comma);
        const __m128i isDigit = _mm_and_si128(_mm_cmpgt_epi8(v, belowZero), _mm_cmplt_epi8(v, aboveNine));
        const unsigned ok = unsigned(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(isComma, isDigit),
                                                                    _mm_cmpeq_epi8(v, space))));
        const unsigned closeBits = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, bracket)));
        if (closeBits) {
            const unsigned before = (1u << std::countr_zero(closeBits)) - 1;
            if ((ok & before) != before)
                return false;
            commas += size_t(std::popcount(unsigned(_mm_movemask_epi8(isComma)) & before));
            close = p + std::countr_zero(closeBits);
            break;
        }
        if (ok != 0xFFFFu)
            return false;
        commaSums = _mm_add_epi64(commaSums, _mm_sad_epu8(_mm_and_si128(isComma, one), zero));
        p += 16;
    }
    commas += size_t(_mm_cvtsi128_si64(commaSums)) + size_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(commaSums, commaSums)));
#endif
    for (; !close && p < end; ++p) {
        const char ch = *p;
        if (ch == ']')
            close = p;
        else if (ch == ',')
            ++commas;
        else if (ch != ' ' && quint8(ch - '0') >= 10)
            return false;
    }
    if (!close)
        return false;
    length = qint64(commas) + 1;
    if (length > kMaxExperts)
        return false;
    pos = close + 1;
    return true;
}

// The counts of one row after the key's '[': flat ("[1, 2]") or, when nested, the inner
// rows ("[[1, 2], [3, 4]]") summed per expert. Fast: true with the row in `out`, or
// false, the cursor untouched, when the general way must read it.
bool readRowFast(JsonCursor& c, const char* end, bool nested, std::vector<quint32>& out,
                 std::vector<quint32>& inner) {
    const char* p = c.position();
    if (!nested) {
        if (!readCountsFast(p, end, out))
            return false;
        advanceTo(c, p);
        return true;
    }
    bool first = true;
    for (;;) {
        if (p >= end || *p != '[')
            return false;
        ++p;
        if (first) {
            if (!readCountsFast(p, end, out))
                return false;
            first = false;
        } else {
            if (!readCountsFast(p, end, inner) || inner.size() != out.size())
                return false;
            for (size_t i = 0; i < out.size(); ++i) {
                const quint64 sum = quint64(out[i]) + inner[i];
                if (sum > kMaxCount)
                    return false;
                out[i] = quint32(sum);
            }
        }
        while (p < end && blankChar(*p))
            ++p;
        if (p < end && *p == ',') {
            ++p;
            while (p < end && blankChar(*p))
                ++p;
            continue;
        }
        if (p < end && *p == ']') {
            advanceTo(c, p + 1);
            return true;
        }
        return false;
    }
}

// Scan: the same, skipping the values; the row's length (every inner row's the same).
bool skipRowFast(JsonCursor& c, const char* end, bool nested, qint64& length) {
    const char* p = c.position();
    if (!nested) {
        if (!skipCountsFast(p, end, length))
            return false;
        advanceTo(c, p);
        return true;
    }
    qint64 width = -1;
    for (;;) {
        if (p >= end || *p != '[')
            return false;
        ++p;
        qint64 n = 0;
        if (!skipCountsFast(p, end, n) || (width >= 0 && n != width))
            return false;
        width = n;
        while (p < end && blankChar(*p))
            ++p;
        if (p < end && *p == ',') {
            ++p;
            while (p < end && blankChar(*p))
                ++p;
            continue;
        }
        if (p < end && *p == ']') {
            length = width;
            advanceTo(c, p + 1);
            return true;
        }
        return false;
    }
}

} // namespace

qint64 rankOfFileName(const QString& fileName, std::string_view prefix, std::string_view suffix) {
    const qsizetype slash = std::max(fileName.lastIndexOf(QLatin1Char('/')), fileName.lastIndexOf(QLatin1Char('\\')));
    const QStringView base = QStringView(fileName).mid(slash + 1);
    const QLatin1String pre(prefix.data(), qsizetype(prefix.size()));
    const QLatin1String suf(suffix.data(), qsizetype(suffix.size()));
    if (base.size() <= pre.size() + suf.size() || !base.startsWith(pre) || !base.endsWith(suf))
        return -1;
    const QStringView digits = base.mid(pre.size(), base.size() - pre.size() - suf.size());
    if (digits.size() > 7 || (digits.size() > 1 && digits.front() == QLatin1Char('0')))
        return -1;
    qint64 n = 0;
    for (QChar ch : digits) {
        if (ch < QLatin1Char('0') || ch > QLatin1Char('9'))
            return -1;
        n = n * 10 + (ch.unicode() - '0');
    }
    return n < kMaxRanks ? n : -1;
}

bool readMegatronBlock(JsonCursor& c, std::string& scratch, bool& isMtp) {
    std::string_view value;
    if (c.peek() != '"')
        return c.fail(ImportTr::tr("must be the string \"decoder\" or \"mtp\""), true);
    if (!c.readString(value, scratch))
        return false;
    if (value != "mtp" && value != "decoder")
        return c.fail(ImportTr::tr("must be \"decoder\" or \"mtp\", not \"%1\"").arg(excerpt(value)), true);
    isMtp = value == "mtp";
    return true;
}

bool readMtpIndex(JsonCursor& c, quint64& mtpIndex) {
    if (!c.readUnsigned(mtpIndex))
        return false;
    if (mtpIndex > quint64(kMaxMtpIndex))
        return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(mtpIndex).arg(kMaxMtpIndex), true);
    return true;
}

namespace {

// The whole lines of the input, a run at a time: [pos, end) ends after a newline, or at
// the end of the input. From memory, one run; from a device, one block at a time, the
// line cut by the block's end carried over (a line longer than a block grows it).
class LineRuns {
public:
    explicit LineRuns(const QByteArray& bytes) : m_whole(&bytes), m_total(bytes.size()) {}
    LineRuns(QIODevice& device, qint64 total, qint64 blockBytes)
        : m_device(&device), m_total(total), m_blockBytes(std::max<qint64>(blockBytes, 1)) {}

    qint64 total() const { return m_total; }
    const QString& readError() const { return m_readError; }

    bool next(const char*& pos, const char*& end) {
        if (m_whole) {
            if (m_done)
                return false;
            m_done = true;
            pos = m_whole->constData();
            end = pos + m_whole->size();
            return pos < end;
        }
        if (m_carryLength > 0)
            memmove(m_buffer.data(), m_buffer.data() + m_carryStart, size_t(m_carryLength));
        qint64 held = m_carryLength;
        m_carryLength = 0;
        while (!m_atEnd) {
            if (qint64(m_buffer.size()) < held + m_blockBytes) {
                // Sized exactly (no doubling): a block and room for the carried line, once;
                // more only for a line longer than that room.
                if (qint64(m_buffer.capacity()) < held + m_blockBytes)
                    m_buffer.reserve(size_t(held + m_blockBytes + (held == 0 ? kCarryRoom : held)));
                m_buffer.resize(size_t(held + m_blockBytes));
            }
            const qint64 n = m_device->read(m_buffer.data() + held, m_blockBytes);
            if (n < 0) {
                m_readError = m_device->errorString();
                return false;
            }
            if (n == 0) {
                m_atEnd = true;
                break;
            }
            const char* block = m_buffer.data() + held;
            held += n;
            const char* newline = block + n;
            while (newline > block && newline[-1] != '\n')
                --newline;
            if (newline > block) {
                const qint64 cut = newline - m_buffer.data();
                m_carryStart = cut;
                m_carryLength = held - cut;
                pos = m_buffer.data();
                end = pos + cut;
                return true;
            }
        }
        if (held == 0)
            return false;
        pos = m_buffer.data(); // the last line, without a newline
        end = pos + held;
        return true;
    }

private:
    static constexpr qint64 kCarryRoom = 64 << 10;
    const QByteArray* m_whole = nullptr;
    QIODevice* m_device = nullptr;
    qint64 m_total = 0;
    qint64 m_blockBytes = 0;
    std::vector<char> m_buffer;
    qint64 m_carryStart = 0, m_carryLength = 0;
    bool m_atEnd = false;
    bool m_done = false;
    QString m_readError;
};

ImportResult parseLines(LineRuns& runs, const QString& file, const ExpertLoadJsonlLayout& layout,
                        ExpertLoadJsonlPass& pass);

} // namespace

ImportResult parseExpertLoadJsonl(const QByteArray& bytes, const QString& file, const ExpertLoadJsonlLayout& layout) {
    LineRuns runs(bytes);
    ExpertLoadJsonlPass keep;
    return parseLines(runs, file, layout, keep);
}

ImportResult parseExpertLoadJsonl(QIODevice& device, qint64 size, const QString& file,
                                  const ExpertLoadJsonlLayout& layout, qint64 blockBytes) {
    LineRuns runs(device, size, blockBytes);
    ExpertLoadJsonlPass keep;
    return parseLines(runs, file, layout, keep);
}

ImportResult parseExpertLoadJsonl(QIODevice& device, qint64 size, const QString& file,
                                  const ExpertLoadJsonlLayout& layout, ExpertLoadJsonlPass& pass, qint64 blockBytes) {
    LineRuns runs(device, size, blockBytes);
    return parseLines(runs, file, layout, pass);
}

namespace {

ImportResult parseLines(LineRuns& runs, const QString& file, const ExpertLoadJsonlLayout& layout,
                        ExpertLoadJsonlPass& pass) {
    using Mode = ExpertLoadJsonlPass::Mode;
    const bool scanning = pass.mode == Mode::Scan;
    const bool streaming = pass.mode == Mode::Stream;
    if (scanning) {
        pass.rows = 0;
        pass.experts = 0;
        pass.dropped.clear();
        pass.stepOrdered = true;
        pass.anyMtp = false;
    }
    pass.stopped = false;
    size_t droppedAt = 0;  // Stream: the first of pass.dropped not yet behind the line
    qint64 streamed = 0;   // Stream: rows handed on
    std::vector<quint32> inner; // a nested row's later inner rows (fast path)
    ImportedData data;
    data.format = QString::fromLatin1(layout.format);
    const char* pos = nullptr;
    const char* end = nullptr;
    qint64 runsRead = 0;
    // (step, block, layer) keys seen, for duplicates: files are normally in increasing
    // order (Megatron writes the decoder's layers, then the MTP blocks'), so the set is
    // only built once a key arrives out of order.
    QHash<qint64, qint64> seen; // expertLoadBlockKey -> line
    qint64 lastKey = -1;
    bool ordered = true;
    std::vector<qint64> lineOf; // line of each block, to name the first of a duplicate pair
    std::vector<quint64> sums;  // a nested row's per-expert sums
    std::vector<quint32> flat;  // a flat row's counts
    qint64 experts = 0, expertsLine = 0;
    qint64 lineNo = 0;
    qint64 rank = -1;
    bool mixedRanks = false;
    bool anyMtp = false;
    qint64 resumes = 0, replacedBlocks = 0; // a resumed training's lines (megatronBlocks)
    QJsonArray resumedFrom;
    // "experts_scope": "all" (remote/collect's tokens-per-expert lines: counts over all
    // experts of this rank's routed tokens); every line of a file says the same.
    qint64 scopedLine = 0, unscopedLine = 0;
    // Megatron's save_tpe writes {save}/tokens_per_expert/rank{global_rank}.jsonl.
    const qint64 fileRank = layout.megatronBlocks ? rankOfFileName(file, "rank", ".jsonl") : -1;
    std::string scratch, valueScratch;
    const QString stepName = toQString(layout.stepKey);
    const QString countsName = toQString(layout.countsKey);

    for (;;) {
        if (pos >= end) {
            if (!runs.next(pos, end))
                break;
            if (runsRead++ == 0 && end - pos >= 3 && memcmp(pos, "\xEF\xBB\xBF", 3) == 0)
                pos += 3;
            continue;
        }
        ++lineNo;
        const char* lineStart = pos;
        JsonCursor c(pos, end, lineNo);
        c.setStopAtNewline(true);
        if (c.atEnd()) { // blank line
            pos = c.position() < end ? c.position() + 1 : end;
            continue;
        }
        std::string_view field; // the key being read
        bool haveStep = false, haveLayer = false, haveCounts = false, haveBlock = false, haveMtpIndex = false,
             haveScope = false;
        bool isMtp = false;
        quint64 step = 0, layer = 0, mtpIndex = 0;
        qint64 count = 0;
        store::ExpertLoadBlock block;
        const bool read = c.readLineObject(scratch, field, [&](std::string_view key) {
            if (key == layout.stepKey) {
                if (haveStep)
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!c.readUnsigned(step))
                    return false;
                if (step > quint64(kMaxStep))
                    return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(step).arg(kMaxStep), true);
                haveStep = true;
            } else if (key == "layer") {
                if (haveLayer)
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!c.readUnsigned(layer))
                    return false;
                if (layer > quint64(kMaxLayer))
                    return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(layer).arg(kMaxLayer), true);
                haveLayer = true;
            } else if (key == "rank") {
                quint64 r = 0;
                if (!c.readUnsigned(r))
                    return false;
                if (fileRank >= 0 && r != quint64(fileRank))
                    return c.fail(ImportTr::tr("is %1 but the file name says rank %2").arg(r).arg(fileRank), true);
                if (rank >= 0 && quint64(rank) != r)
                    mixedRanks = true;
                rank = qint64(std::min<quint64>(r, quint64(std::numeric_limits<qint64>::max())));
            } else if (key == layout.countsKey) {
                if (haveCounts)
                    return c.fail(ImportTr::tr("appears twice"), true);
                haveCounts = true;
                if (!c.consume('['))
                    return c.fail(ImportTr::tr("must be an array of token counts"), true);
                const bool nested = c.peek() == '[';
                if (nested && !layout.allowNested)
                    return c.fail(ImportTr::tr("must be a flat array of token counts, one per expert"), true);
                // The fast ways first (a plain array of counts on the line); anything
                // else is read the general way below, which names what is wrong.
                if (scanning) {
                    qint64 length = 0;
                    if (skipRowFast(c, end, nested, length)) {
                        count = length;
                        return true;
                    }
                } else if (readRowFast(c, end, nested, flat, inner)) {
                    count = qint64(flat.size());
                    if (!streaming) {
                        block.tokensPerExpert.reserve(qsizetype(flat.size()));
                        block.tokensPerExpert.resize(qsizetype(flat.size()));
                        memcpy(block.tokensPerExpert.data(), flat.data(), flat.size() * sizeof(quint32));
                    }
                    return true;
                }
                qint64 width = -1;
                sums.clear();
                auto readRow = [&]() -> bool {
                    // One array of counts, the '[' already consumed.
                    qint64 length = 0;
                    const bool ok = c.readUnsignedArrayRest([&](qint64 i, quint64 v) {
                        if (v > kMaxCount)
                            return c.fail(ImportTr::tr("is absurd: %1 tokens for one expert (at most %2)")
                                              .arg(v)
                                              .arg(kMaxCount));
                        if (i >= kMaxExperts)
                            return c.fail(ImportTr::tr("lists more than %1 experts").arg(kMaxExperts));
                        length = i + 1;
                        if (i >= qint64(sums.size())) {
                            if (width >= 0)
                                return c.fail(ImportTr::tr("rows of different lengths (%1 and more)").arg(width));
                            sums.push_back(0);
                        }
                        sums[size_t(i)] += v;
                        if (sums[size_t(i)] > kMaxCount)
                            return c.fail(ImportTr::tr("is absurd: more than %1 tokens for expert %2")
                                              .arg(kMaxCount)
                                              .arg(i));
                        return true;
                    });
                    if (!ok)
                        return false;
                    if (width >= 0 && length != width)
                        return c.fail(ImportTr::tr("rows of different lengths (%1 and %2)").arg(width).arg(length));
                    width = length;
                    return true;
                };
                if (nested) {
                    do {
                        if (!c.consume('['))
                            return c.fail(ImportTr::tr("must be an array of arrays of token counts"), true);
                        if (!readRow())
                            return false;
                    } while (c.consume(','));
                    if (!c.consume(']'))
                        return c.fail(ImportTr::tr("',' or ']' was expected"), true);
                } else {
                    // The common case, one flat row: each count checked once and kept as
                    // it is read (no running sums, one branch per value).
                    flat.clear();
                    const bool ok = c.readUnsignedArrayRest([&](qint64 i, quint64 v) {
                        if (v > kMaxCount || i >= kMaxExperts) [[unlikely]] {
                            if (v > kMaxCount)
                                return c.fail(ImportTr::tr("is absurd: %1 tokens for one expert (at most %2)")
                                                  .arg(v)
                                                  .arg(kMaxCount));
                            return c.fail(ImportTr::tr("lists more than %1 experts").arg(kMaxExperts));
                        }
                        flat.push_back(quint32(v));
                        return true;
                    });
                    if (!ok)
                        return false;
                }
                const size_t rowWidth = nested ? sums.size() : flat.size();
                if (nested) {
                    flat.resize(rowWidth);
                    for (size_t i = 0; i < rowWidth; ++i)
                        flat[i] = quint32(sums[i]);
                }
                count = qint64(rowWidth);
                if (count == 0)
                    return c.fail(ImportTr::tr("lists no experts"), true);
                if (scanning || streaming)
                    return true; // counted (Scan) or in `flat` (Stream)
                // One allocation per block, exactly sized.
                // reserve() allocates exactly; resize() alone would round the block up
                // (Qt's growth policy), nearly doubling the memory of a 64-expert layer.
                block.tokensPerExpert.reserve(qsizetype(rowWidth));
                block.tokensPerExpert.resize(qsizetype(rowWidth));
                memcpy(block.tokensPerExpert.data(), flat.data(), rowWidth * sizeof(quint32));
            } else if (layout.megatronBlocks && key == "block") {
                if (haveBlock)
                    return c.fail(ImportTr::tr("appears twice"), true);
                haveBlock = true;
                if (!readMegatronBlock(c, valueScratch, isMtp))
                    return false;
            } else if (layout.megatronBlocks && key == "experts_scope") {
                if (haveScope)
                    return c.fail(ImportTr::tr("appears twice"), true);
                haveScope = true;
                std::string_view value;
                if (c.peek() != '"')
                    return c.fail(ImportTr::tr("must be the string \"all\""), true);
                if (!c.readString(value, valueScratch))
                    return false;
                if (value != "all")
                    return c.fail(ImportTr::tr("must be \"all\", not \"%1\"").arg(excerpt(value)), true);
            } else if (layout.megatronBlocks && key == "mtp_idx") {
                if (haveMtpIndex)
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!readMtpIndex(c, mtpIndex))
                    return false;
                haveMtpIndex = true;
            } else if (!c.skipValue()) {
                return false;
            }
            return true;
        });
        if (!read)
            return importError(file, lineNo, toQString(field), c.error());
        pos = c.position() < end ? c.position() + 1 : end;
        if (data.expertLoad.isEmpty() && !streaming) {
            const qsizetype estimate = qsizetype(runs.total() / std::max<qint64>(16, pos - lineStart)) + 16;
            data.expertLoad.reserve(estimate);
            lineOf.reserve(size_t(estimate));
        }
        if (!haveStep)
            return importError(file, lineNo, stepName, ImportTr::tr("is missing"));
        if (!haveLayer)
            return importError(file, lineNo, QStringLiteral("layer"), ImportTr::tr("is missing"));
        if (!haveCounts)
            return importError(file, lineNo, countsName, ImportTr::tr("is missing"));
        if (isMtp && !haveMtpIndex)
            return importError(file, lineNo, QStringLiteral("mtp_idx"), ImportTr::tr("is missing (block is \"mtp\")"));
        if (!isMtp && haveMtpIndex)
            return importError(file, lineNo, QStringLiteral("mtp_idx"),
                               ImportTr::tr("is given but the block is \"decoder\" (mtp_idx belongs to MTP records)"));
        if (haveScope && unscopedLine > 0)
            return importError(file, lineNo, QStringLiteral("experts_scope"),
                               ImportTr::tr("is \"all\" but line %1 has none: a file's lines count either all experts "
                                            "or the rank's local ones")
                                   .arg(unscopedLine));
        if (!haveScope && scopedLine > 0)
            return importError(file, lineNo, QStringLiteral("experts_scope"),
                               ImportTr::tr("is missing but line %1 has \"all\": a file's lines count either all "
                                            "experts or the rank's local ones")
                                   .arg(scopedLine));
        if (haveScope && scopedLine == 0)
            scopedLine = lineNo;
        if (!haveScope && unscopedLine == 0)
            unscopedLine = lineNo;
        const int blockMtp = isMtp ? int(mtpIndex) : -1;
        anyMtp = anyMtp || isMtp;
        if (experts == 0) {
            experts = count;
            expertsLine = lineNo;
        } else if (count != experts) {
            return importError(file, lineNo, countsName,
                               ImportTr::tr("has %1 experts but line %2 has %3").arg(count).arg(expertsLine).arg(experts));
        }
        if (streaming) {
            // The Scan decided which lines survive: hand the others' counts to nobody.
            ++data.rows;
            while (droppedAt < pass.dropped.size() && pass.dropped[droppedAt].second <= lineNo)
                ++droppedAt;
            if (droppedAt < pass.dropped.size() && pass.dropped[droppedAt].first <= lineNo)
                continue;
            ++streamed;
            if (!pass.row(qint64(step), int(layer), std::span<const quint32>(flat.data(), flat.size()))) {
                pass.stopped = true;
                return importError(file, lineNo, {}, QStringLiteral("stopped")); // never shown: row() knows why
            }
            continue;
        }
        const qint64 key = expertLoadBlockKey(qint64(step), blockMtp, int(layer));
        if (layout.megatronBlocks) {
            // Megatron's file: the keys of the last iteration only (a resume, not a
            // duplicate, when one comes again), looked up once one came out of order.
            const qint64 lastStep = data.expertLoad.isEmpty() ? -1 : data.expertLoad.last().step;
            bool again = qint64(step) < lastStep;
            if (qint64(step) == lastStep && (!ordered || key <= lastKey)) {
                if (ordered) {
                    ordered = false;
                    for (qsizetype i = data.expertLoad.size(); i > 0 && data.expertLoad[i - 1].step == lastStep; --i) {
                        const store::ExpertLoadBlock& b = data.expertLoad[i - 1];
                        seen.insert(expertLoadBlockKey(b.step, b.mtpIndex, b.layer), lineOf[size_t(i - 1)]);
                    }
                }
                again = seen.contains(key);
            }
            if (again) {
                qsizetype keep = data.expertLoad.size();
                while (keep > 0 && data.expertLoad[keep - 1].step >= qint64(step))
                    --keep;
                if (scanning && keep < data.expertLoad.size())
                    pass.dropped.emplace_back(lineOf[size_t(keep)], lineNo);
                replacedBlocks += data.expertLoad.size() - keep;
                data.expertLoad.resize(keep);
                lineOf.resize(size_t(keep));
                if (resumes++ < 16)
                    resumedFrom.append(qint64(step));
            }
            if (again || qint64(step) != lastStep) {
                ordered = true;
                seen.clear();
            } else if (!ordered) {
                seen.insert(key, lineNo);
            }
        } else if (ordered && key <= lastKey) {
            ordered = false; // from here on, look every key up
            seen.reserve(data.expertLoad.size() * 2);
            for (qsizetype i = 0; i < data.expertLoad.size(); ++i) {
                const store::ExpertLoadBlock& b = data.expertLoad[i];
                seen.insert(expertLoadBlockKey(b.step, b.mtpIndex, b.layer), lineOf[i]);
            }
        }
        if (!ordered && !layout.megatronBlocks) {
            const auto previous = seen.constFind(key);
            if (previous != seen.constEnd())
                return importError(file, lineNo, stepName,
                                   ImportTr::tr("%1 %2, layer %3 appears again (first on line %4)")
                                       .arg(stepName)
                                       .arg(step)
                                       .arg(layer)
                                       .arg(*previous));
            seen.insert(key, lineNo);
        }
        lastKey = key;
        lineOf.push_back(lineNo);
        block.step = qint64(step);
        block.layer = int(layer);
        block.mtpIndex = blockMtp;
        data.expertLoad.append(std::move(block));
        ++data.rows;
    }
    if (!runs.readError().isEmpty())
        return importError(file, 0, {}, ImportTr::tr("cannot read: %1").arg(runs.readError()));
    if (streaming) {
        // The file read now must be the file scanned: the same rows, as wide.
        if (streamed != pass.rows || experts != pass.experts)
            return importError(file, 0, {},
                               ImportTr::tr("has changed since it was read for the plan (%1 rows of %2 experts "
                                            "then, %3 of %4 now): plan the import again")
                                   .arg(pass.rows)
                                   .arg(pass.experts)
                                   .arg(streamed)
                                   .arg(experts));
        return data;
    }
    if (scanning) {
        pass.rows = data.expertLoad.size();
        pass.experts = experts;
        pass.anyMtp = anyMtp;
        std::sort(pass.dropped.begin(), pass.dropped.end());
        std::vector<std::pair<qint64, qint64>> merged;
        for (const auto& range : pass.dropped) {
            if (!merged.empty() && range.first <= merged.back().second)
                merged.back().second = std::max(merged.back().second, range.second);
            else
                merged.push_back(range);
        }
        pass.dropped = std::move(merged);
        for (qsizetype i = 1; i < data.expertLoad.size(); ++i)
            if (data.expertLoad[i].step < data.expertLoad[i - 1].step) {
                pass.stepOrdered = false;
                break;
            }
    }
    if (data.expertLoad.isEmpty())
        return importError(file, 0, {}, ImportTr::tr("no expert-load lines found (the file is empty)"));
    data.environment.insert(QStringLiteral("experts"), experts);
    if (fileRank >= 0)
        data.environment.insert(QStringLiteral("rank"), fileRank);
    else if (rank >= 0 && !mixedRanks)
        data.environment.insert(QStringLiteral("rank"), rank);
    if (layout.megatronBlocks)
        data.environment.insert(QStringLiteral("mtp"), anyMtp);
    if (scopedLine > 0)
        data.environment.insert(QStringLiteral("experts_scope"), QStringLiteral("all"));
    if (resumes > 0) {
        data.environment.insert(QStringLiteral("resumes"), resumes);
        data.environment.insert(QStringLiteral("resumed_from_steps"), resumedFrom);
        data.environment.insert(QStringLiteral("replaced_blocks"), replacedBlocks);
    }
    return data;
}

} // namespace

} // namespace moewb::importers
