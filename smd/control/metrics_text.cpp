#include "smd/control/metrics_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "routing/base/safe_text.h"

namespace smd {
namespace {

// Prometheus parses Go float syntax; to_chars gives the shortest text that round-trips the double
// ("0.035", "1.25", "4"), which reads better than a fixed precision.
std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[40];
  // Counts are integers: print them whole ("4000000000", not "4e+09") while a double holds them exactly.
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    const auto whole = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v));
    return std::string(buf, whole.ptr);
  }
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

class Writer {
 public:
  /// A metric family header; every sample of the family follows it.
  void family(const char* name, const char* type, const char* help) {
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    out_ += help;
    out_ += "\n# TYPE ";
    out_ += name;
    out_ += ' ';
    out_ += type;
    out_ += '\n';
  }
  /// One sample; `labels` is label() pairs joined by commas, or empty.
  void sample(const char* name, const std::string& labels, double value) {
    out_ += name;
    if (!labels.empty()) out_ += "{" + labels + "}";
    out_ += ' ';
    out_ += number(value);
    out_ += '\n';
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

double as_double(std::uint64_t v) { return static_cast<double>(v); }

/// `name="value"` with the value escaped as the text exposition format says (safe_text.h), whatever
/// text it is given.
std::string label(const char* name, std::string_view value) {
  return std::string(name) + "=\"" + prometheus_label_value(value) + "\"";
}

/// Partitions and the multicast trees (FabricSnapshot::partitions, ::groups).
void render_multicast(const FabricSnapshot& snap, Writer& w) {
  std::size_t trees = 0, pending = 0;
  for (const McastGroupView& g : snap.groups) {
    trees += g.root != 0 ? 1 : 0;
    pending += g.programmed || g.root == 0 ? 0 : 1;
  }
  // Groups and members are the SA's own families (smd_sa_mcast_*); these say what the switches carry.
  w.family("smd_mcast_trees", "gauge", "Multicast groups with a spanning tree programmed (2 or more member ports).");
  w.sample("smd_mcast_trees", "", static_cast<double>(trees));
  w.family("smd_mcast_trees_pending", "gauge", "Multicast trees whose members changed and are not yet programmed.");
  w.sample("smd_mcast_trees_pending", "", static_cast<double>(pending));
  w.family("smd_partitions", "gauge", "Partitions in the policy in effect (the default partition included).");
  const double partitions =
      snap.partition_policy ? static_cast<double>(with_default_partition(*snap.partition_policy).partitions.size()) : 0;
  w.sample("smd_partitions", "", partitions);
  w.family("smd_partition_problems", "gauge", "Ports whose partition set did not fit their P_Key table.");
  w.sample("smd_partition_problems", "", snap.partitions ? static_cast<double>(snap.partitions->problems.size()) : 0);
}

/// The Subnet Administrator's families (smd/sa/sa_agent.h counts them).
void render_sa(const SaStats& sa, Writer& w) {
  w.family("smd_sa_serving", "gauge", "1 while the SA answers queries (MASTER with a swept fabric).");
  w.sample("smd_sa_serving", "", sa.serving ? 1 : 0);
  w.family("smd_sa_requests_total", "counter", "SA requests answered, by attribute, method and MAD status.");
  for (const auto& [key, n] : sa.answers) {
    const auto& [attr, method, status] = key;
    w.sample("smd_sa_requests_total",
             label("attribute", attr) + "," + label("method", method) + "," + label("status", status), as_double(n));
  }
  w.family("smd_sa_dropped_total", "counter",
           "SA MADs not answered, by reason (queue-full: the request queue was full; not-serving, bad-sm-key, ...).");
  for (const auto& [why, n] : sa.dropped) w.sample("smd_sa_dropped_total", label("reason", why), as_double(n));
  w.family("smd_sa_answer_latency_seconds", "histogram", "From receiving an SA request to sending its answer.");
  std::uint64_t cumulative = 0;
  for (std::size_t b = 0; b < kLatencyBucketsUs.size(); ++b) {
    cumulative += sa.latency_buckets[b];
    w.sample("smd_sa_answer_latency_seconds_bucket", label("le", number(kLatencyBucketsUs[b] / 1e6)),
             as_double(cumulative));
  }
  cumulative += sa.latency_buckets.back();
  w.sample("smd_sa_answer_latency_seconds_bucket", label("le", "+Inf"), as_double(cumulative));
  w.sample("smd_sa_answer_latency_seconds_sum", "", sa.latency_sum_us / 1e6);
  w.sample("smd_sa_answer_latency_seconds_count", "", as_double(sa.latency_count));
  w.family("smd_sa_reports_total", "counter", "Reports (forwarded traps) sent, re-sends included, and acknowledged.");
  w.sample("smd_sa_reports_total", label("outcome", "sent"), as_double(sa.reports_sent));
  w.sample("smd_sa_reports_total", label("outcome", "acknowledged"), as_double(sa.reports_acknowledged));
  w.family("smd_sa_subscriptions", "gauge", "Live InformInfo subscriptions.");
  w.sample("smd_sa_subscriptions", "", static_cast<double>(sa.subscriptions));
  w.family("smd_sa_subscriptions_dropped_total", "counter", "Subscriptions dropped after unanswered Reports.");
  w.sample("smd_sa_subscriptions_dropped_total", "", as_double(sa.subscriptions_dropped));
  w.family("smd_sa_services", "gauge", "Live ServiceRecords.");
  w.sample("smd_sa_services", "", static_cast<double>(sa.services));
  w.family("smd_sa_mcast_groups", "gauge", "Multicast groups (MCMemberRecord).");
  w.sample("smd_sa_mcast_groups", "", static_cast<double>(sa.mcast_groups));
  w.family("smd_sa_mcast_members", "gauge", "Multicast group memberships (group, port).");
  w.sample("smd_sa_mcast_members", "", static_cast<double>(sa.mcast_members));
  w.family("smd_sa_mcast_joins_total", "counter", "Successful MCMemberRecord joins (Set).");
  w.sample("smd_sa_mcast_joins_total", "", as_double(sa.mcast_joins));
  w.family("smd_sa_mcast_leaves_total", "counter", "Successful MCMemberRecord leaves (Delete).");
  w.sample("smd_sa_mcast_leaves_total", "", as_double(sa.mcast_leaves));
  w.family("smd_sa_queue_depth", "gauge", "SA requests waiting for the SA thread.");
  w.sample("smd_sa_queue_depth", "", static_cast<double>(sa.queue_depth));
}

/// The port labels every per-port family carries.
std::string port_labels(const PortKey& key, const std::string& node_desc, const std::string& peer) {
  return label("node_guid", format_guid(key.node_guid)) + "," + label("node_desc", node_desc) + "," +
         label("port", std::to_string(key.port)) + "," + label("peer", peer);
}

/// The PerfMgr's last pass (FabricSnapshot::perf): what it cost, and every port's counters.
void render_perfmgr(const PerfView& v, Writer& w) {
  const PerfPassStats& p = v.last_pass;
  w.family("smd_perfmgr_passes_total", "counter", "PerfMgr counter passes completed.");
  w.sample("smd_perfmgr_passes_total", "", as_double(v.passes));
  w.family("smd_perfmgr_pass_mads", "gauge",
           "PMA MADs the last counter pass sent (ClassPortInfo, Gets, Sets, re-sends).");
  w.sample("smd_perfmgr_pass_mads", "", as_double(p.mads_sent));
  w.family("smd_perfmgr_pass_timeouts", "gauge", "PMA MADs of the last pass that got no answer after every retry.");
  w.sample("smd_perfmgr_pass_timeouts", "", as_double(p.timeouts));
  w.family("smd_perfmgr_pass_seconds", "gauge", "Wall time of the last counter pass, pauses for sweeps included.");
  w.sample("smd_perfmgr_pass_seconds", "", p.wall_ms / 1000.0);
  w.family("smd_perfmgr_pass_cpu_seconds", "gauge", "CPU time of the PerfMgr thread in the last counter pass.");
  w.sample("smd_perfmgr_pass_cpu_seconds", "", p.cpu_ms / 1000.0);
  w.family("smd_perfmgr_ports", "gauge", "Ports the last counter pass read.");
  w.sample("smd_perfmgr_ports", "", as_double(p.ports));
  std::vector<std::string> labels;
  labels.reserve(v.ports.size());
  for (const PortCounterRow& r : v.ports) labels.push_back(port_labels(r.key, r.node_desc, r.peer));
  for (std::size_t c = 0; c < kPortCounterCount; ++c) {
    const std::string name = std::string("smd_port_") + kPortCounterInfo[c].metric + "_total";
    const std::string help = std::string("PortCounters ") + kPortCounterInfo[c].iba_name +
                             " counted since smd first read the port (saturation resets and wraps folded in).";
    w.family(name.c_str(), "counter", help.c_str());
    for (std::size_t i = 0; i < v.ports.size(); ++i) w.sample(name.c_str(), labels[i], as_double(v.ports[i].total[c]));
  }
  static constexpr const char* kData[kDataCounterCount][3] = {
      {"smd_port_xmit_bytes_total", "smd_port_xmit_bytes_per_second", "Octets sent"},
      {"smd_port_rcv_bytes_total", "smd_port_rcv_bytes_per_second", "Octets received"},
      {"smd_port_xmit_packets_total", "smd_port_xmit_packets_per_second", "Packets sent"},
      {"smd_port_rcv_packets_total", "smd_port_rcv_packets_per_second", "Packets received"}};
  for (std::size_t d = 0; d < kDataCounterCount; ++d) {
    w.family(kData[d][0], "counter", (std::string(kData[d][2]) + " since smd first read the port.").c_str());
    for (std::size_t i = 0; i < v.ports.size(); ++i)
      w.sample(kData[d][0], labels[i], as_double(v.ports[i].data_total[d]));
    w.family(kData[d][1], "gauge", (std::string(kData[d][2]) + " per second over the last interval.").c_str());
    for (std::size_t i = 0; i < v.ports.size(); ++i)
      w.sample(kData[d][1], labels[i], as_double(v.ports[i].data_rate[d]));
  }
}

/// The health rules' marks (FabricSnapshot::unhealthy).
void render_health(const FabricSnapshot& snap, Writer& w) {
  std::size_t isolated = 0;
  for (const UnhealthyPortView& u : snap.unhealthy) isolated += u.isolated ? 1 : 0;
  w.family("smd_ports_unhealthy", "gauge", "Ports marked unhealthy (error thresholds or link flaps).");
  w.sample("smd_ports_unhealthy", "", static_cast<double>(snap.unhealthy.size()));
  w.family("smd_ports_isolated", "gauge", "Unhealthy ports whose cable the routes go around.");
  w.sample("smd_ports_isolated", "", static_cast<double>(isolated));
  w.family("smd_unhealthy_marks_total", "counter", "Ports marked unhealthy since the daemon started.");
  w.sample("smd_unhealthy_marks_total", "", as_double(snap.unhealthy_marks_total));
  w.family("smd_babbling_ports_total", "counter",
           "Ports found sending traps 129-131 too fast (health.babbling_port) since the daemon started.");
  w.sample("smd_babbling_ports_total", "", as_double(snap.babbling_ports_total));
  w.family("smd_babbling_links_disabled", "gauge", "Links the SM holds disabled for babbling ports.");
  w.sample("smd_babbling_links_disabled", "", as_double(snap.babbling_links_disabled));
  if (snap.unhealthy.empty()) return;
  w.family("smd_port_unhealthy", "gauge", "1 for each unhealthy port, with why and whether its cable is isolated.");
  for (const UnhealthyPortView& u : snap.unhealthy) {
    w.sample("smd_port_unhealthy",
             port_labels(u.key, u.node_desc, u.peer) + "," + label("reason", u.reason) + "," +
                 label("isolated", u.isolated ? "true" : "false"),
             1);
  }
}

}  // namespace

std::string render_metrics(const FabricSnapshot& snap) {
  const DaemonCounters& c = snap.counters;
  Writer w;
  w.family("smd_policy_reloads_refused_total", "counter",
           "SIGHUPs whose policy file was refused (the running policy was kept).");
  w.sample("smd_policy_reloads_refused_total", "", as_double(snap.reloads_refused_total));
  w.family("smd_policy_reload_refused", "gauge",
           "1 while the policy file on disk was refused at the last SIGHUP and no reload was accepted since.");
  w.sample("smd_policy_reload_refused", "", snap.reload_refused.empty() ? 0 : 1);
  w.family("smd_sweeps_disabled", "gauge",
           "1 while sweeps are off (smctl sweeps off): no light sweeps, trap-driven heavy sweeps held back.");
  w.sample("smd_sweeps_disabled", "", snap.sweeps_off ? 1 : 0);
  w.family("smd_sweeps_held_back", "gauge", "Heavy sweeps held back since sweeps were turned off (0 while on).");
  w.sample("smd_sweeps_held_back", "", snap.sweeps_off ? as_double(snap.sweeps_off->deferred) : 0);
  w.family("smd_sweeps_total", "counter", "Sweeps run since the daemon started, by kind.");
  w.sample("smd_sweeps_total", label("kind", "heavy"), as_double(c.heavy_sweeps));
  w.sample("smd_sweeps_total", label("kind", "light"), as_double(c.light_sweeps));
  w.family("smd_incremental_sweeps_total", "counter",
           "Heavy sweeps after link-change traps, by outcome: only the changed switches re-read, or a full "
           "discovery because the last fabric could not explain what was found.");
  w.sample("smd_incremental_sweeps_total", label("outcome", "incremental"), as_double(c.incremental_sweeps));
  w.sample("smd_incremental_sweeps_total", label("outcome", "full"), as_double(c.incremental_fallbacks));
  w.family("smd_sweep_failures_total", "counter", "Heavy sweeps that did not end with the subnet up.");
  w.sample("smd_sweep_failures_total", "", as_double(c.failed_sweeps));
  w.family("smd_heavy_sweep_duration_seconds", "gauge", "Wall time of the last heavy sweep.");
  w.sample("smd_heavy_sweep_duration_seconds", "", snap.last_sweep.total_ms / 1000.0);
  w.family("smd_smps_sent_total", "counter", "SMPs sent, retries included.");
  w.sample("smd_smps_sent_total", "", as_double(c.smps_sent));
  w.family("smd_smp_timeouts_total", "counter", "SMPs that got no answer after every retry.");
  w.sample("smd_smp_timeouts_total", "", as_double(c.smp_timeouts));
  w.family("smd_smp_retries_total", "counter", "SMP re-sends after a timeout.");
  w.sample("smd_smp_retries_total", "", as_double(c.smp_retries));

  std::size_t switches = 0, cas = 0, links = 0;
  if (snap.topo) {
    switches = snap.topo->switches().size();
    cas = snap.topo->cas().size();
    links = snap.topo->link_count();
  }
  w.family("smd_nodes", "gauge", "Nodes found by the last heavy sweep, by type.");
  w.sample("smd_nodes", label("type", "switch"), static_cast<double>(switches));
  w.sample("smd_nodes", label("type", "ca"), static_cast<double>(cas));
  w.family("smd_links", "gauge", "Cables found by the last heavy sweep.");
  w.sample("smd_links", "", static_cast<double>(links));
  w.family("smd_lft_blocks_written_total", "counter", "64-entry LFT blocks written to switches.");
  w.sample("smd_lft_blocks_written_total", "", as_double(c.lft_blocks_written));
  w.family("smd_pkey_blocks_written_total", "counter", "32-entry P_KeyTable blocks written to ports.");
  w.sample("smd_pkey_blocks_written_total", "", as_double(c.pkey_blocks_written));
  w.family("smd_sl2vl_tables_written_total", "counter",
           "SLtoVLMappingTable Sets written to ports (one per switch (in, out) pair, CA port or optimized Set).");
  w.sample("smd_sl2vl_tables_written_total", "", as_double(c.sl2vl_tables_written));
  w.family("smd_vlarb_blocks_written_total", "counter", "32-entry VLArbitrationTable blocks written to ports.");
  w.sample("smd_vlarb_blocks_written_total", "", as_double(c.vlarb_blocks_written));
  w.family("smd_routing_layers", "gauge",
           "Virtual layers (SL = VL) the programmed routes use: 1 unless a VL-layered engine (dfsssp) routed.");
  w.sample("smd_routing_layers", "",
           snap.tables && snap.tables->layering ? static_cast<double>(snap.tables->layering->layers()) : 1.0);
  w.family("smd_mft_blocks_written_total", "counter",
           "MulticastForwardingTable (block, position) Sets written to switches, in sweeps and multicast passes.");
  w.sample("smd_mft_blocks_written_total", "", as_double(c.mft_blocks_written));
  w.family("smd_mcast_passes_total", "counter", "Multicast passes between sweeps that rebuilt trees.");
  w.sample("smd_mcast_passes_total", "", as_double(c.mcast_passes));
  render_multicast(snap, w);
  w.family("smd_routing_seconds_total", "counter", "Time spent computing and verifying routes.");
  w.sample("smd_routing_seconds_total", "", c.routing_seconds_total);
  w.family("smd_last_repair_seconds", "gauge", "Last trap or port change until the tables were consistent.");
  w.sample("smd_last_repair_seconds", "", snap.last_repair_ms / 1000.0);
  w.family("smd_traps_received_total", "counter", "Traps (Notice MADs) received.");
  w.sample("smd_traps_received_total", "", as_double(c.traps_received));
  w.family("smd_sminfo_sets_refused_total", "counter",
           "SMInfo Sets from other SMs not obeyed (wrong SM_Key or no such transition).");
  w.sample("smd_sminfo_sets_refused_total", "", as_double(c.sminfo_sets_refused));
  w.family("smd_masters_seen", "gauge",
           "SMs in MASTER state at this SM's last look (election or light sweep), itself included: 1 when "
           "healthy, 2 while two masters resolve.");
  w.sample("smd_masters_seen", "", static_cast<double>(snap.masters_seen));
  w.family("smd_elections_total", "counter", "Election gates of heavy sweeps in which another SM answered.");
  w.sample("smd_elections_total", "", as_double(c.elections));
  w.family("smd_handovers_total", "counter", "SMInfo HANDOVERs: sent by this SM and taken, or received and obeyed.");
  w.sample("smd_handovers_total", "direction=\"sent\"", as_double(c.handovers_sent));
  w.sample("smd_handovers_total", "direction=\"received\"", as_double(c.handovers_received));
  w.family("smd_two_masters_total", "counter",
           "Election gates that found another MASTER of lower precedence while this SM was MASTER.");
  w.sample("smd_two_masters_total", "", as_double(c.two_masters_found));
  w.family("smd_is_sm_restored_total", "counter", "Times this SM's port had lost IsSM and got it back.");
  w.sample("smd_is_sm_restored_total", "", as_double(c.is_sm_restored));

  // Two daemons on one host (smd --instance, one subnet per rail) differ in their metrics only here:
  // one info sample, joined on the scrape target, as Prometheus' *_info convention has it.
  w.family("smd_subnet_info", "gauge",
           "The subnet this daemon manages, always 1: smd_instance (smd --instance, \"\" for the single SM), "
           "sm_port_guid (the SM's port, all zeros before it is open) and subnet_prefix.");
  w.sample("smd_subnet_info",
           label("smd_instance", snap.instance) + "," + label("sm_port_guid", format_guid(snap.sm_port_guid)) + "," +
               label("subnet_prefix", format_guid(snap.subnet_prefix)),
           1);
  w.family("smd_sm_state", "gauge", "SM state (IBA SMInfo): 1 for the current state, 0 for the others.");
  static constexpr const char* kStates[] = {"NOTACTIVE", "DISCOVERING", "STANDBY", "MASTER"};
  bool known = false;
  for (const char* state : kStates) {
    const bool current = snap.sm_state == state;
    known = known || current;
    w.sample("smd_sm_state", label("state", state), current ? 1 : 0);
  }
  // A state this list does not know still shows up rather than vanishing.
  if (!known && !snap.sm_state.empty()) w.sample("smd_sm_state", label("state", snap.sm_state), 1);
  if (snap.sa) render_sa(*snap.sa, w);
  render_health(snap, w);
  std::string out = w.take();
  if (snap.perf) out += snap.perf->metrics_text ? *snap.perf->metrics_text : render_perfmgr_metrics(*snap.perf);
  return out;
}

std::string render_perfmgr_metrics(const PerfView& view) {
  Writer w;
  render_perfmgr(view, w);
  return w.take();
}

}  // namespace smd
