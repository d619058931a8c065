#include "smd/sm/runtime_controls.h"

#include <utility>

namespace smd {

void RuntimeControls::sweeps_off(const std::string& by, const std::string& reason,
                                 std::chrono::system_clock::time_point now) {
  if (!sweeps_off_) {
    sweeps_off_ = SweepsOffView{};
    sweeps_off_->since = now;
  }
  sweeps_off_->by = by;
  sweeps_off_->reason = reason;
}

std::optional<SweepsOffView> RuntimeControls::sweeps_on() { return std::exchange(sweeps_off_, std::nullopt); }

bool RuntimeControls::hold_back(const std::string& why) {
  if (!sweeps_off_) return false;
  if (sweeps_off_->deferred++ == 0) sweeps_off_->first_deferred = why;
  return true;
}

std::optional<Status> RuntimeControls::reopen_log() const {
  if (!reopen_log_) return std::nullopt;
  return reopen_log_();
}

}  // namespace smd
