// Multicast between sweeps: the SA thread hands every change of its groups over (McastSink); the SM keeps
// the newest in a mailbox and queues kGroupsChanged; as master it waits kMcastDebounce for the rest of the
// burst (a host joins several groups at once, a reboot of many hosts rejoins them together), then one
// pass rebuilds the changed trees and writes their MFT blocks (smd/sweep/sweep_multicast.cpp). A heavy
// sweep takes the mailbox too, so a sweep never programs older groups than the SA holds.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <map>
#include <utility>

#include "smd/sm/daemon.h"

namespace smd {

namespace {

// Joins arrive in bursts: wait this long after the first before rebuilding trees.
constexpr std::chrono::milliseconds kMcastDebounce{3};

}  // namespace

void Daemon::on_groups_changed(std::vector<sa::McastGroupMembers> groups) {
  // The SA thread: convert, swap into the mailbox, and let the SM's thread queue the event. Groups that share
  // an MLID (consolidated IPv6 SNM groups) get one tree over all their members.
  std::vector<McastGroupGuids> flat = sa::members_by_mlid(groups);
  std::vector<McastGroupView> view;
  view.reserve(groups.size());
  for (const sa::McastGroupMembers& g : groups) {
    McastGroupView& v = view.emplace_back();
    v.mgid = g.mgid;
    v.mlid = g.mlid;
    for (const auto& [guid, join_state] : g.members) {
      if (join_state == 0) continue;
      ++v.members;
      if (join_state & 0x1) ++v.full;
      if (join_state & 0x2) ++v.non_member;
      if (join_state & 0xC) ++v.send_only;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mcast_mailbox_mutex_);
    mcast_mailbox_ = std::move(flat);
    mcast_view_ = std::move(view);
    mcast_mailbox_new_ = true;
  }
  boost::asio::post(io_, [this] { post(SmEvent::kGroupsChanged, "the SA's multicast groups changed"); });
}

void Daemon::take_mcast_mailbox() {
  std::vector<McastGroupGuids> groups;
  {
    std::lock_guard<std::mutex> lock(mcast_mailbox_mutex_);
    if (!mcast_mailbox_new_) return;
    groups = mcast_mailbox_;
    mcast_mailbox_new_ = false;
  }
  if (runner_) runner_->set_mcast_groups(groups);
}

std::vector<McastGroupView> Daemon::mcast_groups_view() const {
  std::vector<McastGroupView> view;
  bool mailbox_new = false;
  {
    std::lock_guard<std::mutex> lock(mcast_mailbox_mutex_);
    view = mcast_view_;
    mailbox_new = mcast_mailbox_new_;
  }
  if (!runner_) return view;
  const McastTables& trees = runner_->mcast_tables();
  const bool pending = mailbox_new || runner_->mcast_rebuild_pending();
  for (McastGroupView& v : view) {
    auto it = trees.trees.find(v.mlid);
    if (it == trees.trees.end()) continue;
    v.root = it->second.root;
    v.tree_switches = static_cast<unsigned>(it->second.switches.size());
    v.programmed = !pending;
  }
  return view;
}

void Daemon::schedule_mcast_pass() {
  if (mcast_armed_) return;
  mcast_armed_ = true;
  mcast_timer_.arm_after(kMcastDebounce);
}

void Daemon::run_mcast_pass(const DaemonEvent& event) {
  if (!mcast_timer_.is_current(event.timer_gen)) return;
  mcast_armed_ = false;
  if (!runner_) return;
  take_mcast_mailbox();
  if (perf_) perf_->set_sweeping(true);
  if (cc_) cc_->set_sweeping(true);
  const McastPassSummary r = runner_->multicast_pass();
  if (perf_) perf_->set_sweeping(false);
  if (cc_) cc_->set_sweeping(false);
  if (r.skipped) return;
  ++counters_.mcast_passes;
  counters_.mft_blocks_written += r.counts.blocks_written;
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
