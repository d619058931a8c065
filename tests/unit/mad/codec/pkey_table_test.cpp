// P_KeyTable block codec (IBA 14.2.5.7). libibmad has no field table for it (smpquery reads the block as
// 32 network-order 16-bit words), so the bytes are checked by hand and against ntohs of each word.
#include "mad/codec/pkey_table.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "tests/unit/mad/oracle.h"

namespace smd::mad::pkey_table_test {
namespace {

TEST(PKeyTable, EntriesAreBigEndianWordsInIndexOrder) {
  PKeyBlock b;
  b.entries[0] = 0xffff;
  b.entries[1] = 0x8001;
  b.entries[2] = 0x0123;
  b.entries[31] = 0x7fff;
  SmpData d{};
  d.fill(0xee);
  b.encode(d);
  EXPECT_EQ(d[0], 0xff);
  EXPECT_EQ(d[1], 0xff);
  EXPECT_EQ(d[2], 0x80);
  EXPECT_EQ(d[3], 0x01);
  EXPECT_EQ(d[4], 0x01);
  EXPECT_EQ(d[5], 0x23);
  EXPECT_EQ(d[6], 0x00) << "empty entries are written as 0";
  EXPECT_EQ(d[62], 0x7f);
  EXPECT_EQ(d[63], 0xff);
}

TEST(PKeyTable, DecodeAgreesWithNtohsOfEachWord) {
  std::mt19937_64 rng(41);
  for (int round = 0; round < 200; ++round) {
    const SmpData d = testing::random_data(rng);
    const PKeyBlock b = PKeyBlock::decode(d);
    for (std::size_t i = 0; i < kPKeyBlockSize; ++i) {
      std::uint16_t word = 0;
      std::memcpy(&word, d.data() + 2 * i, 2);
      ASSERT_EQ(b.entries[i], ntohs(word)) << "entry " << i;
    }
    SmpData back{};
    b.encode(back);
    ASSERT_EQ(back, d);
  }
}

TEST(PKeyTable, AttributeModifierIsBlockAndPortInTheUpperHalf) {
  EXPECT_EQ(PKeyBlock::attr_mod(0, 0), 0u);
  EXPECT_EQ(PKeyBlock::attr_mod(1, 0), 1u);
  EXPECT_EQ(PKeyBlock::attr_mod(1, 3), 0x00030001u);
  EXPECT_EQ(PKeyBlock::attr_mod(2047, 36), 0x002407ffu);
}

}  // namespace
}  // namespace smd::mad::pkey_table_test
