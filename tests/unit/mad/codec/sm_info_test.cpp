// SMInfo codec vs libibmad's IB_SMINFO_*_F field table.
#include "mad/codec/sm_info.h"

#include <string>

#include "tests/unit/mad/field_table.h"

namespace smd::mad::sm_info_test {
namespace {

using testing::FieldCase;

std::vector<FieldCase<SmInfo>> sm_info_fields() {
  return {
      SMD_FIELD(SmInfo, IB_SMINFO_GUID_F, guid, 64),     SMD_FIELD(SmInfo, IB_SMINFO_KEY_F, sm_key, 64),
      SMD_FIELD(SmInfo, IB_SMINFO_ACT_F, act_count, 32), SMD_FIELD(SmInfo, IB_SMINFO_PRIO_F, priority, 4),
      SMD_FIELD(SmInfo, IB_SMINFO_STATE_F, state, 4),
  };
}

TEST(SmInfo, DecodeMatchesLibibmadOnRandomPayloads) {
  testing::check_decode_against_oracle(sm_info_fields(), 41, 2000);
}

TEST(SmInfo, EncodeIsReadBackByLibibmad) { testing::check_encode_against_oracle(sm_info_fields(), 42, 2000); }

TEST(SmInfo, StateNamesAreTheSpecNames) {
  EXPECT_EQ(std::string(to_string(SmState::kMaster)), "MASTER");
  EXPECT_EQ(std::string(to_string(SmState::kStandby)), "STANDBY");
  EXPECT_EQ(std::string(to_string(SmState::kDiscovering)), "DISCOVERING");
  EXPECT_EQ(std::string(to_string(SmState::kNotActive)), "NOTACTIVE");
}

}  // namespace
}  // namespace smd::mad::sm_info_test
