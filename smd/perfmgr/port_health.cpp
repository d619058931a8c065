// PortHealth: see port_health.h.
#include "smd/perfmgr/port_health.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace smd {
namespace {

/// "10", "2.5": an interval in seconds to a tenth, without a trailing ".0".
std::string format_seconds(double s) {
  char buf[32];
  const double tenths = std::round(s * 10) / 10;
  std::snprintf(buf, sizeof buf, "%.1f", tenths);
  std::string out = buf;
  if (out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
  return out;
}

}  // namespace

PortHealth::PortHealth(HealthThresholds t) : t_(t) {}

void PortHealth::set_thresholds(HealthThresholds t) { t_ = t; }

std::optional<HealthMark> PortHealth::record_errors(const PortKey& key, const CounterArray& delta, double elapsed_s,
                                                    std::chrono::steady_clock::time_point now) {
  if (auto it = marked_.find(key); it != marked_.end()) {
    for (std::size_t i = 0; i < kPortCounterCount; ++i) {
      if (is_error_counter(static_cast<PortCounter>(i)) && delta[i] > 0) {
        it->second.last_bad = now;
        break;
      }
    }
    return std::nullopt;
  }
  // Errors counted over several intervals are judged at the threshold's rate, never above it.
  const double intervals = t_.interval_s > 0 && elapsed_s > t_.interval_s ? elapsed_s / t_.interval_s : 1.0;
  for (std::size_t i = 0; i < kPortCounterCount; ++i) {
    const std::uint64_t max = t_.max_per_interval[i];
    if (max == 0 || static_cast<double>(delta[i]) <= static_cast<double>(max) * intervals) continue;
    std::string threshold = std::to_string(max);
    if (t_.interval_s > 0) threshold += " per " + format_seconds(t_.interval_s) + " s";
    HealthMark m{key, std::string(kPortCounterInfo[i].iba_name) + " +" + std::to_string(delta[i]) + " in " +
                          format_seconds(elapsed_s) + " s (threshold " + threshold + ")"};
    marked_[key] = Mark{m.reason, now, now, flaps(key, now)};
    return m;
  }
  return std::nullopt;
}

void PortHealth::drop_old_flaps(std::deque<std::chrono::steady_clock::time_point>& q,
                                std::chrono::steady_clock::time_point now) const {
  while (!q.empty() && now - q.front() >= t_.flap_window) q.pop_front();
}

std::optional<HealthMark> PortHealth::record_flap(const PortKey& key, std::chrono::steady_clock::time_point now) {
  auto& q = flaps_[key];
  q.push_back(now);
  drop_old_flaps(q, now);
  const auto count = static_cast<unsigned>(q.size());
  if (auto it = marked_.find(key); it != marked_.end()) {
    it->second.last_bad = now;
    it->second.flaps = count;
    return std::nullopt;
  }
  if (t_.flap_count == 0 || count < t_.flap_count) return std::nullopt;
  HealthMark m{key, std::to_string(count) + " link flaps in " + std::to_string(t_.flap_window.count()) + " s"};
  marked_[key] = Mark{m.reason, now, now, count};
  return m;
}

bool PortHealth::clear(const PortKey& key) {
  flaps_.erase(key);
  return marked_.erase(key) > 0;
}

std::vector<PortKey> PortHealth::expire_quiet(std::chrono::steady_clock::time_point now) {
  std::vector<PortKey> out;
  if (t_.quiet_period.count() == 0) return out;
  for (auto it = marked_.begin(); it != marked_.end();) {
    if (now - it->second.last_bad >= t_.quiet_period) {
      out.push_back(it->first);
      it = marked_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

unsigned PortHealth::flaps(const PortKey& key, std::chrono::steady_clock::time_point now) const {
  const auto it = flaps_.find(key);
  if (it == flaps_.end()) return 0;
  return static_cast<unsigned>(std::count_if(it->second.begin(), it->second.end(),
                                             [&](auto t) { return now - t < t_.flap_window && t <= now; }));
}

void PortHealth::retain(const std::vector<PortKey>& present) {
  std::vector<PortKey> keep = present;
  std::sort(keep.begin(), keep.end());
  std::erase_if(flaps_, [&](const auto& kv) { return !std::binary_search(keep.begin(), keep.end(), kv.first); });
}

}  // namespace smd
