// MultiPathRecord GetMulti on the hand-built fabric of sa_rig.h: one PathRecord per (SGID, DGID) pair, the
// request's path properties applied as a PathRecord query's would be. Requests are written at the offsets
// of IBA 15.2.5.20 table 229 (the GID counts and the first GID through libibmad's IB_SA_MP_* fields);
// answers are read at the PathRecord offsets of SA-NOTES.md §6. Expected MTUs and rates are the rig's
// (see sa_path_record_test.cpp: A -> C is MTU 1024, rate code 5).
#include <gtest/gtest.h>

#include "tests/unit/smd/sa/sa_rig.h"

namespace smd::sa::sa_multi_path_test {
namespace {

using namespace testing;

constexpr std::uint16_t kMultiPath = IB_SA_ATTR_MULTIPATH;
constexpr std::uint8_t kGetMulti = 0x14;  // SubnAdmGetMulti (IBA 15.2.2)
// Table 229 ComponentMask bits.
constexpr std::uint64_t kMtuSelector = 1ull << 10, kMtu = 1ull << 11, kSgidCount = 1ull << 19, kDgidCount = 1ull << 20;
constexpr std::size_t kGids = 24;  // the first GID's byte

class SaMultiPath : public ::testing::Test {
 protected:
  // GetMulti from A's port to C's port, with `mask` besides the two counts and `fill` writing the rest.
  Answer a_to_c(std::uint64_t mask, std::uint8_t mtu_byte) {
    Mad m = request(kGetMulti, kMultiPath, kSgidCount | kDgidCount | mask);
    std::span<std::uint8_t> r = rec_of(m);
    mad_set_field(r.data(), 0, IB_SA_MP_NSRC_F, 1);
    mad_set_field(r.data(), 0, IB_SA_MP_NDEST_F, 1);
    r[10] = mtu_byte;  // MTUSelector (2 bits) and MTU (6 bits)
    put_gid(r, kGids, kPrefix, kA + 1);
    put_gid(r, kGids + 16, kPrefix, kC + 1);
    return ask(rig.snap, state, m);
  }
  static std::size_t records(const Answer& a) { return a.status() == 0 ? a.count() : 0; }

  Rig rig = make_rig();
  SaState state;
};

TEST_F(SaMultiPath, OnePairIsOnePathRecord) {
  const Answer a = a_to_c(0, 0);
  ASSERT_TRUE(a.sent());
  ASSERT_EQ(a.status(), 0);
  ASSERT_EQ(records(a), 1u);
  const auto pr = a.record(0);
  EXPECT_EQ(ib_get(pr, IB_SA_PR_SLID_F), 3u);
  EXPECT_EQ(ib_get(pr, IB_SA_PR_DLID_F), 5u);
  EXPECT_EQ(get_be(pr, 32, 8), kA + 1) << "SGID interface ID";
  EXPECT_EQ(get_be(pr, 16, 8), kC + 1) << "DGID interface ID";
  EXPECT_EQ(pr[54] & 0x3F, 3) << "MTU 1024 along the walk";
  EXPECT_EQ(pr[55] & 0x3F, 5) << "rate code 5 along the walk";
}

TEST_F(SaMultiPath, MtuSelectorAndMtuAreTheQuerysOwn) {
  // Selector 2 (exactly): MTU 3 (1024) is the path's; MTU 4 (2048) is not, so no path qualifies. Only bits
  // 10 and 11 of the MultiPathRecord mask carry this, so the answer tells whether they reached the
  // PathRecord query as its MTUSelector and MTU.
  EXPECT_EQ(records(a_to_c(kMtuSelector | kMtu, 2 << 6 | 3)), 1u);
  EXPECT_EQ(records(a_to_c(kMtuSelector | kMtu, 2 << 6 | 4)), 0u);
  EXPECT_EQ(records(a_to_c(0, 2 << 6 | 4)), 1u) << "without the mask bits the MTU byte is not matched";
}

TEST_F(SaMultiPath, BothGidCountsAreRequired) {
  Mad m = request(kGetMulti, kMultiPath, kSgidCount);
  mad_set_field(rec_of(m).data(), 0, IB_SA_MP_NSRC_F, 1);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_TRUE(a.sent());
  EXPECT_NE(a.status(), 0) << "INSUFFICIENT_COMPONENTS without DGIDCount";
}

}  // namespace
}  // namespace smd::sa::sa_multi_path_test
