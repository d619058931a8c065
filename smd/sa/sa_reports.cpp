// SaReports: Report MADs built, sent within the window, retried, retired by their ReportResp.
#include "smd/sa/sa_reports.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>

#include "mad/sa/sa_mad.h"

namespace smd::sa {

using namespace mad::sa;

namespace {

// The GSI (QP1) Q_Key a subscriber takes its Reports on.
constexpr std::uint32_t kSubscriberQkey = 0x80010000u;
constexpr std::size_t kReportWindow = 16;         // Reports awaiting their ReportResp at once
constexpr std::size_t kMaxQueuedReports = 65536;  // beyond: dropped and counted

/// The Report(Notice) MAD of `notice` with transaction ID `tid` (IBA 13.4.8.2: the whole Notice as data).
std::vector<std::uint8_t> report_mad(const mad::Notice& notice, std::uint32_t tid) {
  SaHeader h;
  h.method = method::kReport;
  h.tid = tid;
  h.attr_id = attr::kNotice;
  std::vector<std::uint8_t> out(kMadSize, 0);
  h.encode(out);
  std::array<std::uint8_t, mad::kNoticeFullSize> body{};
  notice.encode_full(body);
  std::copy(body.begin(), body.end(), out.begin() + kHeaderSize);
  return out;
}

}  // namespace

void SaReports::queue(const mad::Notice& notice, Lid issuer_lid, const InformDb& informs, SaStats& counts) {
  for (const Subscription& s : informs.subscribers(notice, issuer_lid)) {
    Pending p;
    p.subscription = s.id;
    p.tid = next_tid_++;
    p.mad = report_mad(notice, p.tid);
    p.to.lid = s.lid;
    p.to.qpn = s.qpn;
    p.to.qkey = kSubscriberQkey;
    if (reports_.size() >= kMaxQueuedReports) {
      ++counts.dropped["report-queue-full"];
      continue;
    }
    reports_.push_back(std::move(p));  // sent by pump(), kReportWindow at a time
  }
  pump(counts);
}

void SaReports::pump(SaStats& counts) {
  std::size_t in_flight = 0;
  for (const Pending& p : reports_) in_flight += p.attempts > 0 ? 1 : 0;
  for (Pending& p : reports_) {
    if (in_flight >= kReportWindow) break;
    if (p.attempts == 0) {
      send(p, counts);
      ++in_flight;
    }
  }
}

void SaReports::send(Pending& p, SaStats& counts) {
  ++p.attempts;
  p.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
  const int rc = sender_(p.mad, p.to);
  ++counts.reports_sent;
  if (rc != 0) ++counts.send_errors;
}

void SaReports::retry(std::chrono::steady_clock::time_point now, InformDb& informs, SaStats& counts) {
  std::vector<std::pair<std::uint32_t, Lid>> gone;  // (subscription, the LID its Reports went to)
  for (Pending& p : reports_) {
    if (p.attempts == 0 || p.deadline > now) continue;  // not sent yet, or still waiting for its ReportResp
    if (p.attempts <= retries_) {
      send(p, counts);
      continue;
    }
    gone.emplace_back(p.subscription, p.to.lid);
  }
  for (const auto& entry : gone) {
    const auto id = entry.first;  // not a binding: erase_if's lambda captures it (clang < 16 cannot)
    const auto lid = entry.second;
    if (informs.drop(id)) {
      spdlog::warn("SA: subscriber {} at LID {} answered no Report after {} attempts: subscription dropped", id, lid,
                   retries_ + 1);
      ++counts.subscriptions_dropped;
    }
    std::erase_if(reports_, [&](const Pending& p) { return p.subscription == id; });
  }
  pump(counts);
}

void SaReports::acknowledged(std::uint32_t tid, Lid from, SaStats& counts) {
  const auto before = reports_.size();
  std::erase_if(reports_, [&](const Pending& p) { return p.tid == tid && p.to.lid == from; });
  if (reports_.size() != before) {
    ++counts.reports_acknowledged;
    pump(counts);
  }
}

std::optional<std::chrono::steady_clock::time_point> SaReports::next_deadline() const {
  std::optional<std::chrono::steady_clock::time_point> first;
  for (const Pending& p : reports_) {
    if (p.attempts > 0 && (!first || p.deadline < *first)) first = p.deadline;  // an unsent one has none yet
  }
  return first;
}

}  // namespace smd::sa
