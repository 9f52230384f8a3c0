#pragma once
// CRC-32C (Castagnoli), as TFRecord framing uses it, and TensorFlow's masking.
#include <QtGlobal>

#include <cstddef>

namespace moewb::importers {

quint32 crc32c(const void* data, size_t size);
// TFRecord stores ((crc >> 15) | (crc << 17)) + 0xa282ead8.
inline quint32 maskedCrc32c(const void* data, size_t size) {
    const quint32 crc = crc32c(data, size);
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

} // namespace moewb::importers
