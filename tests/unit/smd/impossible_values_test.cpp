// Impossible values from the fabric, one test each, through FakeFabric and a whole heavy sweep: the
// report names the node GUID and directed path, nothing is written to the bad node, no table routes
// over what was left out, and the rest of the fabric still comes up.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "fake_fabric.h"
#include "routing/fabric_gen.h"
#include "smd/sweep.h"

namespace smd {
namespace {

std::string temp_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "smd-impossible-XXXXXX").string();
  return mkdtemp(tmpl.data());
}

struct Rig {
  explicit Rig(Topology t) : topo(std::move(t)), fabric(io, topo, 1) {
    policy.sm.state_dir = temp_dir();
    policy.routing.engines = {"minhop"};
  }
  ~Rig() { std::filesystem::remove_all(policy.sm.state_dir); }
  SweepSummary sweep() {
    SweepRunner runner(io, fabric, policy);
    SweepSummary s = runner.heavy_sweep();
    found = runner.topology();
    return s;
  }
  Topology topo;
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard{io.get_executor()};
  test::FakeFabric fabric;
  Policy policy;
  std::shared_ptr<const Topology> found;  // what the sweep discovered and kept
};

// 4 leaves (ports: hosts 1-2, spine-0 on 3, spine-1 on 4), 2 spines (leaf l on port l+1), 8 hosts.
Topology leaf_spine() {
  auto t = make_leaf_spine(LeafSpineSpec{4, 2, 2, 1});
  EXPECT_TRUE(t.ok());
  return std::move(t.value());
}

NodeIndex by_name(const Topology& t, const std::string& name) {
  for (NodeIndex n = 0; n < t.size(); ++n) {
    if (t.node(n).description == name) return n;
  }
  ADD_FAILURE() << "no node " << name;
  return 0;
}

// The DR path discovery takes to a node: BFS from the SM's node, lowest port first (FakeFabric answers
// in submission order, so discovery records exactly these shortest paths).
std::string dr_path_to(const Topology& t, NodeIndex target) {
  std::map<NodeIndex, std::string> path{{t.sm_node, "0"}};
  std::vector<NodeIndex> queue{t.sm_node};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const NodeIndex n = queue[i];
    if (n != t.sm_node && !t.node(n).is_switch()) continue;
    for (PortNum p = 1; p <= t.node(n).num_ports; ++p) {
      const Port& port = t.node(n).ports[p];
      if (port.connected() && !path.count(port.peer)) {
        path[port.peer] = path[n] + "," + std::to_string(p);
        queue.push_back(port.peer);
      }
    }
  }
  return path.count(target) ? path[target] : "?";
}

// The one problem that mentions every one of `words`; fails the test when there is none.
std::string problem_with(const SweepSummary& s, const std::vector<std::string>& words) {
  for (const std::string& p : s.problems) {
    bool all = true;
    for (const auto& w : words) all = all && p.find(w) != std::string::npos;
    if (all) return p;
  }
  std::string seen;
  for (const std::string& p : s.problems) seen += "\n  " + p;
  ADD_FAILURE() << "no problem mentions all of the expected words; problems:" << seen;
  return "";
}

// Every cable the sweep kept exists in the real fabric, port for port (a wrong cable is a wrong table).
void expect_only_real_cables(const Topology& real, const Topology& found) {
  for (NodeIndex n = 0; n < found.size(); ++n) {
    const Node& fn = found.node(n);
    const auto rn = real.find(fn.guid);
    ASSERT_TRUE(rn.has_value()) << format_guid(fn.guid);
    for (PortNum p = 1; p <= fn.num_ports; ++p) {
      if (!fn.ports[p].connected()) continue;
      const Port& rp = real.node(*rn).ports[p];
      ASSERT_TRUE(rp.connected()) << fn.description << " port " << int(p) << " is not cabled in the real fabric";
      EXPECT_EQ(real.node(rp.peer).guid, found.node(fn.ports[p].peer).guid) << fn.description << " port " << int(p);
      EXPECT_EQ(rp.peer_port, fn.ports[p].peer_port) << fn.description << " port " << int(p);
    }
  }
}

// Walk the fake switches' own LFTs from every switch that holds tables to every host that got a LID;
// each walk must reach the host without crossing a cable in `avoid` (pairs of node, port).
void expect_hosts_reached(const Topology& real, const test::FakeFabric& f, const std::vector<NodeIndex>& hosts,
                          const std::set<std::pair<NodeIndex, PortNum>>& avoid = {}) {
  for (NodeIndex s : real.switches()) {
    if (f.lft_block_sets(s) == 0) continue;
    for (NodeIndex h : hosts) {
      const Lid lid = f.lid(h, 1);
      ASSERT_NE(lid, 0) << real.node(h).description << " has no LID";
      NodeIndex here = s;
      bool delivered = false;
      for (unsigned hops = 0; hops <= real.size() && !delivered; ++hops) {
        const PortNum out = f.lft(here, lid);
        ASSERT_TRUE(out >= 1 && out <= real.node(here).num_ports)
            << real.node(s).description << " -> " << real.node(h).description << ": port " << int(out) << " at "
            << real.node(here).description;
        EXPECT_FALSE(avoid.count({here, out}))
            << real.node(here).description << " routes out of left-out port " << int(out);
        const Port& port = real.node(here).ports[out];
        ASSERT_TRUE(port.connected());
        if (!real.node(port.peer).is_switch()) {
          ASSERT_EQ(port.peer, h) << "LID " << lid << " delivered to the wrong host";
          delivered = true;
        }
        here = port.peer;
      }
      EXPECT_TRUE(delivered) << real.node(s).description << " -> " << real.node(h).description;
    }
  }
}

std::vector<NodeIndex> all_hosts_but(const Topology& t, const std::set<NodeIndex>& except) {
  std::vector<NodeIndex> out;
  for (NodeIndex c : t.cas()) {
    if (!except.count(c)) out.push_back(c);
  }
  return out;
}

TEST(ImpossibleValues, SwitchWithNumPortsZeroIsLeftOutAndTheRestComesUp) {
  Rig rig(leaf_spine());
  const NodeIndex spine = by_name(rig.topo, "spine-1");
  rig.fabric.override_num_ports(spine, 0);
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  // Reached first from leaf-0 port 4: DR path 0,1,4.
  EXPECT_EQ(dr_path_to(rig.topo, spine), "0,1,4");
  problem_with(s, {format_guid(rig.topo.node(spine).guid), "at DR path 0,1,4", "NodeInfo", "impossible NumPorts 0"});
  EXPECT_EQ(rig.fabric.lft_block_sets(spine), 0u);
  EXPECT_FALSE(rig.found->find(rig.topo.node(spine).guid).has_value());
  std::set<std::pair<NodeIndex, PortNum>> avoid;
  for (unsigned l = 0; l < 4; ++l) avoid.insert({by_name(rig.topo, "leaf-" + std::to_string(l)), 4});  // to spine-1
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, {}), avoid);
}

TEST(ImpossibleValues, CaWithNumPortsAbove254IsLeftOut) {
  Rig rig(leaf_spine());
  const NodeIndex host = by_name(rig.topo, "host-5");
  rig.fabric.override_num_ports(host, 255);
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  problem_with(s, {format_guid(rig.topo.node(host).guid), "at DR path " + dr_path_to(rig.topo, host),
                   "impossible NumPorts 255"});
  EXPECT_EQ(rig.fabric.lid(host, 1), 0) << "a node that was left out gets no LID";
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, {host}));
}

// Decision (documented in docs/architecture.md): a CA port that is Active with LID 0 is accepted and
// given a LID; the sweep fails only when the port then still does not hold the LID the SM set.
TEST(ImpossibleValues, ActiveCaPortWithLidZeroIsLoggedAndGivenALid) {
  Rig rig(leaf_spine());
  const NodeIndex host = by_name(rig.topo, "host-3");
  rig.fabric.set_port(host, 1, 4, 0);
  std::ostringstream log;
  auto previous = spdlog::default_logger();
  auto capture = std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(log));
  spdlog::set_default_logger(capture);
  const SweepSummary s = rig.sweep();
  spdlog::set_default_logger(previous);
  EXPECT_TRUE(s.subnet_up) << (s.problems.empty() ? "" : s.problems.front());
  const std::string text = log.str();
  EXPECT_NE(text.find("node " + format_guid(rig.topo.node(host).guid) + " port 1 at DR path " +
                      dr_path_to(rig.topo, host) + ": Active with LID 0"),
            std::string::npos)
      << text;
  EXPECT_NE(rig.fabric.lid(host, 1), 0);
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, {}));
}

TEST(ImpossibleValues, ActivePortThatKeepsLidZeroFailsTheSweepByName) {
  Rig rig(leaf_spine());
  const NodeIndex host = by_name(rig.topo, "host-6");
  rig.fabric.set_port(host, 1, 4, 0);
  rig.fabric.stick_lid(host, 1);
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  problem_with(s, {format_guid(rig.topo.node(host).guid), "at DR path " + dr_path_to(rig.topo, host), "PortInfo Set 1",
                   "not taken (port reports 0)"});
  EXPECT_EQ(rig.fabric.lid(host, 1), 0);
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, {host}));
}

TEST(ImpossibleValues, CableWhoseFarEndReportsDownIsLeftOut) {
  Rig rig(leaf_spine());
  const NodeIndex leaf = by_name(rig.topo, "leaf-0");
  const NodeIndex spine = by_name(rig.topo, "spine-1");
  rig.fabric.report_port_down(spine, 1);  // spine-1 port 1 is cabled to leaf-0 port 4 and forwards
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  const std::string p =
      problem_with(s, {format_guid(rig.topo.node(leaf).guid), "at DR path 0,1", "PortInfo 4", "the two ends disagree",
                       format_guid(rig.topo.node(spine).guid) + " port 1", "reports Down", "cable left out"});
  const auto found_leaf = rig.found->find(rig.topo.node(leaf).guid);
  ASSERT_TRUE(found_leaf.has_value());
  EXPECT_FALSE(rig.found->node(*found_leaf).ports[4].connected());
  expect_only_real_cables(rig.topo, *rig.found);
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, {}), {{leaf, 4}, {spine, 1}});
}

TEST(ImpossibleValues, WrongLocalPortNumNeverBecomesAWrongCable) {
  Rig rig(leaf_spine());
  const NodeIndex spine = by_name(rig.topo, "spine-0");
  // spine-0 says every SMP came in by port 2 (leaf-1's); leaf-0 really reaches it on spine port 1.
  rig.fabric.override_local_port(spine, 2);
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  problem_with(s, {format_guid(rig.topo.node(spine).guid), "DR path 0,1,3", "wrong LocalPortNum", "cables left out"});
  expect_only_real_cables(rig.topo, *rig.found);
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, {}));
}

TEST(ImpossibleValues, DuplicateGuidLeavesTheSecondNodeOutWithBothPaths) {
  Rig rig(leaf_spine());
  const NodeIndex first = by_name(rig.topo, "leaf-0");
  const NodeIndex second = by_name(rig.topo, "leaf-2");
  rig.fabric.override_guid(second, rig.topo.node(first).guid);
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  problem_with(s, {format_guid(rig.topo.node(first).guid), "at DR path " + dr_path_to(rig.topo, second),
                   "duplicate GUID", "first seen at 0,1"});
  EXPECT_EQ(rig.fabric.lft_block_sets(second), 0u);
  expect_only_real_cables(rig.topo, *rig.found);
  const auto& hosts_of_second = std::set<NodeIndex>{by_name(rig.topo, "host-4"), by_name(rig.topo, "host-5")};
  for (NodeIndex h : hosts_of_second) EXPECT_EQ(rig.fabric.lid(h, 1), 0);
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, hosts_of_second),
                       {{by_name(rig.topo, "spine-0"), 3}, {by_name(rig.topo, "spine-1"), 3}});
}

// A perfect clone of the SM's own host (same NodeGUID, SystemImageGUID and PortGUID) elsewhere: the SM's
// own cable is where its SMPs go, so the clone's claim on that port is the one refused.
TEST(ImpossibleValues, CloneOfTheSmHostNeverTakesTheSmCable) {
  Rig rig(leaf_spine());
  const NodeIndex sm = rig.topo.sm_node;
  const NodeIndex clone = by_name(rig.topo, "host-3");
  rig.fabric.impersonate(clone, sm);
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  problem_with(s, {format_guid(rig.topo.node(sm).guid), "at DR path " + dr_path_to(rig.topo, clone),
                   "duplicate GUID or a wrong LocalPortNum", "the SM node's own cable kept"});
  expect_only_real_cables(rig.topo, *rig.found);
  EXPECT_EQ(rig.fabric.lid(clone, 1), 0);
  EXPECT_NE(rig.fabric.lid(sm, 1), 0);
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, {clone}));
}

TEST(ImpossibleValues, SwitchWithLinearFdbCapZeroGetsNoTableAndNoRouteGoesThroughIt) {
  Topology t = leaf_spine();
  const NodeIndex spine = by_name(t, "spine-0");
  t.mutable_node(spine).lft_cap = 0;
  Rig rig(std::move(t));
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  problem_with(s, {format_guid(rig.topo.node(spine).guid), "at DR path 0,1,3", "SwitchInfo", "LinearFDBCap is 0"});
  EXPECT_EQ(rig.fabric.lft_block_sets(spine), 0u);
  EXPECT_FALSE(rig.found->find(rig.topo.node(spine).guid).has_value());
  std::set<std::pair<NodeIndex, PortNum>> avoid;
  for (unsigned l = 0; l < 4; ++l) avoid.insert({by_name(rig.topo, "leaf-" + std::to_string(l)), 3});  // to spine-0
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, {}), avoid);
}

TEST(ImpossibleValues, LeafWithLinearFdbCapZeroTakesItsHostsOutByName) {
  Topology t = leaf_spine();
  const NodeIndex leaf = by_name(t, "leaf-3");
  t.mutable_node(leaf).lft_cap = 0;
  Rig rig(std::move(t));
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  problem_with(s, {format_guid(rig.topo.node(leaf).guid), "LinearFDBCap is 0"});
  problem_with(s, {"2 nodes reachable only through what was left out", "(host-6) at DR path", "(host-7) at DR path"});
  EXPECT_EQ(rig.fabric.lft_block_sets(leaf), 0u);
  const std::set<NodeIndex> cut{by_name(rig.topo, "host-6"), by_name(rig.topo, "host-7")};
  for (NodeIndex h : cut) EXPECT_EQ(rig.fabric.lid(h, 1), 0);
  expect_hosts_reached(rig.topo, rig.fabric, all_hosts_but(rig.topo, cut));
}

// A line of 66 switches with a host at each end: the SM on host-0 reaches sw-62 over 63 hops, the
// directed-route limit (IBA 14.2.2); sw-63 and beyond are out of reach and named as such.
TEST(ImpossibleValues, PathBeyond63HopsIsReportedAndTheReachablePartComesUp) {
  constexpr unsigned kSwitches = 66;
  Topology t;
  Guid guid = 0x100000;
  auto add = [&](NodeType type, unsigned ports, const std::string& name) {
    Node n;
    n.type = type;
    n.num_ports = static_cast<PortNum>(ports);
    n.ports.resize(ports + 1);
    n.guid = n.system_image_guid = ++guid;
    for (Port& p : n.ports) p.guid = type == NodeType::kSwitch ? n.guid : n.guid + 0x1000;
    n.description = name;
    if (type == NodeType::kSwitch) n.lft_cap = 1024;
    auto r = t.add_node(std::move(n));
    EXPECT_TRUE(r.ok());
    return r.value();
  };
  const NodeIndex h0 = add(NodeType::kCa, 1, "host-0");
  std::vector<NodeIndex> sw;
  for (unsigned i = 0; i < kSwitches; ++i) sw.push_back(add(NodeType::kSwitch, 3, "sw-" + std::to_string(i)));
  const NodeIndex h1 = add(NodeType::kCa, 1, "host-1");
  ASSERT_TRUE(t.connect(h0, 1, sw[0], 3).ok());
  for (unsigned i = 0; i + 1 < kSwitches; ++i) ASSERT_TRUE(t.connect(sw[i], 2, sw[i + 1], 1).ok());
  ASSERT_TRUE(t.connect(sw[kSwitches - 1], 3, h1, 1).ok());
  t.sm_node = h0;
  t.sm_port = 1;
  Rig rig(std::move(t));
  const SweepSummary s = rig.sweep();
  EXPECT_FALSE(s.subnet_up);
  std::string path = "0,1";
  for (unsigned i = 0; i < 62; ++i) path += ",2";  // 63 hops: host-0 -> sw-0 -> ... -> sw-62
  problem_with(
      s, {format_guid(rig.topo.node(sw[62]).guid), "at DR path " + path + ": PortInfo 2", "would exceed 63 hops"});
  for (unsigned i = 0; i <= 62; ++i) EXPECT_GT(rig.fabric.lft_block_sets(sw[i]), 0u) << "sw-" << i;
  for (unsigned i = 63; i < kSwitches; ++i) EXPECT_EQ(rig.fabric.lft_block_sets(sw[i]), 0u) << "sw-" << i;
  EXPECT_EQ(rig.fabric.lid(h1, 1), 0);
  EXPECT_EQ(rig.found->size(), 1u + 63u);
  expect_hosts_reached(rig.topo, rig.fabric, {h0});
}

}  // namespace
}  // namespace smd
