#include "config/opensm_conf.h"

#include <algorithm>
#include <cctype>

#include "routing/base/word_lines.h"

namespace smd {

namespace {

using F = OpenSmFate;
using C = OpenSmConversion;

bool osm_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// OpenSM's reader takes a line in pieces of at most 1022 bytes (fgets into 1023): a longer line's tail is
// read as a line of its own.
constexpr std::size_t kMaxLineChars = 1022;

// The rows, in `opensm -c` order. The defaults are what Debian's OpenSM 3.3.23 writes; tests/integration
// compares them with `opensm -c` where opensm is installed.
const std::vector<OpenSmOption> kOptions = {
    {"guid", "0x0000000000000000", F::kEquivalent, C::kHex64, "sm.port_guid", ""},
    {"m_key", "0x0000000000000000", F::kEquivalent, C::kHex64, "security.m_key", ""},
    {"m_key_lease_period", "0", F::kEquivalent, C::kNumber, "security.m_key_lease_period", "", {}, "60"},
    {"m_key_protection_level", "0", F::kEquivalent, C::kNumber, "security.m_key_protect", ""},
    {"m_key_lookup", "TRUE", F::kEquivalent, C::kBool, "security.m_key_per_port",
     "per-port keys derived by smd's own HMAC-SHA-256, not OpenSM's hash: a port keyed by OpenSM is reached "
     "only through a guid2mkey entry", {}, "false"},
    {"sm_key", "0x0000000000000001", F::kEquivalent, C::kHex64, "sm.sm_key", ""},
    {"sa_key", "0x0000000000000001", F::kEquivalent, C::kHex64, "sa.key", ""},
    {"subnet_prefix", "0xfe80000000000000", F::kEquivalent, C::kHex64, "sm.subnet_prefix", ""},
    {"lmc", "0", F::kEquivalent, C::kNumber, "lid.lmc", ""},
    {"lmc_esp0", "FALSE", F::kBuiltIn, C::kNone, "", "switch port 0 always gets one LID (LMC 0)"},
    {"sm_sl", "0", F::kEquivalent, C::kNumber, "ports.sm_sl", ""},
    {"packet_life_time", "0x12", F::kEquivalent, C::kNumber, "ports.packet_life_time", ""},
    {"vl_stall_count", "0x07", F::kEquivalent, C::kNumber, "ports.vl_stall_count", ""},
    {"leaf_vl_stall_count", "0x07", F::kEquivalent, C::kNumber, "ports.leaf_vl_stall_count", ""},
    {"head_of_queue_lifetime", "0x12", F::kEquivalent, C::kNumber, "ports.head_of_queue_lifetime", ""},
    {"leaf_head_of_queue_lifetime", "0x10", F::kEquivalent, C::kNumber, "ports.leaf_head_of_queue_lifetime", ""},
    {"max_op_vls", "5", F::kPartial, C::kNone, "qos.max_vls",
     "smd sets OperationalVLs from qos.max_vls when qos.enabled, else one data VL; not converted"},
    {"force_link_speed", "15", F::kEquivalent, C::kNumber, "ports.force_link_speed", ""},
    {"force_link_speed_ext", "31", F::kEquivalent, C::kNumber, "ports.force_link_speed_ext", ""},
    {"force_link_width", "255", F::kEquivalent, C::kNumber, "ports.force_link_width", ""},
    {"fdr10", "1", F::kBuiltIn, C::kNone, "", "FDR10 is left as the port negotiates it"},
    {"subnet_timeout", "18", F::kEquivalent, C::kNumber, "ports.subnet_timeout", ""},
    {"local_phy_errors_threshold", "0x08", F::kEquivalent, C::kNumber, "ports.local_phy_errors_threshold", ""},
    {"overrun_errors_threshold", "0x08", F::kEquivalent, C::kNumber, "ports.overrun_errors_threshold", ""},
    {"use_mfttop", "TRUE", F::kBuiltIn, C::kNone, "", "MulticastFDBTop is always written"},
    {"partition_config_file", "/etc/opensm/partitions.conf", F::kEquivalent, C::kPartitionsFile, "partitions",
     "the file is converted into the partitions: section (smd import-partitions)"},
    {"no_partition_enforcement", "FALSE", F::kEquivalent, C::kNoEnforcement, "partitions.enforcement", ""},
    {"part_enforce", "both", F::kEquivalent, C::kPartEnforce, "partitions.enforcement", ""},
    {"allow_both_pkeys", "FALSE", F::kEquivalent, C::kBool, "partitions.allow_both_pkeys", ""},
    {"keep_pkey_indexes", "TRUE", F::kBuiltIn, C::kNone, "", "P_Key table entries keep their indexes"},
    {"sm_assigned_guid", "0x00", F::kEquivalent, C::kNumber, "sa.alias_guid_byte",
     "bits 39:32 of the alias GUIDs the SA assigns for a GUIDInfoRecord Set of GUID 0; kept in state_dir/sa-alias-guids"},
    {"sweep_interval", "10", F::kEquivalent, C::kNumber, "sm.sweep_interval", ""},
    {"reassign_lids", "FALSE", F::kMissing, C::kNone, "", "LIDs are always kept (guid2lid and the ports' own)"},
    {"force_heavy_sweep", "FALSE", F::kMissing, C::kNone, "",
     "light sweeps look for changes; `smctl sweep` forces one"},
    {"sweep_on_trap", "TRUE", F::kBuiltIn, C::kNone, "", "traps always start a sweep"},
    {"port_profile_switch_nodes", "FALSE", F::kEquivalent, C::kBool, "routing.minhop.port_profile_switch_nodes",
     "minhop's, the engine OpenSM's unicast manager applies it to", {}, "true"},
    {"port_prof_ignore_file", "(null)", F::kEquivalent, C::kString, "routing.minhop.port_prof_ignore_file",
     "the same file format; minhop's, the engine OpenSM's unicast manager applies it to"},
    {"hop_weights_file", "(null)", F::kEquivalent, C::kString, "routing.minhop.hop_weights_file",
     "the same file format; minhop's: OpenSM's updn and dfsssp route on hop counts of their own, without it"},
    {"port_search_ordering_file", "(null)", F::kEquivalent, C::kString, "routing.minhop.port_search_ordering_file",
     "the same file for minhop (port order on ties) and routing.dor.port_search_ordering_file (dimension order), "
     "OpenSM's two meanings"},
    {"routing_engine", "(null)", F::kEquivalent, C::kEngines, "routing.engines",
     "every OpenSM 3.3.23 engine is in smd; a name smd does not know is dropped; minhop ends the chain as "
     "OpenSM's fallback", {}, "[ftree, updn, minhop]"},
    {"avoid_throttled_links", "FALSE", F::kMissing, C::kNone, "", "no routing input of that kind"},
    {"connect_roots", "FALSE", F::kBuiltIn, C::kNone, "",
     "smd's updn and ftree always route every switch LID, root to root through one valley switch, not OpenSM's "
     "shortest paths", "TRUE"},
    {"use_ucast_cache", "FALSE", F::kPartial, C::kNone, "routing.repair",
     "routing.repair minimal keeps the routes a failure left intact (the default)"},
    {"lid_matrix_dump_file", "(null)", F::kMissing, C::kNone, "", "no LID matrix input"},
    {"lfts_file", "(null)", F::kEquivalent, C::kString, "routing.file.lfts_file",
     "read with the policy; the dump names LIDs, so keep the guid2lid of the fabric it was made on"},
    {"root_guid_file", "(null)", F::kEquivalent, C::kRootGuidFile, "routing.updn.roots",
     "the file's GUIDs become routing.updn.roots and routing.ftree.roots"},
    {"cn_guid_file", "(null)", F::kEquivalent, C::kString, "routing.ftree.cn_guids_file",
     "the same file format; CNs alone make the leaves, so I/O nodes may sit off the leaf level without roots"},
    {"io_guid_file", "(null)", F::kEquivalent, C::kString, "routing.ftree.io_guids_file", "the same file format"},
    {"quasi_ftree_indexing", "FALSE", F::kMissing, C::kNone, "", "no routing input of that kind"},
    {"max_reverse_hops", "0", F::kEquivalent, C::kNumber, "routing.ftree.max_reverse_hops",
     "routes that take a reverse hop withdraw ftree's deadlock-freedom promise; the verifier reports the result"},
    {"ids_guid_file", "(null)", F::kEquivalent, C::kString, "routing.updn.ids_file", "the same file format"},
    {"guid_routing_order_file", "(null)", F::kEquivalent, C::kRoutingOrderFile,
     "routing.minhop.guid_routing_order_file",
     "the same file for minhop, updn and dnup (routing.updn.guid_routing_order_file, "
     "routing.dnup.guid_routing_order_file), the engines OpenSM applies it to"},
    {"do_mesh_analysis", "FALSE", F::kMissing, C::kNone, "", "smd's lash does no mesh analysis"},
    {"lash_start_vl", "0", F::kMissing, C::kNone, "", "smd's lash starts at VL 0 (layer l on SL l, VL l)"},
    {"nue_max_num_vls", "1", F::kEquivalent, C::kNumber, "routing.nue.max_vls",
     "0 = as many as the fabric offers, as OpenSM; at most 15"},
    {"nue_include_switches", "FALSE", F::kEquivalent, C::kBool, "routing.nue.include_switches",
     "off: smd routes switch LIDs inside layer 0's acyclic graph, OpenSM on VL 0 unchecked"},
    {"port_shifting", "FALSE", F::kEquivalent, C::kBool, "routing.minhop.port_shifting",
     "minhop's, the engine OpenSM's unicast manager applies it to"},
    {"scatter_ports", "0", F::kEquivalent, C::kNumber, "routing.minhop.scatter_ports",
     "minhop's; the same seed gives the same tables, not OpenSM's (each switch draws from its own generator)"},
    {"guid_routing_order_no_scatter", "FALSE", F::kMissing, C::kNone, "",
     "routing.minhop.scatter_ports scatters the listed ports' LIDs too"},
    {"sa_db_file", "(null)", F::kPartial, C::kNone, "sa.services_file",
     "ServiceRecords are kept in sa.services_file and multicast groups in state_dir; OpenSM's file is not read"},
    {"sa_db_dump", "FALSE", F::kPartial, C::kNone, "sa.services_file", "the SA's records are always kept"},
    {"torus_config", "/etc/opensm/torus-2QoS.conf", F::kEquivalent, C::kTorusConfig, "routing.torus_2qos.config_file",
     "read when routing_engine names torus-2QoS, as in OpenSM"},
    {"sm_priority", "0", F::kEquivalent, C::kNumber, "sm.priority", ""},
    {"ignore_other_sm", "FALSE", F::kMissing, C::kNone, "", "smd always takes part in the SMInfo election"},
    {"sminfo_polling_timeout", "10000", F::kEquivalent, C::kMsToSeconds, "sm.poll_interval",
     "milliseconds become whole seconds", {}, "2"},
    {"polling_retry_number", "4", F::kEquivalent, C::kNumber, "sm.poll_retries", "", {}, "3"},
    {"honor_guid2lid_file", "FALSE", F::kBuiltIn, C::kNone, "",
     "smd always keeps the LIDs of state_dir/guid2lid (OpenSM's TRUE)", "TRUE"},
    {"max_wire_smps", "4", F::kEquivalent, C::kNumber, "mad.window", "", {}, "32"},
    {"max_wire_smps2", "4", F::kMissing, C::kNone, "", "one window (mad.window)"},
    {"max_smps_timeout", "600000", F::kMissing, C::kNone, "", "one window (mad.window)"},
    {"transaction_timeout", "200", F::kEquivalent, C::kNumber, "mad.timeout_ms", "", {}, "100"},
    {"transaction_retries", "3", F::kEquivalent, C::kNumber, "mad.retries", ""},
    {"long_transaction_timeout", "500", F::kMissing, C::kNone, "", "one timeout (mad.timeout_ms)"},
    {"max_msg_fifo_timeout", "10000", F::kPartial, C::kNone, "sa.queue_depth",
     "the SA queue is bounded by sa.queue_depth, not by age"},
    {"single_thread", "FALSE", F::kNotApplicable, C::kNone, "", "smd runs one event loop"},
    {"daemon", "FALSE", F::kNotApplicable, C::kNone, "", "smd runs under systemd (smd.service)"},
    {"sm_inactive", "FALSE", F::kMissing, C::kNone, "", "no inactive mode"},
    {"babbling_port_policy", "FALSE", F::kPartial, C::kBool, "health.babbling_port",
     "rate as health.babbling_traps per health.babbling_window; smctl port clear enables the link again"},
    {"drop_event_subscriptions", "FALSE", F::kPartial, C::kBool, "sa.drop_absent_subscribers",
     "InformInfo subscriptions only; ServiceRecords stay (sa.services_file)"},
    {"ipoib_mcgroup_creation_validation", "TRUE", F::kBuiltIn, C::kNone, "",
     "the P_Key bits of IPoIB MGIDs are always checked"},
    {"mcgroup_join_validation", "TRUE", F::kBuiltIn, C::kNone, "", "joins are always validated"},
    {"use_original_extended_sa_rates_only", "FALSE", F::kEquivalent, C::kBool, "sa.original_rates_only", ""},
    {"use_optimized_slvl", "FALSE", F::kBuiltIn, C::kNone, "", "SL2VL blocks are written only where they differ"},
    {"fsync_high_avail_files", "TRUE", F::kBuiltIn, C::kNone, "", "state files are written atomically and fsynced"},
    {"perfmgr", "FALSE", F::kEquivalent, C::kBool, "perfmgr.enabled", ""},
    {"perfmgr_redir", "TRUE", F::kEquivalent, C::kBool, "perfmgr.follow_redirect",
     "LID-routed redirects in the default partition"},
    {"perfmgr_sweep_time_s", "180", F::kEquivalent, C::kNumber, "perfmgr.interval", "", {}, "60"},
    {"perfmgr_max_outstanding_queries", "500", F::kEquivalent, C::kNumber, "perfmgr.max_outstanding",
     "smd allows 1..64 (500 wedges ibsim)", {}, "8"},
    {"perfmgr_ignore_cas", "FALSE", F::kEquivalent, C::kBool, "perfmgr.ignore_cas", ""},
    {"perfmgr_rm_nodes", "TRUE", F::kBuiltIn, C::kNone, "", "nodes that leave the fabric are dropped"},
    {"perfmgr_log_errors", "TRUE", F::kBuiltIn, C::kNone, "", "counter errors are logged and counted in metrics"},
    {"perfmgr_query_cpi", "TRUE", F::kBuiltIn, C::kNone, "", "ClassPortInfo is read"},
    {"perfmgr_xmit_wait_log", "FALSE", F::kPartial, C::kNone, "",
     "PortXmitWait is read with the other counters (smctl counters, metrics), not logged"},
    {"perfmgr_xmit_wait_threshold", "65535", F::kMissing, C::kNone, "", "no PortXmitWait threshold"},
    {"event_db_dump_file", "(null)", F::kPartial, C::kNone, "", "counters are in `smctl counters` and the metrics"},
    {"event_plugin_name", "(null)", F::kMissing, C::kNone, "",
     "no plugins; the metrics endpoint and sd_notify instead"},
    {"event_plugin_options", "(null)", F::kMissing, C::kNone, "", "no plugins"},
    {"node_name_map_name", "(null)", F::kEquivalent, C::kString, "sm.node_name_map", "the same file format"},
    {"log_flags", "0x03", F::kPartial, C::kLogFlags, "log.level",
     "a bit mask becomes one level: ERROR error, INFO info, VERBOSE/DEBUG debug, FUNCS/FRAMES trace"},
    {"force_log_flush", "FALSE", F::kMissing, C::kNone, "", "no per-line flush option"},
    {"log_file", "/var/log/opensm.log", F::kPartial, C::kNone, "log.file",
     "not converted: smd logs to the journal (stderr under systemd); give log.file a file of its own", {},
     "\"\""},
    {"log_max_size", "0", F::kMissing, C::kNone, "", "rotate with logrotate"},
    {"accum_log_file", "TRUE", F::kBuiltIn, C::kNone, "", "the log file is appended to"},
    {"per_module_logging_file", "/etc/opensm/per-module-logging.conf", F::kMissing, C::kNone, "", "one log level"},
    {"dump_files_dir", "/var/log/", F::kPartial, C::kNone, "sm.state_dir",
     "smd writes its files to sm.state_dir; not converted"},
    {"enable_quirks", "FALSE", F::kNotApplicable, C::kNone, "", "no vendor quirks"},
    {"no_clients_rereg", "FALSE", F::kEquivalent, C::kNotBool, "sm.client_reregister", "the opposite truth value"},
    {"disable_multicast", "FALSE", F::kEquivalent, C::kNotBool, "sm.multicast", "the opposite truth value"},
    {"exit_on_fatal", "TRUE", F::kNotApplicable, C::kNone, "", "smd exits on a fatal error; systemd restarts it"},
    {"console", "off", F::kPartial, C::kNone, "control.socket",
     "smctl over control.socket instead of a console (sweep, sweeps on/off, log-level, perfmgr, dump)"},
    {"console_port", "10000", F::kPartial, C::kNone, "control.socket",
     "smctl over control.socket instead of a console"},
    {"qos", "FALSE", F::kEquivalent, C::kBool, "qos.enabled", ""},
    {"qos_policy_file", "/etc/opensm/qos-policy.conf", F::kPartial, C::kQosPolicyFile, "qos.rules",
     "read when qos is TRUE into qos.port_groups, qos.levels and qos.rules (smd import-qos-policy); qos-class, "
     "path-bits and per-port names are not carried"},
    {"suppress_sl2vl_mad_status_errors", "FALSE", F::kMissing, C::kNone, "", "SL2VL errors are always reported"},
    {"qos_max_vls", "0", F::kEquivalent, C::kNumber, "qos.max_vls", "0 = unset"},
    {"qos_high_limit", "-1", F::kEquivalent, C::kHighLimit, "qos.high_limit", ""},
    {"qos_vlarb_high", "(null)", F::kEquivalent, C::kString, "qos.vlarb_high", ""},
    {"qos_vlarb_low", "(null)", F::kEquivalent, C::kString, "qos.vlarb_low", ""},
    {"qos_sl2vl", "(null)", F::kEquivalent, C::kString, "qos.sl2vl", ""},
    {"qos_ca_max_vls", "0", F::kEquivalent, C::kNumber, "qos.ca.max_vls", "0 = unset"},
    {"qos_ca_high_limit", "-1", F::kEquivalent, C::kHighLimit, "qos.ca.high_limit", ""},
    {"qos_ca_vlarb_high", "(null)", F::kEquivalent, C::kString, "qos.ca.vlarb_high", ""},
    {"qos_ca_vlarb_low", "(null)", F::kEquivalent, C::kString, "qos.ca.vlarb_low", ""},
    {"qos_ca_sl2vl", "(null)", F::kEquivalent, C::kString, "qos.ca.sl2vl", ""},
    {"qos_sw0_max_vls", "0", F::kEquivalent, C::kNumber, "qos.switch_port0.max_vls", "0 = unset"},
    {"qos_sw0_high_limit", "-1", F::kEquivalent, C::kHighLimit, "qos.switch_port0.high_limit", ""},
    {"qos_sw0_vlarb_high", "(null)", F::kEquivalent, C::kString, "qos.switch_port0.vlarb_high", ""},
    {"qos_sw0_vlarb_low", "(null)", F::kEquivalent, C::kString, "qos.switch_port0.vlarb_low", ""},
    {"qos_sw0_sl2vl", "(null)", F::kEquivalent, C::kString, "qos.switch_port0.sl2vl", ""},
    {"qos_swe_max_vls", "0", F::kEquivalent, C::kNumber, "qos.switch_external.max_vls", "0 = unset"},
    {"qos_swe_high_limit", "-1", F::kEquivalent, C::kHighLimit, "qos.switch_external.high_limit", ""},
    {"qos_swe_vlarb_high", "(null)", F::kEquivalent, C::kString, "qos.switch_external.vlarb_high", ""},
    {"qos_swe_vlarb_low", "(null)", F::kEquivalent, C::kString, "qos.switch_external.vlarb_low", ""},
    {"qos_swe_sl2vl", "(null)", F::kEquivalent, C::kString, "qos.switch_external.sl2vl", ""},
    {"qos_rtr_max_vls", "0", F::kEquivalent, C::kNumber, "qos.router.max_vls", "0 = unset"},
    {"qos_rtr_high_limit", "-1", F::kEquivalent, C::kHighLimit, "qos.router.high_limit", ""},
    {"qos_rtr_vlarb_high", "(null)", F::kEquivalent, C::kString, "qos.router.vlarb_high", ""},
    {"qos_rtr_vlarb_low", "(null)", F::kEquivalent, C::kString, "qos.router.vlarb_low", ""},
    {"qos_rtr_sl2vl", "(null)", F::kEquivalent, C::kString, "qos.router.sl2vl", ""},
    {"congestion_control", "FALSE", F::kEquivalent, C::kBool, "congestion_control.enabled", ""},
    {"cc_key", "0x0000000000000000", F::kEquivalent, C::kHex64, "congestion_control.cc_key", ""},
    {"cc_max_outstanding_mads", "500", F::kEquivalent, C::kNumber, "congestion_control.max_outstanding", ""},
    {"cc_sw_cong_setting_control_map", "0x0", F::kEquivalent, C::kNumber, "congestion_control.switch.control_map", ""},
    {"cc_sw_cong_setting_victim_mask", "0x0000000000000000000000000000000000000000000000000000000000000000",
     F::kEquivalent, C::kString, "congestion_control.switch.victim_mask", ""},
    {"cc_sw_cong_setting_credit_mask", "0x0000000000000000000000000000000000000000000000000000000000000000",
     F::kEquivalent, C::kString, "congestion_control.switch.credit_mask", ""},
    {"cc_sw_cong_setting_threshold", "0x00", F::kEquivalent, C::kNumber, "congestion_control.switch.threshold", ""},
    {"cc_sw_cong_setting_packet_size", "0", F::kEquivalent, C::kNumber, "congestion_control.switch.packet_size", ""},
    {"cc_sw_cong_setting_credit_starvation_threshold", "0x00", F::kEquivalent, C::kNumber,
     "congestion_control.switch.credit_starvation_threshold", ""},
    {"cc_sw_cong_setting_credit_starvation_return_delay", "0:0", F::kEquivalent, C::kString,
     "congestion_control.switch.credit_starvation_return_delay", ""},
    {"cc_sw_cong_setting_marking_rate", "0", F::kEquivalent, C::kNumber, "congestion_control.switch.marking_rate", ""},
    {"cc_ca_cong_setting_port_control", "0x0000", F::kEquivalent, C::kNumber, "congestion_control.ca.port_control", ""},
    {"cc_ca_cong_setting_control_map", "0x0000", F::kEquivalent, C::kNumber, "congestion_control.ca.control_map", ""},
    {"cc_ca_cong_setting_ccti_timer", "0 0", F::kEquivalent, C::kPerSl, "congestion_control.ca.ccti_timer",
     "each `SL value` line sets one SL of the list"},
    {"cc_ca_cong_setting_ccti_increase", "0 0", F::kEquivalent, C::kPerSl, "congestion_control.ca.ccti_increase",
     "each `SL value` line sets one SL of the list"},
    {"cc_ca_cong_setting_trigger_threshold", "0 0", F::kEquivalent, C::kPerSl,
     "congestion_control.ca.trigger_threshold", "each `SL value` line sets one SL of the list"},
    {"cc_ca_cong_setting_ccti_min", "0 0", F::kEquivalent, C::kPerSl, "congestion_control.ca.ccti_min",
     "each `SL value` line sets one SL of the list"},
    {"cc_cct", "(null)", F::kEquivalent, C::kString, "congestion_control.cct", ""},
    {"prefix_routes_file", "/etc/opensm/prefix-routes.conf", F::kMissing, C::kNone, "", "no router prefix routes"},
    {"consolidate_ipv6_snm_req", "FALSE", F::kEquivalent, C::kBool, "multicast.consolidate_ipv6_snm",
     "groups share an MLID only when their Q_Key, MTU, rate, SL, FlowLabel, TClass and HopLimit agree", {}, "true"},
    {"log_prefix", "(null)", F::kMissing, C::kNone, "", "the journal names the unit"},
};

std::string conf_where(const std::string& source, int line, int column) {
  return source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

}  // namespace

Result<std::vector<OpenSmSetting>> parse_opensm_conf(std::string_view text, const std::string& source_name) {
  std::vector<OpenSmSetting> out;
  // An editor's byte-order mark is invisible in a terminal: said by name rather than as a strange option.
  if (text.starts_with("\xEF\xBB\xBF")) {
    return make_error(ErrorCode::kInvalidInput,
                      conf_where(source_name, 1, 1) +
                          "a UTF-8 byte-order mark starts the file: OpenSM reads it as part of the first option's "
                          "name; save the file without it");
  }
  TextLines lines(text);
  std::string_view full_line;
  while (lines.next(full_line)) {
    const int line_no = static_cast<int>(lines.line_no());
    for (std::size_t i = 0; i < full_line.size(); ++i) {
      const auto c = static_cast<unsigned char>(full_line[i]);
      if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
        return make_error(ErrorCode::kInvalidInput,
                          conf_where(source_name, line_no, static_cast<int>(i) + 1) + "control character in the file");
      }
    }
    // OpenSM cuts every line at its first '#', so a comment may follow a value on the same line.
    const std::string_view line = full_line.substr(0, full_line.find('#'));
    // A long comment is harmless; a long setting would not be read as written.
    if (line.size() > kMaxLineChars) {
      return make_error(ErrorCode::kInvalidInput,
                        conf_where(source_name, line_no, static_cast<int>(kMaxLineChars) + 1) + "line longer than " +
                            std::to_string(kMaxLineChars) + " characters (OpenSM would read the rest as another line)");
    }
    std::size_t i = 0;
    while (i < line.size() && osm_blank(line[i])) ++i;
    if (i == line.size()) continue;
    const std::size_t name_start = i;
    while (i < line.size() && !osm_blank(line[i])) ++i;
    const std::string_view name = line.substr(name_start, i - name_start);
    const bool name_ok = std::all_of(
        name.begin(), name.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
    if (!name_ok) {
      return make_error(ErrorCode::kInvalidInput, conf_where(source_name, line_no, static_cast<int>(name_start) + 1) +
                                                      "'" + std::string(name.substr(0, 80)) +
                                                      "' is not an option name (lower-case letters, digits, _)");
    }
    while (i < line.size() && osm_blank(line[i])) ++i;
    std::size_t value_end = line.size();
    while (value_end > i && osm_blank(line[value_end - 1])) --value_end;
    // One pair of quotes around the whole value is OpenSM's, not the value's (its clean_val drops them).
    if (value_end > i && (line[i] == '"' || line[i] == '\'') && line[value_end - 1] == line[i]) {
      ++i;
      value_end = std::max(i, value_end - 1);
    }
    OpenSmSetting s;
    s.name = std::string(name);
    s.value = std::string(line.substr(i, value_end - i));
    s.line = line_no;
    s.column = static_cast<int>(s.value.empty() ? name_start : i) + 1;
    out.push_back(std::move(s));
  }
  return out;
}

const std::vector<OpenSmOption>& opensm_options() { return kOptions; }

const OpenSmOption* find_opensm_option(std::string_view name) {
  const auto it =
      std::find_if(kOptions.begin(), kOptions.end(), [name](const OpenSmOption& o) { return o.name == name; });
  return it == kOptions.end() ? nullptr : &*it;
}

std::string_view to_string(OpenSmFate fate) {
  switch (fate) {
    case OpenSmFate::kEquivalent: return "equivalent";
    case OpenSmFate::kPartial: return "partial";
    case OpenSmFate::kBuiltIn: return "built in";
    case OpenSmFate::kMissing: return "missing";
    case OpenSmFate::kNotApplicable: return "not applicable";
  }
  return "?";
}

}  // namespace smd
