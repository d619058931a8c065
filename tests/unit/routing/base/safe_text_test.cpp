// The escaping rules of routing/base/safe_text.h, byte by byte: what each writer's format allows through.
#include "routing/base/safe_text.h"

#include <gtest/gtest.h>

#include <string>

namespace smd::safe_text_test {
namespace {

using namespace std::string_literals;

/// True when `text` holds no byte below 0x20 and no DEL.
bool no_control_bytes(const std::string& text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return false;
  }
  return true;
}

TEST(SafeText, ValidUtf8ReplacesEveryBadByteAndKeepsGoodSequences) {
  EXPECT_EQ(valid_utf8("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(valid_utf8("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");  // U+1F600
  EXPECT_EQ(valid_utf8("a\xFF"
                       "b"),
            "a\xEF\xBF\xBD"
            "b");                                                                 // not a lead byte
  EXPECT_EQ(valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80").size(), 12u);                          // above U+10FFFF
  EXPECT_EQ(valid_utf8("x\xE2\x82"), "x\xEF\xBF\xBD\xEF\xBF\xBD");                // truncated at the end
  EXPECT_EQ(valid_utf8("nul\0in"s), "nul\0in"s) << "control characters are valid UTF-8";
}

TEST(SafeText, PrintableTextEscapesControlsBidiAndBadBytes) {
  EXPECT_EQ(printable_text("leaf-1"), "leaf-1");
  EXPECT_EQ(printable_text("a\nb\rc\td"), "a\\x0ab\\x0dc\\x09d");
  EXPECT_EQ(printable_text("\x1B[31mred"), "\\x1b[31mred");
  EXPECT_EQ(printable_text("\xC2\x85"), "\\xc2\\x85");  // C1 NEL
  EXPECT_EQ(printable_text("\xE2\x80\xAE"
                           "abc"),
            "\\xe2\\x80\\xae"
            "abc");                                              // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(printable_text("\xE2\x80\xA8"), "\\xe2\\x80\\xa8");  // LINE SEPARATOR
  EXPECT_EQ(printable_text("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(printable_text("\xFF"), "\\xff");
  EXPECT_EQ(printable_text("back\\slash"), "back\\\\slash") << "an escape in the input cannot pose as one";
  EXPECT_EQ(printable_text("say \"hi\""), "say \"hi\"");
  EXPECT_EQ(printable_text("say \"hi\"", true), "say \\\"hi\\\"");
  EXPECT_TRUE(no_control_bytes(printable_text("\0\x01\x02\x7F\n"s)));
}

TEST(SafeText, ConfigTextIsPrintableAsciiWithSingleSpaces) {
  EXPECT_EQ(config_text("spine 1"), "spine 1");
  EXPECT_EQ(config_text("  a   b  "), "a b") << "FRR joins LINE words with one space";
  EXPECT_EQ(config_text("x\nhostname evil"), "x\\x0ahostname evil") << "no line can be injected";
  EXPECT_EQ(config_text("caf\xC3\xA9"), "caf\\xc3\\xa9") << "frr-reload.py decodes configs: ASCII only";
  EXPECT_EQ(config_text("a\\b"), "a\\\\b");
  EXPECT_EQ(config_text("\t"), "\\x09");
  for (const char c : config_text("\x01\x7F\xFF\x80 !#")) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7F) << static_cast<int>(c);
  }
}

TEST(SafeText, PrometheusLabelValueUsesTheThreeEscapesOfTheTextFormat) {
  EXPECT_EQ(prometheus_label_value("MASTER"), "MASTER");
  EXPECT_EQ(prometheus_label_value("a\"b"), "a\\\"b");
  EXPECT_EQ(prometheus_label_value("a\\b"), "a\\\\b");
  EXPECT_EQ(prometheus_label_value("a\nb"), "a\\nb");
  EXPECT_EQ(prometheus_label_value("\xFF"), "\xEF\xBF\xBD") << "the format is UTF-8";
}

}  // namespace
}  // namespace smd::safe_text_test
