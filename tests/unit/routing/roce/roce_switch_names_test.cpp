// Switch hostnames of the RoCE plan (routing/roce/switch_names.h): what FRR accepts as a hostname
// (starts with a letter or digit), unique, and stable under the node GUID when descriptions collide.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "routing/roce/switch_names.h"

namespace smd::roce::roce_switch_names_test {
namespace {

using namespace std::string_literals;

/// FRR's hostname rule plus what the plan adds: [A-Za-z0-9._-], letter or digit at both ends, <= 63.
/// Spelled out rather than a std::regex: GCC 12's <regex> trips -Wmaybe-uninitialized under the sanitizers.
bool frr_hostname(const std::string& name) {
  auto alnum = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (name.empty() || name.size() > 63 || !alnum(name.front()) || !alnum(name.back())) return false;
  for (char c : name) {
    if (!alnum(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

TEST(RoceSwitchNames, LeadingPunctuationDuplicatesAndBadBytes) {
  const std::vector<std::string> descriptions = {
      "-leaf", ".leaf", "leaf", "\xFF\xFE\x7F", "_", "spine 1\n!", "spine 1\n!", std::string(80, 'x'), "a\0b"s};
  const std::vector<Guid> guids = {0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19};
  const auto names = switch_names(descriptions, guids);
  ASSERT_EQ(names.size(), descriptions.size());
  EXPECT_EQ(names[0], "leaf");
  EXPECT_EQ(names[1], "leaf-0000000000000012");
  EXPECT_EQ(names[2], "leaf-0000000000000013");
  EXPECT_EQ(names[3], "switch");
  EXPECT_EQ(names[4], "switch-0000000000000015");
  EXPECT_EQ(names[5], "spine_1");
  EXPECT_EQ(names[6], "spine_1-0000000000000017");
  EXPECT_EQ(names[7], std::string(63, 'x'));
  EXPECT_EQ(names[8], "a_b");
  std::set<std::string> unique;
  for (const auto& n : names) {
    EXPECT_TRUE(frr_hostname(n)) << n;
    EXPECT_TRUE(unique.insert(n).second) << n;
  }
}

TEST(RoceSwitchNames, GuidSuffixDoesNotDependOnOtherSwitches) {
  const auto with_three = switch_names({"sw", "sw", "sw"}, {0x1, 0x2, 0x3});
  const auto without_second = switch_names({"sw", "sw"}, {0x1, 0x3});
  EXPECT_EQ(with_three[2], without_second[1]);
  // A description that already looks like a suffixed name still gives unique names.
  const auto clash = switch_names({"sw-0000000000000002", "sw", "sw"}, {0x1, 0x9, 0x2});
  EXPECT_EQ(std::set<std::string>(clash.begin(), clash.end()).size(), 3u);
  for (const auto& n : clash) EXPECT_TRUE(frr_hostname(n)) << n;
}

}  // namespace
}  // namespace smd::roce::roce_switch_names_test
