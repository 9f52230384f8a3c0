#include "store/TimelineCodec.h"

#include "store/SqlSupport.h"

#include <QtEndian>

#include <zstd.h>

#include <cstring>

namespace moewb::store {

namespace {

constexpr char kMagic[4] = {'M', 'W', 'T', '1'};
constexpr qsizetype kRecordBytes = 8 + 8 + 1 + 1 + 4 + 4 + 8 + 8;
// The largest blob the bounds allow, uncompressed: a frame claiming more is refused
// before anything is allocated.
constexpr qsizetype kMaxRaw = 4 + 4 + qsizetype(kTimelineMaxLabels) * (4 + kTimelineMaxLabelBytes) + 4 +
                              qsizetype(kTimelineMaxIntervals) * kRecordBytes;

template <typename T> void put(QByteArray& out, T v) {
    char b[sizeof(T)];
    qToLittleEndian(v, b);
    out.append(b, sizeof(T));
}

class Reader {
public:
    explicit Reader(const QByteArray& raw) : m_p(raw.constData()), m_left(raw.size()) {}
    template <typename T> bool get(T& v) {
        if (m_left < qsizetype(sizeof(T)))
            return false;
        v = qFromLittleEndian<T>(m_p);
        m_p += sizeof(T);
        m_left -= qsizetype(sizeof(T));
        return true;
    }
    bool bytes(qsizetype n, const char** at) {
        if (n < 0 || m_left < n)
            return false;
        *at = m_p;
        m_p += n;
        m_left -= n;
        return true;
    }
    qsizetype left() const { return m_left; }

private:
    const char* m_p;
    qsizetype m_left;
};

bool validClass(quint8 c) {
    return c < kTimelineClasses;
}

} // namespace

QByteArray encodeTimeline(const RankStepTimeline& t) {
    QByteArray raw;
    raw.reserve(16 + t.intervals.size() * kRecordBytes);
    raw.append(kMagic, 4);
    put<quint32>(raw, quint32(t.labels.size()));
    for (const QString& l : t.labels) {
        const QByteArray u = l.toUtf8().left(kTimelineMaxLabelBytes);
        put<quint32>(raw, quint32(u.size()));
        raw.append(u);
    }
    put<quint32>(raw, quint32(t.intervals.size()));
    for (const TimelineInterval& i : t.intervals) {
        put<qint64>(raw, i.startNs);
        put<qint64>(raw, i.endNs);
        put<quint8>(raw, quint8(i.cls));
        put<quint8>(raw, quint8(i.callClass));
        put<qint32>(raw, i.name);
        put<qint32>(raw, i.group);
        put<qint64>(raw, i.bytes);
        put<qint64>(raw, i.seq);
    }
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(raw.size()))), Qt::Uninitialized);
    const std::size_t n = ZSTD_compress(out.data(), std::size_t(out.size()), raw.constData(), std::size_t(raw.size()), 3);
    if (ZSTD_isError(n))
        return {};
    out.truncate(qsizetype(n));
    return out;
}

bool decodeTimeline(const QByteArray& blob, RankStepTimeline& t, QString* why) {
    auto bad = [&](const QString& what) {
        *why = StoreTr::tr("a step timeline of rank %1 at step %2 is damaged: %3").arg(t.rank).arg(t.step).arg(what);
        t.labels.clear();
        t.intervals.clear();
        return false;
    };
    const unsigned long long size = ZSTD_getFrameContentSize(blob.constData(), std::size_t(blob.size()));
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
        return bad(StoreTr::tr("not a compressed frame"));
    if (size > (unsigned long long)kMaxRaw || size < 12)
        return bad(StoreTr::tr("it claims %1 bytes").arg(size));
    QByteArray raw(qsizetype(size), Qt::Uninitialized);
    const std::size_t n = ZSTD_decompress(raw.data(), std::size_t(raw.size()), blob.constData(), std::size_t(blob.size()));
    if (ZSTD_isError(n) || n != std::size_t(size))
        return bad(StoreTr::tr("it does not decompress"));
    Reader r(raw);
    const char* magic = nullptr;
    if (!r.bytes(4, &magic) || std::memcmp(magic, kMagic, 4) != 0)
        return bad(StoreTr::tr("unknown layout"));
    quint32 labels = 0;
    if (!r.get(labels) || labels > quint32(kTimelineMaxLabels) || qsizetype(labels) * 4 > r.left())
        return bad(StoreTr::tr("%1 labels").arg(labels));
    t.labels.clear();
    t.labels.reserve(qsizetype(labels));
    for (quint32 i = 0; i < labels; ++i) {
        quint32 len = 0;
        const char* at = nullptr;
        if (!r.get(len) || len > quint32(kTimelineMaxLabelBytes) || !r.bytes(qsizetype(len), &at))
            return bad(StoreTr::tr("label %1 is cut").arg(i));
        t.labels << QString::fromUtf8(at, qsizetype(len));
    }
    quint32 count = 0;
    if (!r.get(count) || count > quint32(kTimelineMaxIntervals) || qsizetype(count) * kRecordBytes != r.left())
        return bad(StoreTr::tr("%1 intervals in %2 bytes").arg(count).arg(r.left()));
    t.intervals.clear();
    t.intervals.reserve(qsizetype(count));
    for (quint32 i = 0; i < count; ++i) {
        TimelineInterval v;
        quint8 cls = 0, callClass = 0;
        qint32 name = 0, group = 0;
        r.get(v.startNs);
        r.get(v.endNs);
        r.get(cls);
        r.get(callClass);
        r.get(name);
        r.get(group);
        r.get(v.bytes);
        r.get(v.seq);
        if (!validClass(cls) || !validClass(callClass) || v.endNs < v.startNs || name < -1 || group < -1 ||
            name >= qint32(labels) || group >= qint32(labels))
            return bad(StoreTr::tr("interval %1 is out of range").arg(i));
        v.cls = TimelineClass(cls);
        v.callClass = TimelineClass(callClass);
        v.name = name;
        v.group = group;
        t.intervals << v;
    }
    return true;
}

} // namespace moewb::store
