// The partitions: section writer: its text for a small spec (written out by hand), and the round trip
// partitions.conf -> import -> YAML text -> policy loader -> the same spec.
#include "config/partitions_yaml.h"

#include <gtest/gtest.h>

#include "config/partitions_conf.h"
#include "config/policy_loader.h"
#include "tests/unit/config/partitions_expect.h"

namespace smd::partitions_yaml_test {
namespace {

TEST(PartitionsYaml, TextOfASmallSpec) {
  PartitionsSpec spec;
  spec.enforcement = PartitionEnforcement::kOff;
  PartitionSpec p;
  p.name = "tenant a";
  p.pkey = 0x0a01;
  p.index0 = true;
  p.members = {{MemberSelector::kSelf, 0, "", std::nullopt, ""},
               {MemberSelector::kPortGuid, 0x2c90300001234ULL, "", Membership::kFull, ""},
               {MemberSelector::kNodeDescription, 0, "h1 HCA-1", std::nullopt, ""}};
  p.ipoib.enabled = true;
  McastGroupSpec g;
  g.mgid = {0xff, 0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  g.q_key = 0;
  p.groups = {g};
  spec.partitions = {p};
  EXPECT_EQ(partitions_yaml(spec),
            "partitions:\n"
            "  enforcement: off\n"
            "  allow_both_pkeys: false\n"
            "  list:\n"
            "    - name: \"tenant a\"\n"
            "      pkey: 0x0a01\n"
            "      default_membership: limited\n"
            "      index0: true\n"
            "      members:\n"
            "        - SELF\n"
            "        - {guid: 0x0002c90300001234, membership: full}\n"
            "        - {node: \"h1 HCA-1\"}\n"
            "      ipoib: {mtu: 4, rate: 3, sl: 0, scopes: [2], q_key: 0x0b1b, tclass: 0, flow_label: 0}\n"
            "      groups:\n"
            "        - {mgid: \"ff12::1\", mtu: 4, rate: 3, sl: 0, q_key: 0x0000, tclass: 0, flow_label: 0}\n");
}

void expect_round_trip(const std::string& conf) {
  Result<PartitionsImport> imported = parse_partitions_conf(conf, "t.conf");
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  const std::string yaml = partitions_yaml(imported->spec);
  Result<Policy> policy = load_policy_string(yaml, "out.yaml");
  ASSERT_TRUE(policy.ok()) << policy.error().message << "\n" << yaml;
  test::expect_same_partitions(policy->partitions, with_default_partition(imported->spec));
}

TEST(PartitionsYaml, RoundTripOfTheManPageExamples) {
  expect_round_trip(
      " Default=0x7fff : ALL, ALL_SWITCHES=full, SELF=full ;\n"
      " NewPartition , ipoib : 0x123456=full, 0x3456789034=limi, 0x2134af2306 ;\n"
      " YetAnotherOne = 0x300 : SELF=full ;\n"
      " YetAnotherOne = 0x300 : ALL=limited ;\n"
      " ShareIO = 0x80 , defmember=full : 0x123451, 0x123452;\n"
      " ShareIO = 0x80 : 0x123453, 0x123454, 0x123455=full;\n"
      " ShareIO = 0x80 : defmember=limited : 0x123456, 0x123457, 0x123458=full;\n"
      " ShareIO = 0x80 , defmember=full : 0x12345b, 0x12345c=limited, 0x12345d;\n");
  expect_round_trip(
      " Default=0x7fff,ipoib:\n"
      "        mgid=ff12:401b::0707,sl=1 # random IPv4 group\n"
      "        mgid=ff12:601b::16    # MLDv2-capable routers\n"
      "        mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2 # random group\n"
      "        ALL=full;\n");
}

TEST(PartitionsYaml, EmptyMembersAreWrittenAsFlow) {
  PartitionsSpec spec;
  PartitionSpec p;
  p.pkey = 0x60;
  spec.partitions = {p};
  const std::string yaml = partitions_yaml(spec);
  EXPECT_NE(yaml.find("      members: []\n      ipoib: false\n      groups: []\n"), std::string::npos) << yaml;
}

TEST(PartitionsYaml, RoundTripOfEveryConstruct) {
  expect_round_trip(
      "=0x20 : ALL ;\n"
      "NoKey : SELF ;\n"
      "\"quoted\" name with \\ \xc3\xa9 = 0x21 : ALL ;\n"
      "Ip = 0x30 , indx0 , ipoib , rate=7 , mtu = 5, sl=2, scope=2, scope=5, Q_Key=0x12345, TClass=8, FlowLabel=0x99 :"
      " ALL_CAS=both, ALL_ROUTERS, 1193046=full ;\n"
      "Both=0x01,defmember=both : 0xabc ;\n"
      "Empty=0x60 : ;\n"
      "Scoped=0x50:mgid=ff12:401b::1,scope=5,scope=8\n"
      "  mgid = ff12:601b:8050::2 , TClass=4, FlowLabel=5\n"
      ":SELF=limited;\n");
}

TEST(PartitionsYaml, RoundTripOfTheDefaults) {
  const std::string yaml = partitions_yaml(default_partitions());
  EXPECT_EQ(yaml,
            "partitions:\n"
            "  enforcement: both\n"
            "  allow_both_pkeys: false\n"
            "  list:\n"
            "    - name: \"Default\"\n"
            "      pkey: 0x7fff\n"
            "      default_membership: full\n"
            "      index0: false\n"
            "      members:\n"
            "        - {select: ALL, membership: full}\n"
            "      ipoib: {mtu: 4, rate: 3, sl: 0, scopes: [2], q_key: 0x0b1b, tclass: 0, flow_label: 0}\n"
            "      groups: []\n");
  Result<Policy> policy = load_policy_string(yaml, "out.yaml");
  ASSERT_TRUE(policy.ok()) << policy.error().message;
  test::expect_same_partitions(policy->partitions, default_partitions());
}

}  // namespace
}  // namespace smd::partitions_yaml_test
