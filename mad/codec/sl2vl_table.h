// SLtoVLMappingTable attribute (0x0017, IBA vol. 1, 14.2.5.8): the VL of each of the 16 SLs, 4 bits
// each in the first 8 payload bytes (byte k: SL 2k in bits 7:4, SL 2k+1 in bits 3:0; VL 15 drops the
// packet). The rest of the payload is reserved. Attribute modifier on a switch: bits 15:8 the input port,
// bits 7:0 the output port (port 0 = the switch's own port); bits 16 and 17 are the optimized modes of
// SwitchInfo:OptimizedSLtoVLMappingProgramming. A CA or router port takes modifier 0 and answers for the
// port the SMP entered by.
#pragma once

#include <array>
#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

inline constexpr std::size_t kSlCount = 16;

/// Modifier bit 16 (optimized programming): the Set applies to every output port (the out field is
/// ignored), as OpenSM's 0x30000 "all inputs to all outputs".
inline constexpr std::uint32_t kSl2VlAllOutputs = 1u << 16;
/// Modifier bit 17 (optimized programming): the Set applies to every input port (the in field is
/// ignored), as OpenSM's 0x20000 | out.
inline constexpr std::uint32_t kSl2VlAllInputs = 1u << 17;

struct Sl2VlTable {
  std::array<std::uint8_t, kSlCount> vl{};  ///< [SL] -> VL 0..15 (values above 15 keep their low 4 bits)

  /// Decode the first 8 payload bytes. Never fails: every nibble is a VL.
  static Sl2VlTable decode(const SmpData& data);
  /// Write the 16 entries into the first 8 bytes of `data` and zero the reserved 56.
  void encode(SmpData& data) const;
  /// The modifier of the table for packets entering switch port `in` and leaving by `out`.
  static constexpr std::uint32_t switch_attr_mod(std::uint32_t in, std::uint32_t out) {
    return ((in & 0xffu) << 8) | (out & 0xffu);
  }
  bool operator==(const Sl2VlTable&) const = default;
};

}  // namespace smd::mad
