// AliasGuidTable (smd/sa/alias_guids.h): the Set/Delete rules, SM assignment and the file form. Expected
// GUIDs are written out from the rule (OUI 0x001405 | byte | counter), not taken from the code.
#include "smd/sa/alias_guids.h"

#include <gtest/gtest.h>

namespace smd::sa::alias_guids_test {
namespace {

constexpr Guid kPort = 0x0002C90000000B01ull;
constexpr Guid kOther = 0x0002C90000000C01ull;
constexpr unsigned kCap = 32;  // 4 blocks, as ibsim's CA ports report
const auto kNone = [](Guid) { return false; };

std::array<Guid, 8> guids(std::initializer_list<std::pair<unsigned, Guid>> at) {
  std::array<Guid, 8> g{};
  for (auto [i, v] : at) g[i] = v;
  return g;
}

TEST(AliasGuids, SetStoresTheMaskedEntriesOnly) {
  AliasGuidTable t;
  const AliasChange c = t.set(kPort, kCap, 0, 0b0000'0110, guids({{1, 0x11}, {2, 0x22}, {3, 0x33}}), kNone);
  ASSERT_EQ(c.status, 0);
  EXPECT_TRUE(c.changed);
  EXPECT_EQ(c.block, (std::array<Guid, 8>{kPort, 0x11, 0x22, 0, 0, 0, 0, 0})) << "entry 3 was not in the mask";
  EXPECT_EQ(t.base_of(0x22), kPort);
  EXPECT_EQ(t.base_of(0x33), 0u);
}

TEST(AliasGuids, PortGuidEntryIsReadOnlyAndBlocksEndAtGuidCap) {
  AliasGuidTable t;
  EXPECT_EQ(t.set(kPort, kCap, 0, 0b1, guids({{0, 0x99}}), kNone).status, 0x0200);
  EXPECT_EQ(t.set(kPort, kCap, 4, 0b10, guids({{1, 0x99}}), kNone).status, 0x0300) << "block 4 starts at entry 32";
  EXPECT_EQ(t.set(kPort, 0, 0, 0b10, guids({{1, 0x99}}), kNone).status, 0x0300) << "GUIDCap unknown";
  // GUIDCap 10: block 1 holds entries 8 and 9 only.
  const AliasChange c = t.set(kPort, 10, 1, 0xFF, guids({{0, 0x80}, {1, 0x81}, {2, 0x82}}), kNone);
  ASSERT_EQ(c.status, 0);
  EXPECT_EQ(c.block, (std::array<Guid, 8>{0x80, 0x81, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(t.base_of(0x82), 0u);
  EXPECT_EQ(t.blocks(kPort), (std::vector<unsigned>{0, 1}));
}

TEST(AliasGuids, ZeroAsksTheSmToAssignFromItsByte) {
  AliasGuidTable t(0x2A);
  // 0x0014052A00000002 is some port's own GUID: skipped.
  const auto in_use = [](Guid g) { return g == 0x0014052A00000002ull; };
  const AliasChange c = t.set(kPort, kCap, 0, 0b1110, guids({}), in_use);
  ASSERT_EQ(c.status, 0);
  EXPECT_EQ(c.block[1], 0x0014052A00000001ull);
  EXPECT_EQ(c.block[2], 0x0014052A00000003ull);
  EXPECT_EQ(c.block[3], 0x0014052A00000004ull);
  // Asked again with 0: the entries keep what they have.
  const AliasChange again = t.set(kPort, kCap, 0, 0b0010, guids({}), in_use);
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(again.block[1], 0x0014052A00000001ull);
  // Deleted, then asked with 0 again: the same GUID comes back (it stays the VF's across a Delete).
  EXPECT_TRUE(t.erase(kPort, kCap, 0, 0b0010).changed);
  EXPECT_EQ(t.base_of(0x0014052A00000001ull), 0u);
  EXPECT_EQ(t.set(kPort, kCap, 0, 0b0010, guids({}), in_use).block[1], 0x0014052A00000001ull);
}

TEST(AliasGuids, AGuidHeldElsewhereIsAnsweredZeroAndNotTaken) {
  AliasGuidTable t;
  ASSERT_EQ(t.set(kOther, kCap, 0, 0b10, guids({{1, 0x77}}), kNone).status, 0);
  const AliasChange c =
      t.set(kPort, kCap, 0, 0b110, guids({{1, 0x77}, {2, kOther}}), [](Guid g) { return g == kOther; });
  ASSERT_EQ(c.status, 0);
  EXPECT_FALSE(c.changed);
  EXPECT_EQ(c.block[1], 0u);
  EXPECT_EQ(c.block[2], 0u);
  ASSERT_EQ(c.refused.size(), 2u);
  EXPECT_EQ(c.refused[0].index, 1u);
  EXPECT_NE(c.refused[0].why.find("0x0002c90000000c01"), std::string::npos) << c.refused[0].why;
  EXPECT_EQ(t.base_of(0x77), kOther);
}

TEST(AliasGuids, ReplacingAnAliasFreesTheOldOne) {
  AliasGuidTable t;
  ASSERT_TRUE(t.set(kPort, kCap, 0, 0b10, guids({{1, 0x10}}), kNone).changed);
  ASSERT_TRUE(t.set(kPort, kCap, 0, 0b10, guids({{1, 0x20}}), kNone).changed);
  EXPECT_EQ(t.base_of(0x10), 0u);
  EXPECT_EQ(t.base_of(0x20), kPort);
  EXPECT_EQ(t.set(kOther, kCap, 0, 0b10, guids({{1, 0x10}}), kNone).block[1], 0x10u);
}

TEST(AliasGuids, DeleteClearsTheMaskedEntriesButNeverThePortGuid) {
  AliasGuidTable t;
  ASSERT_EQ(t.set(kPort, kCap, 0, 0b110, guids({{1, 0x10}, {2, 0x20}}), kNone).status, 0);
  const AliasChange c = t.erase(kPort, kCap, 0, 0b011);
  ASSERT_EQ(c.status, 0);
  EXPECT_EQ(c.block, (std::array<Guid, 8>{kPort, 0, 0x20, 0, 0, 0, 0, 0}));
  EXPECT_EQ(t.erase(kPort, kCap, 5, 0xFF).status, 0x0300);
  EXPECT_FALSE(t.erase(kPort, kCap, 0, 0b010).changed) << "nothing left to delete there";
}

TEST(AliasGuids, FileFormRoundTripsAndTheCounterResumes) {
  AliasGuidTable t(7);
  ASSERT_EQ(t.set(kPort, kCap, 0, 0b110, guids({{1, 0x1234}}), kNone).status, 0);
  ASSERT_EQ(t.set(kPort, kCap, 2, 0b1, guids({{0, 0x5678}}), kNone).status, 0);
  const std::string text = t.to_text();
  EXPECT_NE(text.find("0x0002c90000000b01 2 0x0014050700000001\n"), std::string::npos) << text;
  EXPECT_NE(text.find("0x0002c90000000b01 16 0x0000000000005678\n"), std::string::npos) << text;
  Result<AliasGuidTable> back = AliasGuidTable::from_text(text, "sa-alias-guids", 7);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->block(kPort, 0), t.block(kPort, 0));
  EXPECT_EQ(back->block(kPort, 2), t.block(kPort, 2));
  EXPECT_EQ(back->base_of(0x5678), kPort);
  // The next assignment continues after the restored one, on any port.
  EXPECT_EQ(back->set(kOther, kCap, 0, 0b10, guids({}), kNone).block[1], 0x0014050700000002ull);
}

TEST(AliasGuids, BadFileLinesAreNamedAndNothingIsLoaded) {
  const auto error_of = [](const std::string& text) {
    Result<AliasGuidTable> r = AliasGuidTable::from_text(text, "f", 0);
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(error_of("# c\n0x1 1 0x5\n0x2 0 0x6\n"), "f:3: bad index \"0\" (1..65535; entry 0 is the port GUID)");
  EXPECT_EQ(error_of("0x1 1 0x5\n0x2 3 0x5\n"), "f:2: alias 0x0000000000000005 is held twice");
  EXPECT_EQ(error_of("0x1 1\n"),
            "f:1: expected \"PORT_GUID INDEX ALIAS_GUID\" or \"assigned PORT_GUID INDEX GUID\", got \"0x1 1\"");
  EXPECT_EQ(error_of("0x1 1 zz\n"), "f:1: bad GUID \"zz\"");
  EXPECT_EQ(error_of(""), "ok");
}

}  // namespace
}  // namespace smd::sa::alias_guids_test
