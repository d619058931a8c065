// ServiceRecord codec (IBA vol. 1, 15.2.5.14, table 217): ServiceID 0, ServiceGID 8, ServiceP_Key 24,
// reserved 26, ServiceLease 28, ServiceKey 32, ServiceName 48, ServiceData8 112, ServiceData16 128,
// ServiceData32 144, ServiceData64 160.
#include "mad/sa/service_record.h"

#include <algorithm>
#include <string>
#include <vector>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
using SrField = ServiceRecordField;
constexpr unsigned idx(SrField f) { return static_cast<unsigned>(f); }
constexpr auto make_fields() {
  std::array<FieldSpan, field_count<ServiceRecordField>()> f{};
  f[idx(SrField::kServiceId)] = bytes_at(0, 8);
  f[idx(SrField::kServiceGid)] = bytes_at(8, 16);
  f[idx(SrField::kServicePKey)] = bytes_at(24, 2);
  f[idx(SrField::kReserved3)] = bytes_at(26, 2);
  f[idx(SrField::kServiceLease)] = bytes_at(28, 4);
  f[idx(SrField::kServiceKey)] = bytes_at(32, 16);
  f[idx(SrField::kServiceName)] = bytes_at(48, 64);
  for (std::size_t i = 0; i < 16; ++i) f[idx(SrField::kServiceData8) + i] = bytes_at(112 + i, 1);
  for (std::size_t i = 0; i < 8; ++i) f[idx(SrField::kServiceData16) + i] = bytes_at(128 + 2 * i, 2);
  for (std::size_t i = 0; i < 4; ++i) f[idx(SrField::kServiceData32) + i] = bytes_at(144 + 4 * i, 4);
  for (std::size_t i = 0; i < 2; ++i) f[idx(SrField::kServiceData64) + i] = bytes_at(160 + 8 * i, 8);
  return f;
}
constexpr auto kServiceRecordFields = make_fields();
}  // namespace

const RecordLayout kServiceRecordLayout{"ServiceRecord", 0x0031, ServiceRecord::kSize, kServiceRecordFields};

std::uint64_t ServiceRecord::service_id() const {
  return get_field(bytes, kServiceRecordFields[idx(SrField::kServiceId)]);
}
Gid ServiceRecord::service_gid() const {
  Gid g{};
  std::copy_n(bytes.begin() + 8, g.size(), g.begin());
  return g;
}
std::uint16_t ServiceRecord::service_pkey() const {
  return static_cast<std::uint16_t>(get_field(bytes, kServiceRecordFields[idx(SrField::kServicePKey)]));
}
std::uint32_t ServiceRecord::service_lease() const {
  return static_cast<std::uint32_t>(get_field(bytes, kServiceRecordFields[idx(SrField::kServiceLease)]));
}
void ServiceRecord::set_service_lease(std::uint32_t seconds) {
  put_field(bytes, kServiceRecordFields[idx(SrField::kServiceLease)], seconds);
}
std::string ServiceRecord::service_name() const {
  const auto* begin = bytes.data() + 48;
  return std::string(begin, std::find(begin, begin + 64, std::uint8_t{0}));
}

ServiceRecord ServiceRecord::decode(std::span<const std::uint8_t> rec) {
  ServiceRecord r;
  std::copy_n(rec.begin(), kSize, r.bytes.begin());
  r.bytes[26] = r.bytes[27] = 0;  // reserved
  return r;
}

void ServiceRecord::encode(std::span<std::uint8_t> rec) const { std::copy(bytes.begin(), bytes.end(), rec.begin()); }

}  // namespace smd::mad::sa
