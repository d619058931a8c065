// NodeRecord (attribute 0x0011, IBA vol. 1, 15.2.5.2): a node's LID, its NodeInfo and NodeDescription.
// 108 bytes (AttributeOffset 14). ComponentMask bits: 0 LID, 1 reserved, 2..13 the NodeInfo fields in
// order (BaseVersion .. VendorID), 14 NodeDescription.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mad/codec/smp.h"
#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

struct NodeRecord {
  static constexpr std::size_t kSize = 108;
  static constexpr std::size_t kNodeInfoSize = 40;  ///< the meaningful bytes of the NodeInfo SMP payload

  std::uint16_t lid = 0;
  SmpData node_info{};                         ///< the NodeInfo SMP payload; bytes 0..39 go into the record
  std::array<std::uint8_t, 64> description{};  ///< NodeDescription as the SMA sent it

  static NodeRecord decode(std::span<const std::uint8_t> rec);
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kNodeRecordLayout;

}  // namespace smd::mad::sa
