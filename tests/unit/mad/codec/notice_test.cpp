// Notice codec vs libibmad's IB_NOTICE_*_F fields, and the trap 128 / 144 DataDetails helpers.
#include "mad/codec/notice.h"

#include <cstring>

#include "tests/unit/mad/field_table.h"

namespace smd::mad::notice_test {
namespace {

using testing::oracle_get;
using testing::oracle_set;

// libibmad's IB_NOTICE_COUNT_F is 16 bits wide and so includes the toggle bit; the spec's NoticeCount
// is the low 15 (IBA 13.4.8.2), so the count is compared under that mask.
constexpr std::uint64_t kCountMask = 0x7FFF;

TEST(Notice, DecodeMatchesLibibmadOnRandomPayloads) {
  std::mt19937_64 rng(51);
  for (int i = 0; i < 2000; ++i) {
    SmpData d = testing::random_data(rng);
    const Notice n = Notice::decode(d);
    ASSERT_EQ(n.is_generic, oracle_get(d, IB_NOTICE_IS_GENERIC_F) != 0);
    ASSERT_EQ(n.type, oracle_get(d, IB_NOTICE_TYPE_F));
    ASSERT_EQ(n.producer_type, oracle_get(d, IB_NOTICE_PRODUCER_F));
    ASSERT_EQ(n.trap_number, oracle_get(d, IB_NOTICE_TRAP_NUMBER_F));
    ASSERT_EQ(n.issuer_lid, oracle_get(d, IB_NOTICE_ISSUER_LID_F));
    ASSERT_EQ(n.notice_toggle, oracle_get(d, IB_NOTICE_TOGGLE_F) != 0);
    ASSERT_EQ(n.notice_count, oracle_get(d, IB_NOTICE_COUNT_F) & kCountMask);
    std::uint8_t details[kNoticeDataDetailsSize];
    mad_get_array(d.data(), 0, IB_NOTICE_DATA_DETAILS_F, details);
    ASSERT_EQ(0, std::memcmp(details, n.data_details.data(), sizeof details));
    ASSERT_EQ(n.trap128_lid(), oracle_get(d, IB_NOTICE_DATA_LID_F));
    ASSERT_EQ(n.trap144_lid(), oracle_get(d, IB_NOTICE_DATA_144_LID_F));
    ASSERT_EQ(n.trap144_capability_mask(), oracle_get(d, IB_NOTICE_DATA_144_CAPMASK_F));
    SmpData again{};
    n.encode(again);
    ASSERT_EQ(again, d);
  }
}

TEST(Notice, Trap128AsIbsimSendsItIsReadByLibibmad) {
  Notice n;
  n.is_generic = true;
  n.type = notice_type::kUrgent;
  n.producer_type = 2;  // switch
  n.trap_number = trap::kLinkStateChange;
  n.issuer_lid = 7;
  n.set_trap128_lid(7);
  SmpData d{};
  n.encode(d);
  EXPECT_EQ(oracle_get(d, IB_NOTICE_IS_GENERIC_F), 1u);
  EXPECT_EQ(oracle_get(d, IB_NOTICE_TYPE_F), 1u);
  EXPECT_EQ(oracle_get(d, IB_NOTICE_PRODUCER_F), 2u);
  EXPECT_EQ(oracle_get(d, IB_NOTICE_TRAP_NUMBER_F), 128u);
  EXPECT_EQ(oracle_get(d, IB_NOTICE_ISSUER_LID_F), 7u);
  EXPECT_EQ(oracle_get(d, IB_NOTICE_DATA_LID_F), 7u);
}

TEST(Notice, Trap144FieldsSetByLibibmadDecode) {
  SmpData d{};
  oracle_set(d, IB_NOTICE_IS_GENERIC_F, 1);
  oracle_set(d, IB_NOTICE_TRAP_NUMBER_F, 144);
  oracle_set(d, IB_NOTICE_DATA_144_LID_F, 0x0badu);
  oracle_set(d, IB_NOTICE_DATA_144_CAPMASK_F, 0x02510a68u);
  oracle_set(d, IB_NOTICE_TOGGLE_F, 1);
  const Notice n = Notice::decode(d);
  EXPECT_TRUE(n.is_generic);
  EXPECT_EQ(n.trap_number, trap::kCapabilityMaskChange);
  EXPECT_EQ(n.trap144_lid(), 0x0badu);
  EXPECT_EQ(n.trap144_capability_mask(), 0x02510a68u);
  EXPECT_TRUE(n.notice_toggle);
  EXPECT_EQ(n.notice_count, 0u);

  Notice m;
  m.set_trap144(0x0badu, 0x02510a68u);
  SmpData e{};
  m.encode(e);
  EXPECT_EQ(oracle_get(e, IB_NOTICE_DATA_144_LID_F), 0x0badu);
  EXPECT_EQ(oracle_get(e, IB_NOTICE_DATA_144_CAPMASK_F), 0x02510a68u);
}

// Trap 144's OtherLocalChanges and ChangeFlags have no libibmad field: the bytes are placed by hand from IBA
// table 147 (LIDADDR 2-3, OtherLocalChanges byte 5 bit 0, CapabilityMask 6-9, ChangeFlags 10-11).
TEST(Notice, Trap144ChangesSitWhereTable147PutsThem) {
  Notice m;
  m.set_trap144(0x0badu, 0x02510a68u);
  m.set_trap144_changes(true, trap144_change::kSmPriorityChange);
  EXPECT_EQ(m.data_details[4], 0x00u);
  EXPECT_EQ(m.data_details[5], 0x01u);
  EXPECT_EQ(m.data_details[10], 0x00u);
  EXPECT_EQ(m.data_details[11], 0x08u);
  SmpData e{};
  m.encode(e);
  EXPECT_EQ(oracle_get(e, IB_NOTICE_DATA_144_LID_F), 0x0badu);
  EXPECT_EQ(oracle_get(e, IB_NOTICE_DATA_144_CAPMASK_F), 0x02510a68u);
  const Notice n = Notice::decode(e);
  EXPECT_TRUE(n.trap144_other_local_changes());
  EXPECT_EQ(n.trap144_change_flags(), 0x0008u);
  // Clearing the bit keeps byte 5's reserved bits as they were.
  m.data_details[5] = 0xF1;
  m.set_trap144_changes(false, 0);
  EXPECT_EQ(m.data_details[5], 0xF0u);
  EXPECT_FALSE(m.trap144_other_local_changes());
}

TEST(Notice, FullFormCarriesIssuerGidAtByte64) {
  std::array<std::uint8_t, kNoticeFullSize> full{};
  for (std::size_t i = 0; i < full.size(); ++i) full[i] = static_cast<std::uint8_t>(i * 7 + 1);
  const Notice n = Notice::decode_full(full);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(n.issuer_gid[i], full[64 + i]);
  std::array<std::uint8_t, kNoticeFullSize> again{};
  n.encode_full(again);
  EXPECT_EQ(again, full);
}

}  // namespace
}  // namespace smd::mad::notice_test
