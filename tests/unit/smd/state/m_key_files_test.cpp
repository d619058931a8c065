// state_dir/guid2mkey and state_dir/neighbors (smd/state/m_key_files.h): what is read back is what was
// written, and each kind of bad line is reported with its file and line and skipped.
#include <gtest/gtest.h>

#include "smd/state/m_key_files.h"

namespace smd::m_key_files_test {
namespace {

TEST(MKeyFiles, Guid2MKeyIsOpenSmsTwoColumnFormat) {
  const Guid2MKey keys = {{0x0002c90300000001ULL, 0xd73a14c1011624b8ULL}, {0x200000, 1}};
  const std::string text = format_guid2mkey(keys);
  EXPECT_EQ(text, "0x0000000000200000 0x0000000000000001\n0x0002c90300000001 0xd73a14c1011624b8\n");
  const auto back = parse_guid2mkey(text, "g");
  EXPECT_TRUE(back.problems.empty());
  EXPECT_EQ(back.entries, keys);
}

TEST(MKeyFiles, Guid2MKeyBadLinesAreNamedAndSkipped) {
  const auto load = parse_guid2mkey(
      "# comment\n0x10 0x20\n0x10 0x30\n0x11\n0x12 zz\n0x13 0x11111111111111111\n0x14 0x5", "state/guid2mkey");
  ASSERT_EQ(load.problems.size(), 4u);
  EXPECT_EQ(load.problems[0], "state/guid2mkey:3: GUID 0x10 listed twice; first entry kept");
  EXPECT_EQ(load.problems[1], "state/guid2mkey:4: expected '0xPORTGUID 0xMKEY'");
  EXPECT_EQ(load.problems[2], "state/guid2mkey:5: expected '0xPORTGUID 0xMKEY'");
  EXPECT_EQ(load.problems[3], "state/guid2mkey:6: expected '0xPORTGUID 0xMKEY'");  // 17 hex digits
  EXPECT_EQ(load.entries, (Guid2MKey{{0x10, 0x20}, {0x14, 0x5}}));  // the last line lacks only its newline
}

TEST(MKeyFiles, NeighborsRoundTrip) {
  MKeyNeighbors n;
  n.sm = {0x100000, 1, 0x100001, false};
  n.links[{0x100000, 1}] = {0x200000, 1, 0x200000, true};
  n.links[{0x200000, 1}] = {0x100000, 1, 0x100001, false};
  const std::string text = format_neighbors(n);
  EXPECT_EQ(text,
            "sm 0x0000000000100000 1 0x0000000000100001 ca\n"
            "0x0000000000100000 1 0x0000000000200000 1 0x0000000000200000 switch\n"
            "0x0000000000200000 1 0x0000000000100000 1 0x0000000000100001 ca\n");
  const auto back = parse_neighbors(text, "n");
  EXPECT_TRUE(back.problems.empty());
  EXPECT_EQ(back.entries, n);
}

TEST(MKeyFiles, NeighborsBadLinesAreNamedAndSkipped) {
  const auto load = parse_neighbors(
      "sm 0x1 1 0x2 ca\nsm 0x3 1 0x4 ca\n0x1 1 0x5 2 0x5 router\n0x1 300 0x5 2 0x5 switch\n"
      "0x1 1 0x5 2 0x5 switch\n0x1 1 0x6 2 0x6 switch\n",
      "nb");
  ASSERT_EQ(load.problems.size(), 4u);
  EXPECT_EQ(load.problems[0], "nb:2: a second 'sm' line; the first kept");
  EXPECT_NE(load.problems[1].find("nb:3: expected"), std::string::npos);
  EXPECT_NE(load.problems[2].find("nb:4: expected"), std::string::npos);
  EXPECT_EQ(load.problems[3], "nb:6: port 1 of 0x1 listed twice; first entry kept");
  EXPECT_EQ(load.entries.sm, (MKeyHop{1, 1, 2, false}));
  ASSERT_EQ(load.entries.links.size(), 1u);
  EXPECT_EQ(load.entries.links.begin()->second, (MKeyHop{5, 2, 5, true}));
}

}  // namespace
}  // namespace smd::m_key_files_test
