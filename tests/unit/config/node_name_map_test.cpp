// The node-name map (config/node_name_map.h): the format infiniband-diags' node-name-map(5) documents,
// the stricter errors at file:line:column, duplicates, and sm.node_name_map in the policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "config/node_name_map.h"
#include "config/policy_loader.h"
#include "tests/unit/temp_dir.h"

namespace smd::node_name_map_test {
namespace {

NodeNameMap parsed(std::string_view text, std::vector<std::string>* warnings = nullptr) {
  Result<NodeNameMap> map = parse_node_name_map(text, "names.map", warnings);
  EXPECT_TRUE(map.ok()) << (map.ok() ? "" : map.error().message);
  return map.ok() ? std::move(map.value()) : NodeNameMap();
}

std::string error_of(std::string_view text) {
  Result<NodeNameMap> map = parse_node_name_map(text, "names.map");
  EXPECT_FALSE(map.ok()) << "accepted: " << text;
  if (map.ok()) return "";
  EXPECT_EQ(map.error().code, ErrorCode::kInvalidInput);
  return map.error().message;
}

std::string name_of(const NodeNameMap& map, Guid guid) {
  const std::string* name = map.find(guid);
  return name ? *name : "<none>";
}

TEST(NodeNameMap, ReadsTheDocumentedFormat) {
  // As ibnetdiscover's node-name-map(5) example: quoted names, comments, blank lines.
  const NodeNameMap map = parsed(
      "# Switches\n"
      "0x0008f10400411a08 \"SW1 rack 3\"\n"
      "\n"
      "   \t\n"
      "0x0008f10400411b08\t\"SW2\"   # the second spine\n"
      "  0x0002c90300001234 \"host-01 # not a comment\"\n");
  EXPECT_EQ(map.size(), 3u);
  EXPECT_EQ(name_of(map, 0x0008f10400411a08ULL), "SW1 rack 3");
  EXPECT_EQ(name_of(map, 0x0008f10400411b08ULL), "SW2");
  EXPECT_EQ(name_of(map, 0x0002c90300001234ULL), "host-01 # not a comment");
  EXPECT_EQ(name_of(map, 0x0002c90300001235ULL), "<none>");
  EXPECT_EQ(map.source(), "names.map");
}

TEST(NodeNameMap, UnquotedNamesEndAtACommentAndLoseTrailingBlanks) {
  const NodeNameMap map = parsed("0x10 leaf-1\n0x11 leaf 2   # spaces inside stay\n23 decimal\r\n0X1a Upper\n");
  EXPECT_EQ(name_of(map, 0x10), "leaf-1");
  EXPECT_EQ(name_of(map, 0x11), "leaf 2");
  EXPECT_EQ(name_of(map, 23), "decimal");  // CRLF read as LF; decimal GUIDs as strtoull reads them
  EXPECT_EQ(name_of(map, 0x1a), "Upper");
}

TEST(NodeNameMap, EmptyAndCommentOnlyFilesAreEmptyMaps) {
  EXPECT_EQ(parsed("").size(), 0u);
  EXPECT_EQ(parsed("# nothing yet\n\n#0x10 \"off\"\n").size(), 0u);
  EXPECT_EQ(parsed("0x10 \"last line without newline\"").size(), 1u);
}

TEST(NodeNameMap, TheFirstNameOfADuplicateCountsAndTheSecondWarns) {
  std::vector<std::string> warnings;
  const NodeNameMap map = parsed("0x10 \"first\"\n0x20 \"other\"\n0x10   \"second\"\n0x20 \"other\"\n", &warnings);
  EXPECT_EQ(name_of(map, 0x10), "first");
  EXPECT_EQ(name_of(map, 0x20), "other");
  // The repeat with the same name is no news; the other one names both lines.
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "names.map:3:8: warning: GUID 0x0000000000000010 is named on line 1 already ('first'): the first name "
            "counts, this line is ignored");
}

TEST(NodeNameMap, ErrorsNameLineAndColumn) {
  EXPECT_EQ(error_of("0x10 \"a\"\n  0xZZ \"b\"\n"),
            "names.map:2:3: '0xZZ' is not a node GUID (0x and up to 16 hex digits)");
  EXPECT_EQ(error_of("0x10\n"), "names.map:1:5: GUID 0x0000000000000010 has no name");
  EXPECT_EQ(error_of("0x10   # only a comment\n"), "names.map:1:8: GUID 0x0000000000000010 has no name");
  EXPECT_EQ(error_of("0x10 \"open\n"), "names.map:1:6: a quote opened and never closed");
  EXPECT_EQ(error_of("0x10 \"\"\n"), "names.map:1:6: an empty name \"\" (delete the line to use the NodeDescription)");
  EXPECT_EQ(error_of("0x10 \"a\" b\n"), "names.map:1:10: text after the closing quote (a comment starts with '#')");
  EXPECT_EQ(error_of("0x10 ab\"c\"\n"), "names.map:1:8: a quote inside an unquoted name: quote the whole name");
  EXPECT_EQ(error_of("0x0 \"zero\"\n"), "names.map:1:1: GUID 0 names no node");
  EXPECT_EQ(error_of("0x10000000000000000 \"x\"\n"),
            "names.map:1:1: '0x10000000000000000' is not a node GUID (0x and up to 16 hex digits)");
  EXPECT_EQ(error_of("18446744073709551616 \"x\"\n"),
            "names.map:1:1: '18446744073709551616' is not a node GUID (0x and up to 16 hex digits)");
  EXPECT_EQ(error_of("-5 \"x\"\n"), "names.map:1:1: '-5' is not a node GUID (0x and up to 16 hex digits)");
  EXPECT_EQ(error_of("0x10 \"tab\there\"\n"), "names.map:1:10: a control character (0x09) in the name");
  EXPECT_EQ(error_of(std::string_view("0x10 \"a\0b\"\n", 11)), "names.map:1:8: a NUL byte: a map is text");
  // A blank must follow the GUID, as libibnetdisc's parser demands.
  EXPECT_EQ(error_of("0x10\"glued\"\n"),
            "names.map:1:1: '0x10\"glued\"' is not a node GUID (0x and up to 16 hex digits)");
}

TEST(NodeNameMap, EveryBadLineIsListedAndNothingIsHalfRead) {
  const std::string message = error_of("0x10 \"good\"\nbad\n0x20 \"good\"\n0x30\n");
  EXPECT_EQ(message,
            "names.map:2:1: 'bad' is not a node GUID (0x and up to 16 hex digits)\n"
            "names.map:4:5: GUID 0x0000000000000030 has no name");
  std::string many;
  for (int i = 0; i < 25; ++i) many += "x\n";
  const std::string capped = error_of(many);
  EXPECT_EQ(std::count(capped.begin(), capped.end(), '\n'), 20);
  EXPECT_NE(capped.find("names.map: and 5 more errors"), std::string::npos);
}

class NodeNameMapFile : public test::TempDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
};

TEST_F(NodeNameMapFile, AMissingOrSpecialFileIsAnError) {
  Result<NodeNameMap> missing = read_node_name_map_file(dir_ + "/nope.map");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
  EXPECT_EQ(missing.error().message, "cannot open node name map " + dir_ + "/nope.map: No such file or directory");
  Result<NodeNameMap> folder = read_node_name_map_file(dir_);
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().message.find("a directory, not a regular file"), std::string::npos)
      << folder.error().message;
}

TEST_F(NodeNameMapFile, ThePolicyReadsTheMapItNames) {
  write("names.map", "0x20 \"spine-a\"\n0x20 \"spine-b\"\n");
  // A relative path is the policy file's neighbour.
  const std::string policy = write("smd.yaml", "sm:\n  node_name_map: names.map\n");
  Result<Policy> loaded = load_policy_file(policy);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->sm.node_name_map, "names.map");
  ASSERT_NE(loaded->node_names, nullptr);
  EXPECT_EQ(name_of(*loaded->node_names, 0x20), "spine-a");
  EXPECT_EQ(loaded->node_names->source(), dir_ + "/names.map");
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].rfind(dir_ + "/names.map:2:6: warning: GUID 0x0000000000000020", 0), 0u)
      << loaded->warnings[0];

  // No key, or "": no map.
  Result<Policy> none = load_policy_file(write("none.yaml", "sm:\n  node_name_map: \"\"\n"));
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_EQ(none->node_names, nullptr);
}

TEST_F(NodeNameMapFile, APolicyNamingAMissingOrBadMapIsRefused) {
  const std::string missing = write("missing.yaml", "sm:\n  priority: 3\n  node_name_map: " + dir_ + "/gone.map\n");
  Result<Policy> refused = load_policy_file(missing);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, missing + ":3:18: sm.node_name_map: cannot open node name map " + dir_ +
                                         "/gone.map: No such file or directory");

  write("bad.map", "0x10 \"ok\"\n0x11 \"open\n0x12\n");
  const std::string bad = write("bad.yaml", "sm:\n  node_name_map: bad.map\n");
  Result<Policy> refused_bad = load_policy_file(bad);
  ASSERT_FALSE(refused_bad.ok());
  EXPECT_EQ(refused_bad.error().message,
            bad + ":2:18: sm.node_name_map: " + dir_ + "/bad.map:2:6: a quote opened and never closed\n" + bad +
                ":2:18: sm.node_name_map: " + dir_ + "/bad.map:3:5: GUID 0x0000000000000012 has no name");
}

}  // namespace
}  // namespace smd::node_name_map_test
