// A small streaming JSON writer: correct string escaping, finite numbers only
// (NaN and infinities become null), commas and nesting handled by the writer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moeprobe {

class JsonWriter {
public:
    explicit JsonWriter(bool pretty = true) : pretty_(pretty) {}

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(const std::string& name);

    JsonWriter& value(const std::string& s);
    JsonWriter& value(const char* s);
    JsonWriter& value(double d);
    JsonWriter& value(std::int64_t i);
    JsonWriter& value(std::uint64_t u);
    JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
    JsonWriter& value(bool b);
    JsonWriter& null();

    template <typename T> JsonWriter& field(const std::string& name, const T& v) {
        key(name);
        return value(v);
    }
    JsonWriter& null_field(const std::string& name) {
        key(name);
        return null();
    }

    const std::string& text() const { return out_; }
    static std::string escape(const std::string& s);

private:
    void before_value();
    void newline();

    struct Level {
        bool is_object;
        bool empty;
    };
    bool pretty_;
    bool after_key_ = false;
    std::vector<Level> stack_;
    std::string out_;
};

} // namespace moeprobe
