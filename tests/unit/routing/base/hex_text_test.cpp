// hex_text / hex64_text of routing/base/hex_text.h, against values written out by hand.
#include "routing/base/hex_text.h"

#include <gtest/gtest.h>

namespace smd::hex_text_test {
namespace {

TEST(HexText, PadsToTheWidthAndWidensWhenNeeded) {
  EXPECT_EQ(hex_text(0x7fff, 4), "0x7fff");
  EXPECT_EQ(hex_text(0x12, 4), "0x0012");
  EXPECT_EQ(hex_text(0, 4), "0x0000");
  EXPECT_EQ(hex_text(0x12345, 4), "0x12345");
  EXPECT_EQ(hex_text(0xABCDEF, 2), "0xabcdef");  // lowercase
}

TEST(HexText, SixtyFourBitsAreSixteenDigits) {
  EXPECT_EQ(hex64_text(0x2c90300000200ULL), "0x0002c90300000200");
  EXPECT_EQ(hex64_text(0), "0x0000000000000000");
  EXPECT_EQ(hex64_text(~0ULL), "0xffffffffffffffff");
}

}  // namespace
}  // namespace smd::hex_text_test
