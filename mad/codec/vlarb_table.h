// VLArbitrationTable attribute (0x0018, IBA vol. 1, 14.2.5.9): one block of 32 (VL, weight) entries, two
// bytes each (byte 0 bits 3:0 the VL, bits 7:4 reserved; byte 1 the weight in 64-byte units, 0 = the
// entry is skipped). Attribute modifier: bits 31:16 the block (1 = low priority entries 0..31, 2 = low
// 32..63, 3 = high 0..31, 4 = high 32..63), bits 15:0 the port on a switch (0 on a CA: the port the SMP
// entered by).
#pragma once

#include <array>
#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

inline constexpr std::size_t kVlArbBlockSize = 32;

/// Which of the port's two tables, and which half of it, a block holds (the modifier's bits 31:16).
enum class VlArbBlock : std::uint8_t { kLow0 = 1, kLow1 = 2, kHigh0 = 3, kHigh1 = 4 };

struct VlArbBlockData {
  struct Entry {
    std::uint8_t vl = 0;  ///< 4 bits
    std::uint8_t weight = 0;
    bool operator==(const Entry&) const = default;
  };
  std::array<Entry, kVlArbBlockSize> entries{};

  /// Decode the payload. Never fails (the reserved high nibble of each VL byte is dropped).
  static VlArbBlockData decode(const SmpData& data);
  /// Write all 32 entries into `data` (the whole 64 bytes).
  void encode(SmpData& data) const;
  /// The modifier of `block` of port `port` (0 for a CA).
  static constexpr std::uint32_t attr_mod(VlArbBlock block, std::uint32_t port) {
    return (static_cast<std::uint32_t>(block) << 16) | (port & 0xffffu);
  }
  /// The block holding entries 32*half .. 32*half+31 of the high (`high`) or low table; half is 0 or 1.
  static constexpr VlArbBlock block_of(bool high, unsigned half) {
    return static_cast<VlArbBlock>((high ? 3 : 1) + (half & 1u));
  }
  bool operator==(const VlArbBlockData&) const = default;
};

}  // namespace smd::mad
