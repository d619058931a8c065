// The "partitions configured (P_Key tables)" phase and ClientReregister in whole heavy sweeps against
// FakeFabric: two switches cabled once, two hosts on each (make_two_switch(1, 2)); CAs PartitionCap 64,
// switch port 0 PartitionCap 8, PartitionEnforcementCap 64 (as ibsim). Expected block counts follow from
// those caps: a CA port has 2 blocks, switch port 0 one, a switch port facing a CA 2.
#include <gtest/gtest.h>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::pkey_sweep_test {
namespace {

using test::first_problem;
using test::SweepRig;

std::unique_ptr<SweepRig> rig() {
  auto t = make_two_switch(1, 2);
  EXPECT_TRUE(t.ok());
  auto r = std::make_unique<SweepRig>(std::move(t.value()));
  r->fabric.enable_partitions(64, 8, 64);
  return r;
}

// (CA node, CA port, switch, switch port) for every host cable.
struct HostLink {
  NodeIndex ca;
  PortNum ca_port;
  NodeIndex sw;
  PortNum sw_port;
};
std::vector<HostLink> host_links(const Topology& t) {
  std::vector<HostLink> out;
  for (NodeIndex n : t.cas()) {
    const Node& node = t.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (node.ports[p].connected()) out.push_back({n, p, node.ports[p].peer, node.ports[p].peer_port});
    }
  }
  return out;
}

TEST(PKeySweep, FirstSweepWritesEveryTableOnceAndTheNextWritesNothing) {
  auto r = rig();
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(s.pkey_blocks_written, 4u * 2 + 2u * 1 + 4u * 2);
  EXPECT_EQ(s.pkey_blocks_skipped, 0u);
  for (const HostLink& h : host_links(r->topo)) {
    EXPECT_EQ(r->fabric.pkey(h.ca, h.ca_port, 0), 0xffff) << "full default at index 0 (IPoIB)";
    EXPECT_EQ(r->fabric.pkey(h.ca, h.ca_port, 1), 0);
    EXPECT_EQ(r->fabric.pkey(h.sw, h.sw_port, 0), 0xffff) << "the enforcement copy";
    EXPECT_TRUE(r->fabric.enforce_in(h.sw, h.sw_port));
    EXPECT_TRUE(r->fabric.enforce_out(h.sw, h.sw_port));
    EXPECT_EQ(r->fabric.state(h.sw, h.sw_port), 4) << "the enforcement Set did not undo the link bring-up";
  }
  for (NodeIndex sw : r->topo.switches()) {
    EXPECT_EQ(r->fabric.pkey(sw, 0, 0), 0xffff);
    for (PortNum p = 1; p <= r->topo.node(sw).num_ports; ++p) {
      const Port& port = r->topo.node(sw).ports[p];
      if (port.connected() && r->topo.node(port.peer).is_switch()) {
        EXPECT_FALSE(r->fabric.enforce_in(sw, p)) << "no enforcement between switches";
      }
    }
  }
  const unsigned sets = r->fabric.pkey_block_sets();
  const SweepSummary again = r->runner().heavy_sweep();
  ASSERT_TRUE(again.subnet_up) << first_problem(again);
  EXPECT_EQ(again.pkey_blocks_written, 0u);
  EXPECT_EQ(again.pkey_blocks_skipped, 18u);
  EXPECT_EQ(r->fabric.pkey_block_sets(), sets);
}

TEST(PKeySweep, APolicyReloadRewritesOnlyTheBlocksThatChanged) {
  auto r = rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  const HostLink h = host_links(r->topo).back();
  const Guid port_guid = r->topo.node(h.ca).ports[h.ca_port].guid;

  Policy reloaded = r->policy;
  PartitionSpec storage;
  storage.name = "storage";
  storage.pkey = 0x0010;
  storage.members.push_back({MemberSelector::kPortGuid, port_guid, {}, Membership::kFull, "test"});
  reloaded.partitions.partitions.push_back(storage);
  r->runner().set_policy(reloaded);
  const unsigned before = r->fabric.pkey_block_sets();
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(s.pkey_blocks_written, 2u) << "block 0 of the CA port and block 0 of its switch port";
  EXPECT_EQ(r->fabric.pkey_block_sets() - before, 2u);
  EXPECT_EQ(r->fabric.pkey(h.ca, h.ca_port, 0), 0xffff);
  EXPECT_EQ(r->fabric.pkey(h.ca, h.ca_port, 1), 0x8010);
  EXPECT_EQ(r->fabric.pkey(h.sw, h.sw_port, 1), 0x8010);
  ASSERT_NE(r->runner().partitions_snapshot(), nullptr);
  EXPECT_EQ(r->runner().partitions_snapshot()->pkeys_of(port_guid), (std::vector<PKey>{0xffff, 0x8010}));

  // And back: the entry leaves its slot empty, nothing else moves.
  r->runner().set_policy(r->policy);
  const SweepSummary back = r->runner().heavy_sweep();
  EXPECT_EQ(back.pkey_blocks_written, 2u);
  EXPECT_EQ(r->fabric.pkey(h.ca, h.ca_port, 1), 0);
  EXPECT_EQ(r->fabric.pkey(h.ca, h.ca_port, 0), 0xffff);
}

TEST(PKeySweep, ASwitchThatWasResetGetsItsTablesAgain) {
  auto r = rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  const NodeIndex sw = r->topo.switches().front();
  r->fabric.reset_switch(sw);  // LinearFDBTop 0: the SM sees the reset and believes nothing it held
  const SweepSummary s = r->runner().heavy_sweep();
  EXPECT_EQ(s.pkey_blocks_written, 1u + 2u * 2) << "port 0 and its two ports facing CAs";
  EXPECT_EQ(s.pkey_blocks_skipped, 18u - 5u);
}

TEST(PKeySweep, ClientReregisterOnTheFirstMasterSweepAndAfterStandingBy) {
  auto r = rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  const auto links = host_links(r->topo);
  for (const HostLink& h : links) EXPECT_EQ(r->fabric.reregisters(h.ca, h.ca_port), 1u);
  for (NodeIndex sw : r->topo.switches()) EXPECT_EQ(r->fabric.reregisters(sw, 0), 1u);

  const SweepSummary again = r->runner().heavy_sweep();
  EXPECT_EQ(again.client_reregisters, 0u);
  EXPECT_EQ(again.port_sets, 0u) << "a configured fabric gets no PortInfo Set";
  for (const HostLink& h : links) EXPECT_EQ(r->fabric.reregisters(h.ca, h.ca_port), 1u);

  r->runner().forget_programming();  // stood by; master again
  const SweepSummary master = r->runner().heavy_sweep();
  EXPECT_EQ(master.client_reregisters, 6u) << "4 CA ports and 2 switch ports 0";
  for (const HostLink& h : links) EXPECT_EQ(r->fabric.reregisters(h.ca, h.ca_port), 2u);
}

// sm.client_reregister false (OpenSM's no_clients_rereg): no PortInfo Set carries the bit, on the first
// master sweep nor after standing by.
TEST(PKeySweep, NoClientReregisterWhenThePolicySaysSo) {
  auto r = rig();
  r->policy.sm.client_reregister = false;
  const SweepSummary first = r->runner().heavy_sweep();
  ASSERT_TRUE(first.subnet_up);
  EXPECT_EQ(first.client_reregisters, 0u);
  for (const HostLink& h : host_links(r->topo)) EXPECT_EQ(r->fabric.reregisters(h.ca, h.ca_port), 0u);
  for (NodeIndex sw : r->topo.switches()) EXPECT_EQ(r->fabric.reregisters(sw, 0), 0u);
  r->runner().forget_programming();
  const SweepSummary master = r->runner().heavy_sweep();
  EXPECT_EQ(master.client_reregisters, 0u);
  for (const HostLink& h : host_links(r->topo)) EXPECT_EQ(r->fabric.reregisters(h.ca, h.ca_port), 0u);
}

// A port one sweep does not find has left its multicast groups in the SA; when it comes back it must be
// told to join again, although the SM told it once already.
TEST(PKeySweep, APortThatLeftAndCameBackIsToldToReregisterAgain) {
  auto r = rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  const auto links = host_links(r->topo);
  const HostLink& gone = links.back();
  ASSERT_NE(gone.ca, r->topo.sm_node);
  r->fabric.unlink(gone.ca, gone.ca_port);
  const SweepSummary without = r->runner().heavy_sweep();
  EXPECT_EQ(without.client_reregisters, 0u);
  r->fabric.relink(gone.ca, gone.ca_port);
  const SweepSummary back = r->runner().heavy_sweep();
  EXPECT_EQ(back.client_reregisters, 1u);
  for (const HostLink& h : links) {
    EXPECT_EQ(r->fabric.reregisters(h.ca, h.ca_port), h.ca == gone.ca ? 2u : 1u) << h.ca;
  }
}

// The SM's own cable down: the SM sees only itself. That is no subnet to configure: the sweep is not up,
// and the state of the last one (topology, LIDs) stays for when the cable is back.
TEST(PKeySweep, TheSmsOwnCableDownIsNoSubnetAndKeepsTheLastOne) {
  auto r = rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  const std::size_t links = r->topo.link_count();
  const Lid sm_lid = r->runner().lids().base_lid(r->topo.sm_node, r->topo.sm_port);
  ASSERT_NE(sm_lid, 0);
  r->fabric.unlink(r->topo.sm_node, r->topo.sm_port);
  const SweepSummary cut = r->runner().heavy_sweep();
  EXPECT_FALSE(cut.subnet_up);
  ASSERT_EQ(cut.problems.size(), 1u);
  EXPECT_EQ(cut.problems[0].code, ProblemCode::kNotActive);
  EXPECT_NE(cut.problems[0].reason.find("own port has no link"), std::string::npos) << cut.problems[0].reason;
  ASSERT_NE(r->runner().topology(), nullptr);
  EXPECT_EQ(r->runner().topology()->link_count(), links) << "the last subnet is kept";
  EXPECT_EQ(r->runner().lids().base_lid(r->topo.sm_node, r->topo.sm_port), sm_lid);

  r->fabric.relink(r->topo.sm_node, r->topo.sm_port);
  const SweepSummary back = r->runner().heavy_sweep();
  EXPECT_TRUE(back.subnet_up) << first_problem(back);
  EXPECT_EQ(back.client_reregisters, 0u) << "nobody left: the hosts were never cut off from each other";
}

}  // namespace
}  // namespace smd::pkey_sweep_test
