// The GUID files of OpenSM's routing options (config/guid_list_file.h): guid_routing_order_file and
// root_guid_file (one GUID a line), ids_guid_file ("<guid> <id>" a line). Places counted by hand on the
// texts below (line and column 1-based, bytes).
#include "config/guid_list_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace smd::guid_list_file_test {
namespace {

std::string list_error(std::string_view text) {
  auto r = parse_guid_list_file(text, "order.txt");
  return r.ok() ? "" : r.error().message;
}

std::string ids_error(std::string_view text) {
  auto r = parse_guid_id_file(text, "ids.txt");
  return r.ok() ? "" : r.error().message;
}

TEST(GuidListFile, ReadsGuidsInFileOrderWithCommentsBlanksAndCrlf) {
  const auto r = parse_guid_list_file(
      "# scheduler rank order\n"
      "0x0000000000100005\n"
      "\n"
      "   0x100003   # rank 1, indented\r\n"
      "1048577\n"  // decimal 0x100001
      "0X10000A",  // no newline at the end
      "order.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (std::vector<Guid>{0x100005, 0x100003, 0x100001, 0x10000a}));
}

TEST(GuidListFile, EmptyFileIsAnEmptyList) {
  const auto r = parse_guid_list_file("# nothing yet\n\n", "order.txt");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

TEST(GuidListFile, EachProblemAtItsLineAndColumn) {
  EXPECT_EQ(list_error("0x1\n0x2\n  0x1\n"), "order.txt:3:3: 0x1 is listed twice (first at line 1)");
  EXPECT_EQ(list_error("0x1\n0x0\n"), "order.txt:2:1: GUID 0 is not a valid port or node GUID");
  EXPECT_EQ(list_error("0x1\nnode7\n").substr(0, 36), "order.txt:2:1: 'node7' is not a GUID");
  EXPECT_EQ(list_error("0x1 0x2\n"), "order.txt:1:5: unexpected '0x2' after the GUID (one a line)");
  EXPECT_EQ(list_error("0x10000000000000000\n").substr(0, 50), "order.txt:1:1: '0x10000000000000000' is not a GUID");
}

TEST(GuidIdFile, ReadsPairsInFileOrder) {
  const auto r = parse_guid_id_file(
      "# switch  id\n"
      "0x200000 5\n"
      "0x200001\t0x2   # hex ids too\n"
      "2097154 0\n",
      "ids.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].guid, 0x200000u);
  EXPECT_EQ((*r)[0].id, 5u);
  EXPECT_EQ((*r)[1].guid, 0x200001u);
  EXPECT_EQ((*r)[1].id, 2u);
  EXPECT_EQ((*r)[2].guid, 0x200002u);
  EXPECT_EQ((*r)[2].id, 0u);
}

TEST(GuidIdFile, EachProblemAtItsLineAndColumn) {
  EXPECT_EQ(ids_error("0x200000 1\n0x200000\n"), "ids.txt:2:1: 0x200000 is listed twice (first at line 1)");
  EXPECT_EQ(ids_error("0x200000\n"), "ids.txt:1:9: expected an id after the GUID (format: <guid> <id>)");
  EXPECT_EQ(ids_error("0x200000 # no id\n"), "ids.txt:1:9: expected an id after the GUID (format: <guid> <id>)");
  EXPECT_EQ(ids_error("0x200000 -3\n").substr(0, 33), "ids.txt:1:10: '-3' is not an id: ");
  EXPECT_EQ(ids_error("0x200000 3 4\n"), "ids.txt:1:12: unexpected '4' after the id (one a line)");
  EXPECT_EQ(ids_error("0 3\n"), "ids.txt:1:1: GUID 0 is not a valid port or node GUID");
}

TEST(GuidListFile, ReadsAFileAndNamesAMissingOne) {
  char path[] = "/tmp/smd-guid-list-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path) << "0x100002\n0x100001\n";
  const auto r = read_guid_list_file(path);
  std::remove(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (std::vector<Guid>{0x100002, 0x100001}));
  const auto missing = read_guid_list_file(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
  EXPECT_NE(missing.error().message.find(path), std::string::npos);
}

}  // namespace
}  // namespace smd::guid_list_file_test
