// A switch whose tables were reset behind the SM's back (a reboot with its links up, another SM) must
// get its whole LFT again: the SM notices because the LinearFDBTop it reports is not the one it
// acknowledged. The witness is FakeFabric's own LFT storage, read per LID.
#include <gtest/gtest.h>

#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::switch_reset_test {
namespace {

TEST(SwitchReset, AResetSwitchGetsItsWholeTableAgain) {
  auto t = make_kary_ntree(4, 2);
  ASSERT_TRUE(t.ok());
  test::SweepRig rig(std::move(t.value()));
  ASSERT_TRUE(rig.runner().heavy_sweep().subnet_up);

  const NodeIndex sw = rig.topo.switches().back();
  const Lid top = rig.fabric.lft_top(sw);
  ASSERT_GT(top, 0);
  std::vector<std::uint8_t> before;
  for (Lid lid = 1; lid <= top; ++lid) before.push_back(rig.fabric.lft(sw, lid));
  rig.fabric.reset_switch(sw);
  ASSERT_EQ(rig.fabric.lft(sw, 1), 0xFF);

  const unsigned sets_before = rig.fabric.lft_block_sets();
  const SweepSummary s = rig.runner().heavy_sweep();
  EXPECT_TRUE(s.subnet_up) << test::first_problem(s);
  EXPECT_EQ(rig.fabric.lft_top(sw), top);
  for (Lid lid = 1; lid <= top; ++lid) EXPECT_EQ(rig.fabric.lft(sw, lid), before[lid - 1u]) << "LID " << lid;
  // Only the reset switch was written: every other switch still holds what it acknowledged.
  EXPECT_EQ(rig.fabric.lft_block_sets() - sets_before, (top + 64u) / 64u);
}

}  // namespace
}  // namespace smd::switch_reset_test
