#include "smd/sm/policy_reloads.h"

#include <utility>

namespace smd {

void PolicyReloads::refuse(std::string error, std::chrono::system_clock::time_point now) {
  if (refused_.empty()) refused_since_ = now;
  refused_ = std::move(error);
  ++refused_total_;
}

std::shared_ptr<const ReloadedPolicy> PolicyReloads::take_staged() {
  std::shared_ptr<const ReloadedPolicy> taken = std::exchange(staged_, nullptr);
  if (taken) {
    generation_ = taken->generation;
    needs_restart_ = taken->needs_restart;
  }
  return taken;
}

}  // namespace smd
