// smctl's text views of control responses: exact output for fixed JSON, JSON fallback for odd shapes.
#include <gtest/gtest.h>

#include <sstream>

#include "routing/base/safe_text.h"
#include "smd/smctl/smctl_render.h"

namespace smd::control::control_render_test {
namespace {

std::string render(const std::string& cmd, const Json& result) {
  std::ostringstream out;
  render_text(out, cmd, result);
  return out.str();
}

TEST(ControlRender, Status) {
  const Json status = {
      {"state", "MASTER"},
      {"priority", 5},
      {"sm_guid", "0x0000000000000001"},
      {"sm_lid", 1},
      {"master_guid", "0x0000000000000001"},
      {"master_lid", 1},
      {"sweeps", {{"heavy", 2}, {"light", 9}, {"failed", 0}}},
      {"last_sweep", {{"time", "2026-11-30T03:45:00Z"}, {"subnet_up", true}, {"problems", 0}, {"total_ms", 12.5}}},
      {"engine", "minhop"},
      {"fabric", {{"switches", 6}, {"cas", 16}, {"links", 24}, {"lids", 22}}}};
  const std::string common_head =
      "SM state      MASTER (priority 5)\n"
      "SM port       0x0000000000000001 LID 1\n"
      "Master        0x0000000000000001 LID 1\n"
      "Sweeps        heavy 2, light 9, failed 0\n"
      "Last sweep    2026-11-30T03:45:00Z: subnet up, 0 problems, 12.5 ms\n";
  const std::string common_tail =
      "Engine        minhop\n"
      "Fabric        6 switches, 16 CAs, 24 links, 22 ports with LIDs\n";
  EXPECT_EQ(render("status", status), common_head + common_tail);

  Json counted = status;
  counted["smps"] = {{"sent", 900}, {"retries", 31}, {"timeouts", 2}};
  counted["last_repair_ms"] = 7.4831215;  // printed to 0.1 ms, as the log prints it
  EXPECT_EQ(render("status", counted), common_head +
                                           "SMPs          900 sent, 31 retries, 2 lost after all retries\n"
                                           "Last repair   7.5 ms\n" +
                                           common_tail);
}

TEST(ControlRender, StatusWithTheElection) {
  Json status = {{"state", "MASTER"},
                 {"priority", 10},
                 {"sm_guid", "0x0000000000100001"},
                 {"sm_lid", 1},
                 {"master_guid", "0x0000000000100001"},
                 {"master_lid", 1},
                 {"sweeps", {{"heavy", 3}, {"light", 4}, {"failed", 0}}},
                 {"last_sweep", {{"time", nullptr}}},
                 {"engine", ""},
                 {"fabric", {{"switches", 0}, {"cas", 0}, {"links", 0}, {"lids", 0}}}};
  status["election"] = {
      {"masters_seen", 2},
      {"awaiting_handover_from", "0x0000000000100013"},
      {"elections", 3},
      {"handovers_sent", 0},
      {"handovers_received", 1},
      {"two_masters", 1},
      {"is_sm_restored", 0},
      {"other_sms", {{{"guid", "0x0000000000100013"}, {"priority", 5}, {"state", "MASTER"}, {"lid", 9}}}}};
  EXPECT_EQ(render("status", status),
            "SM state      MASTER (priority 10)\n"
            "SM port       0x0000000000100001 LID 1\n"
            "Master        0x0000000000100001 LID 1\n"
            "Election      masters seen 2, election rounds 3, handovers sent 0 received 1, two masters 1, IsSM "
            "restored 0\n"
            "Awaiting      HANDOVER from lower master 0x0000000000100013\n"
            "Other SM      0x0000000000100013 MASTER (priority 5) LID 9\n"
            "Sweeps        heavy 3, light 4, failed 0\n"
            "Last sweep    none yet\n"
            "Engine        -\n"
            "Fabric        0 switches, 0 CAs, 0 links, 0 ports with LIDs\n");
}

// A healthy standby's sweeps stop after discovery: said as such, not as "subnet NOT up".
TEST(ControlRender, AStandbysStatusDoesNotReadAsAFailure) {
  const Json status = {{"state", "STANDBY"},
                       {"priority", 5},
                       {"sm_guid", "0x0000000000100002"},
                       {"sm_lid", 2},
                       {"master_guid", "0x0000000000100001"},
                       {"master_lid", 1},
                       {"sweeps", {{"heavy", 1}, {"light", 0}, {"failed", 0}}},
                       {"last_sweep", {{"time", "2026-12-07T00:40:00Z"}, {"subnet_up", false}, {"problems", 0},
                                       {"total_ms", 12.5}}},
                       {"engine", ""},
                       {"fabric", {{"switches", 6}, {"cas", 16}, {"links", 24}, {"lids", 0}}}};
  EXPECT_EQ(render("status", status),
            "SM state      STANDBY (priority 5)\n"
            "SM port       0x0000000000100002 LID 2\n"
            "Master        0x0000000000100001 LID 1\n"
            "Sweeps        heavy 1, light 0, failed 0\n"
            "Last sweep    2026-12-07T00:40:00Z: discovery only (STANDBY: the master configures the subnet), 12.5 ms\n"
            "Engine        - (not routing: standing by)\n"
            "Fabric        6 switches, 16 CAs, 24 links, 0 ports with LIDs (LIDs are the master's to assign)\n");
}

TEST(ControlRender, StatusSaysSweepsAreOffAndTheLogLevel) {
  const Json status = {
      {"state", "MASTER"},
      {"priority", 5},
      {"sm_guid", "0x0000000000000001"},
      {"sm_lid", 1},
      {"master_guid", "0x0000000000000001"},
      {"master_lid", 1},
      {"sweeps", {{"heavy", 2}, {"light", 9}, {"failed", 0}}},
      {"sweeps_off",
       {{"since", "2026-12-07T00:10:00Z"}, {"by", "uid 0 pid 8"}, {"reason", "recabling rack 4"}, {"held_back", 2}}},
      {"last_sweep", {{"time", nullptr}}},
      {"engine", "minhop"},
      {"log_level", "debug"},
      {"fabric", {{"switches", 6}, {"cas", 16}, {"links", 24}, {"lids", 22}}}};
  const std::string text = render("status", status);
  EXPECT_NE(text.find("\nSweeps OFF since 2026-12-07T00:10:00Z by uid 0 pid 8: recabling rack 4 (2 heavy sweeps "
                      "held back)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nLog level     debug\n"), std::string::npos) << text;
  EXPECT_EQ(render("sweeps", {{"requested", "sweeps off"}}), "requested sweeps off\n");
  EXPECT_EQ(render("perfmgr", {{"requested", "perfmgr pass"}}), "requested perfmgr pass\n");
  EXPECT_EQ(render("log_level", {{"log_level", "warn"}}), "log level warn\n");
}

TEST(ControlRender, Route) {
  // smctl shows the display name ("name"); "description" is the node's own NodeDescription.
  const Json route = {{"src", {{"name", "host-0"}, {"description", "hca0"}, {"lid", 1}}},
                      {"dst", {{"name", "host-5"}, {"description", "hca5"}, {"lid", 6}}},
                      {"hop_count", 2},
                      {"hops",
                       {{{"name", "leaf-0"},
                         {"description", "MF0;sw0"},
                         {"in_port", 1},
                         {"out_port", 5},
                         {"peer", "0x2"},
                         {"peer_name", "spine-0"},
                         {"peer_description", "MF0;sw1"},
                         {"peer_port", 1}},
                        {{"name", "spine-0"}, {"description", "MF0;sw1"}, {"in_port", 1}, {"out_port", 0}}}}};
  EXPECT_EQ(render("route", route),
            "host-0 (LID 1) -> host-5 (LID 6): 2 switch hops\n"
            "  SWITCH              IN   OUT  NEXT\n"
            "  leaf-0              1    5    spine-0 port 1\n"
            "  spine-0             1    0    (this switch)\n");
  Json one = route;
  one["hop_count"] = 1;
  one["hops"] = Json::array({route["hops"][1]});
  EXPECT_EQ(render("route", one).substr(0, 51), "host-0 (LID 1) -> host-5 (LID 6): 1 switch hop\n  SW");
}

TEST(ControlRender, AHealthyPortLineEndsWithItsPeer) {
  const Json ports = {{"unhealthy", 0},
                      {"isolated", 0},
                      {"ports",
                       {{{"node_guid", "0x0000000000000010"},
                         {"node_desc", "leaf-0"},
                         {"port", 5},
                         {"dr_path", "0,1"},
                         {"peer", "spine-0 port 1"},
                         {"unhealthy", false}}}}};
  EXPECT_EQ(render("ports", ports),
            "0 unhealthy, 0 isolated\n"
            "0x0000000000000010   leaf-0                   port 5   DR 0,1          -> spine-0 port 1\n");
}

TEST(ControlRender, ReportAlignsPhasesOnTheLongestName) {
  const Json report = {
      {"subnet_up", true},
      {"total_ms", 30.25},
      {"switches", 2},
      {"cas", 4},
      {"links", 5},
      {"lids", 6},
      {"engine", "minhop"},
      {"declined", Json::array()},
      {"smps_sent", 40},
      {"retries", 0},
      {"timeouts", 0},
      {"lft_blocks_written", 2},
      {"lft_blocks_skipped", 0},
      {"port_sets", 12},
      {"phases", {{{"phase", "heavy sweep: fabric discovered"}, {"ms", 16.201971}}, {{"phase", "lids"}, {"ms", 0.04}}}},
      {"problems", Json::array()}};
  EXPECT_EQ(render("report", report),
            "SUBNET UP in 30.2 ms\n"
            "  fabric   2 switches, 4 CAs, 5 links, 6 ports with LIDs\n"
            "  routing  minhop\n"
            "  SMPs     40 sent, 0 retries, 0 timeouts\n"
            "  LFTs     2 blocks written, 0 unchanged; 12 PortInfo sets\n"
            "    heavy sweep: fabric discovered  16.2 ms\n"
            "    lids                            0.0 ms\n");
}

TEST(ControlRender, RequestsAndFallback) {
  EXPECT_EQ(render("sweep", {{"requested", "heavy sweep"}}), "requested heavy sweep\n");
  EXPECT_EQ(render("status", {{"state", "MASTER"}}), "{\n  \"state\": \"MASTER\"\n}\n");
}

TEST(ControlRender, CountersListMovedErrorCountersAndRates) {
  const Json counters = {{"passes", 4},
                         {"interval_s", 10.0},
                         {"last_pass", {{"ports", 2}, {"mads", 4}, {"timeouts", 0}, {"wall_ms", 3.5}, {"cpu_ms", 0.5}}},
                         {"ports",
                          {{{"node_guid", "0x0000000000000010"},
                            {"node_desc", "leaf-0"},
                            {"port", 5},
                            {"peer", "spine-0 port 1"},
                            {"delta", {{"SymbolErrorCounter", 57}, {"PortRcvErrors", 0}}},
                            {"counters", {{"SymbolErrorCounter", 70}, {"PortRcvErrors", 2}}},
                            {"rate", {{"xmit_bytes", 1024}, {"rcv_bytes", 0}}},
                            {"saturated", Json::array({"PortRcvErrors"})}},
                           {{"node_guid", "0x0000000000000011"},
                            {"node_desc", "host-0"},
                            {"port", 1},
                            {"peer", "leaf-0 port 1"},
                            {"delta", {{"SymbolErrorCounter", 0}}},
                            {"counters", {{"SymbolErrorCounter", 0}}},
                            {"rate", {{"xmit_bytes", 0}, {"rcv_bytes", 0}}},
                            {"saturated", Json::array()}}}}};
  EXPECT_EQ(
      render("counters", counters),
      "PerfMgr: 4 passes every 10.0 s; last: 2 ports, 4 MADs, 0 timeouts, 3.5 ms (0.5 ms CPU)\n"
      "0x0000000000000010   leaf-0                   port 5   -> spine-0 port 1           SymbolErrorCounter+57 "
      "(70)  xmit 1024 B/s rcv 0 B/s  saturated: [\"PortRcvErrors\"]\n"
      "0x0000000000000011   host-0                   port 1   -> leaf-0 port 1            clean  xmit 0 B/s rcv 0 "
      "B/s\n");
  EXPECT_EQ(
      render("counters", {{"passes", 0}, {"interval_s", 0}, {"last_pass", Json::object()}, {"ports", Json::array()}}),
      "PerfMgr: no counter pass has ended yet (the first ends one perfmgr.interval after the first sweep)\n");
  // Ports of drained or isolated nodes are not polled, and the status says how many.
  Json drained = counters;
  drained["last_pass"]["unreachable"] = 8;
  drained["ports"] = Json::array();
  EXPECT_EQ(render("counters", drained),
            "PerfMgr: 4 passes every 10.0 s; last: 2 ports, 4 MADs, 0 timeouts, 3.5 ms (0.5 ms CPU); 8 ports not "
            "polled (drained or isolated: no LID route reaches them)\n");
}

TEST(ControlRender, PortsSayWhyAnUnhealthyCableIsOrIsNotIsolated) {
  const Json ports = {{"unhealthy", 2},
                      {"isolated", 1},
                      {"ports",
                       {{{"node_guid", "0x0000000000000010"},
                         {"node_desc", "leaf-0"},
                         {"port", 5},
                         {"dr_path", "0,1"},
                         {"peer", "spine-0 port 1"},
                         {"unhealthy", true},
                         {"reason", "5 link flaps in 600 s"},
                         {"isolated", true},
                         {"since", "2026-12-02T03:00:00Z"}},
                        {{"node_guid", "0x0000000000000011"},
                         {"node_desc", "host-0"},
                         {"port", 1},
                         {"dr_path", "0"},
                         {"peer", "leaf-0 port 1"},
                         {"unhealthy", true},
                         {"reason", "SymbolErrorCounter +11 in 10 s (threshold 10 per 10 s)"},
                         {"isolated", false},
                         {"kept_reason", "would cut off it"},
                         {"since", "2026-12-02T03:01:00Z"}}}}};
  EXPECT_EQ(
      render("ports", ports),
      "2 unhealthy, 1 isolated\n"
      "0x0000000000000010   leaf-0                   port 5   DR 0,1          -> spine-0 port 1           UNHEALTHY: 5 "
      "link flaps in 600 s; isolated (routes go around it); since 2026-12-02T03:00:00Z\n"
      "0x0000000000000011   host-0                   port 1   DR 0            -> leaf-0 port 1            UNHEALTHY: "
      "SymbolErrorCounter +11 in 10 s (threshold 10 per 10 s); not isolated: would cut off it; since "
      "2026-12-02T03:01:00Z\n");
}

// health.babbling_port: a babbling port names the link end the SM disabled instead of isolation.
TEST(ControlRender, BabblingPortNamesTheDisabledLinkEnd) {
  const Json ports = {{"unhealthy", 1},
                      {"isolated", 0},
                      {"ports",
                       {{{"node_guid", "0x0000000000000011"},
                         {"node_desc", "host-0"},
                         {"port", 1},
                         {"dr_path", "0,1"},
                         {"peer", ""},
                         {"unhealthy", true},
                         {"babbling", true},
                         {"disabled_end", "0x0000000000000010/5 (disabled)"},
                         {"reason", "250 traps 129-131 in 60 s (last: 129)"},
                         {"isolated", false},
                         {"since", "2026-12-02T03:00:00Z"}}}}};
  EXPECT_EQ(render("ports", ports),
            "1 unhealthy, 0 isolated\n"
            "0x0000000000000011   host-0                   port 1   DR 0,1          ->                          "
            "BABBLING: 250 traps 129-131 in 60 s (last: 129); link end 0x0000000000000010/5 (disabled); "
            "since 2026-12-02T03:00:00Z\n");
}

// An undrain says each part it did not find drained; a forced drain no engine routes says why and what the
// SM routes with instead.
TEST(ControlRender, UndrainSaysNotDrainedAndAForcedDrainItsFallback) {
  EXPECT_EQ(render("undrain", {{"undrained", {"switch 0x0000000000200004 (spine-0)"}},
                               {"not_drained", {"cable 0x0000000000200004 (spine-0) port 1"}}}),
            "undrained switch 0x0000000000200004 (spine-0)\n"
            "not drained cable 0x0000000000200004 (spine-0) port 1\n");
  EXPECT_EQ(render("undrain", {{"undrained", Json::array()}, {"not_drained", {"switch 0x0000000000200004 (spine-0)"}}}),
            "not drained switch 0x0000000000200004 (spine-0)\nnothing changed\n");
  EXPECT_EQ(render("drain", {{"drained", {"switch 0x0000000000200004 (spine-0)"}},
                             {"already", Json::array()},
                             {"unroutable", "no routing engine succeeded: [ftree: declined: not a fat tree]"},
                             {"fallback_engine", "minhop"}}),
            "drained switch 0x0000000000200004 (spine-0)\n"
            "forced: no engine of the chain routes it (no routing engine succeeded: [ftree: declined: not a fat "
            "tree]); the SM routes with minhop until it is undrained\n");
}

// The what-if's text comes from the daemon with its names made printable once (printable_text of the
// NodeDescription "sw\x1b[31m\\x1b"): smctl shows it as it came, not escaped a second time; a line that
// still holds a control character (a daemon that did not escape) is escaped.
TEST(ControlRender, WhatIfTextIsEscapedOnce) {
  const std::string once = printable_text(std::string("sw\x1b[31m\\x1b"));
  ASSERT_EQ(once, "sw\\x1b[31m\\\\x1b");  // the daemon's escape: ESC as \x1b, the backslash doubled
  EXPECT_EQ(render("what_if_drain", Json{{"text", "switch " + once + "\nlost pairs    0\n"}}),
            "switch " + once + "\nlost pairs    0\n");
  EXPECT_EQ(render("what_if_drain", Json{{"text", std::string("raw \x1b[31m\n")}}), "raw \\x1b[31m\n");
}

}  // namespace
}  // namespace smd::control::control_render_test
