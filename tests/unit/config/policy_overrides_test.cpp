// OpenSM's command-line overrides (-p, -g, -R): their parsing and their precedence over the policy file.
#include "config/policy_overrides.h"

#include <gtest/gtest.h>

#include "config/policy_loader.h"

namespace smd::policy_overrides_test {
namespace {

TEST(PolicyOverrides, PriorityTakesZeroToFifteen) {
  EXPECT_EQ(*parse_priority_override("0"), 0u);
  EXPECT_EQ(*parse_priority_override("15"), 15u);
  EXPECT_EQ(*parse_priority_override("0xa"), 10u);
  auto high = parse_priority_override("16");
  ASSERT_FALSE(high.ok());
  EXPECT_EQ(high.error().message, "--priority '16': an SM priority is 0..15");
  EXPECT_FALSE(parse_priority_override("-1").ok());
  EXPECT_FALSE(parse_priority_override("five").ok());
  EXPECT_FALSE(parse_priority_override("").ok());
}

TEST(PolicyOverrides, GuidIsHexAndNotZero) {
  EXPECT_EQ(*parse_guid_override("0x0002c90300a1b2c3"), Guid{0x0002c90300a1b2c3ULL});
  auto zero = parse_guid_override("0x0");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "--guid '0x0': GUID 0 names no port");
  EXPECT_FALSE(parse_guid_override("0x10000000000000000").ok());  // 65 bits
  EXPECT_FALSE(parse_guid_override("0002c9").ok());               // leading zero, not 0x
}

TEST(PolicyOverrides, EngineListIsCommaSeparatedAndChecked) {
  EXPECT_EQ(*parse_engine_list_override("updn"), (std::vector<std::string>{"updn"}));
  EXPECT_EQ(*parse_engine_list_override("ftree,updn,minhop"), (std::vector<std::string>{"ftree", "updn", "minhop"}));
  auto unknown = parse_engine_list_override("ftree,chaos");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "--routing-engine 'ftree,chaos': unknown engine 'chaos'; known: dfsssp, dnup, dor, file, ftree, lash, minhop, "
            "nue, sssp, torus-2QoS, updn");
  auto empty = parse_engine_list_override("updn,,minhop");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("engine 2 is empty"), std::string::npos) << empty.error().message;
  EXPECT_FALSE(parse_engine_list_override("").ok());
  EXPECT_FALSE(parse_engine_list_override("updn,").ok());
  auto twice = parse_engine_list_override("updn,minhop,updn");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("'updn' is listed twice"), std::string::npos);
}

TEST(PolicyOverrides, WinOverTheFileAndAreKeptInThePolicy) {
  auto loaded =
      load_policy_string("sm:\n  priority: 3\n  ca: mlx5_1\n  port: 2\nrouting:\n  engines: [minhop]\n", "p.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  Policy policy = *loaded;
  PolicyOverrides o;
  o.priority = 5;
  o.port_guid = Guid{0x0002c90300a1b2c3ULL};
  o.engines = std::vector<std::string>{"updn", "minhop"};
  apply_overrides(policy, o);
  EXPECT_EQ(policy.sm.priority, 5u);
  EXPECT_EQ(policy.sm.port_guid, Guid{0x0002c90300a1b2c3ULL});
  EXPECT_EQ(policy.sm.ca, "");  // the GUID selects the port by itself
  EXPECT_EQ(policy.sm.port, 0u);
  EXPECT_EQ(policy.routing.engines, (std::vector<std::string>{"updn", "minhop"}));
  ASSERT_TRUE(policy.overrides.priority.has_value());
  EXPECT_EQ(*policy.overrides.priority, 5u);
  // Keys the overrides do not name stay as the file has them.
  EXPECT_EQ(policy.sm.sweep_interval_s, 10u);
}

TEST(PolicyOverrides, OnlyWhatIsGivenIsApplied) {
  auto loaded = load_policy_string("sm:\n  priority: 3\n  port: 2\n", "p.yaml");
  ASSERT_TRUE(loaded.ok());
  Policy policy = *loaded;
  apply_overrides(policy, PolicyOverrides{});
  EXPECT_EQ(policy.sm.priority, 3u);
  EXPECT_EQ(policy.sm.port, 2u);
  EXPECT_TRUE(overridden_keys(PolicyOverrides{}).empty());
  PolicyOverrides o;
  o.priority = 0;  // 0 is a value, not "unset"
  apply_overrides(policy, o);
  EXPECT_EQ(policy.sm.priority, 0u);
  EXPECT_EQ(policy.sm.port, 2u);
  EXPECT_EQ(overridden_keys(o), (std::vector<std::pair<std::string, std::string>>{{"sm.priority", "--priority"}}));
}

}  // namespace
}  // namespace smd::policy_overrides_test
