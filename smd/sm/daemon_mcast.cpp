// Multicast between sweeps: the SA thread hands every change of its groups over (McastSink); the SM keeps
// the newest in its McastMailbox (mcast_mailbox.h) and queues kGroupsChanged; as master it waits for the rest of the
// burst (a host joins several groups at once, a reboot of many hosts rejoins them together), then one
// pass rebuilds the changed trees and writes their MFT blocks (smd/sweep/sweep_multicast.cpp). A heavy
// sweep takes the mailbox too, so a sweep never programs older groups than the SA holds.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <utility>

#include "smd/sm/daemon.h"

namespace smd {

void Daemon::on_groups_changed(std::vector<sa::McastGroupMembers> groups) {
  // The SA thread: deposit, and let the SM's thread queue the event.
  mcast_.deposit(groups);
  boost::asio::post(io_, [this] { post(SmEvent::kGroupsChanged, "the SA's multicast groups changed"); });
}

void Daemon::take_mcast_mailbox() {
  std::optional<std::vector<McastGroupGuids>> groups = mcast_.take();
  if (groups && runner_) runner_->set_mcast_groups(*groups);
}

void Daemon::run_mcast_pass(const DaemonEvent& event) {
  if (!mcast_.pass_due(event.timer_gen)) return;
  if (!runner_) return;
  take_mcast_mailbox();
  health_.perf().set_sweeping(true);
  if (cc_) cc_->set_sweeping(true);
  const McastPassSummary r = runner_->multicast_pass();
  health_.perf().set_sweeping(false);
  if (cc_) cc_->set_sweeping(false);
  if (r.skipped) return;
  ++record_.counters().mcast_passes;
  record_.counters().mft_blocks_written += r.counts.blocks_written;
  if (!r.problems.empty()) {
    spdlog::warn("multicast pass: {} MLID(s) re-planned, {} MFT blocks written, {} problems; first: {}", r.rebuilt,
                 r.counts.blocks_written, r.problems.size(), r.problems.front().to_string());
    // What a pass could not write (an SMA that did not answer) the next heavy sweep writes again.
    schedule_heavy_sweep(Clock::now() + std::chrono::seconds(1), "multicast pass left problems");
  } else {
    // "Groups" are the MLIDs with a tree in the switches' tables: a group without members has none, so a
    // pass that removed one's tree reads "1 MLID re-planned, 0 groups with a tree".
    spdlog::info(
        "multicast pass: {} MLID(s) re-planned, {} group(s) with a tree, {} MFT blocks written ({} skipped), {} "
        "SMPs, {:.1f} ms",
        r.rebuilt, r.counts.groups, r.counts.blocks_written, r.counts.blocks_skipped, r.smps_sent, r.ms);
  }
  publish(nullptr);
}

}  // namespace smd
