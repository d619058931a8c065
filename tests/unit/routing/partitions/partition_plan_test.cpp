// The partition planner on a hand-built fabric: switch S (port 0 GUID 0x200000) cabled at port 1 to CA
// A (port GUID 0xa1), at port 2 to CA B (0xb1, NodeDescription "gpu-b"), at port 3 to switch T. Every
// expected table is written out by hand from the rules of IBA 10.9 and OpenSM's partition-config.txt.
#include "routing/partitions/partition_plan.h"

#include <gtest/gtest.h>

#include "tests/unit/routing/hand_node.h"

namespace smd::partition_plan_test {
namespace {

constexpr Guid kS = 0x200000, kT = 0x200001, kA = 0xa0, kB = 0xb0;
constexpr Guid kPortA = 0xa1, kPortB = 0xb1;

struct Fabric {
  Topology topo;
  NodeIndex s = 0, t = 0, a = 0, b = 0;
  PartitionCaps caps;
};

Fabric fabric(std::uint16_t ca_cap = 64, std::uint16_t sw_cap = 8, std::uint16_t enf_cap = 64) {
  Fabric f;
  Node s = test::make_node(NodeType::kSwitch, 3, kS);
  s.ports[0].guid = kS;
  Node t = test::make_node(NodeType::kSwitch, 1, kT);
  t.ports[0].guid = kT;
  Node a = test::make_node(NodeType::kCa, 1, kA);
  a.ports[1].guid = kPortA;
  Node b = test::make_node(NodeType::kCa, 1, kB);
  b.ports[1].guid = kPortB;
  b.description = "gpu-b";
  f.s = *f.topo.add_node(s);
  f.t = *f.topo.add_node(t);
  f.a = *f.topo.add_node(a);
  f.b = *f.topo.add_node(b);
  EXPECT_TRUE(f.topo.connect(f.s, 1, f.a, 1).ok());
  EXPECT_TRUE(f.topo.connect(f.s, 2, f.b, 1).ok());
  EXPECT_TRUE(f.topo.connect(f.s, 3, f.t, 1).ok());
  f.caps.partition_cap = {sw_cap, sw_cap, ca_cap, ca_cap};
  f.caps.enforcement_cap = {enf_cap, enf_cap, 0, 0};
  return f;
}

PartitionMember member(MemberSelector sel, std::optional<Membership> m = std::nullopt, Guid guid = 0) {
  PartitionMember pm;
  pm.selector = sel;
  pm.membership = m;
  pm.guid = guid;
  return pm;
}

PartitionSpec partition(PKeyBase pkey, std::vector<PartitionMember> members, bool index0 = false) {
  PartitionSpec p;
  p.name = "p" + std::to_string(pkey);
  p.pkey = pkey;
  p.members = std::move(members);
  p.index0 = index0;
  return p;
}

// The SM sits on CA A.
PartitionPlan plan(const Fabric& f, const PartitionsSpec& spec, const PartitionPlan* prev = nullptr) {
  return plan_partitions(f.topo, spec, f.a, 1, f.caps, prev);
}

std::vector<PKey> head(const PartitionPlan& p, Guid node, PortNum port, std::size_t n = 4) {
  const PortPartitions* pp = p.port(node, port);
  if (pp == nullptr) return {};
  return {pp->table.begin(), pp->table.begin() + static_cast<std::ptrdiff_t>(std::min(n, pp->table.size()))};
}

TEST(PartitionPlan, TheDefaultPolicyPutsFullDefaultAtIndexZeroEverywhere) {
  const Fabric f = fabric();
  const PartitionPlan p = plan(f, default_partitions());
  EXPECT_EQ(head(p, kA, 1), (std::vector<PKey>{0xffff, 0, 0, 0}));
  EXPECT_EQ(head(p, kB, 1), (std::vector<PKey>{0xffff, 0, 0, 0}));
  EXPECT_EQ(head(p, kS, 0), (std::vector<PKey>{0xffff, 0, 0, 0}));
  EXPECT_EQ(p.port(kA, 1)->table.size(), 64u);
  EXPECT_EQ(p.port(kS, 0)->table.size(), 8u);
  EXPECT_EQ(p.pkeys_of(kPortB), (std::vector<PKey>{0xffff}));
  EXPECT_TRUE(p.problems.empty());
}

TEST(PartitionPlan, AnAddedPartitionMakesTheOthersLimitedInTheDefaultAndSaysSo) {
  const Fabric f = fabric();
  const PartitionPlan before = plan(f, default_partitions());
  // Endports: CA A (the SM), CA B, switch S's port 0, switch T's port 0: all full members by default.
  EXPECT_EQ(membership_of(before, kDefaultPKeyBase), (PartitionMembership{4, 0}));
  PartitionsSpec spec;
  spec.partitions.push_back(partition(0x0a, {member(MemberSelector::kAll, Membership::kFull)}));
  const PartitionPlan after = plan(f, with_default_partition(spec), &before);
  // OpenSM's rule for a policy without a Default line: ALL=limited, SELF=full.
  EXPECT_EQ(membership_of(after, kDefaultPKeyBase), (PartitionMembership{1, 3}));
  EXPECT_EQ(default_membership_change(&before, after),
            "Default partition (0x7fff): full members 4 -> 1, limited 0 -> 3");
  EXPECT_EQ(default_membership_change(&after, after), std::nullopt) << "unchanged: nothing to say";
  EXPECT_EQ(default_membership_change(nullptr, after), std::nullopt) << "the first plan: nothing to compare";
}

TEST(PartitionPlan, EverySelectorPicksItsPorts) {
  const Fabric f = fabric();
  PartitionsSpec spec;
  spec.partitions.push_back(partition(0x10, {member(MemberSelector::kPortGuid, Membership::kFull, kPortB)}));
  spec.partitions.push_back(partition(0x11, {member(MemberSelector::kAllCas, Membership::kFull)}));
  spec.partitions.push_back(partition(0x12, {member(MemberSelector::kAllSwitches, Membership::kFull)}));
  spec.partitions.push_back(partition(0x13, {member(MemberSelector::kSelf, Membership::kFull)}));
  PartitionMember by_desc = member(MemberSelector::kNodeDescription, Membership::kFull);
  by_desc.node_description = "gpu-b";
  spec.partitions.push_back(partition(0x14, {by_desc}));
  spec.partitions.push_back(partition(0x15, {member(MemberSelector::kAll, Membership::kFull)}));
  spec.partitions.push_back(partition(0x16, {member(MemberSelector::kAllRouters, Membership::kFull)}));
  spec.partitions.push_back(partition(0x17, {member(MemberSelector::kPortGuid, Membership::kFull, kT)}));
  const PartitionPlan p = plan(f, spec);
  EXPECT_EQ(p.pkeys_of(kPortA), (std::vector<PKey>{0x8011, 0x8013, 0x8015}));
  EXPECT_EQ(p.pkeys_of(kPortB), (std::vector<PKey>{0x8010, 0x8011, 0x8014, 0x8015}));
  EXPECT_EQ(p.pkeys_of(kS), (std::vector<PKey>{0x8012, 0x8015}));
  EXPECT_EQ(p.pkeys_of(kT), (std::vector<PKey>{0x8012, 0x8015, 0x8017}));
  // No default partition and no index0 partition: index 0 is as free as any other.
  EXPECT_EQ(head(p, kB, 1, 5), (std::vector<PKey>{0x8010, 0x8011, 0x8014, 0x8015, 0}));
}

TEST(PartitionPlan, FullLimitedAndBoth) {
  const Fabric f = fabric();
  PartitionsSpec spec;
  PartitionSpec p1 =
      partition(0x20, {member(MemberSelector::kAllCas), member(MemberSelector::kSelf, Membership::kFull)});
  p1.default_membership = Membership::kLimited;
  spec.partitions.push_back(p1);
  spec.partitions.push_back(partition(0x21, {member(MemberSelector::kPortGuid, Membership::kBoth, kPortB)}));
  PartitionsSpec both = spec;
  both.allow_both_pkeys = true;

  const PartitionPlan p = plan(f, spec);
  EXPECT_EQ(p.pkeys_of(kPortA), (std::vector<PKey>{0x8020})) << "named full and limited: full";
  EXPECT_EQ(p.pkeys_of(kPortB), (std::vector<PKey>{0x0020, 0x8021})) << "`both` without allow_both_pkeys: full";

  const PartitionPlan q = plan(f, both);
  EXPECT_EQ(q.pkeys_of(kPortA), (std::vector<PKey>{0x8020, 0x0020}));
  EXPECT_EQ(q.pkeys_of(kPortB), (std::vector<PKey>{0x0020, 0x8021, 0x0021}));
  // The switch port facing B copies B's table without the limited twin of 0x8021.
  EXPECT_EQ(head(q, kS, 2), (std::vector<PKey>{0x0020, 0x8021, 0, 0}));
  EXPECT_EQ(head(q, kS, 1), (std::vector<PKey>{0x8020, 0, 0, 0}));
}

TEST(PartitionPlan, IndexZeroGoesToTheIndex0PartitionElseTheDefault) {
  const Fabric f = fabric();
  PartitionsSpec spec = default_partitions();
  spec.partitions.push_back(partition(0x30, {member(MemberSelector::kPortGuid, Membership::kFull, kPortB)}, true));
  spec.partitions.push_back(partition(0x31, {member(MemberSelector::kAllCas, Membership::kLimited)}));
  const PartitionPlan p = plan(f, spec);
  EXPECT_EQ(head(p, kB, 1), (std::vector<PKey>{0x8030, 0xffff, 0x0031, 0}));
  EXPECT_EQ(head(p, kA, 1), (std::vector<PKey>{0xffff, 0x0031, 0, 0}));
}

TEST(PartitionPlan, IndexesStayAcrossReplansWithAddedAndRemovedPartitions) {
  const Fabric f = fabric();
  PartitionsSpec spec = default_partitions();
  spec.partitions.push_back(partition(0x40, {member(MemberSelector::kAllCas, Membership::kFull)}));
  spec.partitions.push_back(partition(0x41, {member(MemberSelector::kAllCas, Membership::kFull)}));
  spec.partitions.push_back(partition(0x42, {member(MemberSelector::kAllCas, Membership::kFull)}));
  const PartitionPlan first = plan(f, spec);
  ASSERT_EQ(head(first, kA, 1, 5), (std::vector<PKey>{0xffff, 0x8040, 0x8041, 0x8042, 0}));

  // 0x41 goes, 0x43 comes, 0x40 moves before it in the policy: the survivors keep their slots and the
  // new one takes the slot 0x41 freed (the lowest free).
  PartitionsSpec next = default_partitions();
  next.partitions.push_back(partition(0x43, {member(MemberSelector::kAllCas, Membership::kFull)}));
  next.partitions.push_back(partition(0x42, {member(MemberSelector::kAllCas, Membership::kFull)}));
  next.partitions.push_back(partition(0x40, {member(MemberSelector::kAllCas, Membership::kLimited)}));
  const PartitionPlan second = plan(f, next, &first);
  EXPECT_EQ(head(second, kA, 1, 5), (std::vector<PKey>{0xffff, 0x0040, 0x8043, 0x8042, 0}))
      << "0x40 turned limited keeps its index (same base)";
  // Without the previous layout, the same policy lays out in partition order.
  EXPECT_EQ(head(plan(f, next), kA, 1, 5), (std::vector<PKey>{0xffff, 0x8043, 0x8042, 0x0040, 0}));
  // The switch port facing A follows A's entries, with its own stable layout.
  EXPECT_EQ(head(first, kS, 1, 5), (std::vector<PKey>{0xffff, 0x8040, 0x8041, 0x8042, 0}));
  EXPECT_EQ(head(second, kS, 1, 5), (std::vector<PKey>{0xffff, 0x0040, 0x8043, 0x8042, 0}));
}

TEST(PartitionPlan, AnIndex0PartitionAddedLaterTakesIndexZeroAndMovesTheOldOne) {
  const Fabric f = fabric();
  PartitionsSpec spec = default_partitions();
  spec.partitions.push_back(partition(0x50, {member(MemberSelector::kAllCas, Membership::kFull)}));
  const PartitionPlan first = plan(f, spec);
  spec.partitions.back().index0 = true;
  const PartitionPlan second = plan(f, spec, &first);
  EXPECT_EQ(head(first, kA, 1), (std::vector<PKey>{0xffff, 0x8050, 0, 0}));
  EXPECT_EQ(head(second, kA, 1), (std::vector<PKey>{0x8050, 0xffff, 0, 0}));
}

TEST(PartitionPlan, ASetAboveTheCapKeepsWhatFitsInPartitionOrderAndSaysSo) {
  const Fabric f = fabric(64, 8);
  PartitionsSpec spec;
  for (PKeyBase k = 0x60; k < 0x6a; ++k) {
    spec.partitions.push_back(partition(k, {member(MemberSelector::kAllSwitches, Membership::kFull)}, k == 0x69));
  }
  const PartitionPlan p = plan(f, spec);
  // Ten P_Keys, eight slots: the index0 one (0x69) at 0, then 0x60..0x66 in partition order.
  EXPECT_EQ(p.port(kS, 0)->table, (std::vector<PKey>{0x8069, 0x8060, 0x8061, 0x8062, 0x8063, 0x8064, 0x8065, 0x8066}));
  ASSERT_EQ(p.problems.size(), 2u);  // S and T
  EXPECT_EQ(p.problems[0].node_guid, kS);
  EXPECT_EQ(p.problems[0].port, 0);
  EXPECT_EQ(p.problems[0].code, PartitionProblemCode::kPartitionCap);
  EXPECT_EQ(p.problems[1].code, PartitionProblemCode::kPartitionCap);
  EXPECT_NE(p.problems[0].reason.find("port 0"), std::string::npos) << p.problems[0].reason;
  EXPECT_NE(p.problems[0].reason.find("PartitionCap 8"), std::string::npos) << p.problems[0].reason;
  EXPECT_EQ(p.pkeys_of(kS).size(), 10u) << "membership is what the policy says, before the cut";
}

TEST(PartitionPlan, EnforcementFacesCasOnlyAndFollowsThePolicy) {
  const Fabric f = fabric();
  PartitionsSpec spec = default_partitions();
  const PartitionPlan p = plan(f, spec);
  ASSERT_NE(p.port(kS, 1), nullptr);
  EXPECT_TRUE(p.port(kS, 1)->enforce_in);
  EXPECT_TRUE(p.port(kS, 1)->enforce_out);
  EXPECT_TRUE(p.port(kS, 1)->has_table);
  EXPECT_FALSE(p.port(kS, 1)->endport);
  ASSERT_NE(p.port(kS, 3), nullptr) << "switch-to-switch ports are planned, to turn enforcement off";
  EXPECT_FALSE(p.port(kS, 3)->enforce_in);
  EXPECT_FALSE(p.port(kS, 3)->enforce_out);
  EXPECT_FALSE(p.port(kS, 3)->has_table);
  EXPECT_FALSE(p.port(kT, 1)->enforce_in);

  spec.enforcement = PartitionEnforcement::kIn;
  EXPECT_TRUE(plan(f, spec).port(kS, 1)->enforce_in);
  EXPECT_FALSE(plan(f, spec).port(kS, 1)->enforce_out);
  spec.enforcement = PartitionEnforcement::kOut;
  EXPECT_FALSE(plan(f, spec).port(kS, 1)->enforce_in);
  EXPECT_TRUE(plan(f, spec).port(kS, 1)->enforce_out);
  spec.enforcement = PartitionEnforcement::kOff;
  EXPECT_FALSE(plan(f, spec).port(kS, 1)->enforce_in);
  EXPECT_FALSE(plan(f, spec).port(kS, 1)->has_table);
}

TEST(PartitionPlan, EnforcementIsOffWhereTheCopyDoesNotFit) {
  const Fabric f = fabric(64, 8, 2);
  PartitionsSpec spec = default_partitions();
  spec.partitions.push_back(partition(0x70, {member(MemberSelector::kPortGuid, Membership::kFull, kPortB)}));
  spec.partitions.push_back(partition(0x71, {member(MemberSelector::kPortGuid, Membership::kFull, kPortB)}));
  const PartitionPlan p = plan(f, spec);
  EXPECT_TRUE(p.port(kS, 1)->enforce_in) << "A holds one P_Key: it fits";
  EXPECT_EQ(p.port(kS, 1)->table, (std::vector<PKey>{0xffff, 0}));
  EXPECT_FALSE(p.port(kS, 2)->enforce_in) << "B holds three: enforcement off";
  EXPECT_FALSE(p.port(kS, 2)->enforce_out);
  EXPECT_FALSE(p.port(kS, 2)->has_table);
  ASSERT_EQ(p.problems.size(), 1u);
  EXPECT_EQ(p.problems[0].port, 2);
  EXPECT_EQ(p.problems[0].code, PartitionProblemCode::kEnforcementCap);
  EXPECT_NE(p.problems[0].reason.find("PartitionEnforcementCap 2"), std::string::npos) << p.problems[0].reason;
}

TEST(PartitionPlan, ProblemCodesHaveStableNames) {
  EXPECT_STREQ(to_string(PartitionProblemCode::kPartitionCap), "partition-cap");
  EXPECT_STREQ(to_string(PartitionProblemCode::kEnforcementCap), "enforcement-cap");
}

TEST(PartitionPlan, NoEnforcementTableIsNotAProblem) {
  const Fabric f = fabric(64, 8, 0);  // the switch has no PartitionEnforcementCap
  PartitionsSpec spec = default_partitions();
  spec.partitions.push_back(partition(0x70, {member(MemberSelector::kPortGuid, Membership::kFull, kPortB)}));
  const PartitionPlan p = plan(f, spec);
  EXPECT_FALSE(p.port(kS, 2)->has_table);
  EXPECT_FALSE(p.port(kS, 2)->enforce_in);
  EXPECT_TRUE(p.problems.empty());
}

TEST(PartitionPlan, NoTableWherePartitionCapIsZero) {
  Fabric f = fabric();
  f.caps.partition_cap[f.b] = 0;
  f.caps.enforcement_cap[f.s] = 0;
  const PartitionPlan p = plan(f, default_partitions());
  EXPECT_EQ(p.port(kB, 1), nullptr);
  EXPECT_FALSE(p.port(kS, 1)->enforce_in) << "no enforcement table on the switch: off, and no problem";
  EXPECT_TRUE(p.problems.empty());
}

TEST(PartitionPlan, PKeysShareFollowsIbaMatching) {
  EXPECT_TRUE(pkeys_share({0xffff}, {0x7fff}));
  EXPECT_TRUE(pkeys_share({0x7fff}, {0xffff}));
  EXPECT_TRUE(pkeys_share({0xffff}, {0xffff}));
  EXPECT_FALSE(pkeys_share({0x7fff}, {0x7fff})) << "limited with limited";
  EXPECT_FALSE(pkeys_share({0x8001}, {0x8002}));
  EXPECT_TRUE(pkeys_share({0x8001, 0x0002}, {0x7fff, 0x8002}));
  EXPECT_FALSE(pkeys_share({0x8000}, {0x8000})) << "base 0 is invalid";
  EXPECT_FALSE(pkeys_share({0}, {0x8000}));
  EXPECT_FALSE(pkeys_share({}, {0xffff}));
}

}  // namespace
}  // namespace smd::partition_plan_test
