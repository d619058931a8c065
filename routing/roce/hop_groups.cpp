#include "routing/roce/hop_groups.h"

#include <string_view>
#include <unordered_map>

namespace smd::roce {

HopGroups::HopGroups(const EcmpTable& fib) : n_(fib.num_switches()) {
  id_.assign(n_ * n_, 0);
  first_.reserve(n_);
  start_.push_back(0);
  // Port list -> local id, per switch; the keys view fib's own storage, so a lookup allocates nothing.
  std::unordered_map<std::string_view, std::uint16_t> seen;
  for (SwitchIndex s = 0; s < n_; ++s) {
    first_.push_back(static_cast<std::uint32_t>(start_.size() - 1));
    seen.clear();
    for (SwitchIndex d = 0; d < n_; ++d) {
      const auto ports = fib.group(s, d);
      const std::string_view key(reinterpret_cast<const char*>(ports.data()), ports.size());
      auto [it, added] = seen.emplace(key, static_cast<std::uint16_t>(seen.size()));
      if (added) {
        ports_.insert(ports_.end(), ports.begin(), ports.end());
        start_.push_back(static_cast<std::uint32_t>(ports_.size()));
      }
      id_[static_cast<std::size_t>(d) * n_ + s] = it->second;
    }
  }
}

}  // namespace smd::roce
