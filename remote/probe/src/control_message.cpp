#include "control_message.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace moeprobe {

std::string encode_control_frame(ControlType type, const std::string& payload) {
    const ControlHeader h{kControlMagic, static_cast<std::uint32_t>(type), payload.size()};
    std::string frame(sizeof h, '\0');
    std::memcpy(frame.data(), &h, sizeof h);
    frame += payload;
    return frame;
}

std::size_t ControlFrameParser::wanted() const {
    if (header_have_ < sizeof header_bytes_)
        return sizeof header_bytes_ - header_have_;
    return static_cast<std::size_t>(header_.length - payload_.size());
}

ControlFrameParser::Status ControlFrameParser::feed(const char* data, std::size_t size, std::size_t& consumed) {
    consumed = 0;
    if (!error_.empty())
        return Status::Malformed;
    if (complete_) { // the previous frame was not taken: start over
        complete_ = false;
        header_have_ = 0;
        payload_.clear();
    }
    if (header_have_ < sizeof header_bytes_) {
        const std::size_t take = std::min(size, sizeof header_bytes_ - header_have_);
        std::memcpy(header_bytes_ + header_have_, data, take);
        header_have_ += take;
        consumed += take;
        if (header_have_ < sizeof header_bytes_)
            return Status::NeedMore;
        std::memcpy(&header_, header_bytes_, sizeof header_);
        if (header_.magic != kControlMagic) {
            error_ = "not a moe-probe control message (bad magic)";
            return Status::Malformed;
        }
        if (header_.type < static_cast<std::uint32_t>(ControlType::Hello) ||
            header_.type > static_cast<std::uint32_t>(ControlType::Abort)) {
            error_ = "unknown control message type " + std::to_string(header_.type);
            return Status::Malformed;
        }
        if (header_.length > max_payload_) {
            error_ = "control message of " + std::to_string(header_.length) + " bytes (at most " +
                     std::to_string(max_payload_) + ")";
            return Status::Malformed;
        }
        payload_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(header_.length, 1u << 20)));
    }
    const std::size_t take = std::min(size - consumed, wanted());
    payload_.append(data + consumed, take);
    consumed += take;
    if (wanted() > 0)
        return Status::NeedMore;
    complete_ = true;
    return Status::Complete;
}

std::string ControlFrameParser::take_payload() {
    std::string p = std::move(payload_);
    payload_.clear();
    header_have_ = 0;
    complete_ = false;
    return p;
}

std::string printable_peer_text(const std::string& text, std::size_t max_bytes) {
    std::string out;
    const std::size_t n = std::min(text.size(), max_bytes);
    out.reserve(n + 16);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += static_cast<char>(c);
        } else if (c == '\\') {
            out += "\\\\";
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    if (text.size() > n)
        out += "... (" + std::to_string(text.size() - n) + " more bytes)";
    return out;
}

std::pair<int, std::string> decode_abort_payload(const std::string& payload) {
    std::int32_t missing = -1;
    if (payload.size() < sizeof missing)
        return {-1, {}};
    std::memcpy(&missing, payload.data(), sizeof missing);
    return {missing < -1 ? -1 : missing, printable_peer_text(payload.substr(sizeof missing))};
}

std::string encode_abort_payload(int missing_rank, const std::string& message) {
    const std::int32_t missing = missing_rank;
    std::string payload(sizeof missing, '\0');
    std::memcpy(payload.data(), &missing, sizeof missing);
    return payload + message;
}

} // namespace moeprobe
