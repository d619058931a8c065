// MCMemberRecord codec against libibmad's IB_SA_MCM_* fields (rdma-core libibmad/fields.c) and, for the
// fields libibmad lacks (selectors, PacketLifeTime, HopLimit, Scope), against the offsets of SA-NOTES §6
// written out here bit by bit.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "mad/sa/mcmember_record.h"
#include "mad/sa/sa_mad.h"
#include "tests/unit/smd/sa/sa_test_bits.h"

namespace smd::mad::sa::sa_mcmember_codec_test {
namespace {

using smd::sa::testing::bit_range;
using smd::sa::testing::ib_get;
using smd::sa::testing::set_bit_list;
using smd::sa::testing::set_bits;

Gid gid_of(std::span<const std::uint8_t> rec, MAD_FIELDS f) {
  Gid g{};
  mad_get_array(const_cast<std::uint8_t*>(rec.data()), 0, f, g.data());
  return g;
}

TEST(McMemberCodec, SizeAndAttributeOffset) {
  EXPECT_EQ(McMemberRecord::kSize, static_cast<std::size_t>(IB_SA_MCM_RECSZ));
  EXPECT_EQ(attr_offset_of(McMemberRecord::kSize), 7);
  EXPECT_EQ(kMcMemberRecordLayout.fields.size(), 18u);  // bits 0 MGID .. 17 ProxyJoin
  EXPECT_EQ(attr::kMcMemberRecord, IB_SA_ATTR_MCRECORD);
}

TEST(McMemberCodec, AgreesWithLibibmad) {
  std::mt19937_64 rng(38);
  for (int i = 0; i < 500; ++i) {
    std::array<std::uint8_t, 64> rec{};
    for (std::size_t b = 0; b < McMemberRecord::kSize; ++b) rec[b] = static_cast<std::uint8_t>(rng());
    const McMemberRecord r = McMemberRecord::decode(rec);
    ASSERT_EQ(r.mgid, gid_of(rec, IB_SA_MCM_MGID_F));
    ASSERT_EQ(r.port_gid, gid_of(rec, IB_SA_MCM_PORTGID_F));
    ASSERT_EQ(r.q_key, ib_get(rec, IB_SA_MCM_QKEY_F));
    ASSERT_EQ(r.mlid, ib_get(rec, IB_SA_MCM_MLID_F));
    ASSERT_EQ(r.sl, ib_get(rec, IB_SA_MCM_SL_F));
    ASSERT_EQ(r.mtu, ib_get(rec, IB_SA_MCM_MTU_F) & 0x3F);
    ASSERT_EQ(r.rate, ib_get(rec, IB_SA_MCM_RATE_F) & 0x3F);
    ASSERT_EQ(r.tclass, ib_get(rec, IB_SA_MCM_TCLASS_F));
    ASSERT_EQ(r.pkey, ib_get(rec, IB_SA_MCM_PKEY_F));
    ASSERT_EQ(r.flow_label, ib_get(rec, IB_SA_MCM_FLOW_LABEL_F));
    ASSERT_EQ(r.join_state, ib_get(rec, IB_SA_MCM_JOIN_STATE_F));
    ASSERT_EQ(r.proxy_join ? 1u : 0u, ib_get(rec, IB_SA_MCM_PROXY_JOIN_F));
    std::array<std::uint8_t, 64> out{};
    r.encode(out);
    auto expect = rec;
    expect[49] &= 0x80;  // reserved: 49 bits 6..0, 50..52
    for (std::size_t b = 50; b < 64; ++b) expect[b] = 0;
    ASSERT_EQ(out, expect) << "iteration " << i;
  }
}

// The fields of SA-NOTES §6 as (ComponentMask bit, byte, first bit, width): a field set to all ones alone
// in the record lights exactly those bits.
struct McmField {
  unsigned bit;
  std::size_t byte;
  unsigned msb;
  unsigned width;
};

TEST(McMemberCodec, LayoutMatchesTheNotes) {
  const std::vector<McmField> fields = {
      {0, 0, 0, 128}, {1, 16, 0, 128}, {2, 32, 0, 32}, {3, 36, 0, 16}, {4, 38, 0, 2},  {5, 38, 2, 6},
      {6, 39, 0, 8},  {7, 40, 0, 16},  {8, 42, 0, 2},  {9, 42, 2, 6},  {10, 43, 0, 2}, {11, 43, 2, 6},
      {12, 44, 0, 4}, {13, 44, 4, 20}, {14, 47, 0, 8}, {15, 48, 0, 4}, {16, 48, 4, 4}, {17, 49, 0, 1},
  };
  ASSERT_EQ(fields.size(), kMcMemberRecordLayout.fields.size());
  for (const McmField& f : fields) {
    std::array<std::uint8_t, McMemberRecord::kSize> rec{};
    set_bits(rec, f.byte, f.msb, f.width);
    EXPECT_EQ(kMcMemberRecordLayout.fields[f.bit].bit_offset, f.byte * 8 + f.msb) << "bit " << f.bit;
    EXPECT_EQ(kMcMemberRecordLayout.fields[f.bit].bit_width, f.width) << "bit " << f.bit;
    // Through the struct: decode then encode keeps exactly the field's bits.
    std::array<std::uint8_t, McMemberRecord::kSize> out{};
    McMemberRecord::decode(rec).encode(out);
    EXPECT_EQ(set_bit_list(out), bit_range(f.byte * 8 + f.msb, f.width)) << "bit " << f.bit;
  }
  std::array<std::uint8_t, McMemberRecord::kSize> rec{};
  set_bits(rec, 48, 0, 4);
  EXPECT_EQ(McMemberRecord::decode(rec).scope, 0xF);
  EXPECT_EQ(McMemberRecord::decode(rec).join_state, 0);
}

}  // namespace
}  // namespace smd::mad::sa::sa_mcmember_codec_test
