// Metrics: the exact exposition text for a hand-built snapshot, and the Beast server on an ephemeral
// loopback port fetched by a Beast client (io_context in the test thread, client beside it).
#include "smd/control/metrics_server.h"

#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <future>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/control/metrics_text.h"
#include "tests/unit/smd/control/metrics_family_text.h"

namespace smd::metrics_server_test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using namespace std::chrono_literals;

std::shared_ptr<FabricSnapshot> make_snapshot() {
  auto topo = make_two_switch(2, 3);
  EXPECT_TRUE(topo.ok());
  auto snap = std::make_shared<FabricSnapshot>();
  snap->topo = std::make_shared<const Topology>(std::move(topo.value()));
  snap->sm_state = "MASTER";
  snap->instance = "rail1";
  snap->sm_port_guid = 0x0002c90300a1b2c4;
  snap->masters_seen = 2;
  snap->last_sweep.total_ms = 1250;
  snap->last_repair_ms = 35;
  snap->counters = {.heavy_sweeps = 4,
                    .light_sweeps = 90,
                    .failed_sweeps = 1,
                    .incremental_sweeps = 2,
                    .incremental_fallbacks = 1,
                    .traps_received = 7,
                    .sminfo_sets_refused = 3,
                    .elections = 2,
                    .handovers_sent = 1,
                    .handovers_received = 4,
                    .two_masters_found = 1,
                    .nudges_sent = 6,
                    .is_sm_restored = 5,
                    .smps_sent = 1234,
                    .smp_retries = 12,
                    .smp_timeouts = 2,
                    .lft_blocks_written = 48,
                    .pkey_blocks_written = 9,
                    .sl2vl_tables_written = 13,
                    .vlarb_blocks_written = 14,
                    .mft_blocks_written = 11,
                    .mcast_passes = 3,
                    .heavy_sweep_seconds_total = 5,
                    .routing_seconds_total = 0.5};
  // Three groups: one with its tree programmed, one whose members changed since, one with no tree.
  McastGroupView programmed, pending, lone;
  programmed.mlid = 0xC000;
  programmed.members = programmed.full = 4;
  programmed.root = 0x20;
  programmed.tree_switches = 2;
  programmed.programmed = true;
  pending.mlid = 0xC001;
  pending.members = 2;
  pending.full = pending.send_only = 1;
  pending.root = 0x21;
  pending.tree_switches = 1;
  lone.mlid = 0xC002;
  lone.members = lone.full = 1;
  snap->groups = {programmed, pending, lone};
  PartitionsSpec policy = default_partitions();
  PartitionSpec tenant;
  tenant.name = "tenant";
  tenant.pkey = 0x0a01;
  policy.partitions.push_back(tenant);
  snap->partition_policy = std::make_shared<const PartitionsSpec>(std::move(policy));
  auto plan = std::make_shared<PartitionPlan>();
  plan->problems.push_back({0x20, 3, "the set does not fit"});
  snap->partitions = plan;
  snap->reloads_refused_total = 2;
  snap->reload_refused = "/etc/smd/smd.yaml:3:5: perfmgr.max_outstanding: 100 is out of range 1..64";
  snap->sweeps_off = SweepsOffView{};
  snap->sweeps_off->deferred = 3;
  return snap;
}

TEST(MetricsText, ExactExposition) {
  EXPECT_EQ(render_metrics(*make_snapshot()),
            "# HELP smd_policy_reloads_refused_total SIGHUPs whose policy file was refused (the running policy was "
            "kept).\n"
            "# TYPE smd_policy_reloads_refused_total counter\n"
            "smd_policy_reloads_refused_total 2\n"
            "# HELP smd_policy_reload_refused 1 while the policy file on disk was refused at the last SIGHUP and no "
            "reload was accepted since.\n"
            "# TYPE smd_policy_reload_refused gauge\n"
            "smd_policy_reload_refused 1\n"
            "# HELP smd_sweeps_disabled 1 while sweeps are off (smctl sweeps off): no light sweeps, trap-driven heavy "
            "sweeps held back.\n"
            "# TYPE smd_sweeps_disabled gauge\n"
            "smd_sweeps_disabled 1\n"
            "# HELP smd_sweeps_held_back Heavy sweeps held back since sweeps were turned off (0 while on).\n"
            "# TYPE smd_sweeps_held_back gauge\n"
            "smd_sweeps_held_back 3\n"
            "# HELP smd_sweeps_total Sweeps run since the daemon started, by kind.\n"
            "# TYPE smd_sweeps_total counter\n"
            "smd_sweeps_total{kind=\"heavy\"} 4\n"
            "smd_sweeps_total{kind=\"light\"} 90\n"
            "# HELP smd_incremental_sweeps_total Heavy sweeps after link-change traps, by outcome: only the "
            "changed switches re-read, or a full discovery because the last fabric could not explain what was found.\n"
            "# TYPE smd_incremental_sweeps_total counter\n"
            "smd_incremental_sweeps_total{outcome=\"incremental\"} 2\n"
            "smd_incremental_sweeps_total{outcome=\"full\"} 1\n"
            "# HELP smd_sweep_failures_total Heavy sweeps that did not end with the subnet up.\n"
            "# TYPE smd_sweep_failures_total counter\n"
            "smd_sweep_failures_total 1\n"
            "# HELP smd_heavy_sweep_duration_seconds Wall time of the last heavy sweep.\n"
            "# TYPE smd_heavy_sweep_duration_seconds gauge\n"
            "smd_heavy_sweep_duration_seconds 1.25\n"
            "# HELP smd_heavy_sweep_seconds_total Wall time of every heavy sweep since the daemon started.\n"
            "# TYPE smd_heavy_sweep_seconds_total counter\n"
            "smd_heavy_sweep_seconds_total 5\n"
            "# HELP smd_smps_sent_total SMPs sent, retries included.\n"
            "# TYPE smd_smps_sent_total counter\n"
            "smd_smps_sent_total 1234\n"
            "# HELP smd_smp_timeouts_total SMPs that got no answer after every retry.\n"
            "# TYPE smd_smp_timeouts_total counter\n"
            "smd_smp_timeouts_total 2\n"
            "# HELP smd_smp_retries_total SMP re-sends after a timeout.\n"
            "# TYPE smd_smp_retries_total counter\n"
            "smd_smp_retries_total 12\n"
            "# HELP smd_nodes Nodes found by the last heavy sweep, by type.\n"
            "# TYPE smd_nodes gauge\n"
            "smd_nodes{type=\"switch\"} 2\n"
            "smd_nodes{type=\"ca\"} 6\n"
            "# HELP smd_links Cables found by the last heavy sweep.\n"
            "# TYPE smd_links gauge\n"
            "smd_links 8\n"
            "# HELP smd_ports Ports (switch port 0 left out) by the PortState the last configuring sweep read.\n"
            "# TYPE smd_ports gauge\n"
            "smd_ports{state=\"Down\"} 0\n"
            "smd_ports{state=\"Init\"} 0\n"
            "smd_ports{state=\"Armed\"} 0\n"
            "smd_ports{state=\"Active\"} 0\n"
            "# HELP smd_lft_blocks_written_total 64-entry LFT blocks written to switches.\n"
            "# TYPE smd_lft_blocks_written_total counter\n"
            "smd_lft_blocks_written_total 48\n"
            "# HELP smd_pkey_blocks_written_total 32-entry P_KeyTable blocks written to ports.\n"
            "# TYPE smd_pkey_blocks_written_total counter\n"
            "smd_pkey_blocks_written_total 9\n"
            "# HELP smd_sl2vl_tables_written_total SLtoVLMappingTable Sets written to ports (one per switch (in, out) "
            "pair, CA port or optimized Set).\n"
            "# TYPE smd_sl2vl_tables_written_total counter\n"
            "smd_sl2vl_tables_written_total 13\n"
            "# HELP smd_vlarb_blocks_written_total 32-entry VLArbitrationTable blocks written to ports.\n"
            "# TYPE smd_vlarb_blocks_written_total counter\n"
            "smd_vlarb_blocks_written_total 14\n"
            "# HELP smd_routing_layers Virtual layers (SL = VL) the programmed routes use: 1 unless a VL-layered "
            "engine (dfsssp) routed.\n"
            "# TYPE smd_routing_layers gauge\n"
            "smd_routing_layers 1\n"
            "# HELP smd_mft_blocks_written_total MulticastForwardingTable (block, position) Sets written to switches, "
            "in sweeps and multicast passes.\n"
            "# TYPE smd_mft_blocks_written_total counter\n"
            "smd_mft_blocks_written_total 11\n"
            "# HELP smd_mcast_passes_total Multicast passes between sweeps that rebuilt trees.\n"
            "# TYPE smd_mcast_passes_total counter\n"
            "smd_mcast_passes_total 3\n"
            "# HELP smd_mcast_trees Multicast groups with a spanning tree programmed (2 or more member ports).\n"
            "# TYPE smd_mcast_trees gauge\n"
            "smd_mcast_trees 2\n"
            "# HELP smd_mcast_trees_pending Multicast trees whose members changed and are not yet programmed.\n"
            "# TYPE smd_mcast_trees_pending gauge\n"
            "smd_mcast_trees_pending 1\n"
            "# HELP smd_partitions Partitions in the policy in effect (the default partition included).\n"
            "# TYPE smd_partitions gauge\n"
            "smd_partitions 2\n"
            "# HELP smd_partition_problems Ports whose partition set did not fit their P_Key table.\n"
            "# TYPE smd_partition_problems gauge\n"
            "smd_partition_problems 1\n"
            "# HELP smd_routing_seconds_total Time spent computing and verifying routes.\n"
            "# TYPE smd_routing_seconds_total counter\n"
            "smd_routing_seconds_total 0.5\n"
            "# HELP smd_last_repair_seconds Last trap or port change until the tables were consistent.\n"
            "# TYPE smd_last_repair_seconds gauge\n"
            "smd_last_repair_seconds 0.035\n"
            "# HELP smd_repairs_total Heavy sweeps that made the tables consistent after a trap or port change.\n"
            "# TYPE smd_repairs_total counter\n"
            "smd_repairs_total 0\n"
            "# HELP smd_repair_seconds_total Trap or port change until the tables were consistent, summed over "
            "repairs.\n"
            "# TYPE smd_repair_seconds_total counter\n"
            "smd_repair_seconds_total 0\n"
            "# HELP smd_traps_received_total Traps (Notice MADs) received.\n"
            "# TYPE smd_traps_received_total counter\n"
            "smd_traps_received_total 7\n"
            "# HELP smd_sminfo_sets_refused_total SMInfo Sets from other SMs not obeyed (wrong SM_Key or no such "
            "transition).\n"
            "# TYPE smd_sminfo_sets_refused_total counter\n"
            "smd_sminfo_sets_refused_total 3\n"
            "# HELP smd_masters_seen SMs in MASTER state at this SM's last look (election or light sweep), itself "
            "included: 1 when healthy, 2 while two masters resolve.\n"
            "# TYPE smd_masters_seen gauge\n"
            "smd_masters_seen 2\n"
            "# HELP smd_elections_total Election gates of heavy sweeps in which another SM answered.\n"
            "# TYPE smd_elections_total counter\n"
            "smd_elections_total 2\n"
            "# HELP smd_handovers_total SMInfo HANDOVERs: sent by this SM and taken, or received and obeyed.\n"
            "# TYPE smd_handovers_total counter\n"
            "smd_handovers_total{direction=\"sent\"} 1\n"
            "smd_handovers_total{direction=\"received\"} 4\n"
            "# HELP smd_two_masters_total Election gates that found another MASTER of lower precedence while this "
            "SM was MASTER.\n"
            "# TYPE smd_two_masters_total counter\n"
            "smd_two_masters_total 1\n"
            "# HELP smd_is_sm_restored_total Times this SM's port had lost IsSM and got it back.\n"
            "# TYPE smd_is_sm_restored_total counter\n"
            "smd_is_sm_restored_total 5\n"
            "# HELP smd_subnet_info The subnet this daemon manages, always 1: smd_instance (smd --instance, \"\" for "
            "the single SM), sm_port_guid (the SM's port, all zeros before it is open) and subnet_prefix.\n"
            "# TYPE smd_subnet_info gauge\n"
            "smd_subnet_info{smd_instance=\"rail1\",sm_port_guid=\"0x0002c90300a1b2c4\",subnet_prefix=\"0xfe80000000000000\"} 1\n"
            "# HELP smd_sm_state SM state (IBA SMInfo): 1 for the current state, 0 for the others.\n"
            "# TYPE smd_sm_state gauge\n"
            "smd_sm_state{state=\"NOTACTIVE\"} 0\n"
            "smd_sm_state{state=\"DISCOVERING\"} 0\n"
            "smd_sm_state{state=\"STANDBY\"} 0\n"
            "smd_sm_state{state=\"MASTER\"} 1\n"
            "# HELP smd_sm_priority This SM's SMInfo Priority (0-15; sm.priority): the election's first key.\n"
            "# TYPE smd_sm_priority gauge\n"
            "smd_sm_priority 0\n"
            "# HELP smd_sm_peers Other trusted SMs of the last election, by the SM state they last reported.\n"
            "# TYPE smd_sm_peers gauge\n"
            "smd_sm_peers{state=\"NOTACTIVE\"} 0\n"
            "smd_sm_peers{state=\"DISCOVERING\"} 0\n"
            "smd_sm_peers{state=\"STANDBY\"} 0\n"
            "smd_sm_peers{state=\"MASTER\"} 0\n"
            "# HELP smd_ports_unhealthy Ports marked unhealthy (error thresholds or link flaps).\n"
            "# TYPE smd_ports_unhealthy gauge\n"
            "smd_ports_unhealthy 0\n"
            "# HELP smd_ports_isolated Unhealthy ports whose cable the routes go around.\n"
            "# TYPE smd_ports_isolated gauge\n"
            "smd_ports_isolated 0\n"
            "# HELP smd_unhealthy_marks_total Ports marked unhealthy since the daemon started.\n"
            "# TYPE smd_unhealthy_marks_total counter\n"
            "smd_unhealthy_marks_total 0\n"
            "# HELP smd_babbling_ports_total Ports found sending traps 129-131 too fast (health.babbling_port) since "
            "the daemon started.\n"
            "# TYPE smd_babbling_ports_total counter\n"
            "smd_babbling_ports_total 0\n"
            "# HELP smd_babbling_links_disabled Links the SM holds disabled for babbling ports.\n"
            "# TYPE smd_babbling_links_disabled gauge\n"
            "smd_babbling_links_disabled 0\n"
            "# HELP smd_drained_parts Switches and cables the operator drained (smctl drain): routes go around "
            "them.\n"
            "# TYPE smd_drained_parts gauge\n"
            "smd_drained_parts 0\n"
            "# HELP smd_drained_cables Cables the last routing phase took out for the operator's drains.\n"
            "# TYPE smd_drained_cables gauge\n"
            "smd_drained_cables 0\n");
}

TEST(MetricsText, PortCountersAndUnhealthyPortsCarryPortLabels) {
  FabricSnapshot snap;
  auto perf = std::make_shared<PerfView>();
  perf->passes = 3;
  perf->last_pass.mads_sent = 900;
  perf->last_pass.wall_ms = 250;
  PortCounterRow row;
  row.key = {0x0002c90000000010ULL, 5};
  row.node_desc = "leaf \"1\"";  // escaped in the label
  row.peer = "spine-0 port 2";
  row.total[static_cast<std::size_t>(PortCounter::kSymbolError)] = 57;
  row.total[static_cast<std::size_t>(PortCounter::kPortXmitWait)] = 4000000000ULL;
  row.data_total = {1024, 2048, 16, 32};
  row.data_rate = {512, 0, 8, 0};
  perf->ports.push_back(row);
  snap.perf = perf;
  UnhealthyPortView u;
  u.key = row.key;
  u.node_desc = row.node_desc;
  u.peer = row.peer;
  u.reason = "SymbolErrorCounter +57 in 10 s (threshold 10)";
  u.isolated = true;
  snap.unhealthy = {u};
  snap.unhealthy_marks_total = 2;
  snap.babbling_ports_total = 3;
  snap.babbling_links_disabled = 1;
  const std::string text = render_metrics(snap);
  const std::string labels =
      "node_guid=\"0x0002c90000000010\",node_desc=\"leaf \\\"1\\\"\",port=\"5\",peer=\"spine-0 port 2\"";
  EXPECT_EQ(family_text(text, "smd_port_symbol_errors_total"),
            "# HELP smd_port_symbol_errors_total PortCounters SymbolErrorCounter counted since smd first read the port "
            "(saturation resets and wraps folded in).\n"
            "# TYPE smd_port_symbol_errors_total counter\n"
            "smd_port_symbol_errors_total{" +
                labels + "} 57\n");
  EXPECT_NE(family_text(text, "smd_port_xmit_wait_total").find("{" + labels + "} 4000000000\n"), std::string::npos);
  EXPECT_NE(family_text(text, "smd_port_link_downed_total").find("{" + labels + "} 0\n"), std::string::npos);
  EXPECT_NE(family_text(text, "smd_port_xmit_bytes_total").find("{" + labels + "} 1024\n"), std::string::npos);
  EXPECT_NE(family_text(text, "smd_port_rcv_packets_total").find("{" + labels + "} 32\n"), std::string::npos);
  EXPECT_NE(family_text(text, "smd_port_xmit_bytes_per_second").find("{" + labels + "} 512\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_perfmgr_passes_total 3\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_perfmgr_pass_mads 900\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_perfmgr_pass_seconds 0.25\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_ports_unhealthy 1\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_ports_isolated 1\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_unhealthy_marks_total 2\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_babbling_ports_total 3\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_babbling_links_disabled 1\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_port_unhealthy{" + labels +
                      ",reason=\"SymbolErrorCounter +57 in 10 s (threshold 10)\",isolated=\"true\"} 1\n"),
            std::string::npos);
  // Every one of the 13 PortCounters families is there, once.
  for (const CounterInfo& c : kPortCounterInfo) {
    EXPECT_NE(family_text(text, std::string("smd_port_") + c.metric + "_total"), "") << c.metric;
  }
}

TEST(MetricsText, ThePerfMgrsPrerenderedFamiliesAreUsedAsTheyAre) {
  FabricSnapshot snap;
  auto perf = std::make_shared<PerfView>();
  PortCounterRow row;
  row.key = {0x10, 1};
  perf->ports.push_back(row);
  const std::string rendered = render_perfmgr_metrics(*perf);
  snap.perf = perf;
  const std::string inline_text = render_metrics(snap);
  // Rendered per scrape, the families come last, exactly as render_perfmgr_metrics writes them.
  ASSERT_GE(inline_text.size(), rendered.size());
  EXPECT_EQ(inline_text.substr(inline_text.size() - rendered.size()), rendered);
  // Rendered by the PerfMgr, its text is copied and the view's rows are not rendered again.
  perf->metrics_text = std::make_shared<const std::string>("smd_perfmgr_passes_total 99\n");
  const std::string copied = render_metrics(snap);
  EXPECT_EQ(copied.substr(copied.size() - 28), "smd_perfmgr_passes_total 99\n");
  EXPECT_EQ(copied.find("smd_port_symbol_errors_total"), std::string::npos);
}

TEST(MetricsText, NoPerfMgrNoPortFamilies) {
  const std::string text = render_metrics(FabricSnapshot{});
  EXPECT_EQ(text.find("smd_port_"), std::string::npos);
  EXPECT_EQ(text.find("smd_perfmgr_"), std::string::npos);
}

TEST(MetricsText, EmptySnapshotHasZeroGauges) {
  const std::string text = render_metrics(FabricSnapshot{});
  EXPECT_NE(text.find("\nsmd_nodes{type=\"switch\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_links 0\n"), std::string::npos);
  EXPECT_NE(text.find("\nsmd_sm_state{state=\"DISCOVERING\"} 1\n"), std::string::npos);
  // The single SM (no --instance) still names its subnet, with an empty instance label.
  EXPECT_NE(text.find("\nsmd_subnet_info{smd_instance=\"\",sm_port_guid=\"0x0000000000000000\","
                      "subnet_prefix=\"0xfe80000000000000\"} 1\n"),
            std::string::npos);
}

TEST(MetricsListen, ParsesHostPort) {
  EXPECT_EQ(parse_listen("127.0.0.1:9464")->port(), 9464);
  EXPECT_EQ(parse_listen("[::1]:80")->address().to_string(), "::1");
  EXPECT_EQ(parse_listen("localhost:0")->address().to_string(), "127.0.0.1");
  EXPECT_EQ(parse_listen("9464").error().message, "metrics.listen '9464': expected host:port");
  EXPECT_EQ(parse_listen("1.2.3.4:99999").error().message, "metrics.listen '1.2.3.4:99999': port must be 0..65535");
  EXPECT_EQ(parse_listen("example.com:1").error().message,
            "metrics.listen 'example.com:1': host must be an IP address or localhost");
}

struct Reply {
  unsigned status = 0;
  std::string content_type;
  std::string body;
};

// One HTTP/1.1 request over a fresh connection, with a 3 s deadline.
Reply fetch(unsigned short port, http::verb verb, const std::string& target) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(3s);
  stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req(verb, target, 11);
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return {res.result_int(), std::string(res[http::field::content_type]), res.body()};
}

// The status line the server answers to raw bytes (a request the parser refuses), "" when it just closes.
std::string raw_status_line(unsigned short port, const std::string& bytes) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(3s);
  stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::write(stream.socket(), asio::buffer(bytes));
  std::string got;
  beast::error_code ec;
  char chunk[512];
  while (got.find("\r\n") == std::string::npos) {
    const std::size_t n = stream.socket().read_some(asio::buffer(chunk), ec);
    if (ec) break;
    got.append(chunk, n);
  }
  return got.substr(0, got.find("\r\n"));
}

class MetricsServerTest : public ::testing::Test {
 protected:
  template <typename T>
  T run_until(std::future<T>& f) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (f.wait_for(0s) != std::future_status::ready && std::chrono::steady_clock::now() < deadline) {
      io.run_for(10ms);
    }
    EXPECT_EQ(f.wait_for(0s), std::future_status::ready) << "client did not finish in time";
    return f.get();
  }
  Reply get(unsigned short port, http::verb verb, const std::string& target) {
    auto f = std::async(std::launch::async, [=] { return fetch(port, verb, target); });
    return run_until(f);
  }
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> guard{io.get_executor()};
};

TEST_F(MetricsServerTest, ServesMetricsAnd404) {
  std::shared_ptr<const FabricSnapshot> snap = make_snapshot();
  MetricsServer server(
      io, [&] { return snap; }, "127.0.0.1:0");
  ASSERT_TRUE(server.start().ok());
  const unsigned short port = server.port();
  ASSERT_NE(port, 0);

  const Reply ok = get(port, http::verb::get, "/metrics");
  EXPECT_EQ(ok.status, 200u);
  EXPECT_EQ(ok.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(ok.body, render_metrics(*snap));

  EXPECT_EQ(get(port, http::verb::get, "/").status, 200u);  // the fabric view (view_routes.h)
  EXPECT_EQ(get(port, http::verb::get, "/nothing").status, 404u);
  EXPECT_EQ(get(port, http::verb::post, "/api/v1/fabric").status, 405u);
  EXPECT_EQ(get(port, http::verb::get, "/api/v1/fabric").content_type, "application/json");
  EXPECT_EQ(get(port, http::verb::post, "/metrics").status, 405u);  // the resource exists; the method does not
  EXPECT_EQ(get(port, http::verb::get, "http://127.0.0.1/metrics").status, 200u);  // absolute form
  EXPECT_EQ(get(port, http::verb::get, "/metrics?x=1").status, 200u);

  snap = nullptr;  // before the daemon's first publication
  EXPECT_EQ(get(port, http::verb::get, "/metrics").status, 503u);

  ASSERT_TRUE(server.stop().ok());
  EXPECT_EQ(server.port(), 0);
}

// A request the parser refuses is answered with the status that says why (RFC 9110), not a silent close.
TEST_F(MetricsServerTest, RefusedRequestsGetAStatus) {
  MetricsServer server(
      io, [] { return std::shared_ptr<const FabricSnapshot>(); }, "127.0.0.1:0");
  ASSERT_TRUE(server.start().ok());
  const unsigned short port = server.port();
  auto status_of = [&](const std::string& bytes) {
    auto f = std::async(std::launch::async, [=] { return raw_status_line(port, bytes); });
    return run_until(f);
  };
  EXPECT_EQ(status_of("garbage garbage garbage\r\n\r\n"), "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(status_of("GET /metrics HTTP/1.1\r\nX: " + std::string(16 * 1024, 'a') + "\r\n\r\n"),
            "HTTP/1.1 431 Request Header Fields Too Large");
  // Beast's parser reads only HTTP/1.0 and HTTP/1.1; any other version is a malformed request line to it.
  EXPECT_EQ(status_of("GET /metrics HTTP/9.9\r\n\r\n"), "HTTP/1.1 400 Bad Request");
  ASSERT_TRUE(server.stop().ok());
}

TEST_F(MetricsServerTest, BindConflictNamesAddress) {
  MetricsServer first(
      io, [] { return std::shared_ptr<const FabricSnapshot>(); }, "127.0.0.1:0");
  ASSERT_TRUE(first.start().ok());
  const std::string listen = "127.0.0.1:" + std::to_string(first.port());
  MetricsServer second(
      io, [] { return std::shared_ptr<const FabricSnapshot>(); }, listen);
  const Status s = second.start();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kIo);
  EXPECT_EQ(s.error().message, "metrics " + listen + ": bind: Address already in use");
  ASSERT_TRUE(first.stop().ok());
}

}  // namespace
}  // namespace smd::metrics_server_test
