// Number parsing and did-you-mean matching behind every policy key.
#include <gtest/gtest.h>

#include "config/yaml_fields.h"

namespace smd::policy_yaml_fields_test {
namespace {

TEST(PolicyYamlFields, ParsesDecimalAndHex) {
  EXPECT_EQ(*parse_unsigned("0"), 0u);
  EXPECT_EQ(*parse_unsigned("42"), 42u);
  EXPECT_EQ(*parse_unsigned("0x2a"), 42u);
  EXPECT_EQ(*parse_unsigned("0X2A"), 42u);
  EXPECT_EQ(*parse_unsigned("0x0002c903000a1b2c"), 0x0002c903000a1b2cULL);
  EXPECT_EQ(*parse_unsigned("18446744073709551615"), 18446744073709551615ULL);
  EXPECT_EQ(*parse_unsigned("0xffffffffffffffff"), 0xffffffffffffffffULL);
}

TEST(PolicyYamlFields, RejectsMalformedNumbersWithTheReason) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"", "expected an integer, got an empty string"},
      {"-1", "-1 is negative; expected an unsigned integer"},
      {"-0x10", "-0x10 is negative; expected an unsigned integer"},
      {"+5", "'+5' is not an integer"},
      {"abc", "'abc' is not an integer"},
      {"0x", "'0x' is not an integer: no hex digits after 0x"},
      {"0xg1", "'0xg1' is not an integer"},
      {"12abc", "'12abc' is not an integer: unexpected 'abc' after the number"},
      {"1.5", "'1.5' is not an integer: unexpected '.5' after the number"},
      {"7 ", "'7 ' is not an integer: unexpected ' ' after the number"},
      {"010", "'010' has a leading zero, which YAML 1.1 reads as octal; write it without the zero or as 0x hex"},
      {"18446744073709551616", "18446744073709551616 does not fit in 64 bits"},
      {"0x10000000000000000", "0x10000000000000000 does not fit in 64 bits"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    Result<std::uint64_t> value = parse_unsigned(c.text);
    ASSERT_FALSE(value.ok());
    EXPECT_EQ(value.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(value.error().message, c.message);
  }
}

TEST(PolicyYamlFields, EditDistanceCountsSingleCharacterEdits) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("window", "window"), 0u);
  EXPECT_EQ(edit_distance("windw", "window"), 1u);    // deletion
  EXPECT_EQ(edit_distance("windoww", "window"), 1u);  // insertion
  EXPECT_EQ(edit_distance("windaw", "window"), 1u);   // substitution
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "lmc"), 3u);
  EXPECT_EQ(edit_distance("retries", ""), 7u);
}

TEST(PolicyYamlFields, SuggestsOnlyWithinTwoEdits) {
  const std::vector<std::string> keys = {"window", "timeout_ms", "retries"};
  EXPECT_EQ(closest_within_two("windw", keys), "window");
  EXPECT_EQ(closest_within_two("retry", keys), std::nullopt);    // y->i, +e, +s = 3: too far
  EXPECT_EQ(closest_within_two("timeout", keys), std::nullopt);  // 3 deletions
  EXPECT_EQ(closest_within_two("retrie", keys), "retries");
  EXPECT_EQ(closest_within_two("zzz", keys), std::nullopt);
  const std::vector<std::string> tied = {"ab", "ac"};
  EXPECT_EQ(closest_within_two("a", tied), "ab");  // equal distance: the earlier candidate
}

}  // namespace
}  // namespace smd::policy_yaml_fields_test
