// SaStats: what the SA did, for `smctl sa` and the Prometheus endpoint: requests by attribute, method and
// status, drops by reason, and an answer-latency histogram (from the receive thread's hand-off to the send).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace smd {

/// Upper bounds of the latency histogram buckets, microseconds (the last bucket is +Inf).
inline constexpr std::array<double, 10> kLatencyBucketsUs = {10, 25, 50, 100, 250, 500, 1000, 2500, 10000, 100000};

/// One answer-latency histogram: answers per kLatencyBucketsUs bucket (not cumulative; the last bucket is
/// +Inf), with their sum and count, as a Prometheus histogram needs them.
struct SaLatency {
  std::array<std::uint64_t, kLatencyBucketsUs.size() + 1> buckets{};
  double sum_us = 0;
  std::uint64_t count = 0;

  /// Counts one answer that took `us` microseconds.
  void add(double us) {
    std::size_t b = 0;
    while (b < kLatencyBucketsUs.size() && us > kLatencyBucketsUs[b]) ++b;
    ++buckets[b];
    sum_us += us;
    ++count;
  }
  /// Adds another histogram's answers (the buckets are the same for every SaLatency).
  void merge(const SaLatency& other) {
    for (std::size_t b = 0; b < buckets.size(); ++b) buckets[b] += other.buckets[b];
    sum_us += other.sum_us;
    count += other.count;
  }
};

/// One registered ServiceRecord as `smctl sa` lists it.
struct SaServiceRow {
  std::string name;
  std::uint64_t id = 0;
  std::string gid;            ///< "fe80::2:c903:0:1234"
  std::int64_t lease_s = -1;  ///< seconds left, -1 = forever
};

/// One InformInfo subscription as `smctl sa` lists it.
struct SaSubscriptionRow {
  std::uint32_t id = 0;
  std::uint16_t lid = 0;       ///< where its Reports go
  std::uint16_t trap = 0;      ///< 0xFFFF = every trap
  std::uint32_t producer = 0;  ///< 0xFFFFFF = every producer
};

struct SaStats {
  /// (attribute name, method name, status name) -> answers
  std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t> answers;
  std::map<std::string, std::uint64_t> dropped;  ///< reason -> MADs not answered ("queue-full", "bad-sm-key", ...)
  SaLatency latency;                             ///< every answer
  /// attribute name -> its answers' latency: a PathRecord answer costs more than a ClassPortInfo one
  std::map<std::string, SaLatency> latency_by_attribute;
  std::uint64_t answered_inline = 0;        ///< answers given on the receive thread (the SM had no SMP outstanding)
  std::uint64_t reports_sent = 0;           ///< Report MADs sent, re-sends included
  std::uint64_t reports_acknowledged = 0;   ///< ReportResp received
  std::uint64_t subscriptions_dropped = 0;  ///< subscriptions removed after unanswered Reports
  std::uint64_t send_errors = 0;
  std::uint64_t records_truncated = 0;     ///< answers cut at sa.max_records
  std::size_t subscriptions = 0;           ///< live InformInfo subscriptions
  std::size_t services = 0;                ///< live ServiceRecords
  std::size_t mcast_groups = 0;            ///< multicast groups (MCMemberRecord)
  std::size_t mcast_members = 0;           ///< (group, port) memberships
  std::uint64_t mcast_joins = 0;           ///< successful MCMemberRecord Sets
  std::uint64_t mcast_leaves = 0;          ///< successful MCMemberRecord Deletes
  std::size_t queue_depth = 0;             ///< requests waiting now
  std::vector<SaServiceRow> service_list;  ///< as of the SA thread's last look (at most a second old)
  std::vector<SaSubscriptionRow> subscription_list;
  bool serving = false;
};

}  // namespace smd
