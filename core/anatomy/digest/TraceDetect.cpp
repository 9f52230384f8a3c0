#include "anatomy/digest/TraceDetect.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace moewb::anatomy::digest {

namespace {

// The first bytes of a gzip stream, inflated as far as `head` allows.
std::string inflateHead(std::string_view head) {
    std::string out(kTraceHeadBytes, '\0');
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return {};
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(head.data()));
    z.avail_in = uInt(head.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    inflate(&z, Z_SYNC_FLUSH);
    out.resize(out.size() - z.avail_out);
    inflateEnd(&z);
    return out;
}

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// ^\{\s*"(distributedInfo|deviceProperties|baseTimeNanoseconds)"
bool startsWithKinetoKey(std::string_view rest) {
    size_t i = 1;
    while (i < rest.size() && isSpace(rest[i]))
        ++i;
    rest.remove_prefix(std::min(i, rest.size()));
    for (std::string_view key : {"\"distributedInfo\"", "\"deviceProperties\"", "\"baseTimeNanoseconds\""})
        if (rest.substr(0, key.size()) == key)
            return true;
    return false;
}

} // namespace

bool looksLikeTrace(std::string_view head) {
    std::string inflated;
    std::string_view bytes = head;
    if (bytes.size() >= 2 && std::uint8_t(bytes[0]) == 0x1f && std::uint8_t(bytes[1]) == 0x8b) {
        inflated = inflateHead(head);
        bytes = inflated;
    }
    size_t i = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    auto skipSpace = [&] {
        while (i < bytes.size() && isSpace(bytes[i]))
            ++i;
    };
    skipSpace();
    if (i >= bytes.size())
        return false;
    if (bytes[i] == '{') {
        const std::string_view rest = bytes.substr(i);
        return rest.find("\"traceEvents\"") != std::string_view::npos ||
               rest.find("\"schemaVersion\"") != std::string_view::npos || startsWithKinetoKey(rest.substr(0, 200));
    }
    if (bytes[i] == '[') {
        ++i;
        skipSpace();
        if (i >= bytes.size() || bytes[i] != '{')
            return false;
        const size_t close = bytes.find('}', i);
        const std::string_view first = bytes.substr(i, close == std::string_view::npos ? 4096 : close - i);
        return first.find("\"ph\"") != std::string_view::npos && first.find("\"name\"") != std::string_view::npos;
    }
    return false;
}

bool fileLooksLikeTrace(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rbe");
    if (!f)
        return false;
    std::vector<char> head(kTraceHeadBytes);
    const size_t n = std::fread(head.data(), 1, head.size(), f);
    std::fclose(f);
    return looksLikeTrace(std::string_view(head.data(), n));
}

} // namespace moewb::anatomy::digest
