// The policy's `congestion_control:` section reader (config/cc_policy.h holds the data, config/smd.yaml
// documents every key). The text forms are OpenSM's, so an opensm.conf value is carried over as written:
// port masks as 256-bit hex, delays and CCT entries as "shift:multiplier".
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "config/cc_policy.h"
#include "config/yaml_fields.h"
#include "routing/base/status.h"

namespace smd {

/// Read `congestion_control` into `out`. Errors (in the reader's Diagnostics, at the value): numbers out of
/// their field's range, malformed masks or shift:multiplier pairs, more than 16 per-SL values or 128 CCT
/// entries, unknown keys.
void read_congestion_control(MapReader cc, CongestionControlPolicy& out);

/// "0x" and up to 64 hex digits (or "0") -> a 256-bit port mask, big-endian (the last byte holds ports 7..0).
/// Errors: kInvalidInput naming the problem (no location; the caller adds it).
Result<std::array<std::uint8_t, 32>> parse_cc_port_mask(std::string_view text);

/// "shift:multiplier" (shift 0..3, multiplier 0..16383) -> shift << 14 | multiplier. Errors: kInvalidInput.
Result<std::uint16_t> parse_cc_shift_multiplier(std::string_view text);

/// OpenSM's cc_cct: comma-separated "shift:multiplier" entries, at most 128; "" = none. Errors: kInvalidInput
/// naming the entry.
Result<std::vector<std::uint16_t>> parse_cc_cct(std::string_view text);

}  // namespace smd
