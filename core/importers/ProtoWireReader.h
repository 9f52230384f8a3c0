#pragma once
// A minimal protobuf wire-format reader: enough to walk TensorBoard's Event,
// Summary and TensorProto messages without generated code. Every read is bounds-
// checked; a malformed message makes next() return false with error() set.
#include <QByteArray>
#include <QString>

#include <string_view>

namespace moewb::importers {

class ProtoWireReader {
public:
    enum WireType { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

    explicit ProtoWireReader(std::string_view bytes) : m_pos(bytes.data()), m_end(bytes.data() + bytes.size()) {}

    // Advances to the next field; false at the end or on an error (see error()).
    bool next();
    quint32 field() const { return m_field; }
    WireType wireType() const { return m_wire; }

    // The current field's value; call at most one, matching wireType().
    quint64 varint() const { return m_varint; }
    double fixed64AsDouble() const;
    float fixed32AsFloat() const;
    std::string_view bytes() const { return m_bytes; }

    const QString& error() const { return m_error; }

    static bool readVarint(const char*& pos, const char* end, quint64& value);

private:
    const char* m_pos;
    const char* m_end;
    quint32 m_field = 0;
    WireType m_wire = Varint;
    quint64 m_varint = 0;
    quint64 m_fixed = 0;
    std::string_view m_bytes;
    QString m_error;
};

} // namespace moewb::importers
