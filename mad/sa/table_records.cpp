// Layout tables of the table records (IBA vol. 1, 15.2.5.4 SwitchInfoRecord, .6 LinearForwardingTableRecord,
// .8 MulticastForwardingTableRecord, .9 SMInfoRecord, .11 PKeyTableRecord, .12 SLtoVLMappingTableRecord, .14 VLArbitrationTableRecord,
// .18 GuidInfoRecord).
#include "mad/sa/table_records.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr FieldSpan kSl2VlFields[] = {bytes_at(0, 2), bytes_at(2, 1), bytes_at(3, 1), bytes_at(4, 4), bytes_at(8, 8)};
constexpr FieldSpan kSwitchInfoFields[] = {bytes_at(0, 2), bytes_at(2, 2)};
constexpr FieldSpan kLftFields[] = {bytes_at(0, 2), bytes_at(2, 2), bytes_at(4, 4), bytes_at(8, 64)};
constexpr FieldSpan kMftFields[] = {bytes_at(0, 2), at(2, 0, 4), at(2, 4, 3), at(2, 7, 9), bytes_at(4, 4),
                                   bytes_at(8, 64)};
constexpr FieldSpan kSmInfoFields[] = {bytes_at(0, 2),  bytes_at(2, 2), bytes_at(4, 8), bytes_at(12, 8),
                                       bytes_at(20, 4), at(24, 0, 4),   at(24, 4, 4)};
constexpr FieldSpan kGuidInfoFields[] = {bytes_at(0, 2),  bytes_at(2, 1),  bytes_at(3, 1),  bytes_at(4, 4),
                                         bytes_at(8, 8),  bytes_at(16, 8), bytes_at(24, 8), bytes_at(32, 8),
                                         bytes_at(40, 8), bytes_at(48, 8), bytes_at(56, 8), bytes_at(64, 8)};
constexpr FieldSpan kPKeyFields[] = {bytes_at(0, 2), bytes_at(2, 2), bytes_at(4, 1), bytes_at(5, 3), bytes_at(8, 64)};
constexpr FieldSpan kVlArbFields[] = {bytes_at(0, 2), bytes_at(2, 1), bytes_at(3, 1), bytes_at(4, 4), bytes_at(8, 64)};
}  // namespace

const TableRecordKind kSl2VlTableRecord{{"SL2VLTableRecord", 0x0013, 16, kSl2VlFields}, {1, 2}, bytes_at(8, 8)};
const TableRecordKind kSwitchInfoRecord{{"SwitchInfoRecord", 0x0014, 24, kSwitchInfoFields}, {-1, -1}, bytes_at(4, 20)};
const TableRecordKind kLftRecord{{"LFTRecord", 0x0015, 72, kLftFields}, {1, -1}, bytes_at(8, 64)};
const TableRecordKind kMftRecord{{"MFTRecord", 0x0017, 72, kMftFields}, {1, 3}, bytes_at(8, 64)};
const TableRecordKind kSmInfoRecord{{"SMInfoRecord", 0x0018, 32, kSmInfoFields}, {-1, -1}, bytes_at(4, 21)};
const TableRecordKind kGuidInfoRecord{{"GUIDInfoRecord", 0x0030, 72, kGuidInfoFields}, {1, -1}, bytes_at(8, 64)};
const TableRecordKind kPKeyTableRecord{{"PKeyTableRecord", 0x0033, 72, kPKeyFields}, {1, 2}, bytes_at(8, 64)};
const TableRecordKind kVlArbTableRecord{{"VLArbTableRecord", 0x0036, 72, kVlArbFields}, {1, 2}, bytes_at(8, 64)};

TableRecord TableRecord::decode(const TableRecordKind& kind, std::span<const std::uint8_t> rec) {
  TableRecord r;
  r.lid = static_cast<std::uint16_t>(get_field(rec, kind.layout.fields[0]));
  for (int k = 0; k < 2; ++k) {
    if (kind.key_field[k] >= 0)
      r.key[k] = static_cast<std::uint32_t>(get_field(rec, kind.layout.fields[kind.key_field[k]]));
  }
  std::copy_n(rec.begin() + kind.payload.bit_offset / 8, kind.payload.bit_width / 8, r.payload.begin());
  return r;
}

void TableRecord::encode(const TableRecordKind& kind, std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kind.layout.size, std::uint8_t{0});
  put_field(rec, kind.layout.fields[0], lid);
  for (int k = 0; k < 2; ++k) {
    if (kind.key_field[k] >= 0) put_field(rec, kind.layout.fields[kind.key_field[k]], key[k]);
  }
  std::copy_n(payload.begin(), kind.payload.bit_width / 8, rec.begin() + kind.payload.bit_offset / 8);
}

}  // namespace smd::mad::sa
