#pragma once
// The scanner for Chrome-trace event objects: one event at a time, straight off
// TraceInput's window, decoding only the fields the digest uses (the rest is skipped
// structurally). Runs on the window's NUL sentinel instead of bounds checks: reaching
// the window's end says NeedMore, and the caller refills and parses the event again.
#include "anatomy/digest/DigestText.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace moewb::anatomy::digest {

struct TraceEvent {
    std::string_view ph, cat, name;
    std::string_view tid; // the tid as written (digits, or a string's text)
    bool hasTs = false, hasDur = false;
    std::int64_t ts = 0, dur = 0; // ns ("ts"/"dur" are µs, up to 3 decimals kept exactly)

    // args: only these keys are read (Kineto's output_json.cpp, c10d's
    // ParamCommsUtils / torch/csrc/profiler/util.cpp saveNcclMeta key names).
    bool hasCorrelation = false;
    std::uint64_t correlation = 0;    // "correlation"
    bool hasExternalId = false;
    std::int64_t externalId = 0;      // "External id"
    std::string_view collective; // "Collective name"
    std::string_view dtype;      // "dtype"
    std::string_view inSplit;    // "In split size" (a string "[..]" or an array's text)
    std::string_view pgName;     // "Process Group Name"
    std::string_view pgDesc;     // "Process Group Description"
    std::string_view pgRanks;    // "Process Group Ranks" (a string "[0, 1]" or an array's text)
    std::int64_t inNelems = -1, outNelems = -1, seq = -1, groupSize = -1;
};

class TraceJson {
public:
    enum class Status { Ok, NeedMore, Error };

    // The event object at p ('{'); *end == '\0'. On Ok, `after` is past its '}'.
    Status parseEvent(const char* p, const char* end, TraceEvent& event, const char*& after);
    // Any value at p (after white space); `after` past it.
    Status skipValue(const char* p, const char* end, const char*& after);
    // A string at p ('"'): its text (escapes decoded into scratch slot `slot`).
    Status readString(const char* p, const char* end, std::string_view& text, const char*& after, int slot = 0);
    // A number at p, as ns from µs ("ts" and "dur" style), or as an integer.
    Status readMicrosAsNs(const char* p, const char* end, std::int64_t& ns, const char*& after);
    Status readInteger(const char* p, const char* end, std::int64_t& value, const char*& after);

    static const char* skipSpace(const char* p) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
            ++p;
        return p;
    }

    // After Error: what and where (a position in the window), and the key being read
    // ("ts", "args.correlation"; empty when none).
    const std::string& error() const { return m_error; }
    const char* errorAt() const { return m_errorAt; }
    const std::string& errorField() const { return m_errorField; }

    void setTexts(Texts texts) { m_texts = texts; }

private:
    Status fail(const char* at, const char* end, const std::string& message);
    // NeedMore at the window's end, else fails with `source` (translated only then).
    Status needOrFail(const char* at, const char* end, const char* source);
    Status readArgs(const char* p, const char* end, TraceEvent& event, const char*& after);
    Status readArgInteger(const char* p, const char* end, std::int64_t& value, const char*& after);
    Status readArgText(const char* p, const char* end, std::string_view& text, const char*& after, int slot);
    Status decodeString(const char* p, const char* end, std::string_view& text, const char*& after, int slot);

    enum Slot { SlotKey, SlotPh, SlotCat, SlotName, SlotTid, SlotCollective, SlotDtype, SlotSplit, SlotPgName,
                SlotPgDesc, SlotPgRanks, SlotNumber, SlotCount };
    std::array<std::string, SlotCount> m_scratch;
    Texts m_texts;
    std::string m_error;
    std::string m_errorField;
    const char* m_errorAt = nullptr;
    std::string_view m_field;
    bool m_inArgs = false;
};

} // namespace moewb::anatomy::digest
