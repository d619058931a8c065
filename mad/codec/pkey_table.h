// P_KeyTable attribute (0x0016, IBA vol. 1, 14.2.5.7): one block of 32 P_Key entries, 16 bits each,
// big-endian, entry i of block b is table index 32*b + i. Attribute modifier: bits 15:0 the block, bits
// 31:16 the port number on a switch (external ports hold the enforcement copy; port 0 is the switch's
// own table); a CA answers for the port the SMP entered by and takes port 0 there.
#pragma once

#include <array>
#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

inline constexpr std::size_t kPKeyBlockSize = 32;

struct PKeyBlock {
  std::array<std::uint16_t, kPKeyBlockSize> entries{};  ///< bit 15 membership (1 full), bits 14:0 base

  /// Decode the payload. Never fails: every 16-bit pattern is an entry.
  static PKeyBlock decode(const SmpData& data);
  /// Write all 32 entries into `data` (the whole 64 bytes).
  void encode(SmpData& data) const;
  /// The attribute modifier for `block` of switch port `port` (0 for a CA, or switch port 0).
  static constexpr std::uint32_t attr_mod(std::uint32_t block, std::uint32_t port) {
    return (block & 0xffffu) | (port << 16);
  }
  bool operator==(const PKeyBlock&) const = default;
};

}  // namespace smd::mad
