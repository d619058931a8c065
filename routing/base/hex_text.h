// Numbers written as hex the one way smd writes them in files, messages and YAML: "0x", lowercase digits,
// zero-padded to a width (a P_Key 0x7fff, a LID 0x0012, a GUID 0x0002c90300000200), so text written by
// different writers compares and greps alike.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace smd {

/// "0x" then `value` in lowercase hex, zero-padded to `digits` (wider when the value needs it):
/// hex_text(0x7fff, 4) -> "0x7fff", hex_text(0x12, 4) -> "0x0012", hex_text(0x12345, 4) -> "0x12345".
inline std::string hex_text(std::uint64_t value, int digits) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(value));
  return text;
}

/// A GUID or 64-bit key, all 16 digits: "0x0002c90300000200".
inline std::string hex64_text(std::uint64_t value) { return hex_text(value, 16); }

}  // namespace smd
