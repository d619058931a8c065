// MulticastForwardingTable attribute (0x001B, IBA vol. 1, 14.2.5.11): one block of 32 MLIDs for 16 ports.
// AttributeModifier: bits 31:28 the PortMask position (0-15), bits 8:0 the block (0-511). Block b holds
// MLIDs 0xC000 + 32b .. 0xC000 + 32b + 31; entry i is a 16-bit big-endian PortMask whose bit j means
// port 16 * position + j. Never address MLIDs at or above 0xC000 + MulticastFDBCap.
#pragma once

#include <array>
#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

inline constexpr std::uint16_t kMulticastLidBase = 0xC000;
inline constexpr unsigned kMftBlockSize = 32;     ///< MLIDs per block
inline constexpr unsigned kMftPortsPerMask = 16;  ///< ports per position
inline constexpr unsigned kMftPositions = 16;     ///< positions 0..15 cover ports 0..255
inline constexpr unsigned kMftBlocks = 512;       ///< blocks 0..511 cover 0xC000..0xFFFF

struct MftBlock {
  std::array<std::uint16_t, kMftBlockSize> masks{};  ///< masks[i]: ports of MLID 0xC000 + 32*block + i

  /// Decode the payload. Never fails: every 16 bits are a mask.
  static MftBlock decode(const SmpData& data);
  void encode(SmpData& data) const;
  bool operator==(const MftBlock&) const = default;

  /// The AttributeModifier of (block, position).
  static constexpr std::uint32_t attr_mod(unsigned block, unsigned position) {
    return (static_cast<std::uint32_t>(position) << 28) | (block & 0x1FFu);
  }
  static constexpr unsigned block_of_mod(std::uint32_t mod) { return mod & 0x1FFu; }
  static constexpr unsigned position_of_mod(std::uint32_t mod) { return mod >> 28; }
  /// Block and entry index of an MLID (>= 0xC000).
  static constexpr unsigned block_of(std::uint16_t mlid) { return (mlid - kMulticastLidBase) / kMftBlockSize; }
  static constexpr unsigned index_of(std::uint16_t mlid) { return (mlid - kMulticastLidBase) % kMftBlockSize; }
  /// The first MLID of a block.
  static constexpr std::uint16_t first_mlid(unsigned block) {
    return static_cast<std::uint16_t>(kMulticastLidBase + block * kMftBlockSize);
  }
};

}  // namespace smd::mad
