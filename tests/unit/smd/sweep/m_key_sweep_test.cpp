// M_Key (IBA 14.2.4) through whole sweeps against FakeFabric, whose SMAs enforce the key: smd writes
// security.m_key into every endport, carries it in every later SMP (so a second sweep still works on a
// protected fabric), and an SM without the key is locked out.
#include <gtest/gtest.h>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::m_key_sweep_test {
namespace {

constexpr std::uint64_t kKey = 0x0123456789ABCDEFULL;

using test::first_problem;
using test::SweepRig;

// Every case's fabric: 4 leaves, 2 spines, 3 hosts a leaf, 2 cables between each leaf and spine.
Topology leaf_spine() { return make_leaf_spine(LeafSpineSpec{4, 2, 3, 2}).value(); }

// The SM's policy: our key at protection level 2 (Gets need it too), a 30 s lease.
void use_key(SweepRig& rig) {
  rig.policy.security.m_key = kKey;
  rig.policy.security.m_key_protect = 2;
  rig.policy.security.m_key_lease_period_s = 30;
}

TEST(MKeySweep, EveryEndportGetsTheKeyAndLaterSweepsStillWork) {
  SweepRig rig(leaf_spine());
  use_key(rig);
  SweepRunner& runner = rig.runner();
  const SweepSummary first = runner.heavy_sweep();
  ASSERT_TRUE(first.subnet_up) << first_problem(first);
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    const PortNum p = rig.topo.node(n).is_switch() ? 0 : 1;
    EXPECT_EQ(rig.fabric.m_key(n, p), kKey) << rig.topo.node(n).description;
    EXPECT_EQ(rig.fabric.m_key_protect(n, p), 2);
    EXPECT_EQ(rig.fabric.m_key_lease_period(n, p), 30);
  }
  EXPECT_EQ(rig.fabric.m_key_violations(), 0u);

  // Level 2 protects Gets too: a second sweep only discovers anything because it carries the key.
  const SweepSummary second = runner.heavy_sweep();
  ASSERT_TRUE(second.subnet_up) << first_problem(second);
  EXPECT_EQ(second.switches, first.switches);
  EXPECT_EQ(second.cas, first.cas);
  EXPECT_EQ(second.port_sets, 0u);  // the key, protection and lease were read back as already right
  EXPECT_EQ(rig.fabric.m_key_violations(), 0u);
}

TEST(MKeySweep, AnSmWithoutTheKeyIsLockedOut) {
  SweepRig rig(leaf_spine());
  use_key(rig);
  {
    SweepRunner owner(rig.io, rig.fabric, rig.policy);
    ASSERT_TRUE(owner.heavy_sweep().subnet_up);
  }
  Policy stranger = rig.policy;
  stranger.security = SecurityPolicy{};
  stranger.sm.state_dir = rig.policy.sm.state_dir + "/stranger";
  SweepRunner rogue(rig.io, rig.fabric, stranger);
  const SweepSummary s = rogue.heavy_sweep();
  EXPECT_FALSE(s.subnet_up);
  EXPECT_GT(rig.fabric.m_key_violations(), 0u);
  // Nothing past the SM's own port answers a keyless Get at level 2: the rogue sees at most its own CA.
  EXPECT_EQ(s.switches, 0u);
}

TEST(MKeySweep, NoKeyConfiguredLeavesPortsUnprotected) {
  SweepRig rig(leaf_spine());  // no use_key(): security stays as a policy without a key has it
  ASSERT_TRUE(rig.runner().heavy_sweep().subnet_up);
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    EXPECT_EQ(rig.fabric.m_key(n, rig.topo.node(n).is_switch() ? 0 : 1), 0u);
  }
}

}  // namespace
}  // namespace smd::m_key_sweep_test
