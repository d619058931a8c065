// MulticastForwardingTable block codec (IBA 14.2.5.11), checked by hand: libibmad has the table only as
// one 64-byte array (IB_MULTICAST_FORW_TBL_F), so the per-entry layout is spelled out byte by byte here.
#include "mad/codec/mft_block.h"

#include <gtest/gtest.h>

#include "mad/codec/port_info.h"
#include "tests/unit/mad/oracle.h"

namespace smd::mad::mft_block_test {
namespace {

TEST(MftBlock, EntryIIsBigEndianAtBytes2iAnd2iPlus1) {
  MftBlock b;
  b.masks[0] = 0x0001;  // port 16p + 0
  b.masks[1] = 0x8000;  // port 16p + 15
  b.masks[31] = 0x1234;
  SmpData d;
  d.fill(0xEE);
  b.encode(d);
  EXPECT_EQ(d[0], 0x00);
  EXPECT_EQ(d[1], 0x01);
  EXPECT_EQ(d[2], 0x80);
  EXPECT_EQ(d[3], 0x00);
  EXPECT_EQ(d[62], 0x12);
  EXPECT_EQ(d[63], 0x34);
  for (unsigned i = 4; i < 62; ++i) EXPECT_EQ(d[i], 0) << i;
  EXPECT_EQ(MftBlock::decode(d), b);
  std::uint8_t oracle[64];
  mad_get_array(d.data(), 0, IB_MULTICAST_FORW_TBL_F, oracle);
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(oracle[i], d[i]) << "libibmad's table is the whole payload";
}

TEST(MftBlock, RandomPayloadsRoundTrip) {
  std::mt19937_64 rng(71);
  for (int i = 0; i < 200; ++i) {
    const SmpData d = testing::random_data(rng);
    SmpData again{};
    MftBlock::decode(d).encode(again);
    ASSERT_EQ(again, d);
  }
}

TEST(MftBlock, AttributeModifierIsBlockAndPositionShiftedBy28) {
  EXPECT_EQ(MftBlock::attr_mod(0, 0), 0u);
  EXPECT_EQ(MftBlock::attr_mod(3, 0), 3u);
  EXPECT_EQ(MftBlock::attr_mod(0, 1), 0x10000000u);
  EXPECT_EQ(MftBlock::attr_mod(511, 15), 0xF00001FFu);
  EXPECT_EQ(MftBlock::block_of_mod(0x200001FFu), 511u);
  EXPECT_EQ(MftBlock::position_of_mod(0x200001FFu), 2u);
}

TEST(MftBlock, MlidsMapToBlockAndIndex) {
  EXPECT_EQ(MftBlock::block_of(0xC000), 0u);
  EXPECT_EQ(MftBlock::index_of(0xC000), 0u);
  EXPECT_EQ(MftBlock::block_of(0xC01F), 0u);
  EXPECT_EQ(MftBlock::index_of(0xC01F), 31u);
  EXPECT_EQ(MftBlock::block_of(0xC020), 1u);
  EXPECT_EQ(MftBlock::block_of(0xFFFE), 511u);
  EXPECT_EQ(MftBlock::index_of(0xFFFE), 30u);
  EXPECT_EQ(MftBlock::first_mlid(2), 0xC040);
}

TEST(MftBlock, MulticastFdbTopSupportedIsCapabilityMaskBit30) {
  SmpData d{};
  mad_set_field(d.data(), 0, IB_PORT_CAPMASK_F, 0x40000000u);
  EXPECT_EQ(PortInfo::decode(d).capability_mask & capmask::kIsMulticastFdbTopSupported, 0x40000000u);
}

}  // namespace
}  // namespace smd::mad::mft_block_test
