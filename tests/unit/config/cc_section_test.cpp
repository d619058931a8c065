// The `congestion_control:` section (config/cc_section.h): OpenSM's defaults when absent, every key read
// into the field and unit it goes to, OpenSM's text forms (256-bit masks, shift:multiplier), and errors that
// name the place.
#include "config/cc_section.h"

#include <gtest/gtest.h>

#include "config/policy_loader.h"

namespace smd::cc_section_test {
namespace {

Policy load(const std::string& yaml) {
  Result<Policy> policy = load_policy_string(yaml, "t.yaml");
  EXPECT_TRUE(policy.ok()) << policy.error().message;
  return policy.ok() ? *policy : Policy{};
}

std::string load_error(const std::string& yaml) {
  Result<Policy> policy = load_policy_string(yaml, "t.yaml");
  EXPECT_FALSE(policy.ok());
  return policy.ok() ? "" : policy.error().message;
}

TEST(CcSection, AbsentMeansOffWithOpenSmDefaults) {
  const Policy p = load("lid:\n  lmc: 0\n");
  const CongestionControlPolicy& cc = p.congestion_control;
  EXPECT_FALSE(cc.enabled);
  EXPECT_EQ(cc.cc_key, 0u);
  EXPECT_EQ(cc.max_outstanding, 500u);  // cc_max_outstanding_mads
  EXPECT_EQ(cc.sw.control_map, 0u);
  EXPECT_EQ(cc.sw.victim_mask, (std::array<std::uint8_t, 32>{}));
  EXPECT_EQ(cc.ca.control_map, 0u);
  EXPECT_TRUE(cc.cct.empty());
}

TEST(CcSection, EveryKeyIsRead) {
  const Policy p = load(
      "congestion_control:\n"
      "  enabled: true\n  cc_key: 0x1122334455667788\n  max_outstanding: 16\n"
      "  switch:\n    control_map: 0x1f\n    victim_mask: "
      "\"0x8000000000000000000000000000000000000000000000000000000000000006\"\n"
      "    credit_mask: \"0x100\"\n    threshold: 15\n    packet_size: 8\n    credit_starvation_threshold: 3\n"
      "    credit_starvation_return_delay: \"2:10\"\n    marking_rate: 65535\n"
      "  ca:\n    port_control: 1\n    control_map: 0x3\n    ccti_timer: [100, 200]\n    ccti_increase: [1, 2]\n"
      "    trigger_threshold: [0, 9]\n    ccti_min: [5]\n"
      "  cct: \"0:0, 1:16383,3:1\"\n");
  const CongestionControlPolicy& cc = p.congestion_control;
  EXPECT_TRUE(cc.enabled);
  EXPECT_EQ(cc.cc_key, 0x1122334455667788ULL);
  EXPECT_EQ(cc.max_outstanding, 16u);
  EXPECT_EQ(cc.sw.control_map, 0x1Fu);
  EXPECT_EQ(cc.sw.victim_mask[0], 0x80);   // bit 255
  EXPECT_EQ(cc.sw.victim_mask[31], 0x06);  // ports 1 and 2
  EXPECT_EQ(cc.sw.credit_mask[30], 0x01);  // port 8
  EXPECT_EQ(cc.sw.credit_mask[31], 0x00);
  EXPECT_EQ(cc.sw.threshold, 15);
  EXPECT_EQ(cc.sw.packet_size, 8);
  EXPECT_EQ(cc.sw.credit_starvation_threshold, 3);
  EXPECT_EQ(cc.sw.credit_starvation_return_delay, (2u << 14) | 10u);
  EXPECT_EQ(cc.sw.marking_rate, 65535);
  EXPECT_EQ(cc.ca.port_control, 1);
  EXPECT_EQ(cc.ca.control_map, 3);
  EXPECT_EQ(cc.ca.entries[0].ccti_timer, 100);
  EXPECT_EQ(cc.ca.entries[1].ccti_timer, 200);
  EXPECT_EQ(cc.ca.entries[2].ccti_timer, 0);
  EXPECT_EQ(cc.ca.entries[1].ccti_increase, 2);
  EXPECT_EQ(cc.ca.entries[1].trigger_threshold, 9);
  EXPECT_EQ(cc.ca.entries[0].ccti_min, 5);
  EXPECT_EQ(cc.ca.entries[1].ccti_min, 0);
  ASSERT_EQ(cc.cct.size(), 3u);
  EXPECT_EQ(cc.cct[0], 0);
  EXPECT_EQ(cc.cct[1], (1u << 14) | 16383u);
  EXPECT_EQ(cc.cct[2], (3u << 14) | 1u);
}

TEST(CcSection, BadValuesNameTheirPlace) {
  EXPECT_NE(load_error("congestion_control:\n  switch:\n    threshold: 16\n").find("t.yaml:3:"), std::string::npos);
  const std::string mask = load_error("congestion_control:\n  switch:\n    victim_mask: \"0xg\"\n");
  EXPECT_NE(mask.find("t.yaml:3:"), std::string::npos) << mask;
  EXPECT_NE(mask.find("congestion_control.switch.victim_mask"), std::string::npos) << mask;
  EXPECT_NE(load_error("congestion_control:\n  switch:\n    victim_mask: \"0x1" + std::string(64, '0') + "\"\n")
                .find("65 hex digits"),
            std::string::npos);
  EXPECT_NE(load_error("congestion_control:\n  switch:\n    credit_starvation_return_delay: \"4:0\"\n")
                .find("shift must be 0..3"),
            std::string::npos);
  const std::string sl = load_error("congestion_control:\n  ca:\n    ccti_increase: [1, 256]\n");
  EXPECT_NE(sl.find("congestion_control.ca.ccti_increase[1]"), std::string::npos) << sl;
  EXPECT_NE(
      load_error("congestion_control:\n  ca:\n    ccti_min: [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]\n").find("17 values"),
      std::string::npos);
  const std::string cct = load_error("congestion_control:\n  cct: \"0:1,2\"\n");
  EXPECT_NE(cct.find("entry 1"), std::string::npos) << cct;
  EXPECT_NE(load_error("congestion_control:\n  enable: true\n").find("enabled"), std::string::npos);  // did-you-mean
  EXPECT_NE(load_error("congestion_control:\n  max_outstanding: 0\n").find("max_outstanding"), std::string::npos);
}

TEST(CcSection, CctHoldsAtMost128Entries) {
  std::string entries;
  for (int i = 0; i < 128; ++i) entries += (i ? "," : "") + std::to_string(i % 4) + ":" + std::to_string(i);
  auto ok = parse_cc_cct(entries);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->size(), 128u);
  EXPECT_EQ((*ok)[127], (3u << 14) | 127u);
  EXPECT_FALSE(parse_cc_cct(entries + ",0:0").ok());
  EXPECT_TRUE(parse_cc_cct("").ok());
  EXPECT_EQ(parse_cc_port_mask("0")->at(31), 0);
  EXPECT_EQ(parse_cc_port_mask("0xF")->at(31), 0x0F);
  EXPECT_EQ(parse_cc_port_mask("0xABC")->at(30), 0x0A);
  EXPECT_FALSE(parse_cc_port_mask("15").ok());
}

TEST(CcSection, TheDocumentedDefaultPolicyLoadsToTheDefaults) {
  Result<Policy> p = load_policy_file(std::string(SMD_SOURCE_DIR) + "/config/smd.yaml");
  if (!p.ok() && p.error().message.find("writable") != std::string::npos) GTEST_SKIP() << p.error().message;
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_FALSE(p->congestion_control.enabled);
  EXPECT_EQ(p->congestion_control.max_outstanding, 500u);
  EXPECT_TRUE(p->congestion_control.cct.empty());
}

}  // namespace
}  // namespace smd::cc_section_test
