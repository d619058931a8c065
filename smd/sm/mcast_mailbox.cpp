#include "smd/sm/mcast_mailbox.h"

#include <utility>

namespace smd {
namespace {

// JoinState bits (IBA 15.2.5.17): 0x1 FullMember, 0x2 NonMember, 0x4 SendOnlyNonMember, 0x8 SendOnlyFullMember.
McastGroupView view_of(const sa::McastGroupMembers& g) {
  McastGroupView v;
  v.mgid = g.mgid;
  v.mlid = g.mlid;
  for (const auto& [guid, join_state] : g.members) {
    if (join_state == 0) continue;
    ++v.members;
    if (join_state & 0x1) ++v.full;
    if (join_state & 0x2) ++v.non_member;
    if (join_state & 0xC) ++v.send_only;
  }
  return v;
}

}  // namespace

McastMailbox::McastMailbox(boost::asio::io_context& io, std::function<void(DaemonEvent)> post)
    : timer_(io, SmEvent::kMcastDue, std::move(post)) {}

void McastMailbox::deposit(const std::vector<sa::McastGroupMembers>& groups) {
  // Converted before the lock: the SM's thread never waits on the SA's work.
  std::vector<McastGroupGuids> flat = sa::members_by_mlid(groups);
  std::vector<McastGroupView> view;
  view.reserve(groups.size());
  for (const sa::McastGroupMembers& g : groups) view.push_back(view_of(g));
  const std::lock_guard lock(mutex_);
  groups_ = std::move(flat);
  view_ = std::move(view);
  new_ = true;
}

std::optional<std::vector<McastGroupGuids>> McastMailbox::take() {
  const std::lock_guard lock(mutex_);
  if (!new_) return std::nullopt;
  new_ = false;
  return groups_;
}

std::vector<McastGroupView> McastMailbox::view(const McastTables* trees, bool rebuild_pending) const {
  std::vector<McastGroupView> out;
  bool untaken = false;
  {
    const std::lock_guard lock(mutex_);
    out = view_;
    untaken = new_;
  }
  if (trees == nullptr) return out;
  for (McastGroupView& v : out) {
    auto it = trees->trees.find(v.mlid);
    if (it == trees->trees.end()) continue;
    v.root = it->second.root;
    v.tree_switches = static_cast<unsigned>(it->second.switches.size());
    v.programmed = !untaken && !rebuild_pending;
  }
  return out;
}

void McastMailbox::schedule_pass() {
  if (armed_) return;
  armed_ = true;
  timer_.arm_after(kDebounce);
}

bool McastMailbox::pass_due(std::uint64_t timer_gen) {
  if (!timer_.is_current(timer_gen)) return false;
  armed_ = false;
  return true;
}

}  // namespace smd
