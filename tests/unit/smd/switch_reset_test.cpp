// A switch whose tables were reset behind the SM's back (a reboot with its links up, another SM) must
// get its whole LFT again: the SM notices because the LinearFDBTop it reports is not the one it
// acknowledged. The witness is FakeFabric's own LFT storage, walked per LID.
#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <filesystem>

#include "fake_fabric.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {
namespace {

TEST(SwitchReset, AResetSwitchGetsItsWholeTableAgain) {
  auto t = make_kary_ntree(4, 2);
  ASSERT_TRUE(t.ok());
  const Topology topo = std::move(t.value());
  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  test::FakeFabric fabric(io, topo);
  std::string dir = (std::filesystem::temp_directory_path() / "smd-reset-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  Policy policy;
  policy.sm.state_dir = dir;
  policy.routing.engines = {"minhop"};
  policy.roce.export_plan = policy.roce.frr = false;
  SweepRunner runner(io, fabric, policy);
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);

  const NodeIndex sw = topo.switches().back();
  const Lid top = fabric.lft_top(sw);
  ASSERT_GT(top, 0);
  std::vector<std::uint8_t> before;
  for (Lid lid = 1; lid <= top; ++lid) before.push_back(fabric.lft(sw, lid));
  fabric.reset_switch(sw);
  ASSERT_EQ(fabric.lft(sw, 1), 0xFF);

  const unsigned sets_before = fabric.lft_block_sets();
  const SweepSummary s = runner.heavy_sweep();
  EXPECT_TRUE(s.subnet_up) << (s.problems.empty() ? "" : s.problems.front().to_string());
  EXPECT_EQ(fabric.lft_top(sw), top);
  for (Lid lid = 1; lid <= top; ++lid) EXPECT_EQ(fabric.lft(sw, lid), before[lid - 1u]) << "LID " << lid;
  // Only the reset switch was written: every other switch still holds what it acknowledged.
  EXPECT_EQ(fabric.lft_block_sets() - sets_before, (top + 64u) / 64u);
  runner.wait_for_roce_files();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace smd
