// PortInfoRecord codec. PortInfo starts at byte 4, so the record's ComponentMask table is its own three
// fields followed by PortInfo's table (mad/codec/port_info_fields.h, IBA table 149, reserved runs counted as
// fields) moved 4 bytes later: the SMP codec and the SA matching read one table.
#include "mad/sa/port_info_record.h"

#include <algorithm>

#include "mad/codec/port_info_fields.h"
#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr std::size_t kPi = 4;  // PortInfo starts here
constexpr FieldTable kPortInfoRecordHeadTable{
    bind<&PortInfoRecord::lid, bytes_at(0, 2)>,       // 0 EndportLID
    bind<&PortInfoRecord::port_num, bytes_at(2, 1)>,  // 1 PortNum
    bind<&PortInfoRecord::options, bytes_at(3, 1)>,   // 2 Options
};
constexpr auto kHead = component_spans(kPortInfoRecordHeadTable);
constexpr auto kPortInfoRecordFields = concat_shifted(kHead, component_spans(kPortInfoFields), kPi);
static_assert(kPortInfoRecordFields.size() == 58, "IBA table 150 with PortInfo's 55 fields: ComponentMask bits 0..57");
}  // namespace

const RecordLayout kPortInfoRecordLayout{"PortInfoRecord", 0x0012, PortInfoRecord::kSize, kPortInfoRecordFields};

PortInfoRecord PortInfoRecord::decode(std::span<const std::uint8_t> rec) {
  auto r = decode_record<PortInfoRecord>(rec, kPortInfoRecordHeadTable);
  std::copy_n(rec.begin() + kPi, r.port_info.size(), r.port_info.begin());
  return r;
}

void PortInfoRecord::encode(std::span<std::uint8_t> rec) const {
  encode_record(*this, rec, kSize, kPortInfoRecordHeadTable);
  std::copy(port_info.begin(), port_info.end(), rec.begin() + kPi);
}

}  // namespace smd::mad::sa
