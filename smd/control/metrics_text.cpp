#include "smd/control/metrics_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <span>
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

/// `name="value"` with the value escaped as the text exposition format says (safe_text.h), whatever
/// text it is given.
std::string label(const char* name, std::string_view value) {
  return std::string(name) + "=\"" + prometheus_label_value(value) + "\"";
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
  /// A family of one unlabelled sample: most of smd's figures are one number each.
  void gauge(const char* name, const char* help, double value) {
    family(name, "gauge", help);
    sample(name, "", value);
  }
  /// As gauge(), for a figure that only grows while the daemon runs.
  void counter(const char* name, const char* help, double value) {
    family(name, "counter", help);
    sample(name, "", value);
  }
  /// A family of a few samples told apart by one label (`label_name`="heavy", ...), in the order given.
  void by_label(const char* name, const char* type, const char* help, const char* label_name,
                std::initializer_list<std::pair<const char*, double>> samples) {
    family(name, type, help);
    for (const auto& [value, v] : samples) sample(name, label(label_name, value), v);
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

/// Partitions and the multicast trees (FabricSnapshot::partitions, ::groups).
void render_multicast(const FabricSnapshot& snap, Writer& w) {
  std::size_t trees = 0, pending = 0;
  for (const McastGroupView& g : snap.groups) {
    trees += g.root != 0 ? 1 : 0;
    pending += g.programmed || g.root == 0 ? 0 : 1;
  }
  // Groups and members are the SA's own families (smd_sa_mcast_*); these say what the switches carry.
  w.gauge("smd_mcast_trees", "Multicast groups with a spanning tree programmed (2 or more member ports).",
          static_cast<double>(trees));
  w.gauge("smd_mcast_trees_pending", "Multicast trees whose members changed and are not yet programmed.",
          static_cast<double>(pending));
  w.family("smd_partitions", "gauge", "Partitions in the policy in effect (the default partition included).");
  const double partitions =
      snap.partition_policy ? static_cast<double>(with_default_partition(*snap.partition_policy).partitions.size()) : 0;
  w.sample("smd_partitions", "", partitions);
  w.gauge("smd_partition_problems", "Ports whose partition set did not fit their P_Key table.",
          snap.partitions ? static_cast<double>(snap.partitions->problems.size()) : 0);
}

/// The Subnet Administrator's families (smd/sa/sa_agent.h counts them).
void render_sa(const SaStats& sa, Writer& w) {
  w.gauge("smd_sa_serving", "1 while the SA answers queries (MASTER with a swept fabric).", sa.serving ? 1 : 0);
  w.family("smd_sa_requests_total", "counter", "SA requests answered, by attribute, method and MAD status.");
  for (const auto& [key, n] : sa.answers) {
    const auto& [attr, method, status] = key;
    w.sample("smd_sa_requests_total",
             label("attribute", attr) + "," + label("method", method) + "," + label("status", status), as_double(n));
  }
  w.family("smd_sa_dropped_total", "counter",
           "SA MADs not answered, by reason (queue-full: the request queue was full; not-serving, bad-sm-key, ...).");
  for (const auto& [why, n] : sa.dropped) w.sample("smd_sa_dropped_total", label("reason", why), as_double(n));
  // By attribute: a PathRecord answer computes routes, a ClassPortInfo one copies a constant; one histogram
  // of both would hide a slow PathRecord behind fast ones. sum by (le) gives the SA's whole distribution.
  w.family("smd_sa_answer_latency_seconds", "histogram",
           "From receiving an SA request to sending its answer, by attribute.");
  for (const auto& [attr, latency] : sa.latency_by_attribute) {
    const std::string attr_label = label("attribute", attr);
    std::uint64_t cumulative = 0;
    for (std::size_t b = 0; b < kLatencyBucketsUs.size(); ++b) {
      cumulative += latency.buckets[b];
      w.sample("smd_sa_answer_latency_seconds_bucket",
               attr_label + "," + label("le", number(kLatencyBucketsUs[b] / 1e6)), as_double(cumulative));
    }
    cumulative += latency.buckets.back();
    w.sample("smd_sa_answer_latency_seconds_bucket", attr_label + "," + label("le", "+Inf"), as_double(cumulative));
    w.sample("smd_sa_answer_latency_seconds_sum", attr_label, latency.sum_us / 1e6);
    w.sample("smd_sa_answer_latency_seconds_count", attr_label, as_double(latency.count));
  }
  w.family("smd_sa_reports_total", "counter", "Reports (forwarded traps) sent, re-sends included, and acknowledged.");
  w.sample("smd_sa_reports_total", label("outcome", "sent"), as_double(sa.reports_sent));
  w.sample("smd_sa_reports_total", label("outcome", "acknowledged"), as_double(sa.reports_acknowledged));
  w.gauge("smd_sa_subscriptions", "Live InformInfo subscriptions.", static_cast<double>(sa.subscriptions));
  w.counter("smd_sa_subscriptions_dropped_total", "Subscriptions dropped after unanswered Reports.",
            as_double(sa.subscriptions_dropped));
  w.gauge("smd_sa_services", "Live ServiceRecords.", static_cast<double>(sa.services));
  w.gauge("smd_sa_mcast_groups", "Multicast groups (MCMemberRecord).", static_cast<double>(sa.mcast_groups));
  w.gauge("smd_sa_mcast_members", "Multicast group memberships (group, port).", static_cast<double>(sa.mcast_members));
  w.counter("smd_sa_mcast_joins_total", "Successful MCMemberRecord joins (Set).", as_double(sa.mcast_joins));
  w.counter("smd_sa_mcast_leaves_total", "Successful MCMemberRecord leaves (Delete).", as_double(sa.mcast_leaves));
  w.gauge("smd_sa_queue_depth", "SA requests waiting for the SA thread.", static_cast<double>(sa.queue_depth));
}

/// The port labels every per-port family carries.
std::string port_labels(const PortKey& key, const std::string& node_desc, const std::string& peer) {
  return label("node_guid", format_guid(key.node_guid)) + "," + label("node_desc", node_desc) + "," +
         label("port", std::to_string(key.port)) + "," + label("peer", peer);
}

/// The PerfMgr's last pass (FabricSnapshot::perf): what it cost, and every port's counters.
void render_perfmgr(const PerfView& v, Writer& w) {
  const PerfPassStats& p = v.last_pass;
  w.counter("smd_perfmgr_passes_total", "PerfMgr counter passes completed.", as_double(v.passes));
  w.gauge("smd_perfmgr_pass_mads", "PMA MADs the last counter pass sent (ClassPortInfo, Gets, Sets, re-sends).",
          as_double(p.mads_sent));
  w.gauge("smd_perfmgr_pass_timeouts", "PMA MADs of the last pass that got no answer after every retry.",
          as_double(p.timeouts));
  w.gauge("smd_perfmgr_pass_seconds", "Wall time of the last counter pass, pauses for sweeps included.",
          p.wall_ms / 1000.0);
  w.gauge("smd_perfmgr_pass_cpu_seconds", "CPU time of the PerfMgr thread in the last counter pass.",
          p.cpu_ms / 1000.0);
  w.gauge("smd_perfmgr_ports", "Ports the last counter pass read.", as_double(p.ports));
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
  w.gauge("smd_ports_unhealthy", "Ports marked unhealthy (error thresholds or link flaps).",
          static_cast<double>(snap.unhealthy.size()));
  w.gauge("smd_ports_isolated", "Unhealthy ports whose cable the routes go around.", static_cast<double>(isolated));
  w.counter("smd_unhealthy_marks_total", "Ports marked unhealthy since the daemon started.",
            as_double(snap.unhealthy_marks_total));
  w.counter("smd_babbling_ports_total",
            "Ports found sending traps 129-131 too fast (health.babbling_port) since the daemon started.",
            as_double(snap.babbling_ports_total));
  w.gauge("smd_babbling_links_disabled", "Links the SM holds disabled for babbling ports.",
          as_double(snap.babbling_links_disabled));
  w.gauge("smd_drained_parts", "Switches and cables the operator drained (smctl drain): routes go around them.",
          static_cast<double>(snap.drained.size()));
  w.gauge("smd_drained_cables", "Cables the last routing phase took out for the operator's drains.",
          as_double(snap.drained_cables));
  if (snap.unhealthy.empty()) return;
  w.family("smd_port_unhealthy", "gauge", "1 for each unhealthy port, with why and whether its cable is isolated.");
  for (const UnhealthyPortView& u : snap.unhealthy) {
    w.sample("smd_port_unhealthy",
             port_labels(u.key, u.node_desc, u.peer) + "," + label("reason", u.reason) + "," +
                 label("isolated", u.isolated ? "true" : "false"),
             1);
  }
}

/// A DaemonCounters field published as a counter family of one sample: most of the daemon's counters.
struct CounterField {
  const char* name;
  const char* help;
  std::uint64_t DaemonCounters::*field;
};

void render_counters(const DaemonCounters& c, std::span<const CounterField> rows, Writer& w) {
  for (const CounterField& r : rows) w.counter(r.name, r.help, as_double(c.*r.field));
}

// Each table is rendered where its families have always stood in the scrape.
constexpr CounterField kSmpCounters[] = {
    {"smd_smps_sent_total", "SMPs sent, retries included.", &DaemonCounters::smps_sent},
    {"smd_smp_timeouts_total", "SMPs that got no answer after every retry.", &DaemonCounters::smp_timeouts},
    {"smd_smp_retries_total", "SMP re-sends after a timeout.", &DaemonCounters::smp_retries},
};
constexpr CounterField kUnicastWrites[] = {
    {"smd_lft_blocks_written_total", "64-entry LFT blocks written to switches.", &DaemonCounters::lft_blocks_written},
    {"smd_pkey_blocks_written_total", "32-entry P_KeyTable blocks written to ports.",
     &DaemonCounters::pkey_blocks_written},
    {"smd_sl2vl_tables_written_total",
     "SLtoVLMappingTable Sets written to ports (one per switch (in, out) pair, CA port or optimized Set).",
     &DaemonCounters::sl2vl_tables_written},
    {"smd_vlarb_blocks_written_total", "32-entry VLArbitrationTable blocks written to ports.",
     &DaemonCounters::vlarb_blocks_written},
};
constexpr CounterField kMulticastWrites[] = {
    {"smd_mft_blocks_written_total",
     "MulticastForwardingTable (block, position) Sets written to switches, in sweeps and multicast passes.",
     &DaemonCounters::mft_blocks_written},
    {"smd_mcast_passes_total", "Multicast passes between sweeps that rebuilt trees.", &DaemonCounters::mcast_passes},
};
constexpr CounterField kTrapsAndSets[] = {
    {"smd_traps_received_total", "Traps (Notice MADs) received.", &DaemonCounters::traps_received},
    {"smd_sminfo_sets_refused_total", "SMInfo Sets from other SMs not obeyed (wrong SM_Key or no such transition).",
     &DaemonCounters::sminfo_sets_refused},
};
constexpr CounterField kMasterChecks[] = {
    {"smd_two_masters_total", "Election gates that found another MASTER of lower precedence while this SM was MASTER.",
     &DaemonCounters::two_masters_found},
    {"smd_is_sm_restored_total", "Times this SM's port had lost IsSM and got it back.",
     &DaemonCounters::is_sm_restored},
};

/// The policy reloads, the sweep switches and the sweeps and SMPs they cost (DaemonCounters).
void render_sweeps(const FabricSnapshot& snap, Writer& w) {
  const DaemonCounters& c = snap.counters;
  w.counter("smd_policy_reloads_refused_total", "SIGHUPs whose policy file was refused (the running policy was kept).",
            as_double(snap.reloads_refused_total));
  w.gauge("smd_policy_reload_refused",
          "1 while the policy file on disk was refused at the last SIGHUP and no reload was accepted since.",
          snap.reload_refused.empty() ? 0 : 1);
  w.gauge("smd_sweeps_disabled",
          "1 while sweeps are off (smctl sweeps off): no light sweeps, trap-driven heavy sweeps held back.",
          snap.sweeps_off ? 1 : 0);
  w.gauge("smd_sweeps_held_back", "Heavy sweeps held back since sweeps were turned off (0 while on).",
          snap.sweeps_off ? as_double(snap.sweeps_off->deferred) : 0);
  w.by_label("smd_sweeps_total", "counter", "Sweeps run since the daemon started, by kind.", "kind",
             {{"heavy", as_double(c.heavy_sweeps)}, {"light", as_double(c.light_sweeps)}});
  w.by_label("smd_incremental_sweeps_total", "counter",
             "Heavy sweeps after link-change traps, by outcome: only the changed switches re-read, or a full "
             "discovery because the last fabric could not explain what was found.",
             "outcome",
             {{"incremental", as_double(c.incremental_sweeps)}, {"full", as_double(c.incremental_fallbacks)}});
  w.counter("smd_sweep_failures_total", "Heavy sweeps that did not end with the subnet up.",
            as_double(c.failed_sweeps));
  w.gauge("smd_heavy_sweep_duration_seconds", "Wall time of the last heavy sweep.", snap.last_sweep.total_ms / 1000.0);
  // With smd_sweeps_total{kind="heavy"}: the mean duration over any window, which the last one cannot give.
  w.counter("smd_heavy_sweep_seconds_total", "Wall time of every heavy sweep since the daemon started.",
            c.heavy_sweep_seconds_total);
  render_counters(c, kSmpCounters, w);
}

/// Every port the last configuring sweep read (switch port 0 left out), by its PortState (IBA 14.2.5.6):
/// the fabric is up when all of them are Active. Each state is always present, 0 before the first sweep.
void render_port_states(const FabricSnapshot& snap, Writer& w) {
  static constexpr const char* kPortStates[] = {"Down", "Init", "Armed", "Active"};  // PortState 1..4
  std::array<std::size_t, 4> count{};
  if (snap.port_links) {
    for (const auto& node : snap.port_links->ports) {
      for (std::size_t port = 1; port < node.size(); ++port) {
        if (node[port] && node[port]->port_state >= 1 && node[port]->port_state <= 4)
          ++count[node[port]->port_state - 1];
      }
    }
  }
  w.family("smd_ports", "gauge", "Ports (switch port 0 left out) by the PortState the last configuring sweep read.");
  for (std::size_t i = 0; i < count.size(); ++i)
    w.sample("smd_ports", label("state", kPortStates[i]), static_cast<double>(count[i]));
}

/// What the last heavy sweep found and what smd wrote to the tables since the daemon started.
void render_fabric_and_writes(const FabricSnapshot& snap, Writer& w) {
  std::size_t switches = 0, cas = 0, links = 0;
  if (snap.topo) {
    switches = snap.topo->switches().size();
    cas = snap.topo->cas().size();
    links = snap.topo->link_count();
  }
  w.by_label("smd_nodes", "gauge", "Nodes found by the last heavy sweep, by type.", "type",
             {{"switch", static_cast<double>(switches)}, {"ca", static_cast<double>(cas)}});
  w.gauge("smd_links", "Cables found by the last heavy sweep.", static_cast<double>(links));
  render_port_states(snap, w);
  render_counters(snap.counters, kUnicastWrites, w);
  w.gauge("smd_routing_layers",
          "Virtual layers (SL = VL) the programmed routes use: 1 unless a VL-layered engine (dfsssp) routed.",
          snap.tables && snap.tables->layering ? static_cast<double>(snap.tables->layering->layers()) : 1.0);
  render_counters(snap.counters, kMulticastWrites, w);
}

/// Repairs, traps and the SM's dealings with other SMs (election, handover, SMInfo Sets).
void render_repairs_and_election(const FabricSnapshot& snap, Writer& w) {
  const DaemonCounters& c = snap.counters;
  w.counter("smd_routing_seconds_total", "Time spent computing and verifying routes.", c.routing_seconds_total);
  w.gauge("smd_last_repair_seconds", "Last trap or port change until the tables were consistent.",
          snap.last_repair_ms / 1000.0);
  w.counter("smd_repairs_total", "Heavy sweeps that made the tables consistent after a trap or port change.",
            as_double(c.repairs));
  w.counter("smd_repair_seconds_total", "Trap or port change until the tables were consistent, summed over repairs.",
            c.repair_seconds_total);
  render_counters(c, kTrapsAndSets, w);
  w.gauge("smd_masters_seen",
          "SMs in MASTER state at this SM's last look (election or light sweep), itself included: 1 when "
          "healthy, 2 while two masters resolve.",
          static_cast<double>(snap.masters_seen));
  w.counter("smd_elections_total", "Election gates of heavy sweeps in which another SM answered.",
            as_double(c.elections));
  w.by_label("smd_handovers_total", "counter", "SMInfo HANDOVERs: sent by this SM and taken, or received and obeyed.",
             "direction", {{"sent", as_double(c.handovers_sent)}, {"received", as_double(c.handovers_received)}});
  render_counters(c, kMasterChecks, w);
}

/// Which subnet and in which SM state: the labels that tell two daemons on one host apart.
void render_identity(const FabricSnapshot& snap, Writer& w) {
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
  w.gauge("smd_sm_priority", "This SM's SMInfo Priority (0-15; sm.priority): the election's first key.",
          static_cast<double>(snap.priority));
  // Every state is always present (0 when no peer is in it) so that a dashboard's series never vanish.
  w.family("smd_sm_peers", "gauge", "Other trusted SMs of the last election, by the SM state they last reported.");
  std::map<std::string, std::size_t> peers;
  for (const char* state : kStates) peers[state] = 0;
  for (const SmPeer& p : snap.other_sms) ++peers[p.state];
  for (const char* state : kStates) w.sample("smd_sm_peers", label("state", state), static_cast<double>(peers[state]));
  for (const auto& [state, n] : peers) {
    if (std::find(std::begin(kStates), std::end(kStates), state) == std::end(kStates))
      w.sample("smd_sm_peers", label("state", state), static_cast<double>(n));
  }
}

}  // namespace

// Families in a fixed order (dashboards and the tests diff scrapes), each group from its own part of the
// snapshot; the PerfMgr's text comes last, prerendered by its thread when it has it.
std::string render_metrics(const FabricSnapshot& snap) {
  Writer w;
  render_sweeps(snap, w);
  render_fabric_and_writes(snap, w);
  render_multicast(snap, w);
  render_repairs_and_election(snap, w);
  render_identity(snap, w);
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
