// sm.multicast and the multicast pass that runs between sweeps when the SA's groups change (a join, a
// leave): with the key false (OpenSM's disable_multicast) that pass writes no MFT block, as the sweep's
// multicast phase does not. Found on ibsim (tests/integration/opensm_options_test.sh): a join after the
// subnet came up still reached the switches' MFTs through this pass.
#include <gtest/gtest.h>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::mcast_pass_policy_test {
namespace {

using test::first_problem;
using test::SweepRig;

// A group at the first multicast LID with every CA port of the fabric as a member.
std::vector<McastGroupGuids> every_host(const Topology& t) {
  McastGroupGuids g;
  g.mlid = 0xC000;
  for (NodeIndex n : t.cas()) {
    const Node& node = t.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (node.ports[p].connected()) g.port_guids.push_back(node.ports[p].guid);
    }
  }
  return {g};
}

// Subnet up, then a group appears, then the pass between sweeps: what it did, and the SMPs it cost.
struct PassOutcome {
  McastPassSummary pass;
  std::uint64_t smps = 0;
};
PassOutcome join_after_sweep(bool multicast) {
  auto t = make_two_switch(1, 2);
  EXPECT_TRUE(t.ok());
  SweepRig r(std::move(t.value()));
  r.policy.sm.multicast = multicast;
  const SweepSummary s = r.runner().heavy_sweep();
  EXPECT_TRUE(s.subnet_up) << first_problem(s);
  r.runner().set_mcast_groups(every_host(r.topo));
  const std::uint64_t before = r.sent();
  PassOutcome out;
  out.pass = r.runner().multicast_pass();
  out.smps = r.sent() - before;
  return out;
}

TEST(McastPassPolicy, AJoinBetweenSweepsProgramsTheTreeByDefault) {
  const PassOutcome o = join_after_sweep(true);
  EXPECT_FALSE(o.pass.skipped);
  EXPECT_EQ(o.pass.rebuilt, 1u);
  // Two switches, both on the tree of a group spanning all four hosts: at least one block each.
  EXPECT_GE(o.pass.counts.blocks_written, 2u);
  EXPECT_GE(o.smps, 2u);
}

TEST(McastPassPolicy, NoMftBlockWhenMulticastIsOff) {
  const PassOutcome o = join_after_sweep(false);
  EXPECT_TRUE(o.pass.skipped);
  EXPECT_EQ(o.pass.counts.blocks_written, 0u);
  EXPECT_EQ(o.smps, 0u);
}

}  // namespace
}  // namespace smd::mcast_pass_policy_test
