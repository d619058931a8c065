// HealthMonitor alone, behind a fake HealthHost on a hand-built fabric (one switch, two hosts): flaps read
// from consecutive sweeps, a counter pass over a threshold, the marks routed around, health turned off, and
// a babbling port's link disabled, taken in and enabled again by the operator's clear. Expected values are
// written out by hand from the policy's numbers.
#include "smd/perfmgr/health_monitor.h"

#include <gtest/gtest.h>

namespace smd::health_monitor_test {
namespace {

constexpr Guid kSw = 0x200, kH1 = 0x100, kH2 = 0x110;

// sw port 1 - h1 port 1; sw port 2 - h2 port 1 unless `h2_cabled` is false.
std::shared_ptr<const Topology> fabric(bool h2_cabled) {
  auto topo = std::make_shared<Topology>();
  auto add = [&](Guid guid, NodeType type, PortNum nports) {
    Node n;
    n.guid = guid;
    n.type = type;
    n.num_ports = nports;
    n.ports.resize(nports + 1u);
    for (PortNum p = 0; p <= nports; ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : guid + p;
    return *topo->add_node(std::move(n));
  };
  const NodeIndex sw = add(kSw, NodeType::kSwitch, 4);
  const NodeIndex h1 = add(kH1, NodeType::kCa, 1);
  const NodeIndex h2 = add(kH2, NodeType::kCa, 1);
  EXPECT_TRUE(topo->connect(sw, 1, h1, 1).ok());
  if (h2_cabled) {
    EXPECT_TRUE(topo->connect(sw, 2, h2, 1).ok());
  }
  return topo;
}

struct FakeHost : HealthHost {
  std::shared_ptr<const Topology> topo;
  LidMap lid_map;
  std::vector<PortKey> requests;
  std::vector<IsolationResult> outcome;
  std::vector<PortKey> disable, enable;
  std::pair<std::vector<PortKey>, std::vector<PortKey>> done;
  std::vector<std::string> sweeps;
  unsigned published = 0, passes = 0;

  void set_fabric(bool h2_cabled) {
    topo = fabric(h2_cabled);
    lid_map = LidMap();
    EXPECT_TRUE(lid_map.assign(0, 0, 1, 0).ok());
    EXPECT_TRUE(lid_map.assign(1, 1, 2, 0).ok());
  }
  std::shared_ptr<const Topology> topology() const override { return topo; }
  const LidMap& lids() const override { return lid_map; }
  const std::vector<PortKey>& isolation_requests() const override { return requests; }
  void set_isolation_requests(std::vector<PortKey> ports) override { requests = std::move(ports); }
  std::vector<IsolationResult> isolation() const override { return outcome; }
  void set_phys_state_requests(std::vector<PortKey> d, std::vector<PortKey> e) override {
    disable = std::move(d);
    enable = std::move(e);
  }
  std::pair<std::vector<PortKey>, std::vector<PortKey>> phys_state_done() const override { return done; }
  Result<PortKey> link_end_to_disable(const PortKey& babbler) const override {
    if (babbler == PortKey{kH1, 1}) return PortKey{kSw, 1};  // the switch end of h1's cable
    return make_error(ErrorCode::kInvalidInput, "no end");
  }
  void request_sweep(const std::string& why) override { sweeps.push_back(why); }
  void publish_marks() override { ++published; }
  void counters_read() override { ++passes; }
};

struct Rig {
  Policy policy;
  FakeHost host;
  HealthMonitor monitor{policy, host, [](std::span<const std::uint8_t>, const mad::MadAddress&) { return 0; }};
  Rig() {
    policy.perfmgr.enabled = false;  // no thread: the monitor is fed by hand
    policy.health.flap_count = 2;
    host.set_fabric(true);
    monitor.policy_changed(1, false);
    host.sweeps.clear();
  }
};

TEST(HealthMonitor, TwoFlapsMarkBothEndsAndRouteAroundThem) {
  Rig r;
  r.monitor.after_sweep(true, false);  // the first fabric: nothing to compare with
  r.host.set_fabric(false);
  r.monitor.after_sweep(false, false);  // not up: its missing cable proves nothing
  EXPECT_EQ(r.monitor.unhealthy_marks_total(), 0u);
  r.monitor.after_sweep(true, false);  // flap 1 on sw/2 and h2/1
  r.host.set_fabric(true);
  r.monitor.after_sweep(true, false);  // back: no flap
  EXPECT_EQ(r.monitor.unhealthy_marks_total(), 0u);
  EXPECT_TRUE(r.host.sweeps.empty());
  r.host.set_fabric(false);
  r.monitor.after_sweep(true, false);  // flap 2: flap_count reached on both ports
  EXPECT_EQ(r.monitor.unhealthy_marks_total(), 2u);
  EXPECT_EQ(r.host.requests, (std::vector<PortKey>{{kH2, 1}, {kSw, 2}}));
  ASSERT_EQ(r.host.sweeps.size(), 1u);
  EXPECT_EQ(r.host.sweeps[0], "health: port 0x0000000000000110/1 flapping");
  const auto view = r.monitor.view();
  ASSERT_EQ(view.size(), 2u);
  EXPECT_EQ(view[1].key, (PortKey{kSw, 2}));
  EXPECT_EQ(view[1].flaps, 2u);
  EXPECT_EQ(view[1].kept_reason, "waiting for the next sweep");
}

TEST(HealthMonitor, APassOverAThresholdMarksThePort) {
  Rig r;
  PerfPassDeltas pass;
  MovedPort moved;
  moved.key = {kH1, 1};
  moved.delta[0] = 10;  // SymbolErrorCounter: the threshold is 10 per interval, not more
  moved.elapsed_s = r.policy.perfmgr.interval_s;
  pass.moved.push_back(moved);
  r.monitor.on_counters_read(pass);
  EXPECT_EQ(r.host.passes, 1u);
  r.monitor.apply_passes();
  EXPECT_EQ(r.monitor.unhealthy_marks_total(), 0u);
  EXPECT_EQ(r.host.published, 0u);
  pass.moved[0].delta[0] = 11;
  r.monitor.on_counters_read(pass);
  r.monitor.apply_passes();
  EXPECT_EQ(r.monitor.unhealthy_marks_total(), 1u);
  EXPECT_EQ(r.host.published, 1u);
  EXPECT_EQ(r.host.requests, (std::vector<PortKey>{{kH1, 1}}));
  // The operator's clear takes it out of the requests again.
  r.monitor.clear_port({kH1, 1}, "test");
  EXPECT_TRUE(r.host.requests.empty());
  EXPECT_EQ(r.host.sweeps.size(), 2u);
  EXPECT_TRUE(r.monitor.view().empty());
}

TEST(HealthMonitor, HealthTurnedOffUnmarksEveryPort) {
  Rig r;
  r.monitor.after_sweep(true, false);
  r.host.set_fabric(false);
  r.monitor.after_sweep(true, false);
  r.host.set_fabric(true);
  r.monitor.after_sweep(true, false);
  r.host.set_fabric(false);
  r.monitor.after_sweep(true, false);
  ASSERT_EQ(r.host.requests.size(), 2u);
  r.policy.health.enabled = false;
  r.monitor.policy_changed(2, false);
  EXPECT_TRUE(r.host.requests.empty());
  EXPECT_EQ(r.host.sweeps.back(), "health: policy 2");
  EXPECT_TRUE(r.monitor.view().empty());
}

TEST(HealthMonitor, ABabblingPortsLinkIsDisabledThenEnabledByAClear) {
  Rig r;
  r.policy.health.babbling_port = true;
  r.policy.health.babbling_traps = 2;
  r.monitor.policy_changed(2, false);
  r.monitor.record_port_trap(129, 2, 1);  // LID 2 is h1's port 1
  EXPECT_TRUE(r.host.disable.empty());
  r.monitor.record_port_trap(130, 2, 1);
  EXPECT_EQ(r.monitor.babbling_ports_total(), 1u);
  EXPECT_EQ(r.host.disable, (std::vector<PortKey>{{kSw, 1}}));
  EXPECT_EQ(r.host.sweeps.back(), "health: port 0x0000000000000100/1 babbling");
  auto view = r.monitor.view();
  ASSERT_EQ(view.size(), 1u);
  EXPECT_TRUE(view[0].babbling);
  EXPECT_EQ(view[0].disabled_end, "0x0000000000000200/1 (disable pending)");
  // The sweep disabled it: no longer requested, counted, shown.
  r.host.done = {{{kSw, 1}}, {}};
  r.monitor.after_sweep(true, false);
  r.host.done = {};
  EXPECT_EQ(r.monitor.links_disabled(), 1u);
  EXPECT_TRUE(r.host.disable.empty());
  EXPECT_EQ(r.monitor.view()[0].disabled_end, "0x0000000000000200/1 (disabled)");
  // The operator clears the switch end: the next sweep enables it.
  r.monitor.clear_port({kSw, 1}, "test");
  EXPECT_EQ(r.host.enable, (std::vector<PortKey>{{kSw, 1}}));
  EXPECT_TRUE(r.monitor.view().empty());
  r.host.done = {{}, {{kSw, 1}}};
  r.monitor.after_sweep(true, false);
  EXPECT_EQ(r.monitor.links_disabled(), 0u);
  EXPECT_TRUE(r.host.enable.empty());
}

}  // namespace
}  // namespace smd::health_monitor_test
