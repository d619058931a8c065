// SaStats: what the SA did, for `smctl sa` and the Prometheus endpoint: requests by attribute, method and
// status, drops by reason, and an answer-latency histogram (from the receive thread's hand-off to the send).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>

namespace smd {

/// Upper bounds of the latency histogram buckets, microseconds (the last bucket is +Inf).
inline constexpr std::array<double, 10> kLatencyBucketsUs = {10, 25, 50, 100, 250, 500, 1000, 2500, 10000, 100000};

struct SaStats {
  /// (attribute name, method name, status name) -> answers
  std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t> answers;
  std::map<std::string, std::uint64_t> dropped;  ///< reason -> MADs not answered ("queue-full", "bad-sm-key", ...)
  std::array<std::uint64_t, kLatencyBucketsUs.size() + 1> latency_buckets{};  ///< counts, not cumulative
  double latency_sum_us = 0;
  std::uint64_t latency_count = 0;
  std::uint64_t reports_sent = 0;          ///< Report MADs sent, re-sends included
  std::uint64_t reports_acknowledged = 0;  ///< ReportResp received
  std::uint64_t subscriptions_dropped = 0; ///< subscriptions removed after unanswered Reports
  std::uint64_t send_errors = 0;
  std::uint64_t records_truncated = 0;  ///< answers cut at sa.max_records
  std::size_t subscriptions = 0;        ///< live InformInfo subscriptions
  std::size_t services = 0;             ///< live ServiceRecords
  std::size_t queue_depth = 0;          ///< requests waiting now
  bool serving = false;
};

}  // namespace smd
