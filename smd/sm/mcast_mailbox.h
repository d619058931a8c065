// McastMailbox: the hand-over of the SA's multicast groups from the SA thread to the SM's thread, and the
// debounce of the pass that programs their trees.
//
// The SA thread deposits every change of its groups (its McastSink); only the newest set is kept, since a
// pass programs the groups as they are, not each change. On the SM's thread a heavy sweep or a multicast
// pass takes the set when it is new, so a sweep never programs older groups than the SA holds. Joins come
// in bursts (a host joins several groups at once, a reboot of many hosts rejoins them together): the first
// change arms a short timer and the pass runs once when it fires, for the whole burst.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "routing/mcast/mcast_tables.h"
#include "smd/fabric/mcast_groups.h"
#include "smd/sa/mcast_db.h"
#include "smd/sm/event_timer.h"
#include "smd/state/fabric_snapshot.h"

namespace smd {

class McastMailbox {
 public:
  /// How long the first change of a burst waits for the rest before the pass runs.
  static constexpr std::chrono::milliseconds kDebounce{3};

  /// The debounce timer's firing posts DaemonEvent{kMcastDue} through `post` (on `io`'s thread).
  McastMailbox(boost::asio::io_context& io, std::function<void(DaemonEvent)> post);

  /// SA thread: the SA's groups now. Groups that share an MLID (consolidated IPv6 SNM groups) become one
  /// group over all their members (one tree). Thread-safe.
  void deposit(const std::vector<sa::McastGroupMembers>& groups);
  /// SM thread: the groups deposited since the last take, by MLID; nullopt when nothing new came.
  std::optional<std::vector<McastGroupGuids>> take();
  /// The groups as smctl shows them (members counted by JoinState bit), with their trees from `trees`
  /// (null: none yet). Trees count as programmed unless a deposit is untaken or `rebuild_pending`.
  std::vector<McastGroupView> view(const McastTables* trees, bool rebuild_pending) const;

  /// kScheduleMcast: arm the debounce timer, unless it already waits (once per burst).
  void schedule_pass();
  /// kRunMcastPass with the event's timer_gen: true when it is the current arming's (the pass runs now
  /// and the next change arms anew), false for a stale firing.
  bool pass_due(std::uint64_t timer_gen);

 private:
  mutable std::mutex mutex_;  ///< guards groups_, view_, new_: the SA thread writes them
  std::vector<McastGroupGuids> groups_;
  std::vector<McastGroupView> view_;
  bool new_ = false;    ///< deposited since the last take
  bool armed_ = false;  ///< the debounce timer waits (SM thread only)
  EventTimer timer_;
};

}  // namespace smd
