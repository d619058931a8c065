// QoS level matching on a hand-built fabric: switch S (node GUID 0x2000, port 0 GUID 0x200000) cabled to
// CA A (port 0xa1, "storage-1"), CA B (port 0xb1, "gpu-b") and router R (port 0xc1). The partition plan is
// written by hand: A is a full and B a limited member of P_Key 0x0010 ("storage"), the SM's port is 0xa1.
// Every expected group and level below is read off that picture.
#include "routing/qos/qos_levels.h"

#include <gtest/gtest.h>

#include "tests/unit/routing/hand_node.h"

namespace smd::qos_levels_test {
namespace {

constexpr Guid kSwitchNode = 0x2000, kSwitchPort0 = 0x200000, kPortA = 0xa1, kPortB = 0xb1, kPortR = 0xc1;

struct Rig {
  Topology topo;
  PartitionsSpec partitions;
  PartitionPlan plan;
};

Rig rig() {
  Rig r;
  Node s = test::make_node(NodeType::kSwitch, 3, kSwitchNode);
  s.ports[0].guid = kSwitchPort0;
  Node a = test::make_node(NodeType::kCa, 1, 0xa0);
  a.ports[1].guid = kPortA;
  a.description = "storage-1";
  Node b = test::make_node(NodeType::kCa, 1, 0xb0);
  b.ports[1].guid = kPortB;
  b.description = "gpu-b";
  Node rt = test::make_node(NodeType::kRouter, 1, 0xc0);
  rt.ports[1].guid = kPortR;
  const NodeIndex si = *r.topo.add_node(s);
  const NodeIndex ai = *r.topo.add_node(a);
  const NodeIndex bi = *r.topo.add_node(b);
  const NodeIndex ri = *r.topo.add_node(rt);
  EXPECT_TRUE(r.topo.connect(si, 1, ai, 1).ok());
  EXPECT_TRUE(r.topo.connect(si, 2, bi, 1).ok());
  EXPECT_TRUE(r.topo.connect(si, 3, ri, 1).ok());
  PartitionSpec storage;
  storage.name = "storage";
  storage.pkey = 0x0010;
  PartitionSpec other;
  other.name = "other";
  other.pkey = 0x0020;
  r.partitions.partitions = {storage, other};
  r.plan.members[kPortA] = {0xffff, 0x8010};
  r.plan.members[kPortB] = {0x7fff, 0x0010};
  r.plan.members[kPortR] = {0x7fff, 0x8020};
  return r;
}

QosPortGroup group(std::string name) {
  QosPortGroup g;
  g.name = std::move(name);
  return g;
}

QosLevel level(std::string name, std::optional<std::uint8_t> sl = std::nullopt) {
  QosLevel l;
  l.name = std::move(name);
  l.sl = sl;
  return l;
}

QosMatchRule rule(std::string level, std::vector<std::string> source = {}, std::vector<std::string> destination = {}) {
  QosMatchRule r;
  r.level = std::move(level);
  r.source = std::move(source);
  r.destination = std::move(destination);
  return r;
}

using Ports = std::unordered_set<Guid>;

TEST(QosLevels, GroupsResolveEachCriterionToPortGuids) {
  const Rig r = rig();
  QosSpec spec;
  spec.port_groups = {group("by_guid"), group("by_node"), group("by_partition"),
                      group("by_type"), group("self"),    group("switch_by_node_guid"),
                      group("union")};
  spec.port_groups[0].guids = {kPortB};
  spec.port_groups[1].nodes = {"storage-1"};
  spec.port_groups[2].partitions = {"storage"};
  spec.port_groups[3].node_types = {NodeType::kSwitch, NodeType::kRouter};
  spec.port_groups[4].self = true;
  spec.port_groups[5].guids = {kSwitchNode};
  spec.port_groups[6].guids = {kPortR};
  spec.port_groups[6].nodes = {"gpu-b"};
  const QosLevelMatcher m(spec, r.topo, r.partitions, &r.plan, kPortA);
  EXPECT_EQ(m.group_ports("by_guid"), (Ports{kPortB}));
  EXPECT_EQ(m.group_ports("by_node"), (Ports{kPortA}));
  EXPECT_EQ(m.group_ports("by_partition"), (Ports{kPortA, kPortB}));  // full and limited members alike
  EXPECT_EQ(m.group_ports("by_type"), (Ports{kSwitchPort0, kPortR}));
  EXPECT_EQ(m.group_ports("self"), (Ports{kPortA}));
  EXPECT_EQ(m.group_ports("switch_by_node_guid"), (Ports{kSwitchPort0}));
  EXPECT_EQ(m.group_ports("union"), (Ports{kPortB, kPortR}));
  EXPECT_TRUE(m.group_ports("nope").empty());
}

TEST(QosLevels, WithoutAPlanNoPortIsInAPartition) {
  const Rig r = rig();
  QosSpec spec;
  spec.port_groups = {group("p")};
  spec.port_groups[0].partitions = {"storage"};
  const QosLevelMatcher m(spec, r.topo, r.partitions, nullptr, 0);
  EXPECT_TRUE(m.group_ports("p").empty());
}

TEST(QosLevels, FirstMatchingRuleWinsElseDefault) {
  const Rig r = rig();
  QosSpec spec;
  spec.port_groups = {group("a"), group("b")};
  spec.port_groups[0].guids = {kPortA};
  spec.port_groups[1].guids = {kPortB};
  spec.levels = {level("DEFAULT", 0), level("a_to_b", 1), level("from_a", 2), level("to_b", 3)};
  spec.rules = {rule("a_to_b", {"a"}, {"b"}), rule("from_a", {"a"}), rule("to_b", {}, {"b"})};
  const QosLevelMatcher m(spec, r.topo, r.partitions, &r.plan, 0);
  EXPECT_EQ(m.match(kPortA, kPortB, std::nullopt, std::nullopt)->name, "a_to_b");
  EXPECT_EQ(m.match(kPortA, kPortR, std::nullopt, std::nullopt)->name, "from_a");
  EXPECT_EQ(m.match(kPortR, kPortB, std::nullopt, std::nullopt)->name, "to_b");
  EXPECT_EQ(m.match(kPortB, kPortA, std::nullopt, std::nullopt)->name, "DEFAULT");
  EXPECT_EQ(m.match(kPortB, kPortA, std::nullopt, std::nullopt)->sl, 0);
  EXPECT_EQ(m.level("from_a")->sl, 2);
  EXPECT_EQ(m.level("gold"), nullptr);
}

TEST(QosLevels, PKeyAndServiceIdCriteriaNeedTheQueryToCarryThem) {
  const Rig r = rig();
  QosSpec spec;
  spec.levels = {level("DEFAULT"), level("sid"), level("pkey"), level("both")};
  spec.rules = {rule("both"), rule("sid"), rule("pkey")};
  spec.rules[0].service_ids = {{0x1000, 0x1fff}};
  spec.rules[0].pkeys = {{0x0010, 0x0010}};
  spec.rules[1].service_ids = {{0x1000, 0x1fff}, {0x2000, 0x2000}};
  spec.rules[2].pkeys = {{0x0001, 0x0010}};
  const QosLevelMatcher m(spec, r.topo, r.partitions, &r.plan, 0);
  // No P_Key, no service ID: no rule with such a criterion matches.
  EXPECT_EQ(m.match(kPortA, kPortB, std::nullopt, std::nullopt)->name, "DEFAULT");
  EXPECT_EQ(m.match(kPortA, kPortB, std::nullopt, 0x1800)->name, "sid");
  EXPECT_EQ(m.match(kPortA, kPortB, std::nullopt, 0x2000)->name, "sid");
  EXPECT_EQ(m.match(kPortA, kPortB, std::nullopt, 0x2001)->name, "DEFAULT");
  // The membership bit is not part of the P_Key the ranges hold.
  EXPECT_EQ(m.match(kPortA, kPortB, std::uint16_t{0x8010}, 0x1000)->name, "both");
  EXPECT_EQ(m.match(kPortA, kPortB, std::uint16_t{0x0010}, 0x3000)->name, "pkey");
  EXPECT_EQ(m.match(kPortA, kPortB, std::uint16_t{0x8001}, std::nullopt)->name, "pkey");
  EXPECT_EQ(m.match(kPortA, kPortB, std::uint16_t{0x0011}, std::nullopt)->name, "DEFAULT");
}

TEST(QosLevels, NoLevelsMatchNothing) {
  const Rig r = rig();
  const QosLevelMatcher m(QosSpec{}, r.topo, r.partitions, &r.plan, 0);
  EXPECT_EQ(m.match(kPortA, kPortB, std::nullopt, std::nullopt), nullptr);
}

TEST(QosLevels, ARuleNamingAnUndefinedGroupNeverMatches) {
  const Rig r = rig();
  QosSpec spec;
  spec.levels = {level("DEFAULT"), level("x")};
  spec.rules = {rule("x", {"missing"})};
  const QosLevelMatcher m(spec, r.topo, r.partitions, &r.plan, 0);
  EXPECT_EQ(m.match(kPortA, kPortB, std::nullopt, std::nullopt)->name, "DEFAULT");
}

}  // namespace
}  // namespace smd::qos_levels_test
