// SLtoVLMappingTable (IBA 14.2.5.8) and VLArbitrationTable (14.2.5.9) codecs: bytes written out by hand.
#include <gtest/gtest.h>

#include "mad/codec/sl2vl_table.h"
#include "mad/codec/vlarb_table.h"

namespace smd::mad::qos_tables_test {
namespace {

TEST(Sl2VlTable, EvenSlInHighNibbleAndReservedBytesZeroed) {
  Sl2VlTable t;
  // OpenSM's default 0,1,..,14,7.
  for (std::size_t sl = 0; sl < 15; ++sl) t.vl[sl] = static_cast<std::uint8_t>(sl);
  t.vl[15] = 7;
  SmpData d{};
  d.fill(0xee);
  t.encode(d);
  const std::uint8_t want[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xe7};
  for (int k = 0; k < 8; ++k) EXPECT_EQ(d[k], want[k]) << "byte " << k;
  for (int k = 8; k < 64; ++k) EXPECT_EQ(d[k], 0) << "byte " << k;
}

TEST(Sl2VlTable, DecodeReadsNibbles) {
  SmpData d{};
  d[0] = 0xf0;  // SL0 -> 15 (drop), SL1 -> 0
  d[7] = 0x3c;  // SL14 -> 3, SL15 -> 12
  d[9] = 0xff;  // reserved: ignored
  const Sl2VlTable t = Sl2VlTable::decode(d);
  EXPECT_EQ(t.vl[0], 15);
  EXPECT_EQ(t.vl[1], 0);
  EXPECT_EQ(t.vl[14], 3);
  EXPECT_EQ(t.vl[15], 12);
  EXPECT_EQ(t.vl[5], 0);
}

TEST(Sl2VlTable, SwitchModifierIsInHighByteOutLowByte) {
  EXPECT_EQ(Sl2VlTable::switch_attr_mod(0, 1), 0x0001u);
  EXPECT_EQ(Sl2VlTable::switch_attr_mod(3, 7), 0x0307u);
  EXPECT_EQ(Sl2VlTable::switch_attr_mod(36, 0), 0x2400u);
  EXPECT_EQ(kSl2VlAllOutputs | kSl2VlAllInputs, 0x30000u);
}

TEST(VlArbBlock, EntryIsVlByteThenWeightByte) {
  VlArbBlockData b;
  b.entries[0] = {0, 4};
  b.entries[1] = {7, 0xff};
  b.entries[31] = {14, 0x40};
  SmpData d{};
  d.fill(0xee);
  b.encode(d);
  EXPECT_EQ(d[0], 0x00);
  EXPECT_EQ(d[1], 0x04);
  EXPECT_EQ(d[2], 0x07);
  EXPECT_EQ(d[3], 0xff);
  EXPECT_EQ(d[62], 0x0e);
  EXPECT_EQ(d[63], 0x40);
  for (int k = 4; k < 62; ++k) EXPECT_EQ(d[k], 0) << "byte " << k;
  EXPECT_EQ(VlArbBlockData::decode(d), b);
}

TEST(VlArbBlock, DecodeDropsReservedNibble) {
  SmpData d{};
  d[0] = 0xf3;
  d[1] = 9;
  const VlArbBlockData b = VlArbBlockData::decode(d);
  EXPECT_EQ(b.entries[0].vl, 3);
  EXPECT_EQ(b.entries[0].weight, 9);
}

TEST(VlArbBlock, ModifierIsBlockInHighHalfPortInLow) {
  EXPECT_EQ(VlArbBlockData::attr_mod(VlArbBlock::kLow0, 0), 0x10000u);
  EXPECT_EQ(VlArbBlockData::attr_mod(VlArbBlock::kLow1, 5), 0x20005u);
  EXPECT_EQ(VlArbBlockData::attr_mod(VlArbBlock::kHigh0, 1), 0x30001u);
  EXPECT_EQ(VlArbBlockData::attr_mod(VlArbBlock::kHigh1, 36), 0x40024u);
  EXPECT_EQ(VlArbBlockData::block_of(false, 0), VlArbBlock::kLow0);
  EXPECT_EQ(VlArbBlockData::block_of(false, 1), VlArbBlock::kLow1);
  EXPECT_EQ(VlArbBlockData::block_of(true, 0), VlArbBlock::kHigh0);
  EXPECT_EQ(VlArbBlockData::block_of(true, 1), VlArbBlock::kHigh1);
}

}  // namespace
}  // namespace smd::mad::qos_tables_test
