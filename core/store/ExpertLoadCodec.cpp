#include "store/ExpertLoadCodec.h"

#include <QtEndian>

namespace moewb::store {

QByteArray encodeExpertLoad(const QVector<quint32>& tokensPerExpert, ExpertLoadCodec codec) {
    Q_UNUSED(codec); // RawUInt32LE is the only codec so far
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

} // namespace moewb::store
