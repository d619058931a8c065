// MlidPool against IBA 15.2.5.17 / 4.1.1: multicast LIDs are 0xC000..0xFFFE (0xFFFF is the permissive LID),
// the lowest free one is given first, and an MLID shared by several groups is free only when the last ends.
#include <gtest/gtest.h>

#include "smd/sa/mlid_pool.h"

namespace smd::sa::mlid_pool_test {
namespace {

TEST(MlidPool, LowestFreeFillsTheFirstGap) {
  MlidPool pool;
  EXPECT_EQ(pool.lowest_free(0xFFFF), Lid{0xC000});
  pool.hold(0xC000);
  pool.hold(0xC001);
  pool.hold(0xC003);
  EXPECT_EQ(pool.lowest_free(0xFFFF), Lid{0xC002});
  pool.hold(0xC002);
  EXPECT_EQ(pool.lowest_free(0xFFFF), Lid{0xC004});
}

TEST(MlidPool, TopBoundsTheRangeAndThePermissiveLidIsNeverGiven) {
  MlidPool pool;
  pool.hold(0xC000);
  EXPECT_EQ(pool.lowest_free(0xC000), std::nullopt) << "the only MLID under the switches' cap is taken";
  EXPECT_FALSE(pool.available(0xFFFF, 0xFFFF)) << "0xFFFF is the permissive LID";
  EXPECT_TRUE(pool.available(0xFFFE, 0xFFFF));
  EXPECT_FALSE(pool.available(0xBFFF, 0xFFFF)) << "a unicast LID is no MLID";
  EXPECT_FALSE(pool.available(0xC400, 0xC3FF)) << "above the top the switches' MFTs hold";
  EXPECT_FALSE(pool.available(0xC000, 0xFFFF)) << "held";
}

TEST(MlidPool, ASharedMlidIsFreeOnlyAfterItsLastGroup) {
  MlidPool pool;
  pool.hold(0xC000);
  pool.hold(0xC000);  // two consolidated IPv6 SNM groups on one MLID
  pool.release(0xC000);
  EXPECT_TRUE(pool.in_use(0xC000));
  EXPECT_EQ(pool.lowest_free(0xFFFF), Lid{0xC001});
  pool.release(0xC000);
  EXPECT_FALSE(pool.in_use(0xC000));
  EXPECT_EQ(pool.lowest_free(0xFFFF), Lid{0xC000});
  pool.release(0xC005);  // never held: nothing happens
  EXPECT_EQ(pool.lowest_free(0xFFFF), Lid{0xC000});
}

}  // namespace
}  // namespace smd::sa::mlid_pool_test
