// ServiceDb: the ServiceRecords registered with the SA (IBA vol. 1, 15.2.5.14 and C15-0.1.9..12), with
// their leases. A record is identified by (ServiceID, ServiceGID, ServiceP_Key): a Set with the same key
// replaces it. A Set without ServiceLease in its ComponentMask, or with 0xFFFFFFFF, never expires; any
// other lease counts down from the Set and the record is gone when it reaches 0. Get/GetTable show the
// lease left. Persisted as JSON (one object per record: hex bytes and absolute expiry in Unix seconds) so
// a restart or a takeover serves the same services with the same deadlines. Pure: the caller supplies
// the time and does the file I/O.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mad/sa/service_record.h"
#include "routing/base/status.h"
#include "smd/sa/sa_query.h"

namespace smd::sa {

/// Bounds on what requesters can make the SA hold (and write to the services file on every change).
inline constexpr std::size_t kMaxServices = 16384;
inline constexpr std::size_t kMaxServicesPerGid = 256;

class ServiceDb {
 public:
  /// Set (register or renew). Errors as SA status: INSUF_COMPS without ServiceID and ServiceGID in the
  /// mask, INVALID_GID for a ServiceGID that `gid_known` rejects. Answers the stored record.
  template <class GidKnown>
  SaAnswer set(const SaQuery& q, std::int64_t now_s, GidKnown&& gid_known) {
    using enum mad::sa::ServiceRecordField;
    constexpr std::uint64_t kKey = mad::sa::mask_bit(kServiceId) | mad::sa::mask_bit(kServiceGid);
    if ((q.mask() & kKey) != kKey) return SaAnswer::error(mad::sa::status::kInsufficientComponents);
    const auto rec = mad::sa::ServiceRecord::decode(q.rec());
    if (!gid_known(rec.service_gid())) return SaAnswer::error(mad::sa::status::kInvalidGid);
    return store(rec, (q.mask() & mad::sa::mask_bit(kServiceLease)) != 0, now_s);
  }
  /// Get / GetTable: the live records matching the request's ComponentMask, and `visible_pkey` of their
  /// ServiceP_Key when given (an untrusted requester sees the services of its partitions only).
  SaAnswer find(const SaQuery& q, std::int64_t now_s, std::uint32_t max_records,
                const std::function<bool(std::uint16_t)>& visible_pkey = nullptr) const;
  /// Delete the live records matching the request; answers them (NO_RECORDS when none).
  SaAnswer erase(const SaQuery& q, std::int64_t now_s);
  /// Drop the records whose lease ended at or before `now_s`; true when any was dropped.
  bool expire(std::int64_t now_s);

  std::size_t size() const { return records_.size(); }
  /// The live records as shown at `now_s` (lease left), for listings.
  std::vector<mad::sa::ServiceRecord> list(std::int64_t now_s) const;
  /// JSON text of every record (what the services file holds).
  std::string to_json() const;
  /// Replace the records with those of `json` (to_json's format). Errors (kInvalidInput) name what is
  /// wrong; on error nothing changes.
  Status load_json(const std::string& json);

 private:
  struct Stored {
    mad::sa::ServiceRecord rec;
    std::int64_t expires_s = 0;  ///< 0 = never
  };
  SaAnswer store(const mad::sa::ServiceRecord& rec, bool lease_given, std::int64_t now_s);
  static bool same_key(const mad::sa::ServiceRecord& a, const mad::sa::ServiceRecord& b);
  mad::sa::ServiceRecord shown(const Stored& s, std::int64_t now_s) const;

  std::vector<Stored> records_;
};

}  // namespace smd::sa
