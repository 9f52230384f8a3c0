// moe-digest's output, "moe-digest/1": JSON Lines on stdout, one line each, in order:
//   {"schema":"moe-digest/1","version":"<workbench version>","files":<n>}
//   one line per file given, in the order given: its digest or why it was refused
//   {"end":"moe-digest/1","files":<n>,"refused":<m>}
// The last line tells a complete document from a cut one. Field by field in
// docs/probe-json.md ("moe-digest"); read by core/anatomy/DigestDocument.
#pragma once

#include "anatomy/digest/RankDigest.h"

#include <cstdint>
#include <string>

namespace moeprobe {

inline constexpr const char* kDigestSchema = "moe-digest/1";
// moe-digest --list DIR: {"schema":"moe-digest-list/1","root":DIR}, then
// {"file":PATH,"bytes":N} per trace file (sorted), then {"end":"moe-digest-list/1","files":n}.
inline constexpr const char* kDigestListSchema = "moe-digest-list/1";

std::string digest_header_line(const std::string& version, std::size_t files);
std::string digest_rank_line(const std::string& file, const moewb::anatomy::digest::RankDigest& digest);
std::string digest_refused_line(const std::string& file, const moewb::anatomy::digest::DigestFailure& failure);
std::string digest_end_line(std::size_t files, std::size_t refused);

std::string digest_list_header_line(const std::string& root);
std::string digest_list_file_line(const std::string& path, std::uint64_t bytes);
std::string digest_list_end_line(std::size_t files);

} // namespace moeprobe
