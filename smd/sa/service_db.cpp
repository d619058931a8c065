// ServiceDb: store, match, lease arithmetic and the JSON form of the services file.
#include "smd/sa/service_db.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "smd/sa/state_json.h"

namespace smd::sa {

using namespace mad::sa;

namespace {
std::string to_hex(const std::array<std::uint8_t, ServiceRecord::kSize>& b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  s.reserve(b.size() * 2);
  for (std::uint8_t v : b) {
    s += digits[v >> 4];
    s += digits[v & 15];
  }
  return s;
}
bool from_hex(const std::string& s, std::array<std::uint8_t, ServiceRecord::kSize>& b) {
  if (s.size() != b.size() * 2) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < b.size(); ++i) {
    const int hi = nibble(s[2 * i]);
    const int lo = nibble(s[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    b[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return true;
}
}  // namespace

bool ServiceDb::same_key(const ServiceRecord& a, const ServiceRecord& b) {
  return a.service_id() == b.service_id() && a.service_gid() == b.service_gid() && a.service_pkey() == b.service_pkey();
}

ServiceRecord ServiceDb::shown(const Stored& s, std::int64_t now_s) const {
  ServiceRecord r = s.rec;
  if (s.expires_s == 0) {
    r.set_service_lease(kInfiniteLease);
  } else {
    r.set_service_lease(static_cast<std::uint32_t>(std::max<std::int64_t>(0, s.expires_s - now_s)));
  }
  return r;
}

SaAnswer ServiceDb::store(const ServiceRecord& rec, bool lease_given, std::int64_t now_s) {
  Stored s{rec, 0};
  if (lease_given && rec.service_lease() != kInfiniteLease) s.expires_s = now_s + rec.service_lease();
  const auto it = std::find_if(records_.begin(), records_.end(), [&](const Stored& o) { return same_key(o.rec, rec); });
  if (it != records_.end()) {
    *it = s;
  } else {
    const auto same_gid = std::count_if(records_.begin(), records_.end(),
                                        [&](const Stored& o) { return o.rec.service_gid() == rec.service_gid(); });
    if (records_.size() >= kMaxServices || static_cast<std::size_t>(same_gid) >= kMaxServicesPerGid) {
      return SaAnswer::error(status::kNoResources);
    }
    records_.push_back(s);
  }
  SaAnswer a;
  a.record_size = ServiceRecord::kSize;
  a.records.resize(ServiceRecord::kSize);
  shown(s, now_s).encode(a.records);
  a.count = 1;
  return a;
}

SaAnswer ServiceDb::find(const SaQuery& q, std::int64_t now_s, std::uint32_t max_records,
                         const std::function<bool(std::uint16_t)>& visible_pkey) const {
  // The lease left differs from the one a client may pass: ServiceLease never takes part in matching.
  SaQuery plain = q;
  plain.header.comp_mask &= ~mask_bit(ServiceRecordField::kServiceLease);
  RecordCollector match(kServiceRecordLayout, plain, max_records);
  for (const Stored& s : records_) {
    if (s.expires_s != 0 && s.expires_s <= now_s) continue;
    if (visible_pkey && !visible_pkey(s.rec.service_pkey())) continue;
    shown(s, now_s).encode(match.slot());
    if (match.offer() && match.done()) break;
  }
  return std::move(match).finish();
}

SaAnswer ServiceDb::erase(const SaQuery& q, std::int64_t now_s) {
  SaQuery plain = q;
  plain.header.comp_mask &= ~mask_bit(ServiceRecordField::kServiceLease);
  plain.header.method = method::kGetTable;  // every match goes
  RecordCollector gone(kServiceRecordLayout, plain, 0xFFFFFFFFu);
  std::vector<Stored> kept;
  for (const Stored& s : records_) {
    if (s.expires_s != 0 && s.expires_s <= now_s) continue;
    shown(s, now_s).encode(gone.slot());
    if (!gone.offer()) kept.push_back(s);
  }
  SaAnswer a = std::move(gone).finish();
  if (a.count == 0) return SaAnswer::error(status::kNoRecords);
  records_ = std::move(kept);
  return a;
}

std::vector<ServiceRecord> ServiceDb::list(std::int64_t now_s) const {
  std::vector<ServiceRecord> out;
  for (const Stored& s : records_) {
    if (s.expires_s == 0 || s.expires_s > now_s) out.push_back(shown(s, now_s));
  }
  return out;
}

bool ServiceDb::expire(std::int64_t now_s) {
  const std::size_t before = records_.size();
  std::erase_if(records_, [&](const Stored& s) { return s.expires_s != 0 && s.expires_s <= now_s; });
  return records_.size() != before;
}

std::string ServiceDb::to_json() const {
  nlohmann::json services = nlohmann::json::array();
  for (const Stored& s : records_) {
    services.push_back({{"name", s.rec.service_name()}, {"record", to_hex(s.rec.bytes)}, {"expires", s.expires_s}});
  }
  // ServiceName is whatever bytes a client sent: the record's hex is what is read back; the name is for a
  // reader of the file, with bytes that are not UTF-8 shown as U+FFFD rather than refusing to write.
  return nlohmann::json{{"version", 1}, {"services", services}}.dump(1, ' ', false,
                                                                     nlohmann::json::error_handler_t::replace) +
         "\n";
}

Status ServiceDb::load_json(const std::string& text) {
  Result<nlohmann::json> doc = parse_state_document(text, "services");
  if (!doc) return doc.error();
  const auto it = doc->find("services");
  std::vector<Stored> loaded;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const nlohmann::json& e = (*it)[i];
    const std::string where = "services[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.contains("record") || !e["record"].is_string() || !e.contains("expires") ||
        !e["expires"].is_number_integer()) {
      return make_error(ErrorCode::kInvalidInput, where + ": needs \"record\" (hex) and \"expires\" (integer)");
    }
    Stored s;
    if (!from_hex(e["record"].get<std::string>(), s.rec.bytes)) {
      return make_error(ErrorCode::kInvalidInput, where + ": \"record\" is not 176 bytes of hex");
    }
    s.expires_s = e["expires"].get<std::int64_t>();
    if (s.expires_s < 0) return make_error(ErrorCode::kInvalidInput, where + ": \"expires\" is negative");
    // ServiceLease is 32 bits of seconds (IBA 15.2.5.14): a lease the file holds must be one Set could give.
    if (s.expires_s > std::int64_t{1} << 33)
      return make_error(ErrorCode::kInvalidInput, where + ": \"expires\" is beyond any 32-bit lease");
    for (const Stored& o : loaded) {
      if (same_key(o.rec, s.rec)) return make_error(ErrorCode::kInvalidInput, where + ": the same service twice");
    }
    const auto per_gid = std::count_if(loaded.begin(), loaded.end(),
                                       [&](const Stored& o) { return o.rec.service_gid() == s.rec.service_gid(); });
    // The bounds Set keeps (kMaxServices, kMaxServicesPerGid) hold for a restored file too.
    if (loaded.size() >= kMaxServices || static_cast<std::size_t>(per_gid) >= kMaxServicesPerGid)
      return make_error(ErrorCode::kInvalidInput, where + ": more services than the SA holds (" +
                                                      std::to_string(kMaxServices) + ", " +
                                                      std::to_string(kMaxServicesPerGid) + " per port)");
    loaded.push_back(s);
  }
  records_ = std::move(loaded);
  return Ok{};
}

}  // namespace smd::sa
