// GUIDInfo attribute (0x0014, IBA vol. 1, 14.2.5.5): one block of 8 port GUIDs, 64 bits each, big-endian;
// entry i of block b is GUID index 8*b + i. Attribute modifier: the block number. Entry 0 of block 0 is
// the port's own GUID (read-only); the others are alias GUIDs the SM assigns (GUIDCap in PortInfo says
// how many entries the port has). A Set's answer carries the block as the port now holds it.
#pragma once

#include <array>
#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

inline constexpr std::size_t kGuidInfoBlockSize = 8;

struct GuidInfoBlock {
  std::array<std::uint64_t, kGuidInfoBlockSize> guids{};  ///< 0 = no GUID at that index

  /// Decode the payload. Never fails: every 64-bit pattern is a GUID.
  static GuidInfoBlock decode(const SmpData& data);
  /// Write all 8 GUIDs into `data` (the whole 64 bytes).
  void encode(SmpData& data) const;
  bool operator==(const GuidInfoBlock&) const = default;
};

}  // namespace smd::mad
