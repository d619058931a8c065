// The `perfmgr:` and `health:` sections read into PerfMgrPolicy and HealthPolicy: defaults, every key, and
// the threshold names in smd::PortCounter order.
#include "config/perfmgr_section.h"

#include <gtest/gtest.h>

#include "config/policy_loader.h"

namespace smd::perfmgr_section_test {
namespace {

Policy load(const std::string& yaml) {
  Result<Policy> policy = load_policy_string(yaml, "t.yaml");
  EXPECT_TRUE(policy.ok()) << policy.error().message;
  return policy.ok() ? *policy : Policy{};
}

TEST(PerfMgrSection, AbsentMeansOffWithOpenSmLikeDefaults) {
  const Policy p = load("lid:\n  lmc: 0\n");
  EXPECT_FALSE(p.perfmgr.enabled);
  EXPECT_EQ(p.perfmgr.interval_s, 60u);
  EXPECT_EQ(p.perfmgr.max_outstanding, 8u);
  EXPECT_TRUE(p.perfmgr.reset_saturated);
  EXPECT_TRUE(p.health.enabled);
  EXPECT_TRUE(p.health.isolate);
  EXPECT_EQ(p.health.flap_count, 5u);
}

TEST(PerfMgrSection, EveryKeyIsRead) {
  const Policy p = load(
      "perfmgr:\n  enabled: true\n  interval: 2\n  max_outstanding: 16\n  timeout_ms: 100\n  retries: 1\n"
      "  reset_saturated: false\n");
  EXPECT_TRUE(p.perfmgr.enabled);
  EXPECT_EQ(p.perfmgr.interval_s, 2u);
  EXPECT_EQ(p.perfmgr.max_outstanding, 16u);
  EXPECT_EQ(p.perfmgr.timeout_ms, 100u);
  EXPECT_EQ(p.perfmgr.retries, 1u);
  EXPECT_FALSE(p.perfmgr.reset_saturated);
}

TEST(PerfMgrSection, ThresholdsLandAtTheirCounterIndex) {
  // Index 0 is SymbolErrorCounter, 2 LinkDownedCounter, 6 PortXmitDiscards, 12 PortXmitWait (IBA table 247
  // order, as smd::PortCounter); a threshold not written keeps its default.
  const Policy p = load(
      "health:\n  isolate: false\n  thresholds:\n    symbol_errors: 7\n    link_downed: 0\n    xmit_discards: 100\n"
      "    xmit_wait: 4294967295\n  flap_count: 3\n  flap_window: 60\n  quiet_period: 0\n");
  const HealthPolicy d;
  EXPECT_FALSE(p.health.isolate);
  EXPECT_EQ(p.health.thresholds[0], 7u);
  EXPECT_EQ(p.health.thresholds[1], d.thresholds[1]);
  EXPECT_EQ(p.health.thresholds[2], 0u);
  EXPECT_EQ(p.health.thresholds[6], 100u);
  EXPECT_EQ(p.health.thresholds[12], 4294967295u);
  EXPECT_EQ(p.health.flap_count, 3u);
  EXPECT_EQ(p.health.flap_window_s, 60u);
  EXPECT_EQ(p.health.quiet_period_s, 0u);
}

TEST(PerfMgrSection, ThresholdKeysFollowPerfqueryNames) {
  // The stems of PortCounters' field names, in table order: a renamed or reordered key would silently move
  // a threshold onto another counter.
  const std::array<std::string_view, 13> expected = {"symbol_errors",
                                                     "link_error_recoveries",
                                                     "link_downed",
                                                     "rcv_errors",
                                                     "rcv_remote_physical_errors",
                                                     "rcv_switch_relay_errors",
                                                     "xmit_discards",
                                                     "xmit_constraint_errors",
                                                     "rcv_constraint_errors",
                                                     "local_link_integrity_errors",
                                                     "excessive_buffer_overrun_errors",
                                                     "vl15_dropped",
                                                     "xmit_wait"};
  EXPECT_EQ(kHealthThresholdKeys, expected);
}

}  // namespace
}  // namespace smd::perfmgr_section_test

namespace smd::perfmgr_section_test {
namespace {

// OpenSM's babbling_port_policy (default FALSE; 250 traps) and perfmgr_redir (default TRUE).
TEST(PerfMgrSection, BabblingPortAndFollowRedirectDefaultAsOpenSm) {
  const Policy p = load("lid:\n  lmc: 0\n");
  EXPECT_FALSE(p.health.babbling_port);
  EXPECT_EQ(p.health.babbling_traps, 250u);
  EXPECT_EQ(p.health.babbling_window_s, 60u);
  EXPECT_TRUE(p.perfmgr.follow_redirect);
}

TEST(PerfMgrSection, BabblingPortAndFollowRedirectAreRead) {
  const Policy p = load(
      "perfmgr:\n  follow_redirect: false\nhealth:\n  babbling_port: true\n  babbling_traps: 20\n"
      "  babbling_window: 5\n");
  EXPECT_FALSE(p.perfmgr.follow_redirect);
  EXPECT_TRUE(p.health.babbling_port);
  EXPECT_EQ(p.health.babbling_traps, 20u);
  EXPECT_EQ(p.health.babbling_window_s, 5u);
}

TEST(PerfMgrSection, BabblingRateOutOfRangeNamesTheKeyAndLine) {
  for (const char* yaml : {"health:\n  babbling_traps: 1\n", "health:\n  babbling_window: 0\n"}) {
    const Result<Policy> p = load_policy_string(yaml, "t.yaml");
    ASSERT_FALSE(p.ok()) << yaml;
    EXPECT_NE(p.error().message.find("t.yaml:2"), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find("babbling_"), std::string::npos) << p.error().message;
  }
}

}  // namespace
}  // namespace smd::perfmgr_section_test
