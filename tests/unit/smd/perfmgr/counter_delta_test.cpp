// counter_delta (smd/perfmgr/counter_delta.h): values worked out by hand from IBA 16.1.3.5 (saturating
// error counters) and 16.1.4.11 (wrapping 64-bit counters).
#include "smd/perfmgr/counter_delta.h"

#include <gtest/gtest.h>

namespace smd::counter_delta_test {
namespace {

TEST(CounterDelta, SaturatingPlainIncrease) {
  const CounterDelta d = counter_delta(10, 25, 16, CounterKind::kSaturating);
  EXPECT_EQ(d.value, 15u);
  EXPECT_FALSE(d.saturated);
  EXPECT_FALSE(d.reset_seen);
  EXPECT_FALSE(d.wrapped);
}

TEST(CounterDelta, SaturatingAtAllOnesIsALowerBound) {
  CounterDelta d = counter_delta(0xFFF0, 0xFFFF, 16, CounterKind::kSaturating);
  EXPECT_EQ(d.value, 15u);
  EXPECT_TRUE(d.saturated);
  d = counter_delta(0xFFFF, 0xFFFF, 16, CounterKind::kSaturating);
  EXPECT_EQ(d.value, 0u);
  EXPECT_TRUE(d.saturated);
  d = counter_delta(3, 15, 4, CounterKind::kSaturating);  // LocalLinkIntegrityErrors: 4 bits, top 15
  EXPECT_EQ(d.value, 12u);
  EXPECT_TRUE(d.saturated);
  d = counter_delta(0, 0xFFFFFFFF, 32, CounterKind::kSaturating);  // PortXmitWait
  EXPECT_TRUE(d.saturated);
  EXPECT_EQ(d.value, 0xFFFFFFFFu);
}

TEST(CounterDelta, SaturatingSmallerValueMeansSomeoneCleared) {
  const CounterDelta d = counter_delta(100, 7, 16, CounterKind::kSaturating);
  EXPECT_TRUE(d.reset_seen);
  EXPECT_EQ(d.value, 7u);
  EXPECT_FALSE(d.saturated);
}

TEST(CounterDelta, WrappingAt32Bits) {
  const CounterDelta d = counter_delta(0xFFFFFFF0, 0x10, 32, CounterKind::kWrapping);
  EXPECT_TRUE(d.wrapped);
  EXPECT_EQ(d.value, 0x20u);  // 0x10 to the top, one to 0, 0x10 more
}

TEST(CounterDelta, WrappingAt64BitsWithoutOverflow) {
  CounterDelta d = counter_delta(0xFFFFFFFFFFFFFFFEull, 3, 64, CounterKind::kWrapping);
  EXPECT_TRUE(d.wrapped);
  EXPECT_EQ(d.value, 5u);
  d = counter_delta(1, 0xFFFFFFFFFFFFFFFFull, 64, CounterKind::kWrapping);
  EXPECT_FALSE(d.wrapped);
  EXPECT_FALSE(d.saturated) << "all ones is not special for a wrapping counter";
  EXPECT_EQ(d.value, 0xFFFFFFFFFFFFFFFEull);
}

TEST(CounterDelta, BitsAboveTheWidthAreIgnored) {
  const CounterDelta d = counter_delta(0x1'0000'0005ull, 0x2'0000'0009ull, 32, CounterKind::kWrapping);
  EXPECT_EQ(d.value, 4u);
  EXPECT_FALSE(d.wrapped);
  EXPECT_EQ(counter_max(8), 0xFFu);
  EXPECT_EQ(counter_max(64), ~0ull);
}

}  // namespace
}  // namespace smd::counter_delta_test
