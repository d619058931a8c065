// ComponentMask bits derived from the field enums (mask_bit, mad/sa/record_layout.h) against two witnesses:
// the bit numbers of the IBA tables (15.2.5.14 table 217, 15.2.5.16 table 221, 15.2.5.17 table 219,
// 15.2.5.20 table 229), written out here; and libibmad's IB_SA_* fields, whose bits must be exactly the
// layout field the mask bit selects.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "mad/sa/mcmember_record.h"
#include "mad/sa/multi_path_record.h"
#include "mad/sa/path_record.h"
#include "mad/sa/service_record.h"
#include "tests/unit/smd/sa/sa_test_bits.h"

namespace smd::mad::sa::component_mask_test {
namespace {

using smd::sa::testing::bit_range;

TEST(ComponentMask, McMemberRecordBitsAreTable219) {
  const std::uint64_t want[] = {
      mask_bit(McMemberRecordField::kMgid),         mask_bit(McMemberRecordField::kPortGid),
      mask_bit(McMemberRecordField::kQKey),         mask_bit(McMemberRecordField::kMlid),
      mask_bit(McMemberRecordField::kMtuSelector),  mask_bit(McMemberRecordField::kMtu),
      mask_bit(McMemberRecordField::kTClass),       mask_bit(McMemberRecordField::kPKey),
      mask_bit(McMemberRecordField::kRateSelector), mask_bit(McMemberRecordField::kRate),
      mask_bit(McMemberRecordField::kLifeSelector), mask_bit(McMemberRecordField::kLife),
      mask_bit(McMemberRecordField::kSl),           mask_bit(McMemberRecordField::kFlowLabel),
      mask_bit(McMemberRecordField::kHopLimit),     mask_bit(McMemberRecordField::kScope),
      mask_bit(McMemberRecordField::kJoinState),    mask_bit(McMemberRecordField::kProxyJoin)};
  for (unsigned n = 0; n < 18; ++n) EXPECT_EQ(want[n], 1ull << n) << "bit " << n;
  EXPECT_EQ(kMcMemberRecordLayout.fields.size(), 18u);
}

TEST(ComponentMask, PathRecordBitsAreTable221) {
  EXPECT_EQ(pr_mask::kServiceId, 0x3ull);
  EXPECT_EQ(mask_bit(PathRecordField::kDgid), 1ull << 2);
  EXPECT_EQ(mask_bit(PathRecordField::kSgid), 1ull << 3);
  EXPECT_EQ(mask_bit(PathRecordField::kDlid), 1ull << 4);
  EXPECT_EQ(mask_bit(PathRecordField::kSlid), 1ull << 5);
  EXPECT_EQ(pr_mask::kRawTraffic, 1ull << 6);
  EXPECT_EQ(pr_mask::kFlowLabel, 1ull << 8);  // bit 7 is the reserved run
  EXPECT_EQ(pr_mask::kNumbPath, 1ull << 12);
  EXPECT_EQ(pr_mask::kPKey, 1ull << 13);
  EXPECT_EQ(pr_mask::kQosClass, 1ull << 14);
  EXPECT_EQ(pr_mask::kSl, 1ull << 15);
  EXPECT_EQ(pr_mask::kMtu, 1ull << 17);
  EXPECT_EQ(pr_mask::kRate, 1ull << 19);
  EXPECT_EQ(pr_mask::kPacketLife, 1ull << 21);
  EXPECT_EQ(mask_bit(PathRecordField::kPreference), 1ull << 22);
  EXPECT_EQ(kPathRecordLayout.fields.size(), 24u);
}

TEST(ComponentMask, MultiPathRecordBitsAreTable229) {
  const auto mpr_property = [](PathPropertyField f) { return property_bit(MultiPathRecordField::kProperties, f); };
  EXPECT_EQ(mpr_property(PathPropertyField::kRawTraffic), 1ull << 0);
  EXPECT_EQ(mpr_property(PathPropertyField::kFlowLabel), 1ull << 2);  // bit 1 is the reserved run
  EXPECT_EQ(mpr_property(PathPropertyField::kNumbPath), 1ull << 6);
  EXPECT_EQ(mpr_property(PathPropertyField::kPKey), 1ull << 7);
  EXPECT_EQ(mpr_property(PathPropertyField::kSl), 1ull << 9);
  EXPECT_EQ(mpr_property(PathPropertyField::kPacketLife), 1ull << 15);
  EXPECT_EQ(property_bits(MultiPathRecordField::kProperties), 0xFFFFull);  // bits 0..15: RawTraffic .. PacketLifeTime
  EXPECT_EQ(mask_bit(MultiPathRecordField::kServiceIdMsb), 1ull << 16);
  EXPECT_EQ(mask_bit(MultiPathRecordField::kSgidCount),
            1ull << 19);  // bit 18 is the reserved run after IndependenceSelector
  EXPECT_EQ(mask_bit(MultiPathRecordField::kDgidCount), 1ull << 20);
  EXPECT_EQ(mask_bit(MultiPathRecordField::kServiceIdLsb), 1ull << 21);
  EXPECT_EQ(kMultiPathRecordLayout.fields.size(), 22u);
}

TEST(ComponentMask, ServiceRecordBitsAreTable217) {
  EXPECT_EQ(mask_bit(ServiceRecordField::kServiceId), 1ull << 0);
  EXPECT_EQ(mask_bit(ServiceRecordField::kServiceGid), 1ull << 1);
  EXPECT_EQ(mask_bit(ServiceRecordField::kServicePKey), 1ull << 2);
  EXPECT_EQ(mask_bit(ServiceRecordField::kServiceLease), 1ull << 4);
  EXPECT_EQ(mask_bit(ServiceRecordField::kServiceKey), 1ull << 5);
  EXPECT_EQ(mask_bit(ServiceRecordField::kServiceName), 1ull << 6);
  EXPECT_EQ(kServiceRecordLayout.fields.size(), 37u);  // 7 fields, then ServiceData 16 + 8 + 4 + 2
}

/// A libibmad field and the mask bit that should select exactly its bits.
struct Witness {
  const RecordLayout* layout;
  std::uint64_t mask;
  MAD_FIELDS field;
  unsigned bytes;  ///< 0: an integer field of at most 32 bits; else read as an array of that many bytes
  const char* name;
};

class ComponentMaskWitness : public ::testing::TestWithParam<Witness> {};

/// The bits of `rec` that libibmad reads as part of `w.field`: each bit set alone, the field read back
/// (reading is what libibmad keeps to the field's width; its writes spill past narrow fields).
std::vector<std::size_t> libibmad_bits(const Witness& w) {
  std::vector<std::size_t> out;
  for (std::size_t bit = 0; bit < w.layout->size * 8; ++bit) {
    std::vector<std::uint8_t> rec(w.layout->size, 0);
    rec[bit / 8] = static_cast<std::uint8_t>(0x80u >> (bit % 8));
    bool seen = false;
    if (w.bytes != 0) {
      std::vector<std::uint8_t> got(w.bytes, 0);
      mad_get_array(rec.data(), 0, w.field, got.data());
      for (std::uint8_t v : got) seen = seen || v != 0;
    } else {
      seen = mad_get_field(rec.data(), 0, w.field) != 0;
    }
    if (seen) out.push_back(bit);
  }
  return out;
}

TEST_P(ComponentMaskWitness, MaskBitSelectsLibibmadsField) {
  const Witness& w = GetParam();
  ASSERT_EQ(std::popcount(w.mask), 1);
  const BitSpan span = w.layout->fields[static_cast<std::size_t>(std::countr_zero(w.mask))];
  EXPECT_EQ(libibmad_bits(w), bit_range(span.bit_offset, span.bit_width)) << w.name;
}

const Witness kWitnesses[] = {
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kMgid), IB_SA_MCM_MGID_F, 16, "MCM MGID"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kPortGid), IB_SA_MCM_PORTGID_F, 16, "MCM PortGID"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kQKey), IB_SA_MCM_QKEY_F, 0, "MCM Q_Key"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kMlid), IB_SA_MCM_MLID_F, 0, "MCM MLID"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kMtu), IB_SA_MCM_MTU_F, 0, "MCM MTU"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kTClass), IB_SA_MCM_TCLASS_F, 0, "MCM TClass"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kPKey), IB_SA_MCM_PKEY_F, 0, "MCM P_Key"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kRate), IB_SA_MCM_RATE_F, 0, "MCM Rate"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kSl), IB_SA_MCM_SL_F, 0, "MCM SL"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kFlowLabel), IB_SA_MCM_FLOW_LABEL_F, 0, "MCM FlowLabel"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kJoinState), IB_SA_MCM_JOIN_STATE_F, 0, "MCM JoinState"},
    {&kMcMemberRecordLayout, mask_bit(McMemberRecordField::kProxyJoin), IB_SA_MCM_PROXY_JOIN_F, 0, "MCM ProxyJoin"},
    {&kPathRecordLayout, mask_bit(PathRecordField::kDgid), IB_SA_PR_DGID_F, 16, "PR DGID"},
    {&kPathRecordLayout, mask_bit(PathRecordField::kSgid), IB_SA_PR_SGID_F, 16, "PR SGID"},
    {&kPathRecordLayout, mask_bit(PathRecordField::kDlid), IB_SA_PR_DLID_F, 0, "PR DLID"},
    {&kPathRecordLayout, mask_bit(PathRecordField::kSlid), IB_SA_PR_SLID_F, 0, "PR SLID"},
    {&kPathRecordLayout, pr_mask::kNumbPath, IB_SA_PR_NPATH_F, 0, "PR NumbPath"},
    {&kPathRecordLayout, pr_mask::kSl, IB_SA_PR_SL_F, 0, "PR SL"},
    {&kServiceRecordLayout, mask_bit(ServiceRecordField::kServiceId), IB_SA_SR_ID_F, 8, "SR ServiceID"},
    {&kServiceRecordLayout, mask_bit(ServiceRecordField::kServiceGid), IB_SA_SR_GID_F, 16, "SR ServiceGID"},
    {&kServiceRecordLayout, mask_bit(ServiceRecordField::kServicePKey), IB_SA_SR_PKEY_F, 0, "SR ServiceP_Key"},
    {&kServiceRecordLayout, mask_bit(ServiceRecordField::kServiceLease), IB_SA_SR_LEASE_F, 0, "SR ServiceLease"},
    {&kServiceRecordLayout, mask_bit(ServiceRecordField::kServiceKey), IB_SA_SR_KEY_F, 16, "SR ServiceKey"},
    {&kServiceRecordLayout, mask_bit(ServiceRecordField::kServiceName), IB_SA_SR_NAME_F, 64, "SR ServiceName"},
};
INSTANTIATE_TEST_SUITE_P(Libibmad, ComponentMaskWitness, ::testing::ValuesIn(kWitnesses));

}  // namespace
}  // namespace smd::mad::sa::component_mask_test
