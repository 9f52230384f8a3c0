#pragma once
// Expert load is stored as one blob per (run, step, layer): the token count of
// every expert of that layer at that step. A codec byte beside each blob leaves
// room for compression later without a schema change.
#include <QByteArray>
#include <QVector>

#include <optional>

namespace moewb::store {

enum class ExpertLoadCodec : int {
    RawUInt32LE = 0, // E little-endian uint32 counts, 4·E bytes
};

QByteArray encodeExpertLoad(const QVector<quint32>& tokensPerExpert,
                            ExpertLoadCodec codec = ExpertLoadCodec::RawUInt32LE);
// nullopt for an unknown codec or a blob whose size does not fit the codec.
std::optional<QVector<quint32>> decodeExpertLoad(int codec, const QByteArray& blob);

} // namespace moewb::store
