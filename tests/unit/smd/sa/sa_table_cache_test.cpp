// TableCache: the SA's own reads of port tables (P_Key, SL2VL, VLArb blocks) for the records that need them.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

#include "smd/sa/table_cache.h"

namespace smd::sa::sa_table_cache_test {
namespace {

struct Wire {
  std::vector<std::array<std::uint8_t, mad::kMadSize>> sent;
  TableCache::Send send() {
    return [this](std::span<const std::uint8_t, mad::kMadSize> smp, Lid) {
      std::array<std::uint8_t, mad::kMadSize> copy{};
      std::copy(smp.begin(), smp.end(), copy.begin());
      sent.push_back(copy);
      return 0;
    };
  }
};

/// The GetResp of a sent Get, status 0.
std::array<std::uint8_t, mad::kMadSize> answer_to(const std::array<std::uint8_t, mad::kMadSize>& get) {
  std::array<std::uint8_t, mad::kMadSize> resp{};
  mad::make_smp_response(get, 0, mad::SmpData{}, resp);
  return resp;
}

// A query that names the same blocks again while they wait (every pass of a waiting SL2VLTableRecord
// GetTable does) asks for each block once; at most kWindow are in flight, and each answer lets one more go.
TEST(TableCache, EachBlockIsAskedForOnceWhateverHowOftenItIsWanted) {
  Wire wire;
  TableCache cache(wire.send(), 0, std::chrono::milliseconds(1000), 0);
  constexpr unsigned kBlocks = 100;
  for (unsigned pass = 0; pass < 3; ++pass) {
    for (unsigned b = 0; b < kBlocks; ++b) cache.want(TableKey{7, 0x17, b});
  }
  EXPECT_EQ(cache.outstanding(), kBlocks);
  const auto now = TableCache::Clock::now();
  cache.pump(now);
  ASSERT_EQ(wire.sent.size(), TableCache::kWindow);
  for (unsigned b = 0; b < kBlocks; ++b) cache.want(TableKey{7, 0x17, b});  // wanted again while in flight
  std::size_t answered = 0;
  while (answered < wire.sent.size()) {
    EXPECT_TRUE(cache.on_answer(answer_to(wire.sent[answered++])));
    cache.pump(now);
  }
  EXPECT_EQ(wire.sent.size(), kBlocks) << "one Get per block";
  std::set<std::uint32_t> mods;
  for (const auto& smp : wire.sent) mods.insert(mad::decode_smp_header(smp)->attr_mod);
  EXPECT_EQ(mods.size(), kBlocks);
  EXPECT_EQ(cache.outstanding(), 0u);
  for (unsigned b = 0; b < kBlocks; ++b) {
    EXPECT_NE(cache.find(TableKey{7, 0x17, b}), nullptr);
    EXPECT_FALSE(cache.pending(TableKey{7, 0x17, b}));
  }
  EXPECT_TRUE(cache.pending(TableKey{7, 0x17, kBlocks})) << "never asked for";
}

}  // namespace
}  // namespace smd::sa::sa_table_cache_test
