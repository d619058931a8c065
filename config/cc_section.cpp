#include "config/cc_section.h"

#include <string>

namespace smd {

namespace {

constexpr std::size_t kMaxCctEntries = 128;  // two CongestionControlTable blocks, as OpenSM allows
constexpr std::size_t kSls = 16;

std::string trimmed(std::string_view t) {
  const auto b = t.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  const auto e = t.find_last_not_of(" \t");
  return std::string(t.substr(b, e - b + 1));
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A mask key: a string (or a plain 0) in parse_cc_port_mask's form.
void read_mask(MapReader& map, std::string_view key, std::array<std::uint8_t, 32>& out) {
  std::optional<MapReader::Raw> raw = map.read_raw(key);
  if (!raw) return;
  if (!raw->node.IsScalar()) {
    map.diagnostics().fail(raw->mark, raw->path,
                           "expected a 256-bit hex mask (\"0x...\"), got " + describe_kind(raw->node));
    return;
  }
  auto mask = parse_cc_port_mask(raw->node.Scalar());
  if (!mask.ok()) {
    map.diagnostics().fail(raw->mark, raw->path, mask.error().message);
    return;
  }
  out = *mask;
}

// A per-SL key: a sequence of at most 16 numbers in 0..hi, SL 0 first; SLs not listed get 0.
template <typename Narrow>
void read_per_sl(MapReader& map, std::string_view key, std::uint64_t hi, std::array<CcCaEntry, kSls>& entries,
                 Narrow CcCaEntry::*field) {
  std::optional<MapReader::Raw> raw = map.read_raw(key);
  if (!raw) return;
  Diagnostics& diag = map.diagnostics();
  if (!raw->node.IsSequence()) {
    diag.fail(raw->mark, raw->path,
              "expected a sequence of up to 16 values (SL 0 first), got " + describe_kind(raw->node));
    return;
  }
  if (raw->node.size() > kSls) {
    diag.fail(raw->mark, raw->path, std::to_string(raw->node.size()) + " values; there are 16 SLs");
    return;
  }
  std::array<Narrow, kSls> values{};
  for (std::size_t sl = 0; sl < raw->node.size(); ++sl) {
    const YAML::Node item = raw->node[sl];
    const std::string where = raw->path + "[" + std::to_string(sl) + "]";
    if (!item.IsScalar()) {
      diag.fail(item.Mark(), where, "expected a number, got " + describe_kind(item));
      return;
    }
    auto v = parse_unsigned(item.Scalar());
    if (!v.ok() || *v > hi) {
      diag.fail(item.Mark(), where, "'" + item.Scalar() + "' is not a number in 0.." + std::to_string(hi));
      return;
    }
    values[sl] = static_cast<Narrow>(*v);
  }
  for (std::size_t sl = 0; sl < kSls; ++sl) entries[sl].*field = values[sl];
}

void read_switch(MapReader sw, CcSwitchSettings& out) {
  unsigned control_map = out.control_map, threshold = out.threshold, packet_size = out.packet_size,
           cs_threshold = out.credit_starvation_threshold, marking_rate = out.marking_rate;
  sw.read_unsigned("control_map", 0, 0x1F, control_map);
  read_mask(sw, "victim_mask", out.victim_mask);
  read_mask(sw, "credit_mask", out.credit_mask);
  sw.read_unsigned("threshold", 0, 15, threshold);
  sw.read_unsigned("packet_size", 0, 255, packet_size);
  sw.read_unsigned("credit_starvation_threshold", 0, 15, cs_threshold);
  if (std::optional<MapReader::Raw> raw = sw.read_raw("credit_starvation_return_delay")) {
    auto v = raw->node.IsScalar()
                 ? parse_cc_shift_multiplier(raw->node.Scalar())
                 : Result<std::uint16_t>(make_error(ErrorCode::kInvalidInput, "expected \"shift:multiplier\""));
    if (v.ok()) {
      out.credit_starvation_return_delay = *v;
    } else {
      sw.diagnostics().fail(raw->mark, raw->path, v.error().message);
    }
  }
  sw.read_unsigned("marking_rate", 0, 0xFFFF, marking_rate);
  sw.finish();
  out.control_map = control_map;
  out.threshold = static_cast<std::uint8_t>(threshold);
  out.packet_size = static_cast<std::uint8_t>(packet_size);
  out.credit_starvation_threshold = static_cast<std::uint8_t>(cs_threshold);
  out.marking_rate = static_cast<std::uint16_t>(marking_rate);
}

void read_ca(MapReader ca, CcCaSettings& out) {
  unsigned port_control = out.port_control, control_map = out.control_map;
  ca.read_unsigned("port_control", 0, 1, port_control);
  ca.read_unsigned("control_map", 0, 0xFFFF, control_map);
  read_per_sl(ca, "ccti_timer", 0xFFFF, out.entries, &CcCaEntry::ccti_timer);
  read_per_sl(ca, "ccti_increase", 0xFF, out.entries, &CcCaEntry::ccti_increase);
  read_per_sl(ca, "trigger_threshold", 0xFF, out.entries, &CcCaEntry::trigger_threshold);
  read_per_sl(ca, "ccti_min", 0xFF, out.entries, &CcCaEntry::ccti_min);
  ca.finish();
  out.port_control = static_cast<std::uint16_t>(port_control);
  out.control_map = static_cast<std::uint16_t>(control_map);
}

}  // namespace

Result<std::array<std::uint8_t, 32>> parse_cc_port_mask(std::string_view text) {
  const std::string t = trimmed(text);
  std::array<std::uint8_t, 32> mask{};
  if (t == "0") return mask;
  if (t.size() < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) {
    return make_error(ErrorCode::kInvalidInput, "'" + t + "' is not a hex mask (\"0x\" and up to 64 hex digits)");
  }
  const std::string digits = t.substr(2);
  if (digits.size() > 64) {
    return make_error(ErrorCode::kInvalidInput,
                      std::to_string(digits.size()) + " hex digits; a 256-bit port mask has at most 64");
  }
  // The last digit is the lowest nibble: fill from the end.
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const int v = hex_digit(digits[digits.size() - 1 - i]);
    if (v < 0)
      return make_error(ErrorCode::kInvalidInput,
                        "'" + t + "': '" + digits[digits.size() - 1 - i] + "' is not a hex digit");
    mask[31 - i / 2] |= static_cast<std::uint8_t>(i % 2 ? v << 4 : v);
  }
  return mask;
}

Result<std::uint16_t> parse_cc_shift_multiplier(std::string_view text) {
  const std::string t = trimmed(text);
  const auto colon = t.find(':');
  if (colon == std::string::npos) {
    return make_error(ErrorCode::kInvalidInput, "'" + t + "' is not shift:multiplier");
  }
  auto shift = parse_unsigned(trimmed(std::string_view(t).substr(0, colon)));
  auto mult = parse_unsigned(trimmed(std::string_view(t).substr(colon + 1)));
  if (!shift.ok() || *shift > 3) return make_error(ErrorCode::kInvalidInput, "'" + t + "': shift must be 0..3");
  if (!mult.ok() || *mult > 0x3FFF) {
    return make_error(ErrorCode::kInvalidInput, "'" + t + "': multiplier must be 0..16383");
  }
  return static_cast<std::uint16_t>((*shift << 14) | *mult);
}

Result<std::vector<std::uint16_t>> parse_cc_cct(std::string_view text) {
  std::vector<std::uint16_t> out;
  const std::string t = trimmed(text);
  if (t.empty()) return out;
  std::size_t start = 0;
  while (start <= t.size()) {
    std::size_t comma = t.find(',', start);
    if (comma == std::string::npos) comma = t.size();
    const std::string entry = t.substr(start, comma - start);
    auto v = parse_cc_shift_multiplier(entry);
    if (!v.ok())
      return make_error(ErrorCode::kInvalidInput, "entry " + std::to_string(out.size()) + ": " + v.error().message);
    out.push_back(*v);
    if (out.size() > kMaxCctEntries) {
      return make_error(ErrorCode::kInvalidInput, "more than 128 entries (two CongestionControlTable blocks)");
    }
    start = comma + 1;
  }
  return out;
}

void read_congestion_control(MapReader cc, CongestionControlPolicy& out) {
  cc.read_bool("enabled", out.enabled);
  cc.read_u64("cc_key", out.cc_key);
  cc.read_unsigned("max_outstanding", 1, 1000, out.max_outstanding);
  read_switch(cc.section("switch"), out.sw);
  read_ca(cc.section("ca"), out.ca);
  if (std::optional<MapReader::Raw> raw = cc.read_raw("cct")) {
    auto v = raw->node.IsNull() ? Result<std::vector<std::uint16_t>>(std::vector<std::uint16_t>{})
             : raw->node.IsScalar()
                 ? parse_cc_cct(raw->node.Scalar())
                 : Result<std::vector<std::uint16_t>>(
                       make_error(ErrorCode::kInvalidInput, "expected \"shift:multiplier,...\" (OpenSM's cc_cct)"));
    if (v.ok()) {
      out.cct = std::move(*v);
    } else {
      cc.diagnostics().fail(raw->mark, raw->path, v.error().message);
    }
  }
  cc.finish();
}

}  // namespace smd
