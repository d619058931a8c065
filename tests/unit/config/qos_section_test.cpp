// The `qos:` section read into a QosSpec: inheritance of the per-type blocks, the two vlarb and sl2vl
// spellings, levels (bytes and Gb/s to IBA codes), rules, and routing.options.data_vls.
#include "config/qos_section.h"

#include <gtest/gtest.h>

#include "config/policy_loader.h"

namespace smd::qos_section_test {
namespace {

Policy load(const std::string& yaml) {
  Result<Policy> policy = load_policy_string(yaml, "t.yaml");
  EXPECT_TRUE(policy.ok()) << policy.error().message;
  return policy.ok() ? *policy : Policy{};
}

TEST(QosSection, AbsentIsDisabledWithOneDataVl) {
  const Policy p = load("lid:\n  lmc: 0\n");
  EXPECT_FALSE(p.qos.enabled);
  EXPECT_EQ(p.qos, QosSpec{});
  EXPECT_EQ(p.routing.options.data_vls, 1);
}

TEST(QosSection, DisabledKeepsOneDataVlWhateverMaxVls) {
  const Policy p = load("qos:\n  enabled: false\n  max_vls: 4\n");
  EXPECT_FALSE(p.qos.enabled);
  EXPECT_EQ(p.qos.switch_external.max_vls, 4);
  EXPECT_EQ(p.routing.options.data_vls, 1);
}

TEST(QosSection, TypeBlocksInheritTheTopLevelAndOverrideWhatTheyName) {
  const Policy p = load(
      "qos:\n"
      "  enabled: true\n"
      "  max_vls: 8\n"
      "  high_limit: 3\n"
      "  vlarb_high: \"0:4,1:0\"\n"
      "  vlarb_low: \"0:0, 1:4, 2:4\"\n"
      "  sl2vl: \"0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,15\"\n"
      "  ca: {max_vls: 2, vlarb_low: [{vl: 1, weight: 200}]}\n"
      "  switch_external: {max_vls: 4, sl2vl: [7,6,5,4,3,2,1,0,7,6,5,4,3,2,1,0]}\n");
  const Sl2Vl top = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 15};
  const std::vector<VlArbEntry> high = {{0, 4}, {1, 0}};
  const std::vector<VlArbEntry> low = {{0, 0}, {1, 4}, {2, 4}};
  EXPECT_TRUE(p.qos.enabled);
  // ca: max_vls and vlarb_low its own, the rest from the top level.
  EXPECT_EQ(p.qos.ca.max_vls, 2);
  EXPECT_EQ(p.qos.ca.high_limit, 3);
  EXPECT_EQ(p.qos.ca.vlarb_high, high);
  EXPECT_EQ(p.qos.ca.vlarb_low, (std::vector<VlArbEntry>{{1, 200}}));
  EXPECT_EQ(p.qos.ca.sl2vl, top);
  // switch_port0 and router name nothing: exactly the top level.
  for (const QosPortSpec* port : {&p.qos.switch_port0, &p.qos.router}) {
    EXPECT_EQ(port->max_vls, 8);
    EXPECT_EQ(port->high_limit, 3);
    EXPECT_EQ(port->vlarb_high, high);
    EXPECT_EQ(port->vlarb_low, low);
    EXPECT_EQ(port->sl2vl, top);
  }
  EXPECT_EQ(p.qos.switch_external.max_vls, 4);
  EXPECT_EQ(p.qos.switch_external.sl2vl, (Sl2Vl{7, 6, 5, 4, 3, 2, 1, 0, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(p.qos.switch_external.vlarb_low, low);
  EXPECT_EQ(p.routing.options.data_vls, 2);  // enabled: the least of ca (2) and switch_external (4) max_vls
}

TEST(QosSection, NothingWrittenKeepsOpenSmDefaults) {
  const Policy p = load("qos:\n  enabled: true\n");
  EXPECT_EQ(p.qos.ca, default_qos_port_spec());
  EXPECT_EQ(p.qos.switch_external, default_qos_port_spec());
  EXPECT_EQ(p.routing.options.data_vls, 15);
}

TEST(QosSection, GroupsLevelsAndRules) {
  const Policy p = load(
      "partitions:\n"
      "  list:\n"
      "    - {name: storage, pkey: 0x0010, members: [ALL_CAS]}\n"
      "qos:\n"
      "  enabled: true\n"
      "  port_groups:\n"
      "    - name: st\n"
      "      guids: [0x0002c9030000a001]\n"
      "      nodes: [\"storage-1\"]\n"
      "      partitions: [storage]\n"
      "      node_types: [ca, router]\n"
      "      self: true\n"
      "  levels:\n"
      "    - name: DEFAULT\n"
      "    - name: fast\n"
      "      sl: 1\n"
      "      mtu_limit: 2048\n"
      "      rate_limit: 2.5\n"
      "      packet_life: 16\n"
      "      pkeys: [0x8010, 0x0011]\n"
      "  rules:\n"
      "    - level: fast\n"
      "      source: [st]\n"
      "      destination: [st]\n"
      "      service_ids: [\"0x1000-0x1fff\", 0x2000]\n"
      "      pkeys: [\"0x8001-0x0010\"]\n");
  ASSERT_EQ(p.qos.port_groups.size(), 1u);
  const QosPortGroup& g = p.qos.port_groups[0];
  EXPECT_EQ(g.name, "st");
  EXPECT_EQ(g.guids, (std::vector<Guid>{0x0002c9030000a001ULL}));
  EXPECT_EQ(g.nodes, (std::vector<std::string>{"storage-1"}));
  EXPECT_EQ(g.partitions, (std::vector<std::string>{"storage"}));
  EXPECT_EQ(g.node_types, (std::vector<NodeType>{NodeType::kCa, NodeType::kRouter}));
  EXPECT_TRUE(g.self);
  ASSERT_EQ(p.qos.levels.size(), 2u);
  QosLevel plain;
  plain.name = "DEFAULT";
  EXPECT_EQ(p.qos.levels[0], plain);
  const QosLevel& fast = p.qos.levels[1];
  EXPECT_EQ(fast.sl, 1);
  EXPECT_EQ(fast.mtu_limit, 4);   // 2048 bytes
  EXPECT_EQ(fast.rate_limit, 2);  // 2.5 Gb/s
  EXPECT_EQ(fast.packet_life, 16);
  EXPECT_EQ(fast.pkeys, (std::vector<std::uint16_t>{0x0010, 0x0011}));  // membership bit dropped
  ASSERT_EQ(p.qos.rules.size(), 1u);
  const QosMatchRule& r = p.qos.rules[0];
  EXPECT_EQ(r.level, "fast");
  EXPECT_EQ(r.source, (std::vector<std::string>{"st"}));
  EXPECT_EQ(r.destination, (std::vector<std::string>{"st"}));
  EXPECT_EQ(r.service_ids, (std::vector<QosRange>{{0x1000, 0x1fff}, {0x2000, 0x2000}}));
  EXPECT_EQ(r.pkeys, (std::vector<QosRange>{{0x0001, 0x0010}}));
}

TEST(QosSection, IbaCodes) {
  EXPECT_EQ(mtu_code_of_bytes(256), 1);
  EXPECT_EQ(mtu_code_of_bytes(4096), 5);
  EXPECT_EQ(mtu_code_of_bytes(1000), std::nullopt);
  EXPECT_EQ(rate_code_of_gbps("10"), 3);
  EXPECT_EQ(rate_code_of_gbps("5"), 5);
  EXPECT_EQ(rate_code_of_gbps("100"), 16);
  EXPECT_EQ(rate_code_of_gbps("800"), 23);
  EXPECT_EQ(rate_code_of_gbps("7"), std::nullopt);
}

}  // namespace
}  // namespace smd::qos_section_test

namespace smd::qos_section_test {
namespace {

std::string load_error(const std::string& yaml) {
  Result<Policy> policy = load_policy_string(yaml, "t.yaml");
  EXPECT_FALSE(policy.ok());
  return policy.ok() ? "" : policy.error().message;
}

TEST(QosSection, AliasesCannotMultiplyARuleBeyondTheBound) {
  // One rule anchored, then aliased 299 times: 300 rules, each a full copy once read. Refused at the list
  // before any copy is made.
  std::string yaml = "qos:\n  levels:\n    - name: DEFAULT\n  rules:\n    - &r {level: DEFAULT, service_ids: [1, 2]}\n";
  for (int i = 0; i < 299; ++i) yaml += "    - *r\n";
  EXPECT_EQ(load_error(yaml), "t.yaml:5:5: qos.rules: 300 match rules; at most 256 are accepted");
}

TEST(QosSection, OneRuleHoldsAtMost256ServiceIdRanges) {
  std::string ids;
  for (int i = 0; i < 257; ++i) ids += (i ? ", " : "") + std::to_string(i);
  EXPECT_EQ(load_error("qos:\n  levels:\n    - name: DEFAULT\n  rules:\n    - level: DEFAULT\n      service_ids: [" +
                       ids + "]\n"),
            "t.yaml:6:20: qos.rules[0].service_ids: 257 service IDs or ranges; at most 256 are accepted");
}

// A refused end of a range is named, so the reader knows which of the two numbers to fix.
TEST(QosSection, ARangeSaysWhichEndIsRefused) {
  const std::string rule = "qos:\n  levels:\n    - name: DEFAULT\n  rules:\n    - level: DEFAULT\n";
  const std::string last = load_error(rule + "      pkeys: [0x10-0x10000]\n");
  EXPECT_EQ(last.rfind("t.yaml:6:15: qos.rules[0].pkeys[0]: range '0x10-0x10000', last: ", 0), 0u) << last;
  const std::string first = load_error(rule + "      service_ids: [x-3]\n");
  EXPECT_EQ(first.rfind("t.yaml:6:21: qos.rules[0].service_ids[0]: range 'x-3', first: ", 0), 0u) << first;
  // One value alone needs no range context.
  const std::string single = load_error(rule + "      service_ids: [x]\n");
  EXPECT_EQ(single.find("range"), std::string::npos) << single;
}

TEST(QosSection, AnUnknownLevelKeyIsHintedFromEveryLevelKey) {
  EXPECT_EQ(load_error("qos:\n  levels:\n    - name: DEFAULT\n      packet_lif: 3\n"),
            "t.yaml:4:7: qos.levels[0].packet_lif: unknown key (did you mean 'packet_life'?)");
}

TEST(QosSection, DataVlsAreTheLesserOfTheCaAndSwitchPorts) {
  // A layer travels on its VL from the sending host too: a CA held to 2 VLs caps the layers at 2.
  EXPECT_EQ(load("qos:\n  enabled: true\n  ca: {max_vls: 2}\n").routing.options.data_vls, 2);
  EXPECT_EQ(load("qos:\n  enabled: true\n  switch_external: {max_vls: 4}\n").routing.options.data_vls, 4);
}

}  // namespace
}  // namespace smd::qos_section_test
