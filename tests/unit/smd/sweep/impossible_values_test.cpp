// Impossible values from the fabric, one test each, through FakeFabric and a whole heavy sweep: the
// report names the node GUID and directed path, nothing is written to the bad node, no table routes
// over what was left out, and the rest of the fabric still comes up.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::impossible_values_test {
namespace {

using Cables = std::set<std::pair<NodeIndex, PortNum>>;  // (node, port) pairs, one end of each cable

constexpr unsigned kLeaves = 4;

// 4 leaves (ports: hosts 1-2, spine-0 on 3, spine-1 on 4), 2 spines (leaf l on port l+1), 8 hosts.
Topology leaf_spine() {
  auto t = make_leaf_spine(LeafSpineSpec{kLeaves, 2, 2, 1});
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
  for (const SweepProblem& problem : s.problems) {
    const std::string p = problem.to_string();
    bool all = true;
    for (const auto& w : words) all = all && p.find(w) != std::string::npos;
    if (all) return p;
  }
  std::string seen;
  for (const SweepProblem& p : s.problems) seen += "\n  " + p.to_string();
  ADD_FAILURE() << "no problem mentions all of the expected words; problems:" << seen;
  return "";
}

// Most reports name a node's GUID and "at DR path <path>" besides their own words; this adds those two.
std::string problem_naming(const SweepSummary& s, const std::string& guid, const std::string& path,
                           std::vector<std::string> words) {
  words.push_back(guid);
  words.push_back("at DR path " + path);
  return problem_with(s, words);
}

// One test's fabric (the shared sweep rig, each SMP tried once more after a loss) and what a sweep kept.
// The expect_* members are the checks the tests share after a sweep over a damaged value.
struct DamagedFabric : test::SweepRig {
  DamagedFabric() : DamagedFabric(leaf_spine()) {}
  explicit DamagedFabric(Topology t) : SweepRig(std::move(t), 1) {}

  SweepSummary sweep() {
    SweepRunner runner(io, fabric, policy);
    SweepSummary s = runner.heavy_sweep();
    found = runner.topology();
    return s;
  }

  // Every damaged value but one must fail the sweep; that is checked here once.
  SweepSummary failed_sweep() {
    SweepSummary s = sweep();
    EXPECT_FALSE(s.subnet_up) << "the damaged value should fail the sweep";
    return s;
  }

  // The sweep with spdlog's default logger captured, for a check on what the log tells a person.
  std::pair<SweepSummary, std::string> sweep_with_log() {
    std::ostringstream log;
    struct Restore {
      std::shared_ptr<spdlog::logger> previous = spdlog::default_logger();
      ~Restore() { spdlog::set_default_logger(previous); }
    } restore;
    spdlog::set_default_logger(
        std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(log)));
    SweepSummary s = sweep();
    return {std::move(s), log.str()};
  }

  // What the checks name a node by: its description, its GUID as reports print it, its DR path.
  NodeIndex node(const std::string& name) const { return by_name(topo, name); }
  std::string guid_of(NodeIndex n) const { return format_guid(topo.node(n).guid); }
  std::string path_to(NodeIndex n) const { return dr_path_to(topo, n); }

  // Port `port` of every leaf: the leaf ends of the cables to one spine.
  Cables every_leaf_port(PortNum port) const {
    Cables out;
    for (unsigned l = 0; l < kLeaves; ++l) out.insert({node("leaf-" + std::to_string(l)), port});
    return out;
  }

  // A switch that was left out got no table and is not in what the sweep kept.
  void expect_switch_left_out(NodeIndex sw) const {
    EXPECT_EQ(fabric.lft_block_sets(sw), 0u) << topo.node(sw).description;
    EXPECT_FALSE(found->find(topo.node(sw).guid).has_value()) << topo.node(sw).description;
  }

  // A host that was left out (or is reachable only through what was) gets no LID.
  void expect_no_lid(const std::set<NodeIndex>& hosts) const {
    for (NodeIndex h : hosts) {
      EXPECT_EQ(fabric.lid(h, 1), 0) << topo.node(h).description << ": a node that was left out gets no LID";
    }
  }

  // Every cable the sweep kept exists in the real fabric, port for port (a wrong cable is a wrong table).
  void expect_only_real_cables() const {
    for (NodeIndex n = 0; n < found->size(); ++n) {
      const Node& fn = found->node(n);
      const auto rn = topo.find(fn.guid);
      ASSERT_TRUE(rn.has_value()) << format_guid(fn.guid);
      for (PortNum p = 1; p <= fn.num_ports; ++p) {
        if (!fn.ports[p].connected()) continue;
        const Port& rp = topo.node(*rn).ports[p];
        ASSERT_TRUE(rp.connected()) << fn.description << " port " << int(p) << " is not cabled in the real fabric";
        EXPECT_EQ(topo.node(rp.peer).guid, found->node(fn.ports[p].peer).guid) << fn.description << " port " << int(p);
        EXPECT_EQ(rp.peer_port, fn.ports[p].peer_port) << fn.description << " port " << int(p);
      }
    }
  }

  // Walk the fake switches' own LFTs from every switch that holds tables to each of `hosts`; each walk
  // must reach the host without crossing a cable in `avoid`.
  void expect_hosts_reached(const std::vector<NodeIndex>& hosts, const Cables& avoid = {}) const {
    for (NodeIndex s : topo.switches()) {
      if (fabric.lft_block_sets(s) == 0) continue;
      for (NodeIndex h : hosts) {
        const Lid lid = fabric.lid(h, 1);
        ASSERT_NE(lid, 0) << topo.node(h).description << " has no LID";
        NodeIndex here = s;
        bool delivered = false;
        for (unsigned hops = 0; hops <= topo.size() && !delivered; ++hops) {
          const PortNum out = fabric.lft(here, lid);
          ASSERT_TRUE(out >= 1 && out <= topo.node(here).num_ports)
              << topo.node(s).description << " -> " << topo.node(h).description << ": port " << int(out) << " at "
              << topo.node(here).description;
          EXPECT_FALSE(avoid.count({here, out}))
              << topo.node(here).description << " routes out of left-out port " << int(out);
          const Port& port = topo.node(here).ports[out];
          ASSERT_TRUE(port.connected());
          if (!topo.node(port.peer).is_switch()) {
            ASSERT_EQ(port.peer, h) << "LID " << lid << " delivered to the wrong host";
            delivered = true;
          }
          here = port.peer;
        }
        EXPECT_TRUE(delivered) << topo.node(s).description << " -> " << topo.node(h).description;
      }
    }
  }

  // The rest of the fabric comes up: every host but `left_out` is reached, avoiding `avoid`.
  void expect_rest_reached(const std::set<NodeIndex>& left_out = {}, const Cables& avoid = {}) const {
    std::vector<NodeIndex> hosts;
    for (NodeIndex c : topo.cas()) {
      if (!left_out.count(c)) hosts.push_back(c);
    }
    expect_hosts_reached(hosts, avoid);
  }

  std::shared_ptr<const Topology> found;  // what the sweep discovered and kept
};

// A damaged value that leaves one node out: the report names the node's GUID and directed path, a switch
// gets no table and is not kept, a host gets no LID, and every other host is reached without a route over
// what was left out.
struct LeftOutNode {
  std::string name{};
  std::string node{};
  std::function<void(DamagedFabric&, NodeIndex)> damage{};  ///< done before the sweep
  std::vector<std::string> words{};  ///< what the report says besides the node's GUID and directed path
  std::string path{};                ///< the DR path the report names ("": the one path_to() computes)
  bool path_is_checked = false;      ///< also check that path_to() computes `path` (discovery's BFS)
  PortNum leaf_port = 0;             ///< switches: every leaf's port cabled to it, which no route may leave by
};

class LeftOut : public ::testing::TestWithParam<LeftOutNode> {};

TEST_P(LeftOut, IsNamedAndTheRestComesUp) {
  const LeftOutNode& row = GetParam();
  DamagedFabric rig;
  const NodeIndex n = rig.node(row.node);
  row.damage(rig, n);
  const SweepSummary s = rig.failed_sweep();
  if (row.path_is_checked) {
    EXPECT_EQ(rig.path_to(n), row.path);
  }
  problem_naming(s, rig.guid_of(n), row.path.empty() ? rig.path_to(n) : row.path, row.words);
  if (rig.topo.node(n).is_switch()) {
    rig.expect_switch_left_out(n);
    rig.expect_rest_reached({}, rig.every_leaf_port(row.leaf_port));
  } else {
    rig.expect_no_lid({n});
    rig.expect_rest_reached({n});
  }
}

INSTANTIATE_TEST_SUITE_P(
    ImpossibleValues, LeftOut,
    ::testing::Values(
        LeftOutNode{
            .name = "SwitchWithNumPortsZeroIsLeftOutAndTheRestComesUp",
            .node = "spine-1",
            .damage = [](DamagedFabric& rig, NodeIndex n) { rig.fabric.override_num_ports(n, 0); },
            .words = {"NodeInfo", "impossible NumPorts 0"},
            .path = "0,1,4",  // reached first from leaf-0 port 4
            .path_is_checked = true,
            .leaf_port = 4,  // leaf port 4 is the cable to spine-1
        },
        LeftOutNode{
            .name = "CaWithNumPortsAbove254IsLeftOut",
            .node = "host-5",
            .damage = [](DamagedFabric& rig, NodeIndex n) { rig.fabric.override_num_ports(n, 255); },
            .words = {"impossible NumPorts 255"},
        },
        LeftOutNode{
            .name = "ActivePortThatKeepsLidZeroFailsTheSweepByName",
            .node = "host-6",
            .damage =
                [](DamagedFabric& rig, NodeIndex n) {
                  rig.fabric.set_port(n, 1, 4, 0);
                  rig.fabric.stick_lid(n, 1);
                },
            .words = {"PortInfo Set 1", "not taken (port reports 0)"},
        },
        LeftOutNode{
            .name = "SwitchWithLinearFdbCapZeroGetsNoTableAndNoRouteGoesThroughIt",
            .node = "spine-0",
            // The damage is in the topology the fake answers SwitchInfo from.
            .damage = [](DamagedFabric& rig, NodeIndex n) { rig.topo.mutable_node(n).lft_cap = 0; },
            .words = {"SwitchInfo", "LinearFDBCap is 0"},
            .path = "0,1,3",
            .leaf_port = 3,  // leaf port 3 is the cable to spine-0
        }),
    test::RowName());

// Decision (documented in docs/architecture.md): a CA port that is Active with LID 0 is accepted and
// given a LID; the sweep fails only when the port then still does not hold the LID the SM set.
TEST(ImpossibleValues, ActiveCaPortWithLidZeroIsLoggedAndGivenALid) {
  DamagedFabric rig;
  const NodeIndex host = rig.node("host-3");
  rig.fabric.set_port(host, 1, 4, 0);
  const auto [s, text] = rig.sweep_with_log();
  EXPECT_TRUE(s.subnet_up) << test::first_problem(s);
  EXPECT_NE(text.find("node " + rig.guid_of(host) + " port 1 at DR path " + rig.path_to(host) + ": Active with LID 0"),
            std::string::npos)
      << text;
  EXPECT_NE(rig.fabric.lid(host, 1), 0);
  rig.expect_rest_reached();
}

TEST(ImpossibleValues, CableWhoseFarEndReportsDownIsLeftOut) {
  DamagedFabric rig;
  const NodeIndex leaf = rig.node("leaf-0");
  const NodeIndex spine = rig.node("spine-1");
  rig.fabric.report_port_down(spine, 1);  // spine-1 port 1 is cabled to leaf-0 port 4 and forwards
  const SweepSummary s = rig.failed_sweep();
  problem_naming(
      s, rig.guid_of(leaf), "0,1",
      {"PortInfo 4", "the two ends disagree", rig.guid_of(spine) + " port 1", "reports Down", "cable left out"});
  const auto found_leaf = rig.found->find(rig.topo.node(leaf).guid);
  ASSERT_TRUE(found_leaf.has_value());
  EXPECT_FALSE(rig.found->node(*found_leaf).ports[4].connected());
  rig.expect_only_real_cables();
  rig.expect_rest_reached({}, {{leaf, 4}, {spine, 1}});
}

TEST(ImpossibleValues, WrongLocalPortNumNeverBecomesAWrongCable) {
  DamagedFabric rig;
  const NodeIndex spine = rig.node("spine-0");
  // spine-0 says every SMP came in by port 2 (leaf-1's); leaf-0 really reaches it on spine port 1.
  rig.fabric.override_local_port(spine, 2);
  const SweepSummary s = rig.failed_sweep();
  problem_with(s, {rig.guid_of(spine), "DR path 0,1,3", "wrong LocalPortNum", "cables left out"});
  rig.expect_only_real_cables();
  rig.expect_rest_reached();
}

TEST(ImpossibleValues, DuplicateGuidLeavesTheSecondNodeOutWithBothPaths) {
  DamagedFabric rig;
  const NodeIndex first = rig.node("leaf-0");
  const NodeIndex second = rig.node("leaf-2");
  rig.fabric.override_guid(second, rig.topo.node(first).guid);
  const SweepSummary s = rig.failed_sweep();
  problem_naming(s, rig.guid_of(first), rig.path_to(second), {"duplicate GUID", "first seen at 0,1"});
  EXPECT_EQ(rig.fabric.lft_block_sets(second), 0u);
  rig.expect_only_real_cables();
  const std::set<NodeIndex> hosts_of_second{rig.node("host-4"), rig.node("host-5")};
  rig.expect_no_lid(hosts_of_second);
  rig.expect_rest_reached(hosts_of_second, {{rig.node("spine-0"), 3}, {rig.node("spine-1"), 3}});
}

// Two CAs with distinct NodeGUIDs whose ports claim one PortGUID: the one found second is left out, with
// both paths named, and never shares the first one's LID.
TEST(ImpossibleValues, DuplicatePortGuidLeavesTheSecondPortOut) {
  DamagedFabric rig;
  const NodeIndex first = rig.node("host-4");
  const NodeIndex second = rig.node("host-5");
  rig.fabric.override_port_guid(second, rig.topo.node(first).ports[1].guid);
  const SweepSummary s = rig.failed_sweep();
  // Which of the two discovery reaches first depends on the walk; the other one is the duplicate, and only
  // one of the two may end up without a LID.
  const NodeIndex left_out = rig.fabric.lid(second, 1) == 0 ? second : first;
  const NodeIndex kept = left_out == second ? first : second;
  problem_naming(s, rig.guid_of(left_out), rig.path_to(left_out),
                 {"duplicate PortGUID", "already port 1 of node " + rig.guid_of(kept), "at " + rig.path_to(kept)});
  rig.expect_no_lid({left_out});
  EXPECT_NE(rig.fabric.lid(kept, 1), 0) << "the port that holds the PortGUID first keeps its LID";
  const Port& cable = rig.topo.node(left_out).ports[1];
  rig.expect_rest_reached({left_out}, {{cable.peer, cable.peer_port}});
}

// A perfect clone of the SM's own host (same NodeGUID, SystemImageGUID and PortGUID) elsewhere: the SM's
// own cable is where its SMPs go, so the clone's claim on that port is the one refused.
TEST(ImpossibleValues, CloneOfTheSmHostNeverTakesTheSmCable) {
  DamagedFabric rig;
  const NodeIndex sm = rig.topo.sm_node;
  const NodeIndex clone = rig.node("host-3");
  rig.fabric.impersonate(clone, sm);
  const SweepSummary s = rig.failed_sweep();
  problem_naming(s, rig.guid_of(sm), rig.path_to(clone),
                 {"duplicate GUID or a wrong LocalPortNum", "the SM node's own cable kept"});
  rig.expect_only_real_cables();
  rig.expect_no_lid({clone});
  EXPECT_NE(rig.fabric.lid(sm, 1), 0);
  rig.expect_rest_reached({clone});
}

TEST(ImpossibleValues, LeafWithLinearFdbCapZeroTakesItsHostsOutByName) {
  DamagedFabric rig;
  const NodeIndex leaf = rig.node("leaf-3");
  rig.topo.mutable_node(leaf).lft_cap = 0;  // the fake answers SwitchInfo from the topology
  const SweepSummary s = rig.failed_sweep();
  problem_with(s, {rig.guid_of(leaf), "LinearFDBCap is 0"});
  problem_with(s, {"2 nodes reachable only through what was left out", "(host-6) at DR path", "(host-7) at DR path"});
  EXPECT_EQ(rig.fabric.lft_block_sets(leaf), 0u);
  const std::set<NodeIndex> cut{rig.node("host-6"), rig.node("host-7")};
  rig.expect_no_lid(cut);
  rig.expect_rest_reached(cut);
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
  DamagedFabric rig(std::move(t));
  const SweepSummary s = rig.failed_sweep();
  std::string path = "0,1";
  for (unsigned i = 0; i < 62; ++i) path += ",2";  // 63 hops: host-0 -> sw-0 -> ... -> sw-62
  problem_with(s, {rig.guid_of(sw[62]), "at DR path " + path + ": PortInfo 2", "would exceed 63 hops"});
  for (unsigned i = 0; i <= 62; ++i) EXPECT_GT(rig.fabric.lft_block_sets(sw[i]), 0u) << "sw-" << i;
  for (unsigned i = 63; i < kSwitches; ++i) EXPECT_EQ(rig.fabric.lft_block_sets(sw[i]), 0u) << "sw-" << i;
  rig.expect_no_lid({h1});
  EXPECT_EQ(rig.found->size(), 1u + 63u);
  rig.expect_hosts_reached({h0});
}

}  // namespace
}  // namespace smd::impossible_values_test
