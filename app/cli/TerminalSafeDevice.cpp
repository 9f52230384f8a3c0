#include "TerminalSafeDevice.h"

namespace moewb::cli {
namespace {

void appendHex(QByteArray& out, const char* prefix, unsigned value, int width, const char* suffix) {
    out += prefix;
    out += QByteArray::number(value, 16).rightJustified(width, '0');
    out += suffix;
}

// The code point of the escaped multi-byte sequence starting at s[i] (n bytes left),
// its length in *seqLen; 0 when it is not one of them; -1 when more bytes are needed.
long escapedMultiByte(const unsigned char* s, qint64 n, int* seqLen) {
    if (s[0] == 0xC2) {
        if (n < 2)
            return -1;
        *seqLen = 2;
        return s[1] >= 0x80 && s[1] <= 0x9F ? long(s[1]) : 0; // U+0080–U+009F
    }
    if (s[0] == 0xE2) {
        if (n < 2)
            return (-1);
        if (s[1] != 0x80 && s[1] != 0x81)
            return 0;
        if (n < 3)
            return -1;
        *seqLen = 3;
        const long cp = 0x2000 + ((s[1] & 0x3F) << 6) + (s[2] & 0x3F);
        const bool refused = (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
        return refused ? cp : 0;
    }
    return 0;
}

} // namespace

TerminalSafeDevice::TerminalSafeDevice(std::FILE* stream) : m_stream(stream) {
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

TerminalSafeDevice::~TerminalSafeDevice() {
    if (!m_pending.isEmpty()) {
        const QByteArray rest = escape(m_pending, "", 0);
        std::fwrite(rest.constData(), 1, size_t(rest.size()), m_stream);
        std::fflush(m_stream);
    }
}

QByteArray TerminalSafeDevice::escape(QByteArray& pending, const char* in, qint64 len) {
    const QByteArray data = pending + QByteArray::fromRawData(in, len);
    pending.clear();
    const auto* s = reinterpret_cast<const unsigned char*>(data.constData());
    const qint64 n = data.size();
    QByteArray out;
    out.reserve(n);
    for (qint64 i = 0; i < n; ++i) {
        const unsigned char c = s[i];
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
            appendHex(out, "\\x", c, 2, "");
            continue;
        }
        if (c == 0xC2 || c == 0xE2) {
            int seqLen = 1;
            const long cp = escapedMultiByte(s + i, n - i, &seqLen);
            if (cp < 0 && len > 0) { // split across writes: decide on the next one
                pending = data.mid(i);
                return out;
            }
            if (cp > 0) {
                if (cp < 0x100)
                    appendHex(out, "\\x", unsigned(cp), 2, "");
                else
                    appendHex(out, "\\u{", unsigned(cp), 4, "}");
                i += seqLen - 1;
                continue;
            }
        }
        out += char(c);
    }
    return out;
}

qint64 TerminalSafeDevice::writeData(const char* data, qint64 len) {
    const QByteArray out = escape(m_pending, data, len);
    if (!out.isEmpty() && std::fwrite(out.constData(), 1, size_t(out.size()), m_stream) != size_t(out.size()))
        return -1;
    std::fflush(m_stream);
    return len;
}

QByteArray escapeJsonForTerminal(const QByteArray& json) {
    const auto* s = reinterpret_cast<const unsigned char*>(json.constData());
    const qint64 n = json.size();
    QByteArray out;
    out.reserve(n);
    for (qint64 i = 0; i < n; ++i) {
        if (s[i] == 0xC2 || s[i] == 0xE2) {
            int seqLen = 1;
            const long cp = escapedMultiByte(s + i, n - i, &seqLen);
            if (cp > 0) {
                appendHex(out, "\\u", unsigned(cp), 4, "");
                i += seqLen - 1;
                continue;
            }
        }
        out += char(s[i]);
    }
    return out;
}

} // namespace moewb::cli
