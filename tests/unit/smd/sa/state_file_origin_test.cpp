// The stamp on the SA's state files and the rule for restoring them (smd/sa/state_file_origin.h).
#include "smd/sa/state_file_origin.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace smd::sa::state_file_origin_test {
namespace {

TEST(StateFileOrigin, TheStampIsReadBackAndKeepsTheRest) {
  const std::string text = stamp_writer(R"({"version": 1, "groups": []})", 0x0002c90300001234ull);
  EXPECT_EQ(file_writer(text), 0x0002c90300001234ull);
  const auto doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc["written_by"], "0x0002c90300001234");
  EXPECT_EQ(doc["version"], 1);
  EXPECT_TRUE(doc["groups"].is_array());
}

TEST(StateFileOrigin, FilesWithoutAValidStampHaveNoWriter) {
  EXPECT_EQ(file_writer(R"({"version": 1})"), std::nullopt);
  EXPECT_EQ(file_writer("not json"), std::nullopt);
  EXPECT_EQ(file_writer("[1, 2]"), std::nullopt);
  EXPECT_EQ(file_writer(R"({"written_by": 12})"), std::nullopt);
  EXPECT_EQ(file_writer(R"({"written_by": "0x12"})"), std::nullopt);
  EXPECT_EQ(file_writer(R"({"written_by": "0x-000000000000001"})"), std::nullopt);
  EXPECT_EQ(file_writer(R"({"written_by": "0x00000000000000zz"})"), std::nullopt);
  EXPECT_EQ(stamp_writer("not json", 1), "not json");
}

TEST(StateFileOrigin, OnlyItsOwnFileAfterAnotherMasterIsLeftAlone) {
  constexpr Guid self = 0xA;
  constexpr Guid other = 0xB;
  EXPECT_TRUE(restore_state_file(self, self, /*other_master_seen=*/false));
  EXPECT_FALSE(restore_state_file(self, self, /*other_master_seen=*/true));
  EXPECT_TRUE(restore_state_file(other, self, true));
  EXPECT_TRUE(restore_state_file(other, self, false));
  EXPECT_TRUE(restore_state_file(std::nullopt, self, true));
}

}  // namespace
}  // namespace smd::sa::state_file_origin_test
