// GUIDInfo block codec (IBA 14.2.5.5), against libibmad's GUIDInfo fields (IB_GI_GUID0_F..7, what smpquery
// guidinfo prints).
#include "mad/codec/guid_info.h"

#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <random>

#include "tests/unit/mad/oracle.h"

namespace smd::mad::guid_info_test {
namespace {

TEST(GuidInfo, DecodeAgreesWithLibibmad) {
  std::mt19937_64 rng(14);
  for (int round = 0; round < 200; ++round) {
    SmpData d = testing::random_data(rng);
    const GuidInfoBlock b = GuidInfoBlock::decode(d);
    for (int i = 0; i < 8; ++i) {
      ASSERT_EQ(b.guids[static_cast<std::size_t>(i)],
                mad_get_field64(d.data(), 0, static_cast<enum MAD_FIELDS>(IB_GI_GUID0_F + i)))
          << "entry " << i;
    }
    SmpData back{};
    b.encode(back);
    ASSERT_EQ(back, d);
  }
}

TEST(GuidInfo, EncodeWritesWhatLibibmadReads) {
  GuidInfoBlock b;
  b.guids[0] = 0x0002C90300001234ull;
  b.guids[3] = 0x0014052A00000001ull;
  SmpData d{};
  d.fill(0xee);
  b.encode(d);
  EXPECT_EQ(mad_get_field64(d.data(), 0, IB_GI_GUID0_F), 0x0002C90300001234ull);
  EXPECT_EQ(mad_get_field64(d.data(), 0, IB_GI_GUID1_F), 0u) << "empty entries are written as 0";
  EXPECT_EQ(mad_get_field64(d.data(), 0, IB_GI_GUID3_F), 0x0014052A00000001ull);
  EXPECT_EQ(d[24], 0x00);
  EXPECT_EQ(d[25], 0x14);
  EXPECT_EQ(d[26], 0x05);
  EXPECT_EQ(d[27], 0x2A);
}

}  // namespace
}  // namespace smd::mad::guid_info_test
