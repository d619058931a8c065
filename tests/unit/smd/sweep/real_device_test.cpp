// smd against the real-device model of FakeFabric (real_sma.h): what ibsim cannot show. Ports that report
// extended speeds only when PortInfo's modifier bit 31 is set, Sets refused with status 0x1C when a value
// is out of range (and then nothing of them applied), LinearFDBCap 49152. The expected values are the
// policy's and the model's caps, chosen here per port from the topology, not by the code under test.
#include <gtest/gtest.h>

#include <functional>

#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sa/sa_fabric.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::real_device_test {
namespace {

using test::first_problem;
using test::RealPortCaps;
using test::SweepRig;

std::unique_ptr<SweepRig> real_rig(RealPortCaps caps = {}) {
  auto t = make_two_switch(2, 2);
  EXPECT_TRUE(t.ok());
  auto r = std::make_unique<SweepRig>(std::move(t.value()));
  r->fabric.model_real_devices(caps);
  return r;
}

// One SMP to the fake, answered at once.
mad::SmpReply ask(SweepRig& r, mad::SmpRequest req) {
  mad::SmpReply got;
  bool done = false;
  r.fabric.submit(std::move(req), [&](const mad::SmpReply& reply) {
    got = reply;
    done = true;
  });
  while (!done) r.io.run_one();
  return got;
}

// Directed path from the SM (a CA on switch 0) to node `n`: walk the topology breadth-first.
mad::DrPath path_to(const Topology& t, NodeIndex n) {
  std::vector<std::vector<std::uint8_t>> hops(t.size());
  std::vector<bool> seen(t.size(), false);
  std::vector<NodeIndex> queue{t.sm_node};
  seen[t.sm_node] = true;
  hops[t.sm_node] = {};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const Node& node = t.node(queue[i]);
    if (queue[i] != t.sm_node && !node.is_switch()) continue;
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (!port.connected() || seen[port.peer] || (queue[i] == t.sm_node && p != t.sm_port && !node.is_switch())) {
        continue;
      }
      seen[port.peer] = true;
      hops[port.peer] = hops[queue[i]];
      hops[port.peer].push_back(p);
      queue.push_back(port.peer);
    }
  }
  return mad::DrPath(hops[n]);
}

NodeIndex first_switch(const Topology& t) { return t.switches().front(); }

// A switch port cabled to something: the one whose extended speed fields the tests read.
PortNum cabled_port(const Topology& t, NodeIndex sw) {
  for (PortNum p = 1; p <= t.node(sw).num_ports; ++p) {
    if (t.node(sw).ports[p].connected()) return p;
  }
  return 0;
}

TEST(RealDevice, ExtendedSpeedFieldsAnswerOnlyToBit31) {
  auto r = real_rig();
  const NodeIndex sw = first_switch(r->topo);
  const PortNum p = cabled_port(r->topo, sw);
  const mad::DrPath path = path_to(r->topo, sw);
  const auto plain = mad::PortInfo::decode(ask(*r, mad::smp_get(path, mad::attr::kPortInfo, p)).data);
  EXPECT_EQ(plain.link_speed_ext_active, 0);
  EXPECT_EQ(plain.link_speed_ext_supported, 0);
  const auto ext =
      mad::PortInfo::decode(ask(*r, mad::smp_get(path, mad::attr::kPortInfo, mad::port_info_mod(p, true))).data);
  EXPECT_EQ(ext.link_speed_ext_active, 8) << "NDR";
  EXPECT_EQ(ext.link_speed_ext_supported, 15);
  const auto port0 = mad::PortInfo::decode(ask(*r, mad::smp_get(path, mad::attr::kPortInfo, 0)).data);
  EXPECT_NE(port0.capability_mask & mad::capmask::kIsExtendedSpeedsSupported, 0u) << "port 0 speaks for the switch";
  EXPECT_EQ(plain.capability_mask & mad::capmask::kIsExtendedSpeedsSupported, 0u) << "an external port does not";
}

TEST(RealDevice, OutOfRangeSetsAreRefusedWith0x1CAndChangeNothing) {
  auto r = real_rig();
  const NodeIndex sw = first_switch(r->topo);
  const PortNum p = cabled_port(r->topo, sw);
  const mad::DrPath path = path_to(r->topo, sw);
  const auto held = mad::PortInfo::decode(ask(*r, mad::smp_get(path, mad::attr::kPortInfo, p)).data);
  auto set_port = [&](std::uint32_t mod, auto change) {
    mad::PortInfo pi = held;
    pi.port_state = 0;
    pi.port_physical_state = 0;
    pi.hoq_life = 0x13;  // a valid change riding along: it must not be applied either
    change(pi);
    mad::SmpRequest req = mad::smp_get(path, mad::attr::kPortInfo, mod);
    req.method = mad::Method::kSet;
    pi.encode(req.data);
    return ask(*r, req);
  };
  const std::vector<std::pair<std::string, std::function<void(mad::PortInfo&)>>> bad = {
      {"12x width not supported", [](mad::PortInfo& pi) { pi.link_width_enabled = 8; }},
      {"FDR10-era speed bit 8", [](mad::PortInfo& pi) { pi.link_speed_enabled = 8; }},
      {"NeighborMTU 6 above MTUCap 5", [](mad::PortInfo& pi) { pi.neighbor_mtu = 6; }},
      {"OperationalVLs 5 above VLCap 4", [](mad::PortInfo& pi) { pi.operational_vls = 5; }},
      {"PortState Active from Init", [](mad::PortInfo& pi) { pi.port_state = 4; }},
  };
  for (const auto& [why, change] : bad) {
    const mad::SmpReply got = set_port(p, change);
    EXPECT_EQ(got.status, 0x1C) << why;
    EXPECT_EQ(r->fabric.hoq_life(sw, p), 0) << why << ": nothing of a refused Set is applied";
  }
  EXPECT_EQ(set_port(p | 0x100u, [](mad::PortInfo&) {}).status, 0x1C) << "reserved modifier bits";
  EXPECT_EQ(set_port(mad::port_info_mod(p, true), [](mad::PortInfo& pi) { pi.link_speed_ext_enabled = 16; }).status,
            0x1C)
      << "XDR's bit in LinkSpeedExtEnabled on an NDR port";
  EXPECT_EQ(r->fabric.refused_sets(), bad.size() + 2);
  // The same Set with bit 31 clear: the extended enable is ignored, the rest taken.
  const mad::SmpReply ok = set_port(p, [](mad::PortInfo& pi) { pi.link_speed_ext_enabled = 16; });
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(r->fabric.hoq_life(sw, p), 0x13);
  EXPECT_EQ(r->fabric.link_speed_ext_enabled(sw, p), 15) << "held: the SMP did not say it knows extended speeds";

  mad::SmpRequest si = mad::smp_get(path, mad::attr::kSwitchInfo);
  const auto info = mad::SwitchInfo::decode(ask(*r, si).data);
  EXPECT_EQ(info.linear_fdb_cap, test::kRealLinearFdbCap);
  mad::SwitchInfo top = info;
  top.linear_fdb_top = test::kRealLinearFdbCap;
  si.method = mad::Method::kSet;
  top.encode(si.data);
  EXPECT_EQ(ask(*r, si).status, 0x1C) << "LinearFDBTop beyond LinearFDBCap";
  EXPECT_EQ(r->fabric.lft_top(sw), 0);
}

// What OpenSM's defaults give each port (opensm -c, 3.3.23), written out here once.
constexpr std::uint8_t kSubnetTimeOut = 18, kHoqSwitch = 0x12, kHoqLeaf = 0x10, kVlStall = 7, kPhyErr = 8,
                       kOverrun = 8, kLifeTime = 0x12;

TEST(RealDevice, BringUpSetsEveryOwnedFieldWithoutOneRefusedSet) {
  const RealPortCaps caps;
  auto r = real_rig(caps);
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(r->fabric.refused_sets(), 0u) << r->fabric.first_refusal();
  const Topology& t = r->topo;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    if (node.is_switch()) {
      EXPECT_EQ(r->fabric.subnet_timeout(n, 0), kSubnetTimeOut);
      EXPECT_EQ(r->fabric.life_time_value(n), kLifeTime);
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (!node.ports[p].connected()) continue;
      SCOPED_TRACE("node " + std::to_string(n) + " port " + std::to_string(p));
      const bool leaf = !t.node(node.ports[p].peer).is_switch();
      if (node.is_switch()) {
        EXPECT_EQ(r->fabric.hoq_life(n, p), leaf ? kHoqLeaf : kHoqSwitch);
        EXPECT_EQ(r->fabric.vl_stall_count(n, p), kVlStall);
      } else {
        EXPECT_EQ(r->fabric.subnet_timeout(n, p), kSubnetTimeOut) << "hosts time their SA and CM exchanges by it";
        EXPECT_EQ(r->fabric.master_sm_sl(n, p), 0);
      }
      EXPECT_EQ(r->fabric.local_phy_errors(n, p), kPhyErr);
      EXPECT_EQ(r->fabric.overrun_errors(n, p), kOverrun);
      EXPECT_EQ(r->fabric.link_width_enabled(n, p), caps.width_supported) << "255: what the port supports";
      EXPECT_EQ(r->fabric.link_speed_enabled(n, p), caps.speed_supported) << "15: what the port supports";
      EXPECT_EQ(r->fabric.link_speed_ext_enabled(n, p), caps.ext_supported) << "31: what the port supports";
      EXPECT_EQ(r->fabric.state(n, p), 4) << "Active";
    }
  }
}

TEST(RealDevice, PathRatesAreNdrBecauseEveryPortWasReadWithBit31) {
  auto r = real_rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  // A second sweep finds every field held and sends no PortInfo Set: what it knows of each port's speed
  // came from its Gets alone (a Set's answer would also carry the extended speeds, as OpenSM relies on).
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  ASSERT_EQ(s.port_sets, 0u);
  const auto sa = sa::SaFabric::build(r->runner().known_fabric(), r->runner().lids_snapshot(),
                                  r->runner().tables_snapshot(), 0xfe80000000000000ull);
  const Topology& t = sa->topo();  // discovery's numbering, not the rig's
  unsigned checked = 0;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    for (PortNum p = 1; p <= t.node(n).num_ports; ++p) {
      if (!t.node(n).ports[p].connected()) continue;
      EXPECT_EQ(sa->rate(n, p), 21) << "4x NDR is 400 Gb/s, code 21; node " << t.node(n).guid << " port " << +p;
      ++checked;
    }
  }
  EXPECT_GT(checked, 8u);
}

TEST(RealDevice, XdrPortsRate800) {
  RealPortCaps caps;
  caps.xdr = true;
  auto r = real_rig(caps);
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  const auto sa = sa::SaFabric::build(r->runner().known_fabric(), r->runner().lids_snapshot(),
                                  r->runner().tables_snapshot(), 0xfe80000000000000ull);
  for (NodeIndex ca : sa->topo().cas()) EXPECT_EQ(sa->rate(ca, 1), 23) << "4x XDR: 800 Gb/s";
}

TEST(RealDevice, TheNextSweepAsksEveryPortOnceWithBit31) {
  auto r = real_rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  // First sight: a CA port is read, shows the capability, and is read again with the bit (as OpenSM
  // does); a switch's port 0 is read first and its other ports follow with the bit: no second read.
  const Topology& t = r->topo;
  unsigned ca_ports = 0, switch_ports = 0;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    if (t.node(n).is_switch()) {
      switch_ports += t.node(n).num_ports;
    } else {
      for (PortNum p = 1; p <= t.node(n).num_ports; ++p) ca_ports += t.node(n).ports[p].connected() ? 1 : 0;
    }
  }
  const unsigned gets = r->fabric.port_info_gets(), ext = r->fabric.port_info_gets_extended();
  const SweepSummary again = r->runner().heavy_sweep();
  ASSERT_TRUE(again.subnet_up) << first_problem(again);
  const unsigned second_gets = r->fabric.port_info_gets() - gets;
  const unsigned second_ext = r->fabric.port_info_gets_extended() - ext;
  EXPECT_EQ(second_ext, second_gets) << "every Get carries bit 31: the last sweep said they take it";
  EXPECT_GE(second_gets, ca_ports + switch_ports - static_cast<unsigned>(t.switches().size()));
  EXPECT_LE(second_gets, ca_ports + switch_ports + static_cast<unsigned>(t.switches().size()));
}

TEST(RealDevice, AForcedSpeedOutsideWhatThePortSupportsIsCutNotRefused) {
  auto r = real_rig();
  r->policy.ports.force_link_width = 1 | 8;       // 1x | 12x: the ports have no 12x
  r->policy.ports.force_link_speed_ext = 16 | 8;  // XDR | NDR on NDR ports
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(r->fabric.refused_sets(), 0u) << r->fabric.first_refusal();
  const NodeIndex sw = first_switch(r->topo);
  const PortNum p = cabled_port(r->topo, sw);
  EXPECT_EQ(r->fabric.link_width_enabled(sw, p), 1);
  EXPECT_EQ(r->fabric.link_speed_ext_enabled(sw, p), 8);
  EXPECT_EQ(r->fabric.hoq_life(sw, p), r->topo.node(r->topo.node(sw).ports[p].peer).is_switch() ? kHoqSwitch : kHoqLeaf)
      << "the other fields of the Set arrived";
}

}  // namespace
}  // namespace smd::real_device_test
