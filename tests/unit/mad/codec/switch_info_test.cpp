// SwitchInfo codec vs libibmad's IB_SW_*_F field table.
#include "mad/codec/switch_info.h"

#include "tests/unit/mad/field_table.h"

namespace smd::mad::switch_info_test {
namespace {

using testing::FieldCase;

std::vector<FieldCase<SwitchInfo>> switch_info_fields() {
  return {
      SMD_FIELD(SwitchInfo, IB_SW_LINEAR_FDB_CAP_F, linear_fdb_cap, 16),
      SMD_FIELD(SwitchInfo, IB_SW_RANDOM_FDB_CAP_F, random_fdb_cap, 16),
      SMD_FIELD(SwitchInfo, IB_SW_MCAST_FDB_CAP_F, multicast_fdb_cap, 16),
      SMD_FIELD(SwitchInfo, IB_SW_LINEAR_FDB_TOP_F, linear_fdb_top, 16),
      SMD_FIELD(SwitchInfo, IB_SW_DEF_PORT_F, default_port, 8),
      SMD_FIELD(SwitchInfo, IB_SW_DEF_MCAST_PRIM_F, default_multicast_primary_port, 8),
      SMD_FIELD(SwitchInfo, IB_SW_DEF_MCAST_NOT_PRIM_F, default_multicast_not_primary_port, 8),
      SMD_FIELD(SwitchInfo, IB_SW_LIFE_TIME_F, life_time_value, 5),
      SMD_FIELD(SwitchInfo, IB_SW_STATE_CHANGE_F, port_state_change, 1),
      SMD_FIELD(SwitchInfo, IB_SW_OPT_SLTOVL_MAPPING_F, optimized_sl_to_vl_mapping_programming, 2),
      SMD_FIELD(SwitchInfo, IB_SW_LIDS_PER_PORT_F, lids_per_port, 16),
      SMD_FIELD(SwitchInfo, IB_SW_PARTITION_ENFORCE_CAP_F, partition_enforcement_cap, 16),
      SMD_FIELD(SwitchInfo, IB_SW_PARTITION_ENF_INB_F, inbound_enforcement_cap, 1),
      SMD_FIELD(SwitchInfo, IB_SW_PARTITION_ENF_OUTB_F, outbound_enforcement_cap, 1),
      SMD_FIELD(SwitchInfo, IB_SW_FILTER_RAW_INB_F, filter_raw_inbound_cap, 1),
      SMD_FIELD(SwitchInfo, IB_SW_FILTER_RAW_OUTB_F, filter_raw_outbound_cap, 1),
      SMD_FIELD(SwitchInfo, IB_SW_ENHANCED_PORT0_F, enhanced_port0, 1),
      SMD_FIELD(SwitchInfo, IB_SW_MCAST_FDB_TOP_F, multicast_fdb_top, 16),
  };
}

TEST(SwitchInfo, DecodeMatchesLibibmadOnRandomPayloads) {
  testing::check_decode_against_oracle(switch_info_fields(), 31, 2000);
}

TEST(SwitchInfo, EncodeIsReadBackByLibibmad) { testing::check_encode_against_oracle(switch_info_fields(), 32, 2000); }

TEST(SwitchInfo, SettingLinearFdbTopKeepsEverythingElse) {
  std::mt19937_64 rng(33);
  const SmpData got = testing::random_data(rng);
  SwitchInfo si = SwitchInfo::decode(got);
  si.linear_fdb_top = 0x0300;
  SmpData set{};
  si.encode(set);
  SmpData expect = got;
  mad_set_field(expect.data(), 0, IB_SW_LINEAR_FDB_TOP_F, 0x0300);
  EXPECT_EQ(set, expect);
}

}  // namespace
}  // namespace smd::mad::switch_info_test
