// yaml_double_quoted (config/yaml_scalar.h): yaml-cpp, the reader smd's policy loader uses, reads every
// quoted name back byte for byte (PyYAML, the second witness, in tests/integration/cli_import_opensm_conf.sh);
// text that is not UTF-8 is refused with the offset of its first bad byte.
#include "config/yaml_scalar.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace smd::yaml_scalar_test {
namespace {

std::string read_back(const std::string& quoted) {
  const YAML::Node node = YAML::Load("key: " + quoted + "\n");
  return node["key"].as<std::string>();
}

TEST(YamlDoubleQuoted, EveryAwkwardNameReadsBackAsItWas) {
  const std::vector<std::string> names = {
      "/etc/opensm/lfts.dump",
      "q\"uo'te#.conf",
      "back\\slash",
      "esc\x1b[31m.conf",
      "cr\rx.conf",
      "tab\tx.conf",
      std::string("nul\0x", 5),
      "\x7f.conf",
      "\xc2\x85nel.conf",            // U+0085: a line break to YAML 1.1
      "\xe2\x80\xa8ls\xe2\x80\xa9",  // U+2028, U+2029
      "\xef\xbb\xbf" "bom.conf",     // U+FEFF
      "ufffe\xef\xbf\xbe\xef\xbf\xbf.conf",
      "bidi\xe2\x80\xae.conf",
      ": - [x] {y} &a *b !c |.conf",
      " lead and trail ",
      "caf\xc3\xa9 \xf0\x9f\x98\x80",
      "",
  };
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const auto quoted = yaml_double_quoted(name);
    ASSERT_TRUE(quoted.ok()) << quoted.error().message;
    EXPECT_EQ(quoted->find('\n'), std::string::npos);
    EXPECT_EQ(quoted->find("\xc2\x85"), std::string::npos);
    EXPECT_EQ(read_back(*quoted), name);
  }
  EXPECT_EQ(*yaml_double_quoted("a\"b\\c\x01\xc2\x85"), "\"a\\\"b\\\\c\\x01\\u0085\"");
}

TEST(YamlDoubleQuoted, TextThatIsNotUtf8IsRefusedWithItsOffset) {
  for (const std::string& bad : {std::string("bad\xff\xfeutf.conf"), std::string("ab\xc0\xaf"),
                                 std::string("ab\xed\xa0\x80"), std::string("ab\xe2\x80")}) {
    const auto quoted = yaml_double_quoted(bad);
    ASSERT_FALSE(quoted.ok()) << bad;
    EXPECT_EQ(quoted.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(quoted.error().message.find("not valid UTF-8 at byte"), std::string::npos) << quoted.error().message;
  }
  EXPECT_NE(yaml_double_quoted("bad\xff").error().message.find("byte 3"), std::string::npos);
}

}  // namespace
}  // namespace smd::yaml_scalar_test
