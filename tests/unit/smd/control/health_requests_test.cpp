// `smctl counters`, `smctl ports` and `smctl port clear` answered from a hand-built snapshot: a 2-leaf,
// 2-spine fabric with 2 hosts per leaf, one PerfMgr pass and one unhealthy port.
#include "smd/control/health_requests.h"

#include <gtest/gtest.h>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "smd/control/requests.h"
#include "tests/unit/smd/null_control.h"

namespace smd::control::health_requests_test {
namespace {

struct FakeControl : test::NullControl {
  std::vector<PortKey> cleared;
  std::vector<std::string> reasons;
  void request_port_clear(PortKey port, const std::string& reason) override {
    cleared.push_back(port);
    reasons.push_back(reason);
  }
};

NodeIndex by_name(const Topology& t, const std::string& name) {
  for (NodeIndex n = 0; n < t.size(); ++n) {
    if (t.node(n).description == name) return n;
  }
  ADD_FAILURE() << "no node " << name;
  return kNoNode;
}

PortCounterRow row_of(const Topology& t, const std::string& name, PortNum port) {
  const Node& n = t.node(by_name(t, name));
  PortCounterRow r;
  r.key = {n.guid, port};
  r.node_desc = n.description;
  const Port& p = n.ports[port];
  r.peer = t.node(p.peer).description + " port " + std::to_string(p.peer_port);
  r.lid = 1;
  return r;
}

std::shared_ptr<FabricSnapshot> make_snapshot() {
  auto topo = make_leaf_spine({.leaves = 2, .spines = 2, .hosts_per_leaf = 2, .links_per_pair = 1});
  EXPECT_TRUE(topo.ok());
  auto snap = std::make_shared<FabricSnapshot>();
  snap->topo = std::make_shared<const Topology>(std::move(topo.value()));
  auto lids = assign_lids(*snap->topo, {}, {});
  EXPECT_TRUE(lids.ok());
  snap->lids = std::make_shared<const LidMap>(std::move(lids.value()));
  const Topology& t = *snap->topo;
  auto perf = std::make_shared<PerfView>();
  perf->passes = 4;
  perf->interval_s = 10;
  perf->last_pass.ports = 2;
  PortCounterRow clean = row_of(t, t.node(t.switches()[0]).description, 1);
  PortCounterRow noisy = row_of(t, t.node(t.cas()[0]).description, 1);
  noisy.raw[static_cast<std::size_t>(PortCounter::kSymbolError)] = 70;
  noisy.last_delta[static_cast<std::size_t>(PortCounter::kSymbolError)] = 57;
  noisy.total[static_cast<std::size_t>(PortCounter::kSymbolError)] = 70;
  noisy.saturated = 1u << static_cast<unsigned>(PortCounter::kPortRcvErrors);
  perf->ports = {clean, noisy};
  snap->perf = perf;
  UnhealthyPortView u;
  u.key = noisy.key;
  u.node_desc = noisy.node_desc;
  u.peer = noisy.peer;
  u.reason = "SymbolErrorCounter +57 in 10 s (threshold 10)";
  u.kept_reason = "would cut off it";
  snap->unhealthy = {u};
  return snap;
}

TEST(HealthRequests, CountersListEveryPortWithIbaNames) {
  auto snap = make_snapshot();
  auto r = counters_json(*snap, "", false);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->at("passes"), 4);
  ASSERT_EQ(r->at("ports").size(), 2u);
  const Json& noisy = r->at("ports")[1];
  EXPECT_EQ(noisy.at("counters").at("SymbolErrorCounter"), 70);
  EXPECT_EQ(noisy.at("delta").at("SymbolErrorCounter"), 57);
  EXPECT_EQ(noisy.at("counters").size(), kPortCounterCount);
  EXPECT_EQ(noisy.at("saturated"), Json::array({"PortRcvErrors"}));
  EXPECT_TRUE(noisy.at("errors").get<bool>());
  EXPECT_FALSE(r->at("ports")[0].at("errors").get<bool>());
}

TEST(HealthRequests, ErrorsOnlyKeepsPortsThatMoved) {
  auto snap = make_snapshot();
  auto r = counters_json(*snap, "", true);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->at("ports").size(), 1u);
  EXPECT_EQ(r->at("ports")[0].at("node_desc"), snap->topo->node(snap->topo->cas()[0]).description);
}

TEST(HealthRequests, CountersOfOneNodeAndUnknownNames) {
  auto snap = make_snapshot();
  const std::string sw = snap->topo->node(snap->topo->switches()[0]).description;
  auto r = counters_json(*snap, sw, false);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->at("ports").size(), 1u);
  EXPECT_EQ(r->at("ports")[0].at("node_desc"), sw);
  auto bad = counters_json(*snap, "no-such-node", false);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("no-such-node"), std::string::npos) << bad.error().message;
}

TEST(HealthRequests, CountersWithThePerfMgrOffSaySo) {
  FabricSnapshot snap;
  snap.sm_state = "STANDBY";
  auto r = counters_json(snap, "", false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "the PerfMgr is not running: it reads counters only as MASTER with perfmgr.enabled true (this SM is "
            "STANDBY)");
}

TEST(HealthRequests, PortsListsCabledPortsAndMarksTheUnhealthyOne) {
  auto snap = make_snapshot();
  const Json all = ports_json(*snap, false);
  // 4 hosts + 2 leaves x (2 hosts + 2 spines) + 2 spines x 2 leaves = 4 + 8 + 4 cabled ports.
  EXPECT_EQ(all.at("ports").size(), 16u);
  EXPECT_EQ(all.at("unhealthy"), 1);
  EXPECT_EQ(all.at("isolated"), 0);
  unsigned marked = 0;
  for (const Json& p : all.at("ports")) marked += p.at("unhealthy").get<bool>() ? 1 : 0;
  EXPECT_EQ(marked, 1u);
  const Json only = ports_json(*snap, true);
  ASSERT_EQ(only.at("ports").size(), 1u);
  EXPECT_EQ(only.at("ports")[0].at("reason"), "SymbolErrorCounter +57 in 10 s (threshold 10)");
  EXPECT_EQ(only.at("ports")[0].at("kept_reason"), "would cut off it");
  EXPECT_FALSE(only.at("ports")[0].at("isolated").get<bool>());
}

TEST(HealthRequests, PortClearResolvesTheNodeAndChecksThePort) {
  FakeControl control;
  control.snap = make_snapshot();
  const Topology& t = *control.snap->topo;
  const Node& host = t.node(t.cas()[0]);
  auto r = port_clear(control, *control.snap, host.description, 1, "uid 0");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->at("cleared").get<bool>());
  ASSERT_EQ(control.cleared.size(), 1u);
  EXPECT_EQ(control.cleared[0], (PortKey{host.guid, 1}));
  EXPECT_EQ(control.reasons[0], "smctl port clear by uid 0");
  // A port that is not marked is still queued (the daemon logs it) and answered as not cleared.
  const Node& sw = t.node(t.switches()[0]);
  auto unmarked = port_clear(control, *control.snap, sw.description, 2, "");
  ASSERT_TRUE(unmarked.ok());
  EXPECT_FALSE(unmarked->at("cleared").get<bool>());
  for (std::int64_t bad : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{sw.num_ports} + 1, std::int64_t{1} << 40}) {
    auto refused = port_clear(control, *control.snap, sw.description, bad, "");
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.error().message.find("has ports 1.." + std::to_string(sw.num_ports)), std::string::npos)
        << refused.error().message;
  }
  EXPECT_EQ(control.cleared.size(), 2u);  // refused requests reach nobody
}

TEST(HealthRequests, AMarkedPortWhoseNodeLeftIsClearedByGuid) {
  FakeControl control;
  auto snap = make_snapshot();
  UnhealthyPortView gone;
  gone.key = {0x00000000deadbeefULL, 3};
  gone.reason = "5 link flaps in 600 s";
  snap->unhealthy.push_back(gone);
  control.snap = snap;
  auto r = port_clear(control, *snap, "0xdeadbeef", 3, "");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->at("cleared").get<bool>());
  ASSERT_EQ(control.cleared.size(), 1u);
  EXPECT_EQ(control.cleared[0], gone.key);
  // Another port of that GUID, or a GUID nobody marked, is still an unknown node.
  EXPECT_FALSE(port_clear(control, *snap, "0xdeadbeef", 4, "").ok());
  const auto unknown = port_clear(control, *snap, "0xdeadbeee", 3, "");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("cleared by its node GUID"), std::string::npos) << unknown.error().message;
  EXPECT_EQ(control.cleared.size(), 1u);
}

TEST(HealthRequests, HandleRequestRoutesTheNewCommands) {
  FakeControl control;
  control.snap = make_snapshot();
  EXPECT_TRUE(handle_request({{"cmd", "counters"}, {"errors", true}}, control).at("ok").get<bool>());
  EXPECT_TRUE(handle_request({{"cmd", "ports"}, {"unhealthy", true}}, control).at("ok").get<bool>());
  const Json no_port = handle_request({{"cmd", "port_clear"}, {"node", "x"}}, control);
  EXPECT_FALSE(no_port.at("ok").get<bool>());
  const Json text_port = handle_request({{"cmd", "port_clear"}, {"node", "x"}, {"port", "1"}}, control);
  EXPECT_FALSE(text_port.at("ok").get<bool>());
  EXPECT_EQ(text_port.at("error"), "port_clear: port must be an integer 1..254");
  const Json object_node = handle_request({{"cmd", "port_clear"}, {"node", {{"a", 1}}}, {"port", 1}}, control);
  EXPECT_EQ(object_node.at("error"), "port_clear: node must be a name, GUID or LID as a string");
  EXPECT_EQ(handle_request({{"cmd", "counters"}, {"errors", "yes"}}, control).at("error"),
            "counters: errors must be true or false");
  EXPECT_EQ(handle_request({{"cmd", "counters"}, {"node", 5}}, control).at("error"),
            "counters: node must be a name, GUID or LID as a string");
  EXPECT_EQ(handle_request({{"cmd", "ports"}, {"unhealthy", 1}}, control).at("error"),
            "ports: unhealthy must be true or false");
  EXPECT_TRUE(control.cleared.empty());
}

}  // namespace
}  // namespace smd::control::health_requests_test
