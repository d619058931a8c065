// MapOptionReader: the OptionReader engines parse routing.<engine> through. Positions and messages are
// the policy loader's (counted by hand on the texts below: line and column 1-based).
#include "config/engine_option_reader.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <functional>
#include <string>

namespace smd::engine_option_reader_test {
namespace {

constexpr const char* kText =
    "routing:\n"
    "  x:\n"
    "    flag: yes\n"
    "    count: 9\n"
    "    roots: [0x1, 7]\n"
    "    on: true\n";

/// Run `read` on routing.x of kText; the earliest error message, or "" when none.
std::string run(const std::function<void(OptionReader&)>& read) {
  Diagnostics diag("t.yaml");
  const YAML::Node doc = YAML::Load(kText);
  MapReader top(doc, "", YAML::Mark(), diag);
  MapReader routing = top.section("routing");
  MapReader x = routing.section("x");
  MapOptionReader in(x, diag);
  read(in);
  return diag.ok() ? "" : diag.error().message;
}

TEST(MapOptionReader, GoodValuesAndAbsentKeysReadTrue) {
  EXPECT_EQ(run([](OptionReader& in) {
              std::vector<Guid> roots;
              EXPECT_TRUE(in.read_guid_list("roots", roots));
              EXPECT_EQ(roots, (std::vector<Guid>{1, 7}));
              bool on = false;
              EXPECT_TRUE(in.read_bool("on", on));
              EXPECT_TRUE(on);
              unsigned absent = 5;
              EXPECT_TRUE(in.read_unsigned("absent", 0, 3, absent));
              EXPECT_EQ(absent, 5u);  // untouched
            }),
            "");
}

TEST(MapOptionReader, WrongValueReadsFalseAtItsPlace) {
  EXPECT_EQ(run([](OptionReader& in) {
              bool flag = true;
              EXPECT_FALSE(in.read_bool("flag", flag));
              EXPECT_TRUE(flag);
            }),
            "t.yaml:3:11: routing.x.flag: expected true or false, got 'yes'");
  EXPECT_EQ(run([](OptionReader& in) {
              unsigned count = 2;
              EXPECT_FALSE(in.read_unsigned("count", 0, 8, count));
              EXPECT_EQ(count, 2u);
            }),
            "t.yaml:4:12: routing.x.count: 9 is out of range 0..8");
  // A later good read does not hide an earlier problem, and reads true on its own.
  EXPECT_EQ(run([](OptionReader& in) {
              bool flag = false;
              unsigned count = 0;
              EXPECT_FALSE(in.read_bool("flag", flag));
              EXPECT_TRUE(in.read_unsigned("count", 0, 100, count));
              EXPECT_EQ(count, 9u);
            }),
            "t.yaml:3:11: routing.x.flag: expected true or false, got 'yes'");
}

TEST(MapOptionReader, FailPointsAtTheKeyOrTheSection) {
  EXPECT_EQ(run([](OptionReader& in) { in.fail("count", "needs flag"); }), "t.yaml:4:5: routing.x.count: needs flag");
  EXPECT_EQ(run([](OptionReader& in) { in.fail("absent", "is required"); }),
            "t.yaml:3:5: routing.x.absent: is required");
}

}  // namespace
}  // namespace smd::engine_option_reader_test
