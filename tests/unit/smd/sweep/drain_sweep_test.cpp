// Heavy sweeps with a drain no engine of the chain routes (SweepRunner::set_drain_requests; issue 46 item 3,
// the tester's "sweeps then fail"): routing.engines [ftree] on a leaf-spine fabric and a whole spine drained.
// The drained spine is an island to routing, so the local repair declines ("the switches fall apart into
// islands") and ftree declines ("not connected to the leaves"); the sweep then routes with min-hop
// (kDrainFallbackEngine, as OpenSM falls back to its default engine) instead of leaving the fabric without
// tables. Judged by walking the fake switches' own LFTs, not with the runner's tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/smd/lft_witness.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::drain_sweep_test {
namespace {

using test::FakeFabric;
using test::first_problem;
using test::lid_owners;
using test::lids_sent_over;
using test::SweepRig;

NodeIndex named(const Topology& t, const std::string& description) {
  for (NodeIndex n = 0; n < t.size(); ++n) {
    if (t.node(n).description == description) return n;
  }
  return kNoNode;
}

// Every switch but `drained` delivers every LID but `drained`'s own over the fake switches' LFTs.
void expect_delivers_without(const Topology& t, const FakeFabric& f, NodeIndex drained) {
  const auto owners = lid_owners(t, f);
  for (NodeIndex s : t.switches()) {
    if (s == drained) continue;
    for (const auto& [lid, dst] : owners) {
      if (dst.first == drained) continue;
      NodeIndex here = s;
      bool delivered = false;
      for (unsigned hops = 0; hops <= t.switches().size(); ++hops) {
        const PortNum out = f.lft(here, lid);
        if (out == 0) {
          delivered = here == dst.first && dst.second == 0;
          break;
        }
        ASSERT_LE(out, t.node(here).num_ports) << "LID " << lid;
        const Port& port = t.node(here).ports[out];
        ASSERT_TRUE(port.connected()) << "LID " << lid << " sent out of an empty port";
        ASSERT_NE(port.peer, drained) << "switch " << t.node(here).description << " sends LID " << lid
                                      << " into the drained switch";
        if (!t.node(port.peer).is_switch()) {
          delivered = port.peer == dst.first && port.peer_port == dst.second;
          break;
        }
        here = port.peer;
      }
      EXPECT_TRUE(delivered) << "switch " << t.node(s).description << " LID " << lid;
    }
  }
}

TEST(DrainSweep, ADrainTheChainCannotRouteIsRoutedByMinhopUntilUndrained) {
  auto t = make_leaf_spine({.leaves = 4, .spines = 2, .hosts_per_leaf = 2, .links_per_pair = 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  rig.policy.routing.engines = {"ftree"};
  SweepRunner& runner = rig.runner();
  const SweepSummary first = runner.heavy_sweep();
  ASSERT_TRUE(first.subnet_up) << first_problem(first);
  ASSERT_EQ(first.engine, "ftree");
  const NodeIndex spine = named(rig.topo, "spine-0");
  ASSERT_NE(spine, kNoNode);

  runner.set_drain_requests({{rig.guid(spine), 0}});
  const SweepSummary s = runner.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(s.engine, "minhop");
  const bool said = std::any_of(s.declined.begin(), s.declined.end(), [](const std::string& d) {
    return d.starts_with("chain with the drains: ") && d.find("ftree") != std::string::npos;
  });
  EXPECT_TRUE(said) << "declined: " << (s.declined.empty() ? "" : s.declined.front());
  EXPECT_EQ(runner.drained_cables(), 4u);
  expect_delivers_without(rig.topo, rig.fabric, spine);
  for (const Port& p : rig.topo.node(spine).ports) {
    if (p.connected()) {
      EXPECT_EQ(lids_sent_over(rig.topo, rig.fabric, p.peer, p.peer_port), 0u);
    }
  }

  // Undrained, the chain routes again.
  runner.set_drain_requests({});
  const SweepSummary back = runner.heavy_sweep();
  ASSERT_TRUE(back.subnet_up) << first_problem(back);
  EXPECT_EQ(back.engine, "ftree");
}

// Without drains a chain that fails still fails the sweep: the fallback is for drains only.
TEST(DrainSweep, WithoutDrainsAFailingChainIsNotReplaced) {
  auto t = make_leaf_spine({.leaves = 4, .spines = 2, .hosts_per_leaf = 2, .links_per_pair = 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  rig.policy.routing.engines = {"ftree"};
  // No such switch: ftree refuses its input.
  rig.policy.routing.options = with_ftree_roots(rig.policy.routing.options, {0x1234});
  SweepRunner& runner = rig.runner();
  const SweepSummary s = runner.heavy_sweep();
  EXPECT_FALSE(s.subnet_up);
  EXPECT_NE(first_problem(s).find("routing.ftree.roots"), std::string::npos) << first_problem(s);
}

}  // namespace
}  // namespace smd::drain_sweep_test
