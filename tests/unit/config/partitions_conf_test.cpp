// OpenSM partitions.conf import: every example of opensm(8) PARTITION CONFIGURATION and every construct of
// its syntax, the resulting spec asserted field by field with values written by hand; errors and warnings
// with their line:column.
#include "config/partitions_conf.h"

#include <gtest/gtest.h>

#include "tests/unit/config/partitions_expect.h"

namespace smd::partitions_conf_test {
namespace {

PartitionsImport import(const std::string& text) {
  Result<PartitionsImport> imported = parse_partitions_conf(text, "t.conf");
  EXPECT_TRUE(imported.ok()) << imported.error().message;
  return imported.ok() ? *imported : PartitionsImport{};
}

std::string import_error(const std::string& text) {
  Result<PartitionsImport> imported = parse_partitions_conf(text, "t.conf");
  EXPECT_FALSE(imported.ok());
  return imported.ok() ? "" : imported.error().message;
}

PartitionMember guid(Guid g, std::optional<Membership> m = std::nullopt) {
  return PartitionMember{MemberSelector::kPortGuid, g, "", m, ""};
}
PartitionMember keyword(MemberSelector s, std::optional<Membership> m = std::nullopt) {
  return PartitionMember{s, 0, "", m, ""};
}

PartitionSpec partition(std::string name, PKeyBase pkey, Membership def = Membership::kLimited) {
  PartitionSpec p;
  p.name = std::move(name);
  p.pkey = pkey;
  p.default_membership = def;
  return p;
}

constexpr auto kFull = Membership::kFull;
constexpr auto kLimited = Membership::kLimited;
constexpr auto kBoth = Membership::kBoth;

PartitionsSpec spec_of(std::vector<PartitionSpec> partitions) {
  PartitionsSpec spec;
  spec.partitions = std::move(partitions);
  return spec;
}

TEST(PartitionsConf, ManDefaultRules) {
  PartitionSpec a = partition("Default", 0x7fff);
  a.members = {keyword(MemberSelector::kAll), keyword(MemberSelector::kSelf, kFull)};
  const PartitionsImport one = import(" Default=0x7fff : ALL, SELF=full ;\n");
  test::expect_same_partitions(one.spec, spec_of({a}));
  EXPECT_TRUE(one.warnings.empty());
  EXPECT_EQ(one.spec.partitions[0].where, "t.conf:1:2");
  EXPECT_EQ(one.spec.partitions[0].members[1].where, "t.conf:1:24");

  PartitionSpec b = partition("Default", 0x7fff);
  b.members = {keyword(MemberSelector::kAll), keyword(MemberSelector::kAllSwitches, kFull),
               keyword(MemberSelector::kSelf, kFull)};
  test::expect_same_partitions(import(" Default=0x7fff : ALL, ALL_SWITCHES=full, SELF=full ;\n").spec, spec_of({b}));

  PartitionSpec c = partition("Default", 0x7fff);
  c.members = {keyword(MemberSelector::kAll, kLimited), keyword(MemberSelector::kSelf, kFull)};
  test::expect_same_partitions(import("Default=0x7fff : ALL=limited, SELF=full ;").spec, spec_of({c}));

  // "how OpenSM used to run prior to the partition manager"
  PartitionSpec d = partition("Default", 0x7fff);
  d.members = {keyword(MemberSelector::kAll, kFull)};
  d.ipoib.enabled = true;
  test::expect_same_partitions(import(" Default=0x7fff,ipoib:ALL=full;\n").spec, spec_of({d}));
}

TEST(PartitionsConf, ManNewPartitionWithUnrecognisedMembershipAndNoPKey) {
  const PartitionsImport got = import(" NewPartition , ipoib : 0x123456=full, 0x3456789034=limi, 0x2134af2306 ;\n");
  PartitionSpec p = partition("NewPartition", 0x0001);  // the lowest P_Key no statement names
  p.ipoib.enabled = true;
  p.members = {guid(0x123456, kFull), guid(0x3456789034, kLimited), guid(0x2134af2306)};
  test::expect_same_partitions(got.spec, spec_of({p}));
  ASSERT_EQ(got.warnings.size(), 2u);
  EXPECT_EQ(
      got.warnings[0],
      "t.conf:1:53: membership 'limi' of 0x3456789034 is not full, limited or both; taken as limited (as OpenSM)");
  EXPECT_EQ(got.warnings[1],
            "t.conf:1:2: partition 'NewPartition' has no P_Key; assigned 0x0001 (the lowest P_Key no other statement "
            "of the file names)");
}

TEST(PartitionsConf, ManYetAnotherOneMerged) {
  const PartitionsImport got = import(" YetAnotherOne = 0x300 : SELF=full ;\n YetAnotherOne = 0x300 : ALL=limited ;\n");
  PartitionSpec p = partition("YetAnotherOne", 0x300);
  p.members = {keyword(MemberSelector::kSelf, kFull), keyword(MemberSelector::kAll, kLimited)};
  test::expect_same_partitions(got.spec, spec_of({p}));
  EXPECT_TRUE(got.warnings.empty());
  EXPECT_EQ(got.spec.partitions[0].members[1].where, "t.conf:2:26");
}

TEST(PartitionsConf, ManShareIoDefmemberAcrossMergedStatements) {
  const std::string text =
      " ShareIO = 0x80 , defmember=full : 0x123451, 0x123452;\n"
      " # 0x123453, 0x123454 will be limited\n"
      " ShareIO = 0x80 : 0x123453, 0x123454, 0x123455=full;\n"
      " # 0x123456, 0x123457 will be limited\n"
      " ShareIO = 0x80 : defmember=limited : 0x123456, 0x123457, 0x123458=full;\n"
      " ShareIO = 0x80 , defmember=full : 0x123459, 0x12345a;\n"
      " ShareIO = 0x80 , defmember=full : 0x12345b, 0x12345c=limited, 0x12345d;\n";
  // The partition's default is the first statement's (full); the others' limited ports say so.
  PartitionSpec p = partition("ShareIO", 0x80, kFull);
  p.members = {guid(0x123451),        guid(0x123452),           guid(0x123453, kLimited), guid(0x123454, kLimited),
               guid(0x123455, kFull), guid(0x123456, kLimited), guid(0x123457, kLimited), guid(0x123458, kFull),
               guid(0x123459),        guid(0x12345a),           guid(0x12345b),           guid(0x12345c, kLimited),
               guid(0x12345d)};
  const PartitionsImport got = import(text);
  test::expect_same_partitions(got.spec, spec_of({p}));
  EXPECT_TRUE(got.warnings.empty());
}

TEST(PartitionsConf, ManMulticastGroupsAddedToDefault) {
  const std::string text =
      " # multicast groups added to default\n"
      " Default=0x7fff,ipoib:\n"
      "        mgid=ff12:401b::0707,sl=1 # random IPv4 group\n"
      "        mgid=ff12:601b::16    # MLDv2-capable routers\n"
      "        mgid=ff12:401b::16    # IGMP\n"
      "        mgid=ff12:601b::2     # All routers\n"
      "        mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2 # random group\n"
      "        ALL=full;\n";
  PartitionSpec p = partition("Default", 0x7fff);
  p.ipoib.enabled = true;
  p.members = {keyword(MemberSelector::kAll, kFull)};
  // IP groups: P_Key bits 0000 become 0xffff (0x7fff | full bit), Q_Key the IPoIB one; scope 2 from ff12.
  auto ip = [](std::uint8_t family, std::uint8_t last, std::uint8_t sl) {
    McastGroupSpec g;
    g.mgid = {0xff, 0x12, family, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, last};
    if (last == 0x07) g.mgid[14] = 0x07;
    g.sl = sl;
    g.scope = 2;
    g.q_key = 0x0b1b;
    return g;
  };
  McastGroupSpec random;
  random.mgid = {0xff, 0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
  random.sl = 1;
  random.q_key = 0xdeadbeef;
  random.rate = 3;
  random.mtu = 2;
  random.scope = 2;
  p.groups = {ip(0x40, 0x07, 1), ip(0x60, 0x16, 0), ip(0x40, 0x16, 0), ip(0x60, 0x02, 0), random};
  const PartitionsImport got = import(text);
  test::expect_same_partitions(got.spec, spec_of({p}));
  EXPECT_TRUE(got.warnings.empty());
  EXPECT_EQ(got.spec.partitions[0].groups[4].where, "t.conf:7:9");
}

TEST(PartitionsConf, EveryOtherConstruct) {
  const std::string text =
      "# a comment line\n"
      "=0x20 : ALL ;   # no name\n"
      "NoKey : SELF ;\n"
      "Ip = 0x30 , indx0 , ipoib , rate=7 , mtu = 5, sl=2, scope=2, scope=5, Q_Key=0x1234, TClass=8, FlowLabel=0x99 :\n"
      "   ALL_CAS=both,\n"
      "   ALL_ROUTERS\n"
      "   , 1193046=full ;\n"
      "Both=0x01,defmember=both : 0xabc ;\n"
      "Empty=0x60 : ;\n"
      "Hi=0x8070:ALL;\n"
      "Scoped=0x50:mgid=ff12:401b::1,scope=5,scope=8\n"
      "  mgid = ff12:601b:8050::2 , TClass=4, FlowLabel=5\n"
      ":SELF=limited;\n";
  const PartitionsImport got = import(text);
  PartitionSpec noname = partition("", 0x20);
  noname.members = {keyword(MemberSelector::kAll)};
  PartitionSpec nokey = partition("NoKey", 0x0002);  // 0x0001 is Both's, named further down
  nokey.members = {keyword(MemberSelector::kSelf)};
  PartitionSpec ip = partition("Ip", 0x30);
  ip.index0 = true;
  ip.ipoib.enabled = true;
  ip.ipoib.rate = 7;
  ip.ipoib.mtu = 5;
  ip.ipoib.sl = 2;
  ip.ipoib.scopes = {2, 5};
  ip.ipoib.q_key = 0x1234;
  ip.ipoib.tclass = 8;
  ip.ipoib.flow_label = 0x99;
  ip.members = {keyword(MemberSelector::kAllCas, kBoth), keyword(MemberSelector::kAllRouters), guid(0x123456, kFull)};
  PartitionSpec both = partition("Both", 0x01, kBoth);
  both.members = {guid(0xabc)};
  PartitionSpec empty = partition("Empty", 0x60);
  PartitionSpec hi = partition("Hi", 0x70);
  hi.members = {keyword(MemberSelector::kAll)};
  PartitionSpec scoped = partition("Scoped", 0x50);
  McastGroupSpec s5;
  s5.mgid = {0xff, 0x15, 0x40, 0x1b, 0x80, 0x50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
  s5.scope = 5;
  s5.q_key = 0x0b1b;
  McastGroupSpec s8 = s5;
  s8.mgid[1] = 0x18;
  s8.scope = 8;
  McastGroupSpec v6;
  v6.mgid = {0xff, 0x12, 0x60, 0x1b, 0x80, 0x50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02};
  v6.scope = 2;
  v6.q_key = 0x0b1b;
  v6.tclass = 4;
  v6.flow_label = 5;
  scoped.groups = {s5, s8, v6};
  scoped.members = {keyword(MemberSelector::kSelf, kLimited)};
  test::expect_same_partitions(got.spec, spec_of({noname, nokey, ip, both, empty, hi, scoped}));
  const std::vector<std::string> warnings = {
      "t.conf:5:12: ALL_CAS=both needs partitions.allow_both_pkeys: true (OpenSM's allow_both_pkeys); without it "
      "the port is a full member",
      "t.conf:8:28: 0xabc is a member by defmember=both, which needs partitions.allow_both_pkeys: true",
      "t.conf:10:4: P_Key 0x8070: bit 15 is not part of a P_Key (membership sets it); using 0x0070",
      "t.conf:3:1: partition 'NoKey' has no P_Key; assigned 0x0002 (the lowest P_Key no other statement of the file "
      "names)"};
  EXPECT_EQ(got.warnings, warnings);
}

TEST(PartitionsConf, MergedStatementsKeepTheFirstNameAndJoinFlags) {
  const PartitionsImport got = import("A=0x10 : 0x1 ;\nB=0x10,ipoib,indx0,mtu=5 : 0x2 ;\n");
  PartitionSpec p = partition("A", 0x10);
  p.index0 = true;
  p.ipoib.enabled = true;
  p.ipoib.mtu = 5;
  p.members = {guid(0x1), guid(0x2)};
  test::expect_same_partitions(got.spec, spec_of({p}));
  ASSERT_EQ(got.warnings.size(), 1u);
  EXPECT_EQ(got.warnings[0], "t.conf:2:1: P_Key 0x0010 is partition 'A' (t.conf:1:1); merged into it under that name");
}

// Two P_Keys under one name: OpenSM keeps both; smd's policy names one partition per name, so the later
// one is renamed after its P_Key (and again if that name is taken too), with a warning at its statement.
TEST(PartitionsConf, ANameOnTwoPKeysIsMadeUnique) {
  const PartitionsImport got = import("A=0x10 : 0x1 ;\nA_0x0011=0x12 : 0x3 ;\nA=0x11 : 0x2 ;\n");
  std::vector<PartitionSpec> want = {partition("A", 0x10), partition("A_0x0011", 0x12), partition("A_0x0011_", 0x11)};
  want[0].members = {guid(0x1)};
  want[1].members = {guid(0x3)};
  want[2].members = {guid(0x2)};
  test::expect_same_partitions(got.spec, spec_of(want));
  ASSERT_EQ(got.warnings.size(), 1u);
  EXPECT_EQ(got.warnings[0],
            "t.conf:3:1: partition name 'A' is already used by another P_Key; P_Key 0x0011 is named 'A_0x0011_'");
}

// A group belongs to one partition: a second declaration of an MGID (in the same statement or another
// partition's) is left out with a warning at it, so the policy written loads (it refuses such twins).
TEST(PartitionsConf, AGroupDeclaredTwiceKeepsTheFirst) {
  const PartitionsImport got = import("d=0x13 : mgid=ff12::1 ;\ne=0x14 : mgid=ff12::1, mgid=ff12::2 ;\n");
  ASSERT_EQ(got.spec.partitions.size(), 2u);
  ASSERT_EQ(got.spec.partitions[0].groups.size(), 1u);
  ASSERT_EQ(got.spec.partitions[1].groups.size(), 1u);
  EXPECT_EQ(got.spec.partitions[1].groups[0].mgid[15], 2);
  ASSERT_EQ(got.warnings.size(), 1u);
  EXPECT_EQ(got.warnings[0],
            "t.conf:2:10: mgid ff12::1 is already a group of partition 'd'; this declaration is left out");
}

TEST(PartitionsConf, FlagsWithoutIpoibWarn) {
  const PartitionsImport got = import("A=0x10,rate=6 : ALL ;\n");
  ASSERT_EQ(got.warnings.size(), 1u);
  EXPECT_EQ(got.warnings[0], "t.conf:1:8: partition 'A': broadcast-group flags without ipoib have no effect");
  EXPECT_FALSE(got.spec.partitions[0].ipoib.enabled);
}

TEST(PartitionsConf, Utf8NamesAreKept) {
  const PartitionsImport got = import("caf\xc3\xa9 \xe2\x82\xac=0x10 : ALL ;");
  ASSERT_EQ(got.spec.partitions.size(), 1u);
  EXPECT_EQ(got.spec.partitions[0].name, "caf\xc3\xa9 \xe2\x82\xac");
}

TEST(PartitionsConf, EmptyFileAndCommentsOnly) {
  EXPECT_TRUE(import("").spec.partitions.empty());
  EXPECT_TRUE(import("# nothing\n   \n# at all\n").spec.partitions.empty());
}

struct ConfReject {
  const char* name;
  const char* text;
  const char* message;
};

void PrintTo(const ConfReject& c, std::ostream* os) { *os << c.name; }

class PartitionsConfReject : public ::testing::TestWithParam<ConfReject> {};

TEST_P(PartitionsConfReject, NamesLineAndColumn) { EXPECT_EQ(import_error(GetParam().text), GetParam().message); }

const ConfReject kRejects[] = {
    {"no_semicolon", "A=0x10 : ALL\n", "t.conf:1:1: partition 'A' is not ended by ';'"},
    {"no_colon", "\n  A=0x10 ;\n", "t.conf:2:3: partition 'A' has no ':' before its ';'"},
    {"no_colon_at_end", "A=0x10", "t.conf:1:1: partition 'A' has no ':' and no ';' after it"},
    {"unknown_flag", "A=0x10,ipob : ALL;",
     "t.conf:1:8: unknown flag 'ipob'; expected indx0, ipoib, defmember=, rate=, mtu=, sl=, scope=, Q_Key=, "
     "TClass=, FlowLabel="},
    {"unknown_keyword", "A=0x10 : ALL_HOSTS ;",
     "t.conf:1:10: 'ALL_HOSTS' is neither a port GUID nor one of ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF"},
    {"pkey_zero", "A=0 : ALL;", "t.conf:1:3: P_Key 0: 0 is not a valid P_Key"},
    {"pkey_above_16_bits", "A=0x10000 : ALL;", "t.conf:1:3: P_Key 0x10000 is above the largest value, 65535"},
    {"pkey_missing_after_equals", "A= : ALL;", "t.conf:1:4: '=' with no P_Key after it"},
    {"guid_zero", "A=0x10 : 0x0=full ;", "t.conf:1:10: GUID 0 is not a valid port GUID"},
    {"guid_leading_zero", "A=0x10 : 0123 ;",
     "t.conf:1:10: port GUID '0123' has a leading zero (OpenSM reads it as octal); write it in decimal or 0x hex"},
    {"guid_junk", "A=0x10 : 0x12zz ;",
     "t.conf:1:10: port GUID '0x12zz' is not an integer: unexpected 'zz' after the number"},
    {"group_flag_outside_mgid", "A=0x10 : ALL, rate=3 ;",
     "t.conf:1:15: 'rate=' outside an mgid= line (a group's flags follow its mgid= on the same line; the broadcast "
     "group's go before the ':')"},
    {"group_flag_on_next_line", "A=0x10 : mgid=ff12::1\n sl=1 ;",
     "t.conf:2:2: 'sl=' outside an mgid= line (a group's flags follow its mgid= on the same line; the broadcast "
     "group's go before the ':')"},
    {"mgid_not_multicast", "A=0x10 : mgid=fe80::1 ;",
     "t.conf:1:15: mgid: 'fe80::1' is not a multicast GID: it must start with ff"},
    {"mgid_other_pkey", "A=0x10 : mgid=ff12:401b:8011::1 ;",
     "t.conf:1:10: mgid ff12:401b:8011::1: MGID P_Key bits 0x8011 do not match the partition's P_Key 0x0010"},
    {"mtu_out_of_range", "A=0x10,mtu=9 : ALL;", "t.conf:1:12: mtu=9 is out of range 1..5"},
    {"group_sl_out_of_range", "A=0x10 : mgid=ff12::1,sl=16 ;", "t.conf:1:26: sl=16 is out of range 0..15"},
    {"flag_without_value", "A=0x10,rate : ALL;", "t.conf:1:8: rate needs a value (rate=N)"},
    {"defmember_unknown", "A=0x10 : defmember=half : ALL;",
     "t.conf:1:20: defmember='half': expected full, limited or both"},
    {"empty_flag", "A=0x10,,ipoib : ALL;", "t.conf:1:8: empty flag (two commas in a row?)"},
    {"name_not_utf8", "ok=0x1 : ALL ;\n caf\xe9=0x10 : ALL;", "t.conf:2:2: the partition name is not valid UTF-8"},
    {"name_cut_utf8", "caf\xc3=0x10 : ALL;", "t.conf:1:1: the partition name is not valid UTF-8"},
    {"name_with_control",
     "a\x01"
     "b=0x10 : ALL;",
     "t.conf:1:1: the partition name holds a control character"},
    {"equals_without_port", "A=0x10 : =full ;", "t.conf:1:10: '=' with nothing before it"},
};
INSTANTIATE_TEST_SUITE_P(All, PartitionsConfReject, ::testing::ValuesIn(kRejects),
                         [](const ::testing::TestParamInfo<ConfReject>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace smd::partitions_conf_test
