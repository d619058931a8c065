// Control protocol queries on a hand-built snapshot: a 4-leaf, 2-spine fabric with 4 hosts per leaf,
// LIDs from assign_lids and minhop tables. Route lengths are checked against an independent BFS.
#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "smd/control/command_table.h"
#include "smd/control/requests.h"

namespace smd::control::control_protocol_test {
namespace {

std::shared_ptr<FabricSnapshot> make_snapshot() {
  auto topo = make_leaf_spine({.leaves = 4, .spines = 2, .hosts_per_leaf = 4, .links_per_pair = 1});
  EXPECT_TRUE(topo.ok());
  auto snap = std::make_shared<FabricSnapshot>();
  snap->topo = std::make_shared<const Topology>(std::move(topo.value()));
  auto lids = assign_lids(*snap->topo, {}, {});
  EXPECT_TRUE(lids.ok());
  snap->lids = std::make_shared<const LidMap>(std::move(lids.value()));
  auto chain = route_with_chain({"minhop"}, {}, *snap->topo, *snap->lids);
  EXPECT_TRUE(chain.ok());
  snap->tables = std::make_shared<const RoutingTables>(std::move(chain->tables));
  snap->sm_state = "MASTER";
  snap->priority = 7;
  snap->counters.heavy_sweeps = 3;
  snap->counters.light_sweeps = 11;
  snap->counters.failed_sweeps = 1;
  snap->counters.incremental_sweeps = 5;
  snap->counters.incremental_fallbacks = 2;
  snap->counters.smps_sent = 5000;
  snap->counters.smp_retries = 321;
  snap->counters.smp_timeouts = 4;
  snap->last_repair_ms = 42.5;
  return snap;
}

NodeIndex by_name(const Topology& t, const std::string& name) {
  for (NodeIndex n = 0; n < t.size(); ++n) {
    if (t.node(n).description == name) return n;
  }
  ADD_FAILURE() << "no node " << name;
  return kNoNode;
}

// Nodes on the shortest path from a to b, both ends included (plain BFS over the cables).
std::size_t bfs_nodes(const Topology& t, NodeIndex a, NodeIndex b) {
  std::vector<std::size_t> dist(t.size(), 0);
  std::deque<NodeIndex> queue{a};
  dist[a] = 1;
  while (!queue.empty()) {
    const NodeIndex n = queue.front();
    queue.pop_front();
    for (const Port& p : t.node(n).ports) {
      if (!p.connected() || dist[p.peer] != 0) continue;
      dist[p.peer] = dist[n] + 1;
      queue.push_back(p.peer);
    }
  }
  return dist[b];
}

struct FakeControl : DaemonControl {
  std::shared_ptr<const FabricSnapshot> snap;
  std::vector<std::string> heavy, reroutes, clears;
  std::vector<PortKey> cleared;
  std::shared_ptr<const FabricSnapshot> snapshot() const override { return snap; }
  void request_heavy_sweep(const std::string& reason) override { heavy.push_back(reason); }
  void request_reroute(const std::string& reason) override { reroutes.push_back(reason); }
  void request_port_clear(PortKey port, const std::string& reason) override {
    cleared.push_back(port);
    clears.push_back(reason);
  }
  std::vector<std::string> light, levels, sweeping;
  std::vector<PerfMgrRequest> perf;
  Status perf_answer = Ok{};
  void request_light_sweep(const std::string& reason) override { light.push_back(reason); }
  void request_sweeping(bool on, const std::string& reason, const std::string& requester) override {
    sweeping.push_back(std::string(on ? "on" : "off") + "|" + reason + "|" + requester);
  }
  void set_log_level(const std::string& level, const std::string&) override { levels.push_back(level); }
  Status request_perfmgr(PerfMgrRequest what, const std::string&) override {
    perf.push_back(what);
    return perf_answer;
  }
  Result<Json> request_drain(const std::vector<std::string>&, bool, const std::string&) override {
    return make_error(ErrorCode::kInvalidInput, "not asked here");
  }
  Result<Json> request_undrain(const std::vector<std::string>&, bool, const std::string&) override {
    return make_error(ErrorCode::kInvalidInput, "not asked here");
  }
  void what_if_drain(const std::vector<std::string>&, std::function<void(Result<Json>)> done) override {
    done(make_error(ErrorCode::kInvalidInput, "not asked here"));
  }
};

TEST(ControlProtocol, RouteFollowsLftsWithBfsLength) {
  auto snap = make_snapshot();
  const Topology& t = *snap->topo;
  auto r = route_json(*snap, "host-0", "host-5");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::size_t switches = bfs_nodes(t, by_name(t, "host-0"), by_name(t, "host-5")) - 2;
  EXPECT_EQ(switches, 3u);
  EXPECT_EQ((*r)["hop_count"], switches);
  const Json& hops = (*r)["hops"];
  ASSERT_EQ(hops.size(), 3u);
  EXPECT_EQ(hops[0]["description"], "leaf-0");
  EXPECT_EQ(hops[0]["in_port"], 1);  // host-0 is on leaf-0 port 1
  EXPECT_EQ(hops[1]["description"].get<std::string>().rfind("spine-", 0), 0u);
  EXPECT_EQ(hops[2]["description"], "leaf-1");
  EXPECT_EQ(hops[2]["out_port"], 2);  // host-5 = second host of leaf-1
  EXPECT_EQ(hops[2]["peer_description"], "host-5");
  EXPECT_EQ(hops[2]["peer_port"], 1);
  const Lid dlid = snap->lids->base_lid(by_name(t, "host-5"), 1);
  EXPECT_EQ((*r)["dlid"], dlid);
  EXPECT_EQ((*r)["dst"]["description"], "host-5");
  // Every hop's out port is what that switch's table says.
  for (const Json& h : hops) {
    const NodeIndex sw = by_name(t, h["description"].get<std::string>());
    EXPECT_EQ(h["out_port"], snap->tables->lft[sw].get(dlid));
  }
}

TEST(ControlProtocol, RouteByLidAndGuidAndToSwitch) {
  auto snap = make_snapshot();
  const Topology& t = *snap->topo;
  const NodeIndex h1 = by_name(t, "host-1");
  const Lid lid1 = snap->lids->base_lid(h1, 1);
  auto same_leaf = route_json(*snap, format_guid(t.node(by_name(t, "host-0")).guid), std::to_string(lid1));
  ASSERT_TRUE(same_leaf.ok()) << same_leaf.error().message;
  EXPECT_EQ((*same_leaf)["hop_count"], 1);
  EXPECT_EQ((*same_leaf)["hops"][0]["out_port"], 2);
  EXPECT_EQ((*same_leaf)["dst"]["description"], "host-1");

  auto to_switch = route_json(*snap, "host-0", "leaf-1");
  ASSERT_TRUE(to_switch.ok()) << to_switch.error().message;
  EXPECT_EQ((*to_switch)["hop_count"], 3);
  EXPECT_EQ((*to_switch)["hops"][2]["description"], "leaf-1");
  EXPECT_EQ((*to_switch)["hops"][2]["out_port"], 0);
}

TEST(ControlProtocol, RouteReportsHolesAndLoops) {
  auto snap = make_snapshot();
  const Topology& t = *snap->topo;
  const NodeIndex leaf0 = by_name(t, "leaf-0");
  const Lid dlid = snap->lids->base_lid(by_name(t, "host-5"), 1);
  auto tables = *snap->tables;
  tables.lft[leaf0].set(dlid, kNoPort);
  snap->tables = std::make_shared<const RoutingTables>(tables);
  auto hole = route_json(*snap, "host-0", "host-5");
  ASSERT_FALSE(hole.ok());
  EXPECT_EQ(hole.error().code, ErrorCode::kVerifyFailed);
  EXPECT_EQ(hole.error().message, "route host-0 -> host-5: leaf-0 has no route to LID " + std::to_string(dlid));

  // leaf-0 sends to spine-0 over its first up port (5), spine-0 sends back to leaf-0 (its port 1).
  const NodeIndex spine0 = by_name(t, "spine-0");
  tables.lft[leaf0].set(dlid, 5);
  tables.lft[spine0].set(dlid, 1);
  ASSERT_EQ(t.node(leaf0).ports[5].peer, spine0);
  ASSERT_EQ(t.node(spine0).ports[1].peer, leaf0);
  snap->tables = std::make_shared<const RoutingTables>(tables);
  auto loop = route_json(*snap, "host-0", "host-5");
  ASSERT_FALSE(loop.ok());
  EXPECT_EQ(loop.error().message, "route host-0 -> host-5: forwarding loop");
}

TEST(ControlProtocol, ResolveNamesAndErrors) {
  auto snap = make_snapshot();
  const Topology& t = *snap->topo;
  const NodeIndex spine1 = by_name(t, "spine-1");
  EXPECT_EQ(*resolve_node(*snap, "spine-1"), spine1);
  EXPECT_EQ(*resolve_node(*snap, format_guid(t.node(spine1).guid)), spine1);
  EXPECT_EQ(*resolve_node(*snap, std::to_string(snap->lids->base_lid(spine1, 0))), spine1);
  EXPECT_EQ(resolve_node(*snap, "nosuch").error().message, "no node named 'nosuch'");
  EXPECT_EQ(resolve_node(*snap, "48000").error().message, "no port holds LID 48000");
  // GUID 0 is nobody's, though a CA's unused port 0 holds it in the model.
  EXPECT_EQ(resolve_node(*snap, "0x0").error().message, "no node, port GUID or LID 0x0");

  Topology dup = t;
  dup.mutable_node(by_name(t, "host-2")).description = "host-1";
  FabricSnapshot two = *snap;
  two.topo = std::make_shared<const Topology>(dup);
  EXPECT_EQ(resolve_node(two, "host-1").error().message, "'host-1' names 2 nodes; use a GUID or LID");
}

TEST(ControlProtocol, LftsOfOneSwitch) {
  auto snap = make_snapshot();
  const Topology& t = *snap->topo;
  auto all = lfts_json(*snap, "");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 6u);
  auto one = lfts_json(*snap, "leaf-2");
  ASSERT_TRUE(one.ok()) << one.error().message;
  ASSERT_EQ(one->size(), 1u);
  const Json& table = (*one)[0];
  const NodeIndex leaf2 = by_name(t, "leaf-2");
  EXPECT_EQ(table["guid"], format_guid(t.node(leaf2).guid));
  EXPECT_EQ(table["lid"], snap->lids->base_lid(leaf2, 0));
  EXPECT_EQ(table["entries"].size(), 22u);  // 16 hosts + 6 switches, one LID each
  std::map<std::string, int> port_of;       // dest -> out port
  for (const Json& e : table["entries"]) port_of[e["dest"].get<std::string>()] = e["port"].get<int>();
  EXPECT_EQ(port_of.at("leaf-2"), 0);    // its own LID
  EXPECT_EQ(port_of.at("host-8/1"), 1);  // first host of leaf-2
  EXPECT_EQ(port_of.at("host-11/1"), 4);
  EXPECT_EQ(lfts_json(*snap, "host-3").error().message, "'host-3' is not a switch");
}

TEST(ControlProtocol, StatusAndNodes) {
  auto snap = make_snapshot();
  const Json s = status_json(*snap);
  EXPECT_EQ(s["state"], "MASTER");
  EXPECT_EQ(s["priority"], 7);
  EXPECT_EQ(s["sweeps"]["heavy"], 3);
  EXPECT_EQ(s["sweeps"]["light"], 11);
  EXPECT_EQ(s["sweeps"]["failed"], 1);
  EXPECT_EQ(s["sweeps"]["incremental"], 5);
  EXPECT_EQ(s["sweeps"]["incremental_fallbacks"], 2);
  EXPECT_TRUE(s["last_sweep"]["time"].is_null());
  EXPECT_EQ(s["engine"], "minhop");
  EXPECT_EQ(s["fabric"], Json({{"switches", 6}, {"cas", 16}, {"links", 24}, {"lids", 22}}));
  EXPECT_EQ(s["smps"], Json({{"sent", 5000}, {"retries", 321}, {"timeouts", 4}}));
  EXPECT_EQ(s["last_repair_ms"], 42.5);

  snap->last_sweep_time = std::chrono::system_clock::time_point(std::chrono::seconds(1798602300));
  EXPECT_EQ(status_json(*snap)["last_sweep"]["time"], "2026-12-30T03:45:00Z");

  const Json nodes = nodes_json(*snap);
  ASSERT_EQ(nodes.size(), 22u);
  const Json& host0 = nodes[0];
  EXPECT_EQ(host0["description"], "host-0");
  EXPECT_EQ(host0["type"], "ca");
  EXPECT_EQ(host0["dr_path"], "0");
  ASSERT_EQ(host0["ports"].size(), 1u);
  EXPECT_EQ(host0["ports"][0]["state"], "Active");
  EXPECT_EQ(host0["ports"][0]["peer"]["description"], "leaf-0");
  EXPECT_EQ(host0["ports"][0]["peer"]["port"], 1);
  EXPECT_EQ(host0["lids"], Json::array({snap->lids->base_lid(0, 1)}));
}

TEST(ControlProtocol, HandleRequestCommands) {
  FakeControl control;
  control.snap = make_snapshot();
  EXPECT_EQ(handle_request({{"cmd", "sweep"}}, control), ok_response({{"requested", "heavy sweep"}}));
  EXPECT_EQ(control.heavy, std::vector<std::string>{"smctl sweep"});
  EXPECT_EQ(handle_request({{"cmd", "reroute"}}, control), ok_response({{"requested", "reroute"}}));
  EXPECT_EQ(control.reroutes.size(), 1u);
  // Who asked goes into the reason, so the daemon's sweep log names the requester.
  EXPECT_EQ(handle_request({{"cmd", "sweep"}}, control, "uid 0 pid 4242"), ok_response({{"requested", "heavy sweep"}}));
  EXPECT_EQ(control.heavy.back(), "smctl sweep by uid 0 pid 4242");
  // The error lists the table's names: every command, in order, so a new row shows up without an edit here.
  const std::string unknown = handle_request({{"cmd", "bogus"}}, control)["error"];
  EXPECT_EQ(unknown.rfind("unknown command 'bogus' (known: counters, drain, dump, export, groups, lfts, ", 0), 0u) << unknown;
  std::size_t at = 0;
  for (const ControlCommand& c : control_commands()) {
    const std::size_t found = unknown.find(std::string(c.name), at);
    EXPECT_NE(found, std::string::npos) << c.name << " missing or out of order in: " << unknown;
    if (found != std::string::npos) at = found + c.name.size();
  }
  EXPECT_EQ(handle_request({{"cmd", "route"}, {"src", "host-0"}}, control)["error"], "route needs src and dst");
  const Json by_number = handle_request({{"cmd", "route"}, {"src", "host-0"}, {"dst", 1}}, control);
  EXPECT_EQ(by_number["ok"], true) << by_number.dump();
  EXPECT_EQ(handle_request({{"cmd", "lfts"}, {"switch", "leaf-9"}}, control), error_response("no node named 'leaf-9'"));
  EXPECT_EQ(handle_request({{"cmd", "report"}}, control)["result"]["subnet_up"], false);

  EXPECT_EQ(parse_request("not json").error().message, "request is not valid JSON");
  EXPECT_EQ(parse_request("[1]").error().message, "request must be a JSON object");
  EXPECT_EQ(parse_request("{\"cmd\":3}").error().message, "request has no string \"cmd\"");
  EXPECT_EQ(parse_request("{\"cmd\":\"status\",\"cmd\":\"sweep\"}").error().message, "request gives \"cmd\" twice");
  EXPECT_TRUE(parse_request("{\"cmd\":\"route\",\"src\":{\"a\":1},\"dst\":{\"a\":2}}").ok()) << "one key per object";
  EXPECT_EQ(
      handle_request({{"cmd", "port_clear"}, {"node", "host-0"}, {"port", 18446744073709551615ull}}, control)["error"],
      "port_clear: port must be an integer 1..254");
  EXPECT_EQ(to_line(error_response("x")), "{\"error\":\"x\",\"ok\":false}\n");
}

TEST(ControlProtocol, RuntimeControls) {
  FakeControl control;
  control.snap = make_snapshot();
  EXPECT_EQ(handle_request({{"cmd", "sweep"}, {"light", true}}, control, "uid 0 pid 7"),
            ok_response({{"requested", "light sweep"}}));
  EXPECT_EQ(control.light, std::vector<std::string>{"smctl sweep --light by uid 0 pid 7"});
  EXPECT_TRUE(control.heavy.empty());
  EXPECT_EQ(handle_request({{"cmd", "sweep"}, {"light", "yes"}}, control),
            error_response("sweep: light must be true or false"));

  EXPECT_EQ(handle_request({{"cmd", "sweeps"}, {"on", false}}, control)["error"],
            "sweeps off needs a reason (smctl sweeps off --reason TEXT): status shows it");
  EXPECT_EQ(handle_request({{"cmd", "sweeps"}, {"on", false}, {"reason", std::string(201, 'x')}}, control)["error"],
            "sweeps off: reason is 201 bytes (limit 200)");
  // Status shows the reason on one line; other JSON clients than smctl would print a raw ESC or newline.
  EXPECT_EQ(handle_request({{"cmd", "sweeps"}, {"on", false}, {"reason", "rack 4\nsweeps ON by uid 0"}}, control)["error"],
            "sweeps off: reason has a control character at byte 7: one line of printable text");
  EXPECT_EQ(handle_request({{"cmd", "sweeps"}, {"on", false}, {"reason", "\x1b[2J"}}, control)["error"],
            "sweeps off: reason has a control character at byte 1: one line of printable text");
  EXPECT_EQ(handle_request({{"cmd", "sweeps"}}, control)["error"], "sweeps: on must be true or false");
  EXPECT_TRUE(control.sweeping.empty());
  EXPECT_EQ(handle_request({{"cmd", "sweeps"}, {"on", false}, {"reason", "recabling rack 4"}}, control, "uid 0 pid 8"),
            ok_response({{"requested", "sweeps off"}}));
  EXPECT_EQ(handle_request({{"cmd", "sweeps"}, {"on", true}}, control, "uid 0 pid 9"),
            ok_response({{"requested", "sweeps on"}}));
  EXPECT_EQ(control.sweeping,
            (std::vector<std::string>{"off|recabling rack 4|uid 0 pid 8", "on|smctl sweeps on|uid 0 pid 9"}));

  EXPECT_EQ(handle_request({{"cmd", "log_level"}, {"level", "debug"}}, control), ok_response({{"log_level", "debug"}}));
  EXPECT_EQ(handle_request({{"cmd", "log_level"}, {"level", "verbose"}}, control)["error"],
            "log_level: unknown level 'verbose' (known: trace, debug, info, warn, error, critical, off)");
  EXPECT_EQ(control.levels, std::vector<std::string>{"debug"});

  EXPECT_EQ(handle_request({{"cmd", "perfmgr"}, {"action", "pass"}}, control),
            ok_response({{"requested", "perfmgr pass"}}));
  EXPECT_EQ(handle_request({{"cmd", "perfmgr"}, {"action", "clear"}}, control),
            ok_response({{"requested", "perfmgr clear"}}));
  EXPECT_EQ(handle_request({{"cmd", "perfmgr"}, {"action", "reset"}}, control)["error"],
            "perfmgr: unknown action 'reset' (known: clear, pass)");
  EXPECT_EQ(control.perf, (std::vector<PerfMgrRequest>{PerfMgrRequest::kPass, PerfMgrRequest::kClear}));
  control.perf_answer = make_error(ErrorCode::kInvalidInput, "the PerfMgr is not running (perfmgr.enabled is false)");
  EXPECT_EQ(handle_request({{"cmd", "perfmgr"}, {"action", "pass"}}, control)["error"],
            "perfmgr pass: the PerfMgr is not running (perfmgr.enabled is false)");
}

TEST(ControlProtocol, StatusShowsSweepsOffAndTheLogLevel) {
  auto snap = make_snapshot();
  snap->log_level = "debug";
  Json s = status_json(*snap);
  EXPECT_EQ(s["log_level"], "debug");
  EXPECT_TRUE(s["sweeps_off"].is_null());
  snap->sweeps_off = SweepsOffView{std::chrono::system_clock::time_point(std::chrono::seconds(1798602300)),
                                   "uid 0 pid 8", "recabling rack 4", 2, "trap 128 from LID 3"};
  s = status_json(*snap);
  EXPECT_EQ(s["sweeps_off"], Json({{"since", "2026-12-30T03:45:00Z"},
                                   {"by", "uid 0 pid 8"},
                                   {"reason", "recabling rack 4"},
                                   {"held_back", 2},
                                   {"first_held_back", "trap 128 from LID 3"}}));
}

// The table's shape: sorted, unique names (find_control_command finds each), every row described and handled
// (at once, or later: exactly one of the two).
TEST(ControlProtocol, CommandTableIsSortedAndComplete) {
  const auto commands = control_commands();
  ASSERT_FALSE(commands.empty());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    EXPECT_FALSE(commands[i].summary.empty()) << commands[i].name;
    EXPECT_NE(commands[i].handle == nullptr, commands[i].start == nullptr) << commands[i].name;
    EXPECT_EQ(find_control_command(commands[i].name), &commands[i]);
    if (i > 0) {
      EXPECT_LT(commands[i - 1].name, commands[i].name);
    }
  }
  EXPECT_EQ(find_control_command("bogus"), nullptr);
  EXPECT_EQ(find_control_command(""), nullptr);
  // A request that needs no snapshot runs before the daemon has published one.
  FakeControl control;
  EXPECT_EQ(handle_request({{"cmd", "sweep"}}, control), ok_response({{"requested", "heavy sweep"}}));
  EXPECT_EQ(handle_request({{"cmd", "status"}}, control), error_response("the daemon has published no state yet"));
}

// `smctl --json report` carries the P_KeyTable block counts (what partitions_named_test.sh reads).
TEST(ControlProtocol, ReportHasPKeyBlocks) {
  SweepSummary s;
  s.lft_blocks_written = 3;
  s.pkey_blocks_written = 2;
  s.pkey_blocks_skipped = 16;
  const Json r = report_json(s);
  EXPECT_EQ(r["pkey_blocks_written"], 2);
  EXPECT_EQ(r["pkey_blocks_skipped"], 16);
  EXPECT_EQ(r["lft_blocks_written"], 3);
}

TEST(ControlProtocol, ExportRoce) {
  FakeControl control;
  control.snap = make_snapshot();
  EXPECT_EQ(handle_request({{"cmd", "export"}, {"what", "roce"}}, control),
            error_response("roce export is off (policy roce.export: false)"));
  EXPECT_EQ(handle_request({{"cmd", "export"}, {"what", "x"}}, control),
            error_response("unknown export 'x' (known: roce)"));
  std::string dir = (std::filesystem::temp_directory_path() / "smd-export-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  const std::string path = dir + "/roce-plan.json";
  auto snap = std::make_shared<FabricSnapshot>(*control.snap);
  snap->roce_plan_path = path;
  control.snap = snap;
  EXPECT_EQ(handle_request({{"cmd", "export"}, {"what", "roce"}}, control),
            error_response("roce plan not available yet (" + path + " is written after the first routed sweep)"));
  std::ofstream(path) << R"({"switches":6})";
  const Json r = handle_request({{"cmd", "export"}, {"what", "roce"}}, control);
  EXPECT_EQ(r, ok_response({{"what", "roce"}, {"path", path}, {"plan", {{"switches", 6}}}}));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace smd::control::control_protocol_test
