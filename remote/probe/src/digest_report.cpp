#include "digest_report.h"

#include "json_writer.h"

namespace moeprobe {

namespace digest = moewb::anatomy::digest;

namespace {

// Intervals flattened: [start0, end0, start1, end1, ...].
void write_intervals(JsonWriter& w, const std::vector<digest::Interval>& intervals) {
    w.begin_array();
    for (const digest::Interval& v : intervals)
        w.value(v.start).value(v.end);
    w.end_array();
}

// [start, end, kind, group, seq, in_bytes, out_bytes, splits_cut, name, collective]
void write_call(JsonWriter& w, const digest::CommCall& c) {
    w.begin_array()
        .value(c.start)
        .value(c.end)
        .value(static_cast<int>(c.kind))
        .value(c.group)
        .value(c.seq)
        .value(c.inBytes)
        .value(c.outBytes)
        .value(c.splitsCut ? 1 : 0)
        .value(c.name)
        .value(c.collective)
        .end_array();
}

std::string line_of(JsonWriter& w) {
    std::string text = w.text();
    text += '\n';
    return text;
}

} // namespace

std::string digest_header_line(const std::string& version, std::size_t files) {
    JsonWriter w(false);
    w.begin_object().field("schema", kDigestSchema).field("version", version);
    w.field("files", static_cast<std::uint64_t>(files)).end_object();
    return line_of(w);
}

std::string digest_rank_line(const std::string& file, const digest::RankDigest& d) {
    JsonWriter w(false);
    w.begin_object().field("file", file).field("rank", d.rank).field("world_size", d.worldSize);
    w.field("format", d.format).field("base_time_ns", d.baseTimeNs).field("gpu", d.gpu);
    w.field("events", d.events).field("unassigned", d.unassigned).field("bytes_read", d.bytesRead);
    w.key("groups").begin_array();
    for (const digest::ProcessGroup& g : d.groups) {
        w.begin_object().field("name", g.name).field("description", g.description).key("ranks").begin_array();
        for (int r : g.ranks)
            w.value(r);
        w.end_array().end_object();
    }
    w.end_array().key("names").begin_array();
    for (const std::string& n : d.names)
        w.value(n);
    w.end_array().key("steps").begin_array();
    for (const digest::StepTrace& s : d.steps) {
        w.begin_object().field("step", s.step).field("start", s.start).field("end", s.end);
        w.key("compute");
        write_intervals(w, s.compute);
        w.key("memcpy");
        write_intervals(w, s.memcpy);
        w.key("comm").begin_array();
        for (const digest::CommCall& c : s.comm)
            write_call(w, c);
        w.end_array().end_object();
    }
    w.end_array().end_object();
    return line_of(w);
}

std::string digest_refused_line(const std::string& file, const digest::DigestFailure& f) {
    JsonWriter w(false);
    w.begin_object().field("file", file).key("error").begin_object();
    w.field("line", f.line).field("field", f.field).field("message", f.message).field("unreadable", f.unreadable);
    w.end_object().end_object();
    return line_of(w);
}

std::string digest_end_line(std::size_t files, std::size_t refused) {
    JsonWriter w(false);
    w.begin_object().field("end", kDigestSchema).field("files", static_cast<std::uint64_t>(files));
    w.field("refused", static_cast<std::uint64_t>(refused)).end_object();
    return line_of(w);
}

std::string digest_list_header_line(const std::string& root) {
    JsonWriter w(false);
    w.begin_object().field("schema", kDigestListSchema).field("root", root).end_object();
    return line_of(w);
}

std::string digest_list_file_line(const std::string& path, std::uint64_t bytes) {
    JsonWriter w(false);
    w.begin_object().field("file", path).field("bytes", bytes).end_object();
    return line_of(w);
}

std::string digest_list_end_line(std::size_t files) {
    JsonWriter w(false);
    w.begin_object().field("end", kDigestListSchema).field("files", static_cast<std::uint64_t>(files)).end_object();
    return line_of(w);
}

} // namespace moeprobe
