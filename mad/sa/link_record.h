// LinkRecord (attribute 0x0020, IBA vol. 1, 15.2.5.13): one direction of one cable, by endport LIDs.
// 8 bytes: FromLID (2), FromPort (1), ToPort (1), ToLID (2), 2 reserved. ComponentMask bits 0..3 in that
// order. A switch port is named by the switch's LID; every cable gives two records, one per direction.
#pragma once

#include <cstdint>
#include <span>

#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

struct LinkRecord {
  static constexpr std::size_t kSize = 8;
  std::uint16_t from_lid = 0;
  std::uint8_t from_port = 0;
  std::uint8_t to_port = 0;
  std::uint16_t to_lid = 0;

  static LinkRecord decode(std::span<const std::uint8_t> rec);
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kLinkRecordLayout;

}  // namespace smd::mad::sa
