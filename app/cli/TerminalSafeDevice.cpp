#include "TerminalSafeDevice.h"

#include "common/DisplayText.h"

namespace moewb::cli {
namespace {

void appendHex(QByteArray& out, const char* prefix, unsigned value, int width, const char* suffix) {
    out += prefix;
    out += QByteArray::number(value, 16).rightJustified(width, '0');
    out += suffix;
}

// The code point of the UTF-8 sequence starting at s[0] (n bytes left) when it is a
// hidden character (common/DisplayText.h: the one rule every surface escapes by), its
// length in *seqLen; 0 when it is not one (or not a valid sequence: passed on as it is);
// -1 when more bytes are needed to tell.
long escapedMultiByte(const unsigned char* s, qint64 n, int* seqLen) {
    const unsigned char lead = s[0];
    const int len = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
    if (len == 0)
        return 0;
    char32_t cp = lead & (0x7F >> len);
    for (int k = 1; k < len; ++k) {
        if (k >= n)
            return -1;
        if ((s[k] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    *seqLen = len;
    return isHiddenCharacter(cp) ? long(cp) : 0;
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
        if (c >= 0xC2 && c <= 0xF4) {
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
        if (s[i] >= 0xC2 && s[i] <= 0xF4) {
            int seqLen = 1;
            const long cp = escapedMultiByte(s + i, n - i, &seqLen);
            if (cp > 0) {
                if (cp > 0xFFFF) { // JSON writes it as a surrogate pair
                    appendHex(out, "\\u", unsigned(0xD800 + ((cp - 0x10000) >> 10)), 4, "");
                    appendHex(out, "\\u", unsigned(0xDC00 + ((cp - 0x10000) & 0x3FF)), 4, "");
                } else {
                    appendHex(out, "\\u", unsigned(cp), 4, "");
                }
                i += seqLen - 1;
                continue;
            }
        }
        out += char(s[i]);
    }
    return out;
}

} // namespace moewb::cli
