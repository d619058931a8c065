// LinearForwardingTable attribute (0x0019, IBA vol. 1, 14.2.5.10): one block of 64 LIDs.
// Attribute modifier = block number; block b holds LIDs 64*b .. 64*b+63; each entry is an output port,
// 0 = the switch itself, 0xFF = no route. Never address blocks above LinearFDBCap/64.
#pragma once

#include <array>
#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

inline constexpr std::size_t kLftBlockSize = 64;
inline constexpr std::uint8_t kLftNoRoute = 0xFF;

struct LftBlock {
  std::array<std::uint8_t, kLftBlockSize> ports{};  ///< ports[i] = out-port for LID 64*block + i

  /// Decode the payload. Never fails: every byte is a port number.
  static LftBlock decode(const SmpData& data);
  void encode(SmpData& data) const;
  /// Block number (the attribute modifier) that holds `lid`.
  static constexpr std::uint32_t block_of(std::uint16_t lid) { return lid / kLftBlockSize; }
  bool operator==(const LftBlock&) const = default;
};

}  // namespace smd::mad
