#pragma once
// Messages of the Qt-free digest. Each is an English source string marked with
// QT_TRANSLATE_NOOP("Anatomy", ...) (lupdate finds them; the context is the one
// AnatomyTr uses), with %1..%9 filled in one pass. The app passes a Translate that
// looks the source up in Qt's translator; the moe-digest binary keeps English.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace moewb::anatomy::digest {

using Translate = std::string (*)(const char* source);

// "%1".."%9" in `pattern` replaced by args[0..8], in one pass (an argument's own
// text is never scanned again); a placeholder without an argument stays as written.
std::string fillPlaceholders(std::string_view pattern, std::initializer_list<std::string_view> args);

struct Texts {
    Translate translate = nullptr; // null: the English source
    std::string operator()(const char* source, std::initializer_list<std::string_view> args = {}) const {
        return fillPlaceholders(translate ? translate(source) : std::string(source), args);
    }
};

inline std::string number(std::int64_t v) { return std::to_string(v); }

} // namespace moewb::anatomy::digest
