// One SA request as the record handlers see it, what they answer, and the collector that applies
// ComponentMask matching (IBA 15.2.4) to the records a handler enumerates.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "mad/sa/record_layout.h"
#include "mad/sa/sa_mad.h"
#include "routing/base/ids.h"

namespace smd::sa {

/// A decoded request.
struct SaQuery {
  mad::sa::SaHeader header;
  /// The request's record (template), zero-padded to the record size the handler expects: a short MAD is
  /// never read past its end.
  std::array<std::uint8_t, mad::sa::kDataSize> record{};
  Lid requester_lid = 0;  ///< the source LID of the request (for logs and the Report address)
  std::uint32_t requester_qpn = 1;
  bool trusted = false;  ///< SM_Key equals sa.key
  /// Alias GUID -> port GUID (GUIDInfoRecord Set), for resolving a GID by alias; null: no aliases.
  const std::unordered_map<Guid, Guid>* alias_bases = nullptr;

  std::uint64_t mask() const { return header.comp_mask; }
  std::uint8_t method() const { return header.method; }
  std::span<const std::uint8_t> rec() const { return record; }
};

/// A handler's answer: a status and the records (each `record_size` bytes, back to back).
struct SaAnswer {
  std::uint16_t status = mad::sa::status::kOk;
  std::uint16_t record_size = 0;
  std::vector<std::uint8_t> records;
  std::size_t count = 0;
  bool truncated = false;  ///< more records matched than sa.max_records

  static SaAnswer error(std::uint16_t status) {
    SaAnswer a;
    a.status = status;
    return a;
  }
  /// An answer of exactly `rec` (a Set's echo, ClassPortInfo): `R` has kSize and encode(span), the codec
  /// shape of mad/sa.
  template <class R>
  static SaAnswer one(const R& rec) {
    SaAnswer a;
    a.record_size = static_cast<std::uint16_t>(R::kSize);
    a.records.resize(R::kSize);
    rec.encode(a.records);
    a.count = 1;
    return a;
  }
};

/// Builds an SaAnswer from candidate records: encode a candidate into slot(), then offer() it; it is kept
/// when it matches the request's ComponentMask. For a Get, a second match is enough to know the answer is
/// TOO_MANY_RECORDS, so done() turns true and the handler may stop enumerating.
class RecordCollector {
 public:
  RecordCollector(const mad::sa::RecordLayout& layout, const SaQuery& query, std::uint32_t max_records);
  /// Scratch space of layout.size bytes, zeroed, for the next candidate.
  std::span<std::uint8_t> slot();
  /// Keep the candidate in slot() if it matches. Returns whether it was kept.
  bool offer();
  /// Keep the candidate in slot() without matching (the handler matched it itself).
  void keep();
  bool done() const { return done_; }
  /// Get: NO_RECORDS (none), TOO_MANY_RECORDS (several), else the one record; GetTable: every match.
  SaAnswer finish() &&;

 private:
  const mad::sa::RecordLayout& layout_;
  const SaQuery& query_;
  std::uint32_t max_;
  bool get_;
  bool done_ = false;
  SaAnswer answer_;
  std::vector<std::uint8_t> scratch_;
};

}  // namespace smd::sa
