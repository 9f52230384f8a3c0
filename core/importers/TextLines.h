#pragma once
// Walks a text file line by line with 1-based line numbers; "\n" and "\r\n" both end
// a line. Views point into the caller's bytes.
#include <QByteArray>
#include <QString>

#include <cstring>
#include <string_view>

namespace moewb::importers {

// The text of a view into UTF-8 bytes.
inline QString toQString(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

class TextLines {
public:
    explicit TextLines(const QByteArray& bytes) : m_pos(bytes.constData()), m_end(m_pos + bytes.size()) {
        // A UTF-8 byte-order mark is not part of the first line.
        if (m_end - m_pos >= 3 && m_pos[0] == '\xEF' && m_pos[1] == '\xBB' && m_pos[2] == '\xBF')
            m_pos += 3;
    }
    bool next(std::string_view& line) {
        if (m_pos >= m_end)
            return false;
        const char* nl = static_cast<const char*>(memchr(m_pos, '\n', size_t(m_end - m_pos)));
        const char* stop = nl ? nl : m_end;
        m_lastHadNewline = nl != nullptr;
        line = std::string_view(m_pos, size_t(stop - m_pos));
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        m_pos = nl ? nl + 1 : m_end;
        ++m_line;
        return true;
    }
    qint64 lineNumber() const { return m_line; }
    // The line just returned was ended by '\n' (false: the file stops inside it).
    bool lastHadNewline() const { return m_lastHadNewline; }

private:
    const char* m_pos;
    const char* m_end;
    qint64 m_line = 0;
    bool m_lastHadNewline = true;
};

} // namespace moewb::importers
