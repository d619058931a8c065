#include "smd/sm/pending_sweep.h"

#include <algorithm>
#include <utility>

namespace smd {

void PendingSweep::add(const std::string& reason, SweepScope scope, Lid trap_lid) {
  any_ = true;
  if (reason_.empty()) reason_ = reason;
  if (scope == SweepScope::kFull) full_ = true;
  if (scope == SweepScope::kChanged && trap_lid != 0 &&
      std::find(trap_lids_.begin(), trap_lids_.end(), trap_lid) == trap_lids_.end()) {
    trap_lids_.push_back(trap_lid);
  }
}

SweepOrder PendingSweep::take() {
  SweepOrder order;
  order.reason = reason_.empty() ? "requested" : reason_;
  order.scope = full_ ? SweepScope::kFull : !trap_lids_.empty() ? SweepScope::kChanged : SweepScope::kFailed;
  order.trap_lids = std::exchange(trap_lids_, {});
  clear();
  return order;
}

}  // namespace smd
