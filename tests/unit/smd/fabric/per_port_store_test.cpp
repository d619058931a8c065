// PerPortStore through its three users: a node forgotten takes all its ports and only its ports, and a
// partial forget of a port the SM never recorded makes no record.
#include <gtest/gtest.h>

#include "smd/fabric/applied_pkeys.h"
#include "smd/fabric/applied_port_fields.h"
#include "smd/fabric/applied_qos.h"

namespace smd::per_port_store_test {
namespace {

constexpr Guid kA = 0x0002c90300000010ull;
constexpr Guid kB = kA + 1;  // the next GUID up: its ports sort right after kA's

TEST(PerPortStore, ForgetTakesEveryPortOfOneNodeAndNoOther) {
  AppliedQos qos;
  Sl2Vl table{};
  table[3] = 1;
  for (PortNum p : {PortNum{0}, PortNum{1}, PortNum{36}}) qos.record_sl2vl(kA, 0, p, table);
  qos.record_sl2vl(kA - 1, 0, 254, table);
  qos.record_sl2vl(kB, 0, 0, table);
  ASSERT_EQ(qos.size(), 5u);
  qos.forget(kA);
  EXPECT_EQ(qos.size(), 2u);
  EXPECT_EQ(qos.port(kA, 0), nullptr);
  EXPECT_EQ(qos.port(kA, 36), nullptr);
  ASSERT_NE(qos.port(kB, 0), nullptr);
  EXPECT_TRUE(qos.port(kB, 0)->sl2vl_is(0, table));
  ASSERT_NE(qos.port(kA - 1, 254), nullptr);
  qos.forget_all();
  EXPECT_EQ(qos.size(), 0u);
}

TEST(PerPortStore, ForgettingPartOfAnUnknownPortRecordsNothing) {
  AppliedPKeys pkeys;
  pkeys.forget_block(kA, 1, 0);
  AppliedQos qos;
  qos.forget_sl2vl(kA, 0, 1);
  qos.forget_vlarb(kA, 1, mad::VlArbBlock::kLow0);
  EXPECT_EQ(pkeys.size(), 0u);
  EXPECT_EQ(qos.size(), 0u);
  AppliedPortPKeys::Block block{};
  block[0] = 0xffff;
  pkeys.record_block(kA, 1, 2, block);
  pkeys.forget_block(kA, 1, 0);
  ASSERT_NE(pkeys.port(kA, 1), nullptr);
  EXPECT_TRUE(pkeys.port(kA, 1)->block_is(2, block));
  EXPECT_FALSE(pkeys.port(kA, 1)->block_is(0, block));
}

TEST(PerPortStore, RestoredPortFieldsCompareEqualToRecordedOnes) {
  AppliedPortFields recorded;
  mad::PortInfo sent{};
  sent.subnet_timeout = 18;
  recorded.record(kA, 3, sent, sent);
  AppliedPortFields restored;
  for (const auto& [key, acks] : recorded.ports()) restored.restore(key, acks);
  EXPECT_TRUE(restored == recorded);
  restored.forget(kA);
  EXPECT_FALSE(restored == recorded);
}

}  // namespace
}  // namespace smd::per_port_store_test
