#pragma once
// Reading a fuzzer's bytes as the parts of a crafted project row (tests/fuzz/store_*_fuzz.cpp):
// integers that are either left as they were, small, or any 32- or 64-bit value, and
// blobs that may be wrapped the way the store writes them (a zstd frame, the header
// varints in front), so that the fuzzer reaches past the frame and header checks.
#include <QByteArray>

#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <optional>

namespace moewb::fuzz {

class StoreInput {
public:
    StoreInput(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}
    std::uint8_t byte() { return m_pos < m_size ? m_data[m_pos++] : 0; }
    // nullopt: keep the row's own value.
    std::optional<std::int64_t> value() {
        switch (byte() % 4) {
        case 0:
            return std::nullopt;
        case 1:
            return std::int64_t(std::int8_t(byte()));
        case 2: {
            std::int32_t v = 0;
            take(&v, sizeof v);
            return v;
        }
        default: {
            std::int64_t v = 0;
            take(&v, sizeof v);
            return v;
        }
        }
    }
    QByteArray rest() {
        const QByteArray out(reinterpret_cast<const char*>(m_data + m_pos), qsizetype(m_size - m_pos));
        m_pos = m_size;
        return out;
    }

private:
    void take(void* out, size_t n) {
        const size_t k = std::min(n, m_size - m_pos);
        std::memcpy(out, m_data + m_pos, k);
        m_pos += k;
    }
    const uint8_t* m_data;
    size_t m_size;
    size_t m_pos = 0;
};

inline QByteArray varint(std::uint64_t v) {
    QByteArray out;
    while (v >= 0x80) {
        out += char(std::uint8_t(v | 0x80));
        v >>= 7;
    }
    out += char(std::uint8_t(v));
    return out;
}

inline QByteArray zstdFrame(const QByteArray& stream) {
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(stream.size()))), Qt::Uninitialized);
    const std::size_t n =
        ZSTD_compress(out.data(), std::size_t(out.size()), stream.constData(), std::size_t(stream.size()), 1);
    out.truncate(ZSTD_isError(n) ? 0 : qsizetype(n));
    return out;
}

// flags bit 0: put varints a, b in front; bit 1: wrap in a zstd frame.
inline QByteArray wrappedBlob(QByteArray blob, std::uint8_t flags, std::int64_t a, std::int64_t b) {
    if (flags & 1)
        blob = varint(std::uint64_t(a)) + varint(std::uint64_t(b)) + blob;
    if (flags & 2)
        blob = zstdFrame(blob);
    return blob;
}

} // namespace moewb::fuzz
