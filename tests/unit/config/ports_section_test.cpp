// The `ports:` section read into PortsPolicy: OpenSM 3.3.23's defaults when absent (the values `opensm -c`
// writes), every key read, and each field's edge values accepted (the refusals are in
// policy_loader_reject_test.cpp, Ports).
#include "config/ports_section.h"

#include <gtest/gtest.h>

#include "config/policy_loader.h"

namespace smd::ports_section_test {
namespace {

Policy load(const std::string& yaml) {
  Result<Policy> policy = load_policy_string(yaml, "t.yaml");
  EXPECT_TRUE(policy.ok()) << policy.error().message;
  return policy.ok() ? *policy : Policy{};
}

TEST(PortsSection, AbsentMeansOpenSmDefaults) {
  const Policy p = load("lid:\n  lmc: 0\n");
  EXPECT_EQ(p.ports.subnet_timeout, 18u);
  EXPECT_EQ(p.ports.head_of_queue_lifetime, 0x12u);
  EXPECT_EQ(p.ports.leaf_head_of_queue_lifetime, 0x10u);
  EXPECT_EQ(p.ports.vl_stall_count, 7u);
  EXPECT_EQ(p.ports.leaf_vl_stall_count, 7u);
  EXPECT_EQ(p.ports.local_phy_errors_threshold, 8u);
  EXPECT_EQ(p.ports.overrun_errors_threshold, 8u);
  EXPECT_EQ(p.ports.sm_sl, 0u);
  EXPECT_EQ(p.ports.packet_life_time, 0x12u);
  EXPECT_EQ(p.ports.force_link_width, 255u);
  EXPECT_EQ(p.ports.force_link_speed, 15u);
  EXPECT_EQ(p.ports.force_link_speed_ext, 31u);
}

TEST(PortsSection, EveryKeyIsRead) {
  const Policy p = load(
      "ports:\n  subnet_timeout: 14\n  head_of_queue_lifetime: 0x13\n  leaf_head_of_queue_lifetime: 0x0e\n"
      "  vl_stall_count: 5\n  leaf_vl_stall_count: 3\n  local_phy_errors_threshold: 4\n"
      "  overrun_errors_threshold: 6\n  sm_sl: 2\n  packet_life_time: 0x11\n  force_link_width: 2\n"
      "  force_link_speed: 5\n  force_link_speed_ext: 30\n");
  EXPECT_EQ(p.ports.subnet_timeout, 14u);
  EXPECT_EQ(p.ports.head_of_queue_lifetime, 0x13u);
  EXPECT_EQ(p.ports.leaf_head_of_queue_lifetime, 0x0eu);
  EXPECT_EQ(p.ports.vl_stall_count, 5u);
  EXPECT_EQ(p.ports.leaf_vl_stall_count, 3u);
  EXPECT_EQ(p.ports.local_phy_errors_threshold, 4u);
  EXPECT_EQ(p.ports.overrun_errors_threshold, 6u);
  EXPECT_EQ(p.ports.sm_sl, 2u);
  EXPECT_EQ(p.ports.packet_life_time, 0x11u);
  EXPECT_EQ(p.ports.force_link_width, 2u);
  EXPECT_EQ(p.ports.force_link_speed, 5u);
  EXPECT_EQ(p.ports.force_link_speed_ext, 30u);
}

TEST(PortsSection, EdgeValuesAreAccepted) {
  // 20 is HOQLife's and LifeTimeValue's "infinite"; 0 leaves the link fields as the ports have them;
  // 31 is a full width mask (1x, 4x, 8x, 12x, 2x), 7 a full speed mask.
  const Policy p = load(
      "ports:\n  subnet_timeout: 31\n  head_of_queue_lifetime: 20\n  leaf_head_of_queue_lifetime: 0\n"
      "  vl_stall_count: 1\n  leaf_vl_stall_count: 7\n  local_phy_errors_threshold: 15\n"
      "  overrun_errors_threshold: 0\n  sm_sl: 15\n  packet_life_time: 20\n  force_link_width: 31\n"
      "  force_link_speed: 7\n  force_link_speed_ext: 0\n");
  EXPECT_EQ(p.ports.subnet_timeout, 31u);
  EXPECT_EQ(p.ports.head_of_queue_lifetime, 20u);
  EXPECT_EQ(p.ports.leaf_head_of_queue_lifetime, 0u);
  EXPECT_EQ(p.ports.vl_stall_count, 1u);
  EXPECT_EQ(p.ports.local_phy_errors_threshold, 15u);
  EXPECT_EQ(p.ports.sm_sl, 15u);
  EXPECT_EQ(p.ports.packet_life_time, 20u);
  EXPECT_EQ(p.ports.force_link_width, 31u);
  EXPECT_EQ(p.ports.force_link_speed, 7u);
  EXPECT_EQ(p.ports.force_link_speed_ext, 0u);
  const Policy off = load("ports:\n  force_link_width: 0\n  force_link_speed: 0\n");
  EXPECT_EQ(off.ports.force_link_width, 0u);
  EXPECT_EQ(off.ports.force_link_speed, 0u);
}

}  // namespace
}  // namespace smd::ports_section_test
