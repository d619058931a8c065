// OpenSM's per-port routing files (hop_weights_file, port_search_ordering_file, port_prof_ignore_file) as
// parse_* reads them: the lines of good files, and every refusal at the place counted by hand on the texts.
#include "routing/engines/common/switch_port_files.h"

#include <gtest/gtest.h>

namespace smd::switch_port_files_test {
namespace {

std::string error_of(const Result<std::vector<HopWeight>>& r) { return r.ok() ? "" : r.error().message; }

TEST(SwitchPortFiles, HopWeightsInOpenSmFormat) {
  auto r = parse_hop_weights(
      "# spine-0 cables are slow\n"
      "0x0000000000200000 3 4\n"
      "\n"
      "  2097152\t0x4 0x10  # decimal GUID, hex port and weight\r\n"
      "0x200001 1 255\n",
      "w.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (std::vector<HopWeight>{{0x200000, 3, 4}, {0x200000, 4, 16}, {0x200001, 1, 255}}));
}

TEST(SwitchPortFiles, HopWeightErrorsNameLineAndColumn) {
  EXPECT_EQ(error_of(parse_hop_weights("0x200000 3 0\n", "w.txt")), "w.txt:1:12: '0' is not a hop weight 1..255");
  EXPECT_EQ(error_of(parse_hop_weights("\n0x200000 3 256\n", "w.txt")), "w.txt:2:12: '256' is not a hop weight 1..255");
  EXPECT_EQ(error_of(parse_hop_weights("0x200000 0 2\n", "w.txt")), "w.txt:1:10: '0' is not a port number 1..254");
  EXPECT_EQ(error_of(parse_hop_weights("0x200000 255 2\n", "w.txt")), "w.txt:1:10: '255' is not a port number 1..254");
  EXPECT_EQ(error_of(parse_hop_weights("0x200000 3\n", "w.txt")),
            "w.txt:1:11: missing a word (format: <switch guid> <port> <weight>)");
  EXPECT_EQ(error_of(parse_hop_weights("0x200000 3 2 7\n", "w.txt")),
            "w.txt:1:14: unexpected '7' (format: <switch guid> <port> <weight>)");
  EXPECT_EQ(error_of(parse_hop_weights("spine 3 2\n", "w.txt")),
            "w.txt:1:1: 'spine' is not a switch GUID (0x hex or decimal)");
  EXPECT_EQ(error_of(parse_hop_weights("0 3 2\n", "w.txt")), "w.txt:1:1: GUID 0 is not a switch GUID");
  EXPECT_EQ(error_of(parse_hop_weights("0x10000000000000000 3 2\n", "w.txt")),
            "w.txt:1:1: '0x10000000000000000' is not a switch GUID (0x hex or decimal)");
  EXPECT_EQ(error_of(parse_hop_weights("0x200000 3 2\n# x\n0x200000 0x3 5\n", "w.txt")),
            "w.txt:3:10: port 3 of switch 0x0000000000200000 is listed twice (first at line 1)");
}

// A UTF-8 byte-order mark an editor put before the first GUID is named at 1:1 (as opensm.conf's reader
// names it), in each of the three files; before, it read as "'\xEF\xBB\xBF0x200000' is not a switch GUID".
TEST(SwitchPortFiles, AByteOrderMarkIsNamed) {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string said = ":1:1: a UTF-8 byte-order mark starts the file: OpenSM reads it as part of the first "
                           "word; save the file without it";
  EXPECT_EQ(error_of(parse_hop_weights(bom + "0x200000 3 2\n", "w.txt")), "w.txt" + said);
  auto ordering = parse_port_search_ordering(bom + "0x200000 4 3\n", "o.txt");
  ASSERT_FALSE(ordering.ok());
  EXPECT_EQ(ordering.error().message, "o.txt" + said);
  auto ignore = parse_port_prof_ignore(bom + "# comment first\n0x200000 3\n", "i.txt");
  ASSERT_FALSE(ignore.ok());
  EXPECT_EQ(ignore.error().message, "i.txt" + said);
  // A mark anywhere else is no byte-order mark: the word's own error.
  EXPECT_EQ(error_of(parse_hop_weights("0x200000 3 2\n" + bom + "0x200001 3 2\n", "w.txt")),
            "w.txt:2:1: '" + bom + "0x200001' is not a switch GUID (0x hex or decimal)");
}

TEST(SwitchPortFiles, SearchOrderingLines) {
  auto r = parse_port_search_ordering("0x200000 4 3 # up-ports, the far spine first\n0x200001 2\n", "o.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (std::vector<PortSearchOrder>{{0x200000, {4, 3}}, {0x200001, {2}}}));
  auto twice = parse_port_search_ordering("0x200000 4 3 4\n", "o.txt");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "o.txt:1:14: port 4 is listed twice");
  auto none = parse_port_search_ordering("0x200000   # nothing\n", "o.txt");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "o.txt:1:9: missing a port (format: <switch guid> <port> <port> ...)");
  auto again = parse_port_search_ordering("0x200000 1\n0x200000 2\n", "o.txt");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message, "o.txt:2:1: switch 0x0000000000200000 is listed twice (first at line 1)");
  auto bad = parse_port_search_ordering("0x200000 1 x\n", "o.txt");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "o.txt:1:12: 'x' is not a port number 1..254");
}

TEST(SwitchPortFiles, ProfIgnoreLines) {
  auto r = parse_port_prof_ignore("0x200000 5\n0x200000 6 # both TCA ports\n", "i.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (std::vector<SwitchPort>{{0x200000, 5}, {0x200000, 6}}));
  auto extra = parse_port_prof_ignore("0x200000 5 6\n", "i.txt");
  ASSERT_FALSE(extra.ok());
  EXPECT_EQ(extra.error().message, "i.txt:1:12: unexpected '6' (format: <switch guid> <port>)");
  auto twice = parse_port_prof_ignore("0x200000 5\n0x200000 5\n", "i.txt");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "i.txt:2:10: port 5 of switch 0x0000000000200000 is listed twice (first at line 1)");
}

TEST(SwitchPortFiles, EmptyAndCommentOnlyFilesHaveNoLines) {
  auto r = parse_hop_weights("# nothing weighted yet\n\n   \n", "w.txt");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

}  // namespace
}  // namespace smd::switch_port_files_test
