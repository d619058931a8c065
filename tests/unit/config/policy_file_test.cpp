// Policy files on disk: the shipped config/smd.yaml, missing and unreadable files, and the permission check.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "config/policy_loader.h"
#include "routing/engines/ftree/ftree_options.h"
#include "routing/engines/updn/updn_options.h"
#include "tests/unit/config/partitions_expect.h"
#include "tests/unit/temp_dir.h"

namespace smd::policy_file_test {
namespace {

const std::string kShippedPolicy = std::string(SMD_SOURCE_DIR) + "/config/smd.yaml";

/// A fresh directory per test, removed afterwards.
class PolicyFile : public test::TempDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text, mode_t mode = 0644) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    EXPECT_EQ(::chmod(path.c_str(), mode), 0);
    return path;
  }
};

/// Dotted paths of every leaf key in a YAML map ("sm.port", "routing.updn.roots"); a non-empty sequence of
/// maps is followed into with "[]" ("partitions.list[].pkey").
void collect_keys(const YAML::Node& node, const std::string& prefix, std::set<std::string>& out) {
  for (auto it = node.begin(); it != node.end(); ++it) {
    std::string path = prefix.empty() ? it->first.Scalar() : prefix + "." + it->first.Scalar();
    const YAML::Node value = it->second;
    bool maps = value.IsSequence() && value.size() > 0;
    for (std::size_t i = 0; maps && i < value.size(); ++i) maps = value[i].IsMap();
    if (value.IsMap()) {
      collect_keys(value, path, out);
    } else if (maps) {
      for (std::size_t i = 0; i < value.size(); ++i) collect_keys(value[i], path + "[]", out);
    } else {
      out.insert(path);
    }
  }
}

TEST_F(PolicyFile, ShippedPolicyLoadsAsExactlyTheDefaults) {
  Result<Policy> loaded = load_policy_file(kShippedPolicy);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const Policy& p = *loaded;
  const Policy d;
  EXPECT_EQ(p.sm.state_dir, d.sm.state_dir);
  EXPECT_EQ(p.sm.ca, d.sm.ca);
  EXPECT_EQ(p.sm.port, d.sm.port);
  EXPECT_EQ(p.sm.port_guid, d.sm.port_guid);
  EXPECT_EQ(p.sm.priority, d.sm.priority);
  EXPECT_EQ(p.sm.sm_key, d.sm.sm_key);
  EXPECT_EQ(p.sm.subnet_prefix, d.sm.subnet_prefix);
  EXPECT_EQ(p.sm.sweep_interval_s, d.sm.sweep_interval_s);
  EXPECT_EQ(p.sm.max_resweeps, d.sm.max_resweeps);
  EXPECT_EQ(p.sm.poll_interval_s, d.sm.poll_interval_s);
  EXPECT_EQ(p.sm.poll_retries, d.sm.poll_retries);
  EXPECT_EQ(p.sm.node_name_map, d.sm.node_name_map);
  EXPECT_EQ(p.node_names, nullptr);
  EXPECT_EQ(p.routing.engines, d.routing.engines);
  EXPECT_EQ(p.routing.options.engines.get<UpdnOptions>().roots, d.routing.options.engines.get<UpdnOptions>().roots);
  EXPECT_EQ(p.routing.options.engines.get<FtreeOptions>().roots, d.routing.options.engines.get<FtreeOptions>().roots);
  EXPECT_EQ(p.routing.options.adaptive, d.routing.options.adaptive);
  EXPECT_EQ(p.routing.repair, d.routing.repair);
  EXPECT_EQ(p.lid.lmc, d.lid.lmc);
  EXPECT_EQ(p.mad.window, d.mad.window);
  EXPECT_EQ(p.mad.timeout_ms, d.mad.timeout_ms);
  EXPECT_EQ(p.mad.retries, d.mad.retries);
  EXPECT_EQ(p.log.level, d.log.level);
  EXPECT_EQ(p.log.file, d.log.file);
  EXPECT_EQ(p.control.socket, d.control.socket);
  EXPECT_EQ(p.control.mode, d.control.mode);
  EXPECT_EQ(p.metrics.listen, d.metrics.listen);
  EXPECT_EQ(p.metrics.enabled, d.metrics.enabled);
  EXPECT_EQ(p.security.m_key, d.security.m_key);
  EXPECT_EQ(p.security.m_key_protect, d.security.m_key_protect);
  EXPECT_EQ(p.security.m_key_lease_period_s, d.security.m_key_lease_period_s);
  EXPECT_EQ(p.ports.subnet_timeout, d.ports.subnet_timeout);
  EXPECT_EQ(p.ports.head_of_queue_lifetime, d.ports.head_of_queue_lifetime);
  EXPECT_EQ(p.ports.leaf_head_of_queue_lifetime, d.ports.leaf_head_of_queue_lifetime);
  EXPECT_EQ(p.ports.vl_stall_count, d.ports.vl_stall_count);
  EXPECT_EQ(p.ports.leaf_vl_stall_count, d.ports.leaf_vl_stall_count);
  EXPECT_EQ(p.ports.local_phy_errors_threshold, d.ports.local_phy_errors_threshold);
  EXPECT_EQ(p.ports.overrun_errors_threshold, d.ports.overrun_errors_threshold);
  EXPECT_EQ(p.ports.sm_sl, d.ports.sm_sl);
  EXPECT_EQ(p.ports.packet_life_time, d.ports.packet_life_time);
  EXPECT_EQ(p.ports.force_link_width, d.ports.force_link_width);
  EXPECT_EQ(p.ports.force_link_speed, d.ports.force_link_speed);
  EXPECT_EQ(p.ports.force_link_speed_ext, d.ports.force_link_speed_ext);
  EXPECT_EQ(p.roce.export_plan, d.roce.export_plan);
  EXPECT_EQ(p.roce.frr, d.roce.frr);
  EXPECT_EQ(p.sa.enabled, d.sa.enabled);
  EXPECT_EQ(p.sa.key, d.sa.key);
  EXPECT_EQ(p.sa.packet_lifetime, d.sa.packet_lifetime);
  EXPECT_EQ(p.sa.queue_depth, d.sa.queue_depth);
  EXPECT_EQ(p.sa.report_retries, d.sa.report_retries);
  EXPECT_EQ(p.sa.report_timeout_ms, d.sa.report_timeout_ms);
  EXPECT_EQ(p.sa.max_records, d.sa.max_records);
  EXPECT_EQ(p.sa.services_file, d.sa.services_file);
  EXPECT_EQ(p.perfmgr.enabled, d.perfmgr.enabled);
  EXPECT_EQ(p.perfmgr.interval_s, d.perfmgr.interval_s);
  EXPECT_EQ(p.perfmgr.max_outstanding, d.perfmgr.max_outstanding);
  EXPECT_EQ(p.perfmgr.timeout_ms, d.perfmgr.timeout_ms);
  EXPECT_EQ(p.perfmgr.retries, d.perfmgr.retries);
  EXPECT_EQ(p.perfmgr.reset_saturated, d.perfmgr.reset_saturated);
  EXPECT_EQ(p.health.enabled, d.health.enabled);
  EXPECT_EQ(p.health.isolate, d.health.isolate);
  EXPECT_EQ(p.health.thresholds, d.health.thresholds);
  EXPECT_EQ(p.health.flap_count, d.health.flap_count);
  EXPECT_EQ(p.health.flap_window_s, d.health.flap_window_s);
  EXPECT_EQ(p.health.quiet_period_s, d.health.quiet_period_s);
  // The shipped section writes out default_partitions() (ALL=full covers the SM's port: nothing is added).
  test::expect_same_partitions(p.partitions, default_partitions());
  test::expect_same_partitions(d.partitions, default_partitions());
  EXPECT_EQ(p.qos, d.qos);  // the qos section is documented commented out: disabled
  EXPECT_EQ(p.routing.options.data_vls, 1);
  EXPECT_EQ(p.source, kShippedPolicy);
}

TEST_F(PolicyFile, ShippedPolicyDocumentsEveryKey) {
  std::set<std::string> keys;
  collect_keys(YAML::LoadFile(kShippedPolicy), "", keys);
  const std::set<std::string> expected = {
      "sm.state_dir", "sm.ca", "sm.port", "sm.port_guid", "sm.priority", "sm.sm_key", "sm.subnet_prefix",
      "sm.sweep_interval", "sm.max_resweeps", "sm.poll_interval", "sm.poll_retries", "sm.node_name_map",
      "sm.client_reregister", "sm.multicast", "routing.engines",
      "routing.adaptive", "routing.repair", "routing.minhop.guid_routing_order",
      "routing.minhop.guid_routing_order_file", "routing.minhop.hop_weights_file",
      "routing.minhop.port_search_ordering_file", "routing.minhop.port_prof_ignore_file",
      "routing.minhop.port_profile_switch_nodes", "routing.minhop.port_shifting", "routing.minhop.scatter_ports",
      "routing.updn.roots", "routing.updn.roots_file",
      // routing.updn.ids is written {}: an empty map has no leaf to show.
      "routing.updn.guid_routing_order", "routing.updn.guid_routing_order_file", "routing.updn.ids_file",
      "routing.dnup.guid_routing_order", "routing.dnup.guid_routing_order_file",
      "routing.ftree.roots", "routing.ftree.roots_file", "routing.ftree.cn_guids", "routing.ftree.cn_guids_file", "routing.ftree.io_guids",
      "routing.ftree.io_guids_file", "routing.ftree.max_reverse_hops", "routing.sssp.guid_routing_order",
      "routing.sssp.guid_routing_order_file", "routing.dfsssp.guid_routing_order",
      "routing.dfsssp.guid_routing_order_file", "routing.dfsssp.max_vls",
      "routing.dfsssp.spread_vls", "routing.dor.guid_routing_order", "routing.dor.guid_routing_order_file",
      "routing.dor.port_search_ordering_file",
      "routing.lash.max_vls", "routing.lash.spread_vls", "routing.nue.max_vls", "routing.nue.include_switches",
      "routing.torus_2qos.config_file", "routing.torus_2qos.x_radix",
      "routing.torus_2qos.y_radix", "routing.torus_2qos.z_radix", "routing.torus_2qos.x_mesh", "routing.torus_2qos.y_mesh",
      "routing.torus_2qos.z_mesh", "routing.torus_2qos.xp_link", "routing.torus_2qos.xm_link", "routing.torus_2qos.yp_link",
      "routing.torus_2qos.ym_link", "routing.torus_2qos.zp_link", "routing.torus_2qos.zm_link",
      "routing.torus_2qos.x_dateline", "routing.torus_2qos.y_dateline", "routing.torus_2qos.z_dateline",
      "routing.file.lfts_file", "lid.lmc", "mad.window", "mad.timeout_ms", "mad.retries", "log.level", "log.file",
      "control.socket", "control.mode", "metrics.listen", "metrics.enabled", "security.m_key", "security.m_key_protect",
      "security.m_key_lease_period", "security.m_key_per_port", "ports.subnet_timeout", "ports.head_of_queue_lifetime",
      "ports.leaf_head_of_queue_lifetime", "ports.vl_stall_count", "ports.leaf_vl_stall_count",
      "ports.local_phy_errors_threshold", "ports.overrun_errors_threshold", "ports.sm_sl", "ports.packet_life_time",
      "ports.force_link_width", "ports.force_link_speed", "ports.force_link_speed_ext", "roce.export", "roce.frr",
      // sa.services_file is documented commented out: its default
      // follows sm.state_dir, which no literal value can say.
      "sa.enabled", "sa.key", "sa.packet_lifetime", "sa.queue_depth", "sa.report_retries", "sa.report_timeout_ms",
      "sa.max_records", "sa.alias_guid_byte", "sa.original_rates_only", "sa.drop_absent_subscribers",
      "perfmgr.enabled", "perfmgr.interval", "perfmgr.max_outstanding", "perfmgr.timeout_ms", "perfmgr.retries",
      "perfmgr.reset_saturated", "perfmgr.ignore_cas", "health.enabled", "health.isolate",
      "health.thresholds.symbol_errors", "health.thresholds.link_error_recoveries", "health.thresholds.link_downed",
      "health.thresholds.rcv_errors", "health.thresholds.rcv_remote_physical_errors",
      "health.thresholds.rcv_switch_relay_errors", "health.thresholds.xmit_discards",
      "health.thresholds.xmit_constraint_errors", "health.thresholds.rcv_constraint_errors",
      "health.thresholds.local_link_integrity_errors", "health.thresholds.excessive_buffer_overrun_errors",
      "health.thresholds.vl15_dropped", "health.thresholds.xmit_wait", "health.flap_count", "health.flap_window",
      "health.quiet_period", "health.babbling_port", "health.babbling_traps", "health.babbling_window",
      "perfmgr.follow_redirect", "multicast.consolidate_ipv6_snm", "congestion_control.enabled", "congestion_control.cc_key",
      "congestion_control.max_outstanding", "congestion_control.switch.control_map",
      "congestion_control.switch.victim_mask", "congestion_control.switch.credit_mask",
      "congestion_control.switch.threshold", "congestion_control.switch.packet_size",
      "congestion_control.switch.credit_starvation_threshold", "congestion_control.switch.credit_starvation_return_delay",
      "congestion_control.switch.marking_rate", "congestion_control.ca.port_control", "congestion_control.ca.control_map",
      "congestion_control.ca.ccti_timer", "congestion_control.ca.ccti_increase", "congestion_control.ca.trigger_threshold",
      "congestion_control.ca.ccti_min", "congestion_control.cct", "partitions.enforcement", "partitions.allow_both_pkeys", "partitions.list[].name",
      "partitions.list[].pkey", "partitions.list[].default_membership", "partitions.list[].index0",
      "partitions.list[].members[].select", "partitions.list[].members[].membership", "partitions.list[].ipoib.mtu",
      "partitions.list[].ipoib.rate", "partitions.list[].ipoib.sl", "partitions.list[].ipoib.scopes",
      "partitions.list[].ipoib.q_key", "partitions.list[].ipoib.tclass", "partitions.list[].ipoib.flow_label",
      // groups is documented in comments: the default partition has none.
      "partitions.list[].groups"};
  EXPECT_EQ(keys, expected);
}

/// The `# qos:` block of the shipped policy with its comment marks removed: the optional section as documented.
std::string uncommented_qos_block() {
  std::ifstream in(kShippedPolicy);
  std::string line;
  std::string block;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "# qos:") inside = true;
    if (!inside) continue;
    if (line.rfind("#", 0) != 0) break;
    // "# key" -> "key"; a line of only "#" is an empty line. Deeper "#   # text" stays a comment.
    block += (line.size() > 2 ? line.substr(2) : std::string()) + "\n";
  }
  return block;
}

TEST_F(PolicyFile, ShippedPolicyDocumentsEveryQosKey) {
  const std::string block = uncommented_qos_block();
  ASSERT_FALSE(block.empty());
  std::ifstream in(kShippedPolicy);
  const std::string shipped((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The documented section must load as written, beside the rest of the shipped file (its port group names
  // the shipped Default partition).
  Result<Policy> loaded = load_policy_string(shipped + "\n" + block, "smd.yaml+qos");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_TRUE(loaded->qos.enabled);
  std::set<std::string> keys;
  collect_keys(YAML::Load(block), "", keys);
  const std::set<std::string> expected = {"qos.enabled",
                                          "qos.max_vls",
                                          "qos.high_limit",
                                          "qos.vlarb_high",
                                          "qos.vlarb_low",
                                          "qos.sl2vl",
                                          "qos.ca.max_vls",
                                          "qos.ca.high_limit",
                                          "qos.switch_port0.max_vls",
                                          "qos.switch_external.max_vls",
                                          "qos.switch_external.vlarb_high",
                                          "qos.switch_external.vlarb_low",
                                          "qos.switch_external.sl2vl",
                                          "qos.router.vlarb_high[].vl",
                                          "qos.router.vlarb_high[].weight",
                                          "qos.port_groups[].name",
                                          "qos.port_groups[].guids",
                                          "qos.port_groups[].nodes",
                                          "qos.port_groups[].partitions",
                                          "qos.port_groups[].node_types",
                                          "qos.port_groups[].self",
                                          "qos.levels[].name",
                                          "qos.levels[].sl",
                                          "qos.levels[].mtu_limit",
                                          "qos.levels[].rate_limit",
                                          "qos.levels[].packet_life",
                                          "qos.levels[].pkeys",
                                          "qos.rules[].level",
                                          "qos.rules[].source",
                                          "qos.rules[].destination",
                                          "qos.rules[].service_ids",
                                          "qos.rules[].pkeys"};
  EXPECT_EQ(keys, expected);
}

TEST_F(PolicyFile, ErrorsNameThePathLineAndColumn) {
  std::string path = write("smd.yaml", "# comment\nsm:\n  priority: 3\nmad:\n  retries: 1\n  window: 65\n");
  Result<Policy> loaded = load_policy_file(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(loaded.error().message, path + ":6:11: mad.window: 65 is out of range 1..64");
}

TEST_F(PolicyFile, ValidFileSetsSource) {
  std::string path = write("ok.yaml", "lid:\n  lmc: 2\n");
  Result<Policy> loaded = load_policy_file(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->lid.lmc, 2u);
  EXPECT_EQ(loaded->source, path);
}

TEST_F(PolicyFile, EmptyFileGivesDefaults) {
  Result<Policy> loaded = load_policy_file(write("empty.yaml", ""));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->mad.window, 32u);
  EXPECT_EQ(loaded->routing.engines, (std::vector<std::string>{"ftree", "updn", "minhop"}));
}

TEST_F(PolicyFile, MissingFileIsAnIoErrorNamingThePath) {
  std::string path = dir_ + "/absent.yaml";
  Result<Policy> loaded = load_policy_file(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().code, ErrorCode::kIo);
  EXPECT_EQ(loaded.error().message, "cannot open policy file " + path + ": No such file or directory");
}

TEST_F(PolicyFile, DirectoryIsAnIoErrorNotAnEmptyPolicy) {
  Result<Policy> loaded = load_policy_file(dir_);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().code, ErrorCode::kIo);
  EXPECT_EQ(loaded.error().message, "cannot read policy file " + dir_ + ": it is a directory, not a regular file");
}

TEST_F(PolicyFile, PermissionsOwnerWritableOnlyAreAccepted) {
  EXPECT_TRUE(check_policy_file_permissions(write("a.yaml", "", 0644)).ok());
  EXPECT_TRUE(check_policy_file_permissions(write("b.yaml", "", 0600)).ok());
  EXPECT_TRUE(check_policy_file_permissions(write("c.yaml", "", 0444)).ok());
}

TEST_F(PolicyFile, PermissionsGroupWritableIsRefused) {
  std::string path = write("g.yaml", "", 0664);
  Status status = check_policy_file_permissions(path);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(status.error().message,
            "policy file " + path + " has mode 0664: group or others may write it; run chmod go-w " + path);
}

TEST_F(PolicyFile, PermissionsOtherWritableIsRefused) {
  std::string path = write("o.yaml", "", 0602);
  Status status = check_policy_file_permissions(path);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message,
            "policy file " + path + " has mode 0602: group or others may write it; run chmod go-w " + path);
}

TEST_F(PolicyFile, PermissionsOfMissingFileIsAnIoError) {
  std::string path = dir_ + "/absent.yaml";
  Status status = check_policy_file_permissions(path);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kIo);
  EXPECT_EQ(status.error().message, "cannot stat policy file " + path + ": No such file or directory");
}

}  // namespace
}  // namespace smd::policy_file_test
