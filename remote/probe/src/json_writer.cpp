#include "json_writer.h"

#include <cmath>
#include <cstdio>

namespace moeprobe {

std::string JsonWriter::escape(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
    return out;
}

void JsonWriter::newline() {
    if (!pretty_)
        return;
    out_ += '\n';
    out_.append(stack_.size() * 2, ' ');
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!stack_.empty()) {
        if (!stack_.back().empty)
            out_ += ',';
        stack_.back().empty = false;
        newline();
    }
}

JsonWriter& JsonWriter::begin_object() {
    before_value();
    out_ += '{';
    stack_.push_back({true, true});
    return *this;
}

JsonWriter& JsonWriter::end_object() {
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty)
        newline();
    out_ += '}';
    if (stack_.empty() && pretty_)
        out_ += '\n';
    return *this;
}

JsonWriter& JsonWriter::begin_array() {
    before_value();
    out_ += '[';
    stack_.push_back({false, true});
    return *this;
}

JsonWriter& JsonWriter::end_array() {
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty)
        newline();
    out_ += ']';
    return *this;
}

JsonWriter& JsonWriter::key(const std::string& name) {
    before_value();
    out_ += escape(name);
    out_ += pretty_ ? ": " : ":";
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(const std::string& s) {
    before_value();
    out_ += escape(s);
    return *this;
}

JsonWriter& JsonWriter::value(const char* s) {
    return s ? value(std::string(s)) : null();
}

JsonWriter& JsonWriter::value(double d) {
    if (!std::isfinite(d))
        return null();
    before_value();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.12g", d);
    out_ += buf;
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i) {
    before_value();
    out_ += std::to_string(i);
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t u) {
    before_value();
    out_ += std::to_string(u);
    return *this;
}

JsonWriter& JsonWriter::value(bool b) {
    before_value();
    out_ += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    out_ += "null";
    return *this;
}

} // namespace moeprobe
