// for_each_state_line / split_state_fields of smd/state/state_file_lines.h: which lines reach the caller,
// with which fields and which "NAME:LINE: " place.
#include "smd/state/state_file_lines.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace smd::state_file_lines_test {
namespace {

struct Seen {
  std::vector<std::string> fields;
  std::string where;
  unsigned line = 0;
};

std::vector<Seen> read_all(std::string_view text, std::size_t max_fields) {
  std::vector<Seen> out;
  for_each_state_line(text, "f", max_fields,
                      [&](const std::vector<std::string_view>& fields, const std::string& where, unsigned line) {
                        Seen s{{}, where, line};
                        for (std::string_view f : fields) s.fields.emplace_back(f);
                        out.push_back(std::move(s));
                      });
  return out;
}

TEST(StateFileLines, SkipsBlankAndCommentLinesAndCountsEveryLine) {
  const auto seen = read_all("# header\n\n  \t\r\n0x1 0x2 0x3\n   # indented comment\n0x4\t0x5\r\n", 3);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].fields, (std::vector<std::string>{"0x1", "0x2", "0x3"}));
  EXPECT_EQ(seen[0].where, "f:4: ");
  EXPECT_EQ(seen[0].line, 4u);
  EXPECT_EQ(seen[1].fields, (std::vector<std::string>{"0x4", "0x5"}));  // tab and CR separate, CR is dropped
  EXPECT_EQ(seen[1].where, "f:6: ");
}

TEST(StateFileLines, NamesATruncatedLastLine) {
  const auto seen = read_all("a b\nc d", 3);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].where, "f:1: ");
  EXPECT_EQ(seen[1].where, "f:2: truncated last line (no newline): ");
}

TEST(StateFileLines, SplitsAtMostOneFieldPastTheLimit) {
  EXPECT_EQ(split_state_fields("a b c d e", 3).size(), 4u);  // enough to see "too many"
  EXPECT_EQ(split_state_fields("a b", 3).size(), 2u);
  EXPECT_TRUE(split_state_fields(" \t\r", 3).empty());
  const auto f = split_state_fields("  x\t\ty  ", 3);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0], "x");
  EXPECT_EQ(f[1], "y");
}

}  // namespace
}  // namespace smd::state_file_lines_test
