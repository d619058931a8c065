// smd/sa/partition_rules.h against IBA 10.9 written out case by case: a P_Key's high bit is the membership
// (1 full, 0 limited), the low 15 bits the partition; full talks to full and limited, limited does not talk
// to limited; 0x7FFF/0xFFFF is the default partition; base 0 (0x0000, 0x8000) is no partition at all.
#include <gtest/gtest.h>

#include <vector>

#include "smd/sa/partition_rules.h"

namespace smd::sa::partition_rules_test {
namespace {

using Keys = std::vector<PKey>;

TEST(PartitionRules, FullSeesLimitedOfTheSamePartition) {
  EXPECT_TRUE(visible_to(Keys{0xFFFF}, Keys{0x7FFF}, false)) << "default partition, full and limited";
  EXPECT_TRUE(visible_to(Keys{0x7FFF}, Keys{0xFFFF}, false)) << "the rule is symmetric";
  EXPECT_TRUE(visible_to(Keys{0x8001}, Keys{0x0001}, false));
  EXPECT_TRUE(visible_to(Keys{0x8001}, Keys{0x8001}, false)) << "full and full";
}

TEST(PartitionRules, TwoLimitedMembersCannotTalk) {
  EXPECT_FALSE(visible_to(Keys{0x7FFF}, Keys{0x7FFF}, false));
  EXPECT_FALSE(visible_to(Keys{0x0001}, Keys{0x0001}, false));
  // One shared full entry in another partition is enough, whatever the limited ones say.
  EXPECT_TRUE(visible_to(Keys{0x7FFF, 0x8002}, Keys{0x7FFF, 0x0002}, false));
}

TEST(PartitionRules, DifferentPartitionsAndEmptySlotsShareNothing) {
  EXPECT_FALSE(visible_to(Keys{0x8001}, Keys{0x8002}, false));
  EXPECT_FALSE(visible_to(Keys{0x0000}, Keys{0x0000}, false)) << "an empty slot is no partition";
  EXPECT_FALSE(visible_to(Keys{0x8000}, Keys{0x8000}, false)) << "0x8000 is no partition either";
  EXPECT_FALSE(visible_to(Keys{}, Keys{0xFFFF}, false));
}

TEST(PartitionRules, TrustedRequesterSeesEveryone) {
  EXPECT_TRUE(visible_to(Keys{}, Keys{0x8005}, true));
  EXPECT_TRUE(visible_to(Keys{0x0005}, Keys{0x0005}, true)) << "even two limited members";
}

TEST(PartitionRules, HoldingIsMembershipOfEitherKind) {
  EXPECT_TRUE(holds_pkey(Keys{0x0001}, 0x8001)) << "a limited member holds the full P_Key's partition";
  EXPECT_TRUE(holds_pkey(Keys{0x8001}, 0x0001));
  EXPECT_TRUE(holds_pkey(Keys{0xFFFF, 0x8003}, 0x8003));
  EXPECT_FALSE(holds_pkey(Keys{0x8002}, 0x8001));
  EXPECT_FALSE(holds_pkey(Keys{}, 0xFFFF));
}

TEST(PartitionRules, PKeyZeroIsAnyonesForRecords) {
  EXPECT_TRUE(may_use_pkey(Keys{}, 0x0000));
  EXPECT_TRUE(may_use_pkey(Keys{}, 0x8000)) << "the membership bit does not make base 0 a partition";
  EXPECT_TRUE(may_use_pkey(Keys{0x0005}, 0x8005));
  EXPECT_FALSE(may_use_pkey(Keys{0x8005}, 0x8006));
}

TEST(PartitionRules, PathPKeyIsTheSourcesFirstMatchingEntry) {
  // The source's order decides: the default partition's full entry comes first and matches the
  // destination's limited one.
  EXPECT_EQ(path_pkey(Keys{0xFFFF, 0x8001}, Keys{0x7FFF, 0x0001}, std::nullopt), PKey{0xFFFF});
  // A limited source reaches a full destination through its limited entry, which the path carries.
  EXPECT_EQ(path_pkey(Keys{0x7FFF, 0x0001}, Keys{0x7FFF, 0x8001}, std::nullopt), PKey{0x0001});
  EXPECT_EQ(path_pkey(Keys{0x7FFF}, Keys{0x7FFF}, std::nullopt), std::nullopt) << "limited to limited: no path";
  EXPECT_EQ(path_pkey(Keys{0x0000, 0x8000}, Keys{0x8000}, std::nullopt), std::nullopt);
}

TEST(PartitionRules, WantedPKeyIsEchoedAsGivenWhenTheEndsShareItsPartition) {
  EXPECT_EQ(path_pkey(Keys{0x8001}, Keys{0x0001}, PKey{0x0001}), PKey{0x0001});
  EXPECT_EQ(path_pkey(Keys{0x8001, 0xFFFF}, Keys{0xFFFF}, PKey{0x8001}), std::nullopt)
      << "the destination is not in partition 1";
  EXPECT_EQ(path_pkey(Keys{0x0001}, Keys{0x0001}, PKey{0x8001}), std::nullopt)
      << "asking with the full bit does not make two limited members talk";
}

TEST(PartitionRules, QosLevelNarrowsThePathPKey) {
  const Keys level{0x0002};
  EXPECT_EQ(path_pkey(Keys{0xFFFF, 0x8002}, Keys{0xFFFF, 0x8002}, std::nullopt, level), PKey{0x8002})
      << "the default partition comes first but the level allows only partition 2";
  EXPECT_EQ(path_pkey(Keys{0xFFFF, 0x8002}, Keys{0xFFFF, 0x8002}, PKey{0xFFFF}, level), std::nullopt);
  EXPECT_EQ(path_pkey(Keys{0xFFFF}, Keys{0xFFFF}, std::nullopt, level), std::nullopt);
}

}  // namespace
}  // namespace smd::sa::partition_rules_test
