#include "importers/ProtoWireReader.h"

#include "importers/ImportSupport.h"

#include <cstring>

namespace moewb::importers {

bool ProtoWireReader::readVarint(const char*& pos, const char* end, quint64& value) {
    value = 0;
    for (int shift = 0; shift < 64 && pos < end; shift += 7) {
        const auto b = static_cast<unsigned char>(*pos++);
        value |= quint64(b & 0x7F) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

bool ProtoWireReader::next() {
    if (!m_error.isEmpty() || m_pos >= m_end)
        return false;
    quint64 tag = 0;
    if (!readVarint(m_pos, m_end, tag)) {
        m_error = ImportTr::tr("a protobuf field tag is cut off");
        return false;
    }
    m_field = quint32(tag >> 3);
    const quint32 wire = quint32(tag & 7);
    if (m_field == 0) {
        m_error = ImportTr::tr("a protobuf field number 0");
        return false;
    }
    switch (wire) {
    case Varint:
        m_wire = Varint;
        if (!readVarint(m_pos, m_end, m_varint)) {
            m_error = ImportTr::tr("a protobuf varint is cut off (field %1)").arg(m_field);
            return false;
        }
        return true;
    case Fixed64:
        m_wire = Fixed64;
        if (m_end - m_pos < 8) {
            m_error = ImportTr::tr("a protobuf 64-bit value is cut off (field %1)").arg(m_field);
            return false;
        }
        memcpy(&m_fixed, m_pos, 8); // little-endian hosts only (x86-64, aarch64)
        m_pos += 8;
        return true;
    case Fixed32: {
        m_wire = Fixed32;
        if (m_end - m_pos < 4) {
            m_error = ImportTr::tr("a protobuf 32-bit value is cut off (field %1)").arg(m_field);
            return false;
        }
        quint32 v = 0;
        memcpy(&v, m_pos, 4);
        m_fixed = v;
        m_pos += 4;
        return true;
    }
    case LengthDelimited: {
        m_wire = LengthDelimited;
        quint64 length = 0;
        if (!readVarint(m_pos, m_end, length) || length > quint64(m_end - m_pos)) {
            m_error = ImportTr::tr("a protobuf length-delimited field runs past its message (field %1)").arg(m_field);
            return false;
        }
        m_bytes = std::string_view(m_pos, size_t(length));
        m_pos += length;
        return true;
    }
    default:
        m_error = ImportTr::tr("an unsupported protobuf wire type %1 (field %2)").arg(wire).arg(m_field);
        return false;
    }
}

double ProtoWireReader::fixed64AsDouble() const {
    double d = 0;
    memcpy(&d, &m_fixed, 8);
    return d;
}

float ProtoWireReader::fixed32AsFloat() const {
    const quint32 v = quint32(m_fixed);
    float f = 0;
    memcpy(&f, &v, 4);
    return f;
}

} // namespace moewb::importers
