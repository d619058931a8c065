// SaReports: the Reports the SA sends its event subscribers (IBA 13.4.8, 15.2.5.12) and their retries.
// A Report goes to every InformInfo subscriber a notice matches; at most kReportWindow are in flight at once
// (one trap can match every subscription, and a burst of thousands of MADs is what a fabric, and ibsim,
// cannot take); each is re-sent every `timeout_ms` until its ReportResp, `retries` times, and a subscriber
// that answers none loses its subscriptions. Owned by the SA thread (sa_agent.h); no lock.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "mad/codec/notice.h"
#include "mad/transport/mad_channel.h"
#include "routing/base/ids.h"
#include "smd/sa/inform_db.h"
#include "smd/state/sa_stats.h"

namespace smd::sa {

class SaReports {
 public:
  /// Sends one MAD; returns 0 or -errno.
  using Sender = std::function<int(std::span<const std::uint8_t> mad, const mad::MadAddress& to)>;

  SaReports(Sender sender, unsigned retries, unsigned timeout_ms)
      : sender_(std::move(sender)), retries_(retries), timeout_ms_(timeout_ms) {}

  /// A Report of `notice` for every subscriber in `informs` it matches (`issuer_lid`: the trap's LID).
  /// Beyond kMaxQueuedReports waiting, dropped and counted in counts.dropped["report-queue-full"].
  void queue(const mad::Notice& notice, Lid issuer_lid, const InformDb& informs, SaStats& counts);
  /// Re-send the Reports whose ReportResp is overdue at `now`; drop from `informs` the subscriptions whose
  /// last attempt went unanswered.
  void retry(std::chrono::steady_clock::time_point now, InformDb& informs, SaStats& counts);
  /// A ReportResp with `tid` from LID `from`: only the port the Report went to retires it (TIDs are small
  /// counters any host could guess).
  void acknowledged(std::uint32_t tid, Lid from, SaStats& counts);
  /// When retry() next has work: the earliest deadline of a Report in flight, nullopt for none.
  std::optional<std::chrono::steady_clock::time_point> next_deadline() const;

 private:
  struct Pending {
    std::uint32_t subscription = 0;
    std::uint32_t tid = 0;
    std::vector<std::uint8_t> mad;
    mad::MadAddress to;
    unsigned attempts = 0;  ///< 0: waiting for a place in the window
    std::chrono::steady_clock::time_point deadline;
  };
  void pump(SaStats& counts);
  void send(Pending& p, SaStats& counts);

  Sender sender_;
  unsigned retries_;
  unsigned timeout_ms_;
  std::vector<Pending> reports_;
  std::uint32_t next_tid_ = 1;
};

}  // namespace smd::sa
