// PendingSweep: the heavy-sweep requests that arrived since the last heavy sweep began, coalesced into
// one sweep (a trap burst, a SIGHUP and an `smctl sweep` together are one sweep). Pure bookkeeping; the
// daemon's sweep timer decides when the sweep runs (smd/sm/daemon_sweeps.cpp).
#pragma once

#include <string>
#include <vector>

#include "routing/base/ids.h"
#include "smd/sweep/sweep_scope.h"

namespace smd {

/// The sweep that runs now: why, what it reads, and which LIDs sent link-change traps.
struct SweepOrder {
  std::string reason;
  SweepScope scope = SweepScope::kFull;
  std::vector<Lid> trap_lids;  ///< SweepScope::kChanged: the trap issuers, each once, in arrival order
};

class PendingSweep {
 public:
  /// Record one request. The first reason is kept (it says what started the sweep); any kFull request
  /// makes the sweep full; kChanged adds `trap_lid` (not 0) to the issuers; kFailed only re-reads what the
  /// last sweep missed, unless something else asks for more.
  void add(const std::string& reason, SweepScope scope, Lid trap_lid = 0);

  /// Whether any request is pending.
  bool empty() const { return reason_.empty() && !full_ && trap_lids_.empty() && !any_; }

  /// The sweep to run now, and forget every request: kFull when one asked for it, else kChanged when
  /// traps named issuers, else kFailed. The reason is "requested" when none was given.
  SweepOrder take();

  /// Forget every request (the SM stopped sweeping: STANDBY or NOTACTIVE).
  void clear() { *this = PendingSweep{}; }

 private:
  std::string reason_;
  bool full_ = false;
  bool any_ = false;
  std::vector<Lid> trap_lids_;
};

}  // namespace smd
