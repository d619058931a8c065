// The families the Grafana dashboard (docs/grafana/smd.json) needed that smd did not export before: ports by
// PortState, repairs and their summed time, the heavy sweeps' summed wall time, this SM's priority, its peers
// by state, and the SA's answer latency by attribute. Every expected value is worked out by hand from the
// snapshot the test builds.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "smd/control/metrics_text.h"
#include "tests/unit/smd/control/metrics_family_text.h"

namespace smd::metrics_families_test {
namespace {

PortLinkView::Link in_state(std::uint8_t port_state) {
  PortLinkView::Link l;
  l.port_state = port_state;
  return l;
}

TEST(MetricsFamilies, PortsByPortStateLeaveSwitchPort0AndUnreadPortsOut) {
  FabricSnapshot snap;
  auto view = std::make_shared<PortLinkView>();
  // A switch: port 0 Active (management, never counted), 1 and 2 Active, 3 Init, 4 never read, 5 Down, 6
  // answered with PortState 0 (NoChange: no state); a CA (index 0 unused): port 1 Armed, port 2 Active.
  view->ports = {{in_state(4), in_state(4), in_state(4), in_state(2), std::nullopt, in_state(1), in_state(0)},
                 {std::nullopt, in_state(3), in_state(4)}};
  snap.port_links = view;
  EXPECT_EQ(family_text(render_metrics(snap), "smd_ports"),
            "# HELP smd_ports Ports (switch port 0 left out) by the PortState the last configuring sweep read.\n"
            "# TYPE smd_ports gauge\n"
            "smd_ports{state=\"Down\"} 1\n"
            "smd_ports{state=\"Init\"} 1\n"
            "smd_ports{state=\"Armed\"} 1\n"
            "smd_ports{state=\"Active\"} 3\n");
}

TEST(MetricsFamilies, RepairsAndSweepTimesAreCounters) {
  FabricSnapshot snap;
  snap.counters.repairs = 3;
  snap.counters.repair_seconds_total = 0.25;
  snap.counters.heavy_sweep_seconds_total = 7.5;
  const std::string text = render_metrics(snap);
  EXPECT_NE(text.find("# TYPE smd_repairs_total counter\nsmd_repairs_total 3\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE smd_repair_seconds_total counter\nsmd_repair_seconds_total 0.25\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE smd_heavy_sweep_seconds_total counter\nsmd_heavy_sweep_seconds_total 7.5\n"),
            std::string::npos);
}

TEST(MetricsFamilies, PriorityAndPeersByState) {
  FabricSnapshot snap;
  snap.priority = 11;
  SmPeer standby{.guid = 0x10, .priority = 3, .state = "STANDBY", .lid = 4};
  SmPeer master{.guid = 0x20, .priority = 15, .state = "MASTER", .lid = 9};
  SmPeer odd{.guid = 0x30, .priority = 0, .state = "STATE7", .lid = 12};
  SmPeer standby2 = standby;
  standby2.guid = 0x11;
  snap.other_sms = {standby, master, standby2, odd};
  const std::string text = render_metrics(snap);
  EXPECT_NE(text.find("# TYPE smd_sm_priority gauge\nsmd_sm_priority 11\n"), std::string::npos);
  // A state outside SMInfo's four still shows, after them.
  EXPECT_EQ(family_text(text, "smd_sm_peers"),
            "# HELP smd_sm_peers Other trusted SMs of the last election, by the SM state they last reported.\n"
            "# TYPE smd_sm_peers gauge\n"
            "smd_sm_peers{state=\"NOTACTIVE\"} 0\n"
            "smd_sm_peers{state=\"DISCOVERING\"} 0\n"
            "smd_sm_peers{state=\"STANDBY\"} 2\n"
            "smd_sm_peers{state=\"MASTER\"} 1\n"
            "smd_sm_peers{state=\"STATE7\"} 1\n");
}

TEST(MetricsFamilies, SaLatencyIsOneHistogramPerAttribute) {
  FabricSnapshot snap;
  auto sa = std::make_shared<SaStats>();
  // PathRecord: 5 us (first bucket), 30 us (<= 50 us), 200 ms (past the last bound: +Inf only).
  for (const double us : {5.0, 30.0, 200000.0}) sa->latency_by_attribute["PathRecord"].add(us);
  // NodeRecord: 100 us, on the 100 us bound (le is inclusive).
  sa->latency_by_attribute["NodeRecord"].add(100.0);
  snap.sa = sa;
  EXPECT_EQ(family_text(render_metrics(snap), "smd_sa_answer_latency_seconds"),
            "# HELP smd_sa_answer_latency_seconds From receiving an SA request to sending its answer, by attribute.\n"
            "# TYPE smd_sa_answer_latency_seconds histogram\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"1e-05\"} 0\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"2.5e-05\"} 0\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"5e-05\"} 0\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"1e-04\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"0.00025\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"5e-04\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"0.001\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"0.0025\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"0.01\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"0.1\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"NodeRecord\",le=\"+Inf\"} 1\n"
            "smd_sa_answer_latency_seconds_sum{attribute=\"NodeRecord\"} 1e-04\n"
            "smd_sa_answer_latency_seconds_count{attribute=\"NodeRecord\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"1e-05\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"2.5e-05\"} 1\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"5e-05\"} 2\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"1e-04\"} 2\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"0.00025\"} 2\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"5e-04\"} 2\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"0.001\"} 2\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"0.0025\"} 2\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"0.01\"} 2\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"0.1\"} 2\n"
            "smd_sa_answer_latency_seconds_bucket{attribute=\"PathRecord\",le=\"+Inf\"} 3\n"
            "smd_sa_answer_latency_seconds_sum{attribute=\"PathRecord\"} 0.200035\n"
            "smd_sa_answer_latency_seconds_count{attribute=\"PathRecord\"} 3\n");
}

TEST(SaLatency, MergeAddsBucketBySumAndCount) {
  SaLatency a, b;
  a.add(10);  // on the first bound
  a.add(11);  // just past it
  b.add(1e9);
  a.merge(b);
  EXPECT_EQ(a.buckets[0], 1u);
  EXPECT_EQ(a.buckets[1], 1u);
  EXPECT_EQ(a.buckets.back(), 1u);
  EXPECT_EQ(a.count, 3u);
  EXPECT_DOUBLE_EQ(a.sum_us, 1e9 + 21);
}

}  // namespace
}  // namespace smd::metrics_families_test
