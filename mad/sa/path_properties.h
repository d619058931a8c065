// The path properties a PathRecord (IBA vol. 1, 15.2.5.16, table 221: bytes 44..56, ComponentMask bits
// 6..21) and a MultiPathRecord (15.2.5.20, table 229: bytes 0..12, bits 0..15) lay out alike: RawTraffic,
// FlowLabel, HopLimit, TClass, Reversible, NumbPath, P_Key, QoSClass, SL and the MTU, Rate and
// PacketLifeTime selectors and values, with the same bit positions inside the run. One struct, one field
// table and one list of ComponentMask positions serve both records; each record places the run at its own
// byte offset and mask position.
#pragma once

#include <cstdint>

#include "mad/codec/field_table.h"
#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// The path properties in layout order: the enumerator is the field's position inside the run (reserved
/// bits 1..3 of the first byte counted, as both records' ComponentMasks count them).
enum class PathPropertyField : unsigned {
  kRawTraffic,
  kReserved1,
  kFlowLabel,
  kHopLimit,
  kTClass,
  kReversible,
  kNumbPath,
  kPKey,
  kQosClass,
  kSl,
  kMtuSelector,
  kMtu,
  kRateSelector,
  kRate,
  kPacketLifeSelector,
  kPacketLife,
  kCount
};

/// Bytes the run takes (13; PacketLifeTime ends the 13th).
inline constexpr std::size_t kPathPropertiesSize = 13;

/// The path properties as values.
struct PathProperties {
  bool raw_traffic = false;
  std::uint32_t flow_label = 0;  ///< 20 bits
  std::uint8_t hop_limit = 0;
  std::uint8_t tclass = 0;
  bool reversible = false;
  std::uint8_t numb_path = 0;  ///< 7 bits
  std::uint16_t pkey = 0;
  std::uint16_t qos_class = 0;  ///< 12 bits
  std::uint8_t sl = 0;          ///< 4 bits
  std::uint8_t mtu_selector = 0;
  std::uint8_t mtu = 0;  ///< 6 bits: 1=256 .. 5=4096
  std::uint8_t rate_selector = 0;
  std::uint8_t rate = 0;  ///< 6 bits, IBA rate code, not ordered by speed (compare rates, never codes)
  std::uint8_t packet_life_selector = 0;
  std::uint8_t packet_life = 0;  ///< 6 bits: 4.096 us * 2^value
};

/// The run's field table, offsets from its first byte (a record codes it at its own offset and moves the
/// spans there with concat_shifted).
inline constexpr FieldTable kPathPropertiesFields{
    bind<&PathProperties::raw_traffic, at(0, 0, 1)>,
    reserved<at(0, 1, 3)>,
    bind<&PathProperties::flow_label, at(0, 4, 20)>,
    bind<&PathProperties::hop_limit, bytes_at(3, 1)>,
    bind<&PathProperties::tclass, bytes_at(4, 1)>,
    bind<&PathProperties::reversible, at(5, 0, 1)>,
    bind<&PathProperties::numb_path, at(5, 1, 7)>,
    bind<&PathProperties::pkey, bytes_at(6, 2)>,
    bind<&PathProperties::qos_class, at(8, 0, 12)>,
    bind<&PathProperties::sl, at(9, 4, 4)>,
    bind<&PathProperties::mtu_selector, at(10, 0, 2)>,
    bind<&PathProperties::mtu, at(10, 2, 6)>,
    bind<&PathProperties::rate_selector, at(11, 0, 2)>,
    bind<&PathProperties::rate, at(11, 2, 6)>,
    bind<&PathProperties::packet_life_selector, at(12, 0, 2)>,
    bind<&PathProperties::packet_life, at(12, 2, 6)>,
};
static_assert(component_spans(kPathPropertiesFields).size() == field_count<PathPropertyField>());

/// The ComponentMask bit of property `f` in a record whose run starts at field position `first` (the
/// record's field enumerator kProperties).
template <class Field>
constexpr std::uint64_t property_bit(Field first, PathPropertyField f) {
  return mask_bit(first) << static_cast<unsigned>(f);
}

/// The ComponentMask bits of the whole run (reserved position included) in a record whose run starts at
/// `first`.
template <class Field>
constexpr std::uint64_t property_bits(Field first) {
  return ((1ull << field_count<PathPropertyField>()) - 1) << static_cast<unsigned>(first);
}

}  // namespace smd::mad::sa
