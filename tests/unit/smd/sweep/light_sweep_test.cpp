// Light sweep against FakeFabric: PortStateChange makes a heavy sweep due; a switch that lost its
// SwitchInfo answer is asked again, and only one that never answers counts as a change.
#include "smd/sweep/light_sweep.h"

#include <gtest/gtest.h>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/discovery.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::light_sweep_test {
namespace {

using test::SweepRig;

Topology leaf_spine() {
  auto t = make_leaf_spine(LeafSpineSpec{4, 2, 2, 1});
  EXPECT_TRUE(t.ok());
  return std::move(t.value());
}

// The fabric as discovery sees it (with directed paths), as the daemon's light sweeps get it.
std::shared_ptr<Topology> discovered(SweepRig& rig) {
  ObservedFabric d = discover_fabric(rig.batch);
  EXPECT_TRUE(d.problems.empty());
  return d.topo;
}

TEST(LightSweep, QuietFabricNeedsNoHeavySweep) {
  SweepRig rig(leaf_spine());
  const auto topo = discovered(rig);
  const LightSweepResult r = light_sweep(rig.batch, *topo, 2);
  EXPECT_FALSE(r.change) << r.reason;
  EXPECT_EQ(r.switches_polled, rig.topo.switches().size());
  EXPECT_EQ(topo->switches().size(), rig.topo.switches().size());
  EXPECT_EQ(r.asked_again, 0u);
}

TEST(LightSweep, SwitchThatLostItsAnswerIsAskedAgain) {
  SweepRig rig(leaf_spine());
  const auto topo = discovered(rig);
  const NodeIndex spine = rig.topo.switches().back();
  rig.fabric.drop_next(spine, 4);  // every attempt of one request (1 + 3 retries)
  const LightSweepResult r = light_sweep(rig.batch, *topo, 1);
  EXPECT_FALSE(r.change) << r.reason;
  EXPECT_EQ(r.asked_again, 1u);
}

TEST(LightSweep, SwitchThatNeverAnswersIsAChange) {
  SweepRig rig(leaf_spine());
  const auto topo = discovered(rig);
  const NodeIndex spine = rig.topo.switches().back();
  rig.fabric.silence(spine);
  const LightSweepResult r = light_sweep(rig.batch, *topo, 2);
  EXPECT_TRUE(r.change);
  EXPECT_EQ(r.asked_again, 2u);
  EXPECT_NE(r.reason.find(format_guid(rig.topo.node(spine).guid)), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("did not answer SwitchInfo 3 times"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace smd::light_sweep_test
