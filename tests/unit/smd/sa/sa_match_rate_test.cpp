// ComponentMask matching and bit-field access (mad/sa/record_layout.h), and IBA rate codes (smd/sa/rate.h).
// Expected values are worked out by hand from the MSB-first bit order of IBA 13.4.2 and the rate table
// (IBA vol. 1 table 224 and its 1.3/1.4 extensions).
#include <gtest/gtest.h>

#include <array>

#include "mad/sa/record_layout.h"
#include "smd/sa/rate.h"

namespace smd::mad::sa::sa_match_rate_test {
namespace {

TEST(SaFieldAccess, GetFieldAtOddOffsetsAndWidths) {
  const std::array<std::uint8_t, 4> rec{0b1011'0110, 0b0101'1100, 0xFF, 0x00};
  EXPECT_EQ(get_field(rec, {0, 1}), 1u);
  EXPECT_EQ(get_field(rec, {1, 1}), 0u);
  EXPECT_EQ(get_field(rec, {1, 3}), 0b011u);
  EXPECT_EQ(get_field(rec, {5, 6}), 0b110'010u);  // bits 5..10: 110 | 010
  EXPECT_EQ(get_field(rec, {4, 12}), 0x65Cu);     // a 12-bit field across a byte boundary
  EXPECT_EQ(get_field(rec, {12, 12}), 0xCFFu);
  EXPECT_EQ(get_field(rec, {8, 16}), 0x5CFFu);  // byte-aligned fast path
  EXPECT_EQ(get_field(rec, {0, 32}), 0xB65CFF00u);
  EXPECT_EQ(get_field(rec, {23, 2}), 0b10u);
}

TEST(SaFieldAccess, PutFieldKeepsTheBitsAround) {
  std::array<std::uint8_t, 4> rec{0xFF, 0xFF, 0xFF, 0xFF};
  put_field(rec, {4, 12}, 0x000);
  EXPECT_EQ(rec, (std::array<std::uint8_t, 4>{0xF0, 0x00, 0xFF, 0xFF}));
  put_field(rec, {5, 6}, 0b101'101);
  EXPECT_EQ(rec, (std::array<std::uint8_t, 4>{0xF5, 0xA0, 0xFF, 0xFF}));
  // Only the low bit_width bits of the value are written.
  std::array<std::uint8_t, 4> zero{};
  put_field(zero, {9, 3}, 0xFFFF);
  EXPECT_EQ(zero, (std::array<std::uint8_t, 4>{0x00, 0x70, 0x00, 0x00}));
  std::array<std::uint8_t, 4> z2{};
  put_field(z2, {16, 8}, 0x1AB);
  EXPECT_EQ(z2, (std::array<std::uint8_t, 4>{0x00, 0x00, 0xAB, 0x00}));
  std::array<std::uint8_t, 8> w{};
  put_field(w, {0, 64}, 0x0102030405060708ull);
  EXPECT_EQ(w, (std::array<std::uint8_t, 8>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(get_field(w, {0, 64}), 0x0102030405060708ull);
}

TEST(SaFieldAccess, FieldEqualComparesOnlyTheField) {
  const std::array<std::uint8_t, 3> a{0b1010'1010, 0x12, 0x34};
  const std::array<std::uint8_t, 3> b{0b1011'0101, 0x12, 0x99};
  EXPECT_TRUE(field_equal(a, b, {0, 3}));
  EXPECT_FALSE(field_equal(a, b, {0, 4}));
  EXPECT_FALSE(field_equal(a, b, {3, 1}));
  EXPECT_TRUE(field_equal(a, b, {8, 8}));
  EXPECT_FALSE(field_equal(a, b, {8, 16}));
  EXPECT_FALSE(field_equal(a, b, {7, 2}));
}

// A toy record: 0 a 16-bit field at 0, 1 a 3-bit field at bit 17, 2 a 128-bit field at byte 4.
constexpr FieldSpan kToyFields[] = {{0, 16}, {17, 3}, {32, 128}};
const RecordLayout kToy{"Toy", 0x7777, 20, kToyFields};

TEST(SaMatching, SelectedFieldsMustBeEqual) {
  std::array<std::uint8_t, 20> tmpl{};
  std::array<std::uint8_t, 20> cand{};
  tmpl[0] = 0x12;
  cand[0] = 0x12;
  tmpl[2] = 0b0010'0000;  // field 1 = 0b010 (bits 17..19 -> byte 2 bits 1..3)
  cand[2] = 0b0101'0000;  // field 1 = 0b101
  tmpl[10] = 1;
  cand[10] = 1;
  EXPECT_TRUE(matches(kToy, 0b001, tmpl, cand));
  EXPECT_FALSE(matches(kToy, 0b010, tmpl, cand));
  EXPECT_TRUE(matches(kToy, 0b101, tmpl, cand));
  EXPECT_TRUE(matches(kToy, 0, tmpl, cand)) << "an empty mask matches everything";
  cand[2] = 0b1010'0001;  // field 1 = 0b010 again; bits 16 and 23 (outside it) differ
  EXPECT_TRUE(matches(kToy, 0b111, tmpl, cand));
  cand[19] = 9;  // inside the 128-bit field
  EXPECT_FALSE(matches(kToy, 0b100, tmpl, cand));
}

TEST(SaMatching, MaskBitsPastTheLastFieldSelectNothing) {
  std::array<std::uint8_t, 20> tmpl{};
  std::array<std::uint8_t, 20> cand{};
  cand[3] = 0xFF;  // between the fields
  EXPECT_TRUE(matches(kToy, ~0ull << 3, tmpl, cand));
  EXPECT_TRUE(matches(kToy, 0b111 | (1ull << 63), tmpl, cand));
  EXPECT_EQ(known_components(kToy), 0b111u);
}

}  // namespace
}  // namespace smd::mad::sa::sa_match_rate_test

namespace smd::sa::sa_match_rate_test {
namespace {

TEST(SaRate, SlowerRatePicksBySpeedNotCode) {
  EXPECT_EQ(slower_rate(5, 3), 5) << "5 Gb/s is slower than 10 Gb/s";
  EXPECT_EQ(slower_rate(3, 5), 5);
  EXPECT_EQ(slower_rate(11, 7), 11) << "14 Gb/s is slower than 40";
  EXPECT_EQ(slower_rate(7, 11), 11);
  EXPECT_EQ(slower_rate(15, 10), 15) << "25 Gb/s is slower than 120";
  EXPECT_EQ(slower_rate(16, 12), 12) << "56 Gb/s is slower than 100";
  EXPECT_EQ(slower_rate(2, 2), 2);
  EXPECT_EQ(slower_rate(7, 0), 0) << "an unknown code counts as slowest";
}

TEST(SaRate, RatesOfCodes) {
  EXPECT_EQ(rate_half_gbps(2), 5u);
  EXPECT_EQ(rate_half_gbps(3), 20u);
  EXPECT_EQ(rate_half_gbps(5), 10u);
  EXPECT_EQ(rate_half_gbps(7), 80u);
  EXPECT_EQ(rate_half_gbps(11), 28u);
  EXPECT_EQ(rate_half_gbps(16), 200u);
  EXPECT_EQ(rate_half_gbps(0), 0u);
  EXPECT_EQ(rate_half_gbps(1), 0u);
  EXPECT_EQ(rate_half_gbps(63), 0u);
}

TEST(SaRate, NextSlower) {
  EXPECT_EQ(next_slower_rate(3), 5) << "below 10 Gb/s: 5 Gb/s";
  EXPECT_EQ(next_slower_rate(5), 2);
  EXPECT_EQ(next_slower_rate(2), 0);
  EXPECT_EQ(next_slower_rate(7), 4) << "below 40 Gb/s: 30 Gb/s (12x SDR)";
  EXPECT_EQ(next_slower_rate(16), 9) << "below 100 Gb/s: 80 Gb/s (8x QDR)";
}

TEST(SaRate, PortRateCode) {
  EXPECT_EQ(port_rate_code(2, 1, 0), 3) << "4x SDR";
  EXPECT_EQ(port_rate_code(2, 2, 0), 6) << "4x DDR";
  EXPECT_EQ(port_rate_code(2, 4, 0), 7) << "4x QDR";
  EXPECT_EQ(port_rate_code(2, 7, 0), 7) << "4x, the fastest of several speed bits";
  EXPECT_EQ(port_rate_code(2, 4, 1), 12) << "4x FDR";
  EXPECT_EQ(port_rate_code(2, 4, 2), 16) << "4x EDR";
  EXPECT_EQ(port_rate_code(2, 4, 4), 17) << "4x HDR";
  EXPECT_EQ(port_rate_code(16, 4, 2), 20) << "2x EDR";
  EXPECT_EQ(port_rate_code(1, 1, 0), 2) << "1x SDR";
  EXPECT_EQ(port_rate_code(1, 4, 0), 3) << "1x QDR";
  EXPECT_EQ(port_rate_code(8, 4, 0), 10) << "12x QDR (120 Gb/s)";
  EXPECT_EQ(port_rate_code(1, 4, 1), 11) << "1x FDR";
}

TEST(SaRate, PortRateCodeNdrXdrAnd2x8xWidths) {
  // Codes from verbs' ibv_rate (rdma-core libibverbs/verbs.h), which follows IBA table 224.
  EXPECT_EQ(port_rate_code(2, 4, 8), 21) << "4x NDR: 400 Gb/s";
  EXPECT_EQ(port_rate_code(16, 4, 8), 17) << "2x NDR: 200 Gb/s";
  EXPECT_EQ(port_rate_code(1, 4, 8), 16) << "1x NDR: 100 Gb/s";
  EXPECT_EQ(port_rate_code(4, 4, 8), 23) << "8x NDR: 800 Gb/s";
  EXPECT_EQ(port_rate_code(8, 4, 8), 24) << "12x NDR: 1200 Gb/s";
  EXPECT_EQ(port_rate_code(4, 4, 4), 21) << "8x HDR: 400 Gb/s";
  EXPECT_EQ(port_rate_code(16, 4, 4), 16) << "2x HDR: 100 Gb/s";
  EXPECT_EQ(port_rate_code(2, 4, 8, 1), 23) << "4x XDR: 800 Gb/s, Ext2 wins over Ext";
  EXPECT_EQ(port_rate_code(1, 4, 0, 1), 17) << "1x XDR: 200 Gb/s";
  EXPECT_EQ(port_rate_code(16, 4, 0, 1), 21) << "2x XDR: 400 Gb/s";
  EXPECT_EQ(port_rate_code(4, 4, 0, 1), 24) << "8x XDR: 1600 Gb/s has no code; the fastest there is, 1200";
  EXPECT_EQ(port_rate_code(2, 4, 4, 2), 17) << "an Ext2 value other than XDR is not a speed: HDR counts";
}

// IBA 1.2.1's extended table ends at code 18 (300 Gb/s); newer codes go to the fastest older rate not above
// them, worked out by hand from table 224: 28 -> 25 (15), 50 -> 40 (7), 400/600/800/1200 -> 300 (18).
TEST(SaRate, OriginalRateCodesMapNewerOnesDown) {
  for (std::uint8_t code = 0; code <= 18; ++code) EXPECT_EQ(original_rate_code(code), code) << int(code);
  EXPECT_EQ(original_rate_code(19), 15);
  EXPECT_EQ(original_rate_code(20), 7);
  EXPECT_EQ(original_rate_code(21), 18);
  EXPECT_EQ(original_rate_code(22), 18);
  EXPECT_EQ(original_rate_code(23), 18);
  EXPECT_EQ(original_rate_code(24), 18);
}

}  // namespace
}  // namespace smd::sa::sa_match_rate_test
