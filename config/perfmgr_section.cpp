#include "config/perfmgr_section.h"

#include <string>

namespace smd {

void read_perfmgr(MapReader perfmgr, PerfMgrPolicy& out) {
  perfmgr.read_bool("enabled", out.enabled);
  perfmgr.read_unsigned("interval", 1, 86400, out.interval_s);
  perfmgr.read_unsigned("max_outstanding", 1, 64, out.max_outstanding);
  perfmgr.read_unsigned("timeout_ms", 10, 60000, out.timeout_ms);
  perfmgr.read_unsigned("retries", 0, 10, out.retries);
  perfmgr.read_bool("reset_saturated", out.reset_saturated);
  perfmgr.read_bool("ignore_cas", out.ignore_cas);
  perfmgr.read_bool("follow_redirect", out.follow_redirect);
  perfmgr.finish();
  // A MAD that may wait longer than an interval makes passes overlap their own schedule.
  const std::uint64_t worst_ms = std::uint64_t{out.timeout_ms} * (out.retries + 1);
  if (worst_ms > std::uint64_t{out.interval_s} * 1000) {
    perfmgr.fail_key(perfmgr.key_mark("timeout_ms") ? "timeout_ms" : "interval",
                     "timeout_ms * (retries + 1) = " + std::to_string(worst_ms) + " ms is longer than interval (" +
                         std::to_string(out.interval_s) + " s)");
  }
}

void read_health(MapReader health, HealthPolicy& out) {
  health.read_bool("enabled", out.enabled);
  health.read_bool("isolate", out.isolate);
  MapReader thresholds = health.section("thresholds");
  for (std::size_t i = 0; i < kHealthThresholdKeys.size(); ++i) {
    std::uint64_t value = out.thresholds[i];
    unsigned narrow = static_cast<unsigned>(value);
    thresholds.read_unsigned(kHealthThresholdKeys[i], 0, 0xFFFFFFFFu, narrow);
    out.thresholds[i] = narrow;
  }
  thresholds.finish();
  health.read_unsigned("flap_count", 0, 1000, out.flap_count);
  health.read_unsigned("flap_window", 1, 7 * 86400, out.flap_window_s);
  health.read_unsigned("quiet_period", 0, 30 * 86400, out.quiet_period_s);
  health.read_bool("babbling_port", out.babbling_port);
  health.read_unsigned("babbling_traps", 2, 100000, out.babbling_traps);
  health.read_unsigned("babbling_window", 1, 86400, out.babbling_window_s);
  health.finish();
}

}  // namespace smd
