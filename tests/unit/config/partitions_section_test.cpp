// The policy's `partitions:` section: every form it accepts, its defaults, and what with_default_partition
// adds; the rejects (with their file:line:column) are in policy_loader_reject_test.cpp.
#include <gtest/gtest.h>

#include "config/policy_loader.h"
#include "tests/unit/config/partitions_expect.h"

namespace smd::partitions_section_test {
namespace {

PartitionsSpec load(const std::string& yaml) {
  Result<Policy> policy = load_policy_string(yaml, "t.yaml");
  EXPECT_TRUE(policy.ok()) << policy.error().message;
  return policy.ok() ? policy->partitions : PartitionsSpec{};
}

PartitionMember member(MemberSelector selector, std::optional<Membership> membership, Guid guid = 0,
                       std::string node = "") {
  return PartitionMember{selector, guid, std::move(node), membership, ""};
}

TEST(PartitionsSection, AbsentIsOpenSmWithoutPartitionsConf) {
  const PartitionsSpec spec = load("sm:\n  priority: 1\n");
  ASSERT_EQ(spec.partitions.size(), 1u);
  const PartitionSpec& d = spec.partitions[0];
  EXPECT_EQ(d.pkey, 0x7fff);
  EXPECT_EQ(d.name, "Default");
  EXPECT_EQ(d.default_membership, Membership::kFull);
  EXPECT_TRUE(d.ipoib.enabled);
  ASSERT_EQ(d.members.size(), 1u);
  test::expect_same_member(d.members[0], member(MemberSelector::kAll, Membership::kFull), "ALL=full");
  EXPECT_EQ(spec.enforcement, PartitionEnforcement::kBoth);
  EXPECT_FALSE(spec.allow_both_pkeys);
}

TEST(PartitionsSection, EmptySectionIsTheDefaultPartitionWithLimitedMembers) {
  // OpenSM with a partitions.conf that has no Default rule: Default=0x7fff : ALL=limited, SELF=full.
  for (const char* yaml : {"partitions:\n", "partitions: {}\n", "partitions:\n  list: []\n"}) {
    const PartitionsSpec spec = load(yaml);
    ASSERT_EQ(spec.partitions.size(), 1u) << yaml;
    const PartitionSpec& d = spec.partitions[0];
    EXPECT_EQ(d.pkey, 0x7fff);
    EXPECT_FALSE(d.ipoib.enabled);
    ASSERT_EQ(d.members.size(), 2u);
    test::expect_same_member(d.members[0], member(MemberSelector::kAll, Membership::kLimited), "ALL");
    test::expect_same_member(d.members[1], member(MemberSelector::kSelf, Membership::kFull), "SELF");
  }
}

TEST(PartitionsSection, TheBriefsExampleFieldByField) {
  const std::string yaml =
      "partitions:\n"
      "  enforcement: in\n"
      "  allow_both_pkeys: true\n"
      "  list:\n"
      "    - name: Default\n"
      "      pkey: 0x7fff\n"
      "      default_membership: full\n"
      "      members: [ALL]\n"
      "      ipoib: {mtu: 5, rate: 7, sl: 1, scopes: [2, 5], q_key: 0x0b1b, tclass: 3, flow_label: 0x12345}\n"
      "    - name: tenant-a\n"
      "      pkey: 0x0a01\n"
      "      index0: true\n"
      "      members:\n"
      "        - SELF\n"
      "        - {guid: 0x0002c90300001234, membership: full}\n"
      "        - {node: \"h1 HCA-1\", membership: limited}\n"
      "        - {select: ALL_SWITCHES, membership: both}\n"
      "        - 0x0002c90300005678\n"
      "        - ALL_CAS\n"
      "        - ALL_ROUTERS\n"
      "      ipoib: true\n"
      "      groups:\n"
      "        - {mgid: \"ff12:401b::0707\", sl: 1}\n"
      "        - {mgid: \"ff15::1\", mtu: 2, rate: 6, q_key: 0xdeadbeef, tclass: 9, flow_label: 7}\n";
  const PartitionsSpec spec = load(yaml);
  EXPECT_EQ(spec.enforcement, PartitionEnforcement::kIn);
  EXPECT_TRUE(spec.allow_both_pkeys);
  ASSERT_EQ(spec.partitions.size(), 2u);

  const PartitionSpec& d = spec.partitions[0];
  EXPECT_EQ(d.name, "Default");
  EXPECT_EQ(d.pkey, 0x7fff);
  EXPECT_EQ(d.default_membership, Membership::kFull);
  EXPECT_FALSE(d.index0);
  EXPECT_EQ(d.where, "t.yaml:5:7");
  ASSERT_EQ(d.members.size(), 1u);  // ALL at the default (full) makes the SM's port full: no SELF added
  test::expect_same_member(d.members[0], member(MemberSelector::kAll, std::nullopt), "ALL");
  EXPECT_EQ(d.members[0].where, "t.yaml:8:17");
  EXPECT_TRUE(d.ipoib.enabled);
  EXPECT_EQ(d.ipoib.mtu, 5);
  EXPECT_EQ(d.ipoib.rate, 7);
  EXPECT_EQ(d.ipoib.sl, 1);
  EXPECT_EQ(d.ipoib.scopes, (std::vector<std::uint8_t>{2, 5}));
  EXPECT_EQ(d.ipoib.q_key, 0x0b1bu);
  EXPECT_EQ(d.ipoib.tclass, 3);
  EXPECT_EQ(d.ipoib.flow_label, 0x12345u);
  EXPECT_TRUE(d.groups.empty());

  const PartitionSpec& a = spec.partitions[1];
  EXPECT_EQ(a.name, "tenant-a");
  EXPECT_EQ(a.pkey, 0x0a01);
  EXPECT_EQ(a.default_membership, Membership::kLimited);
  EXPECT_TRUE(a.index0);
  ASSERT_EQ(a.members.size(), 7u);
  test::expect_same_member(a.members[0], member(MemberSelector::kSelf, std::nullopt), "SELF");
  test::expect_same_member(a.members[1], member(MemberSelector::kPortGuid, Membership::kFull, 0x0002c90300001234ULL),
                           "guid");
  EXPECT_EQ(a.members[1].where, "t.yaml:15:11");
  test::expect_same_member(a.members[2], member(MemberSelector::kNodeDescription, Membership::kLimited, 0, "h1 HCA-1"),
                           "node");
  test::expect_same_member(a.members[3], member(MemberSelector::kAllSwitches, Membership::kBoth), "switches");
  test::expect_same_member(a.members[4], member(MemberSelector::kPortGuid, std::nullopt, 0x0002c90300005678ULL),
                           "bare guid");
  test::expect_same_member(a.members[5], member(MemberSelector::kAllCas, std::nullopt), "cas");
  test::expect_same_member(a.members[6], member(MemberSelector::kAllRouters, std::nullopt), "routers");
  // ipoib: true takes every default of the broadcast group.
  EXPECT_TRUE(a.ipoib.enabled);
  EXPECT_EQ(a.ipoib.mtu, 4);
  EXPECT_EQ(a.ipoib.rate, 3);
  EXPECT_EQ(a.ipoib.scopes, (std::vector<std::uint8_t>{2}));
  EXPECT_EQ(a.ipoib.q_key, 0x0b1bu);
  ASSERT_EQ(a.groups.size(), 2u);
  // An IPv4 IPoIB MGID with P_Key bits 0000 gets the partition's (0x0a01 | 0x8000) and the IPoIB Q_Key.
  McastGroupSpec g0;
  g0.mgid = {0xff, 0x12, 0x40, 0x1b, 0x8a, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0x07, 0x07};
  g0.sl = 1;
  g0.scope = 2;
  g0.q_key = 0x0b1b;
  test::expect_same_group(a.groups[0], g0, "ff12:401b::0707");
  EXPECT_EQ(a.groups[0].where, "t.yaml:23:11");
  // Not an IP group: left as written, Q_Key as given (default would be 0), scope 5 from the MGID.
  McastGroupSpec g1;
  g1.mgid = {0xff, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
  g1.mtu = 2;
  g1.rate = 6;
  g1.scope = 5;
  g1.q_key = 0xdeadbeef;
  g1.tclass = 9;
  g1.flow_label = 7;
  test::expect_same_group(a.groups[1], g1, "ff15::1");
}

TEST(PartitionsSection, NonIpGroupQKeyDefaultsToZeroAndIpoibFalse) {
  const PartitionsSpec spec = load(
      "partitions:\n  list:\n    - pkey: 0x10\n      ipoib: false\n      members: []\n"
      "      groups:\n        - mgid: ff12::1\n        - mgid: 'ff12:601b:8010::16'\n");
  ASSERT_EQ(spec.partitions.size(), 2u);  // the default partition comes first
  EXPECT_EQ(spec.partitions[0].pkey, 0x7fff);
  const PartitionSpec& p = spec.partitions[1];
  EXPECT_EQ(p.name, "");
  EXPECT_FALSE(p.ipoib.enabled);
  EXPECT_TRUE(p.members.empty());
  ASSERT_EQ(p.groups.size(), 2u);
  EXPECT_EQ(p.groups[0].q_key, 0u);
  EXPECT_EQ(p.groups[1].q_key, 0x0b1bu);  // IPv6 IPoIB signature 601b, its own P_Key bits match 0x10
  EXPECT_EQ(p.groups[1].mgid[4], 0x80);
  EXPECT_EQ(p.groups[1].mgid[5], 0x10);
}

TEST(PartitionsSection, DefaultPartitionWithLimitedSelfGetsSelfFull) {
  const PartitionsSpec spec =
      load("partitions:\n  list:\n    - name: D\n      pkey: 0x7fff\n      members: [ALL, SELF]\n");
  ASSERT_EQ(spec.partitions.size(), 1u);
  const PartitionSpec& d = spec.partitions[0];
  ASSERT_EQ(d.members.size(), 3u);  // SELF at the default (limited) is not enough: SELF=full is added
  test::expect_same_member(d.members[2], member(MemberSelector::kSelf, Membership::kFull), "added SELF");
}

TEST(PartitionsSection, DefaultPartitionWithSelfFullIsLeftAlone) {
  const PartitionsSpec spec = load(
      "partitions:\n  list:\n    - pkey: 0x7fff\n      members: [ALL, {select: SELF, membership: full}]\n"
      "    - pkey: 0x7ffe\n");
  ASSERT_EQ(spec.partitions.size(), 2u);
  EXPECT_EQ(spec.partitions[0].members.size(), 2u);
  EXPECT_EQ(spec.partitions[1].pkey, 0x7ffe);
  EXPECT_TRUE(spec.partitions[1].members.empty());
}

TEST(PartitionsSection, EnforcementValues) {
  EXPECT_EQ(load("partitions:\n  enforcement: out\n").enforcement, PartitionEnforcement::kOut);
  EXPECT_EQ(load("partitions:\n  enforcement: off\n").enforcement, PartitionEnforcement::kOff);
  EXPECT_EQ(load("partitions:\n  enforcement: both\n").enforcement, PartitionEnforcement::kBoth);
}

}  // namespace
}  // namespace smd::partitions_section_test
