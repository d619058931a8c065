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
constexpr std::array<FieldSpan, 3> kHead{
    bytes_at(0, 2),  // 0 EndportLID
    bytes_at(2, 1),  // 1 PortNum
    bytes_at(3, 1),  // 2 Options
};
constexpr auto kFields = concat_shifted(kHead, component_spans(kPortInfoFields), kPi);
static_assert(kFields.size() == 58, "IBA table 150 with PortInfo's 55 fields: ComponentMask bits 0..57");
}  // namespace

const RecordLayout kPortInfoRecordLayout{"PortInfoRecord", 0x0012, PortInfoRecord::kSize, kFields};

PortInfoRecord PortInfoRecord::decode(std::span<const std::uint8_t> rec) {
  PortInfoRecord r;
  r.lid = static_cast<std::uint16_t>(get_field(rec, kFields[0]));
  r.port_num = rec[2];
  r.options = rec[3];
  std::copy_n(rec.begin() + kPi, r.port_info.size(), r.port_info.begin());
  return r;
}

void PortInfoRecord::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  put_field(rec, kFields[0], lid);
  rec[2] = port_num;
  rec[3] = options;
  std::copy(port_info.begin(), port_info.end(), rec.begin() + kPi);
}

}  // namespace smd::mad::sa
