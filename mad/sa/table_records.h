// The SA records that wrap one SMP attribute of a node or port (IBA vol. 1, 15.2.5): a LID, up to two
// small keys (block, port) and the attribute's payload as the SMA holds it.
//
//   record                 attr    size  keys (ComponentMask bit)          payload
//   SL2VLTableRecord       0x0013    16  InputPortNum (1), OutputPortNum (2) SLtoVLMappingTable, 8 B at 8
//   SwitchInfoRecord       0x0014    24  -                                  SwitchInfo, 20 B at 4
//   LinearFTRecord         0x0015    72  BlockNum (1)                       LinearForwardingTable, 64 B at 8
//   MulticastFTRecord      0x0017    72  Position (1, bits 15:12 of byte 2), MulticastForwardingTable, 64 B at 8
//                                        BlockNum (3, bits 8:0 of bytes 2-3)
//   SMInfoRecord           0x0018    32  -                                  SMInfo, 21 B at 4 (GUID 2, SM_Key 3,
//                                                                           ActCount 4, Priority 5, SMState 6)
//   GUIDInfoRecord         0x0030    72  BlockNum (1)                       GUIDInfo, 64 B at 8 (GUID0..7: 4..11)
//   P_KeyTableRecord       0x0033    72  BlockNum (1), PortNum (2)          P_KeyTable, 64 B at 8
//   VLArbitrationRecord    0x0036    72  OutputPortNum (1), BlockNum (2)    VLArbitrationTable, 64 B at 8
//
// ComponentMask bit 0 is the LID in all of them.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// How one table record is laid out: its ComponentMask table, where its keys and its payload sit.
struct TableRecordKind {
  RecordLayout layout;
  int key_field[2];   ///< index into layout.fields of key 0 and key 1, -1 when the record has fewer keys
  FieldSpan payload;  ///< where the SMP payload goes (byte-aligned)
};

extern const TableRecordKind kSl2VlTableRecord;
extern const TableRecordKind kSwitchInfoRecord;
extern const TableRecordKind kLftRecord;
extern const TableRecordKind kMftRecord;
extern const TableRecordKind kSmInfoRecord;
extern const TableRecordKind kGuidInfoRecord;
extern const TableRecordKind kPKeyTableRecord;
extern const TableRecordKind kVlArbTableRecord;

/// One record of any kind above. `payload` holds the attribute's bytes (only the first
/// kind.payload.bit_width / 8 are used).
struct TableRecord {
  std::uint16_t lid = 0;
  std::uint32_t key[2] = {0, 0};
  std::array<std::uint8_t, 64> payload{};

  static TableRecord decode(const TableRecordKind& kind, std::span<const std::uint8_t> rec);
  /// Write kind.layout.size bytes: LID, keys, payload; reserved bytes zero.
  void encode(const TableRecordKind& kind, std::span<std::uint8_t> rec) const;
};

}  // namespace smd::mad::sa
