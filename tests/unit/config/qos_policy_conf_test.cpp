// OpenSM qos-policy.conf import: each section and keyword of QoS_management_in_OpenSM.txt, the resulting
// spec asserted field by field with values worked out by hand from that document (service IDs, rate and
// MTU codes); warnings and errors with their line:column; the YAML written from a spec loads back as the
// same lists through the policy loader.
#include "config/qos_policy_conf.h"

#include <gtest/gtest.h>

#include "config/policy_loader.h"
#include "config/qos_yaml.h"

namespace smd::qos_policy_conf_test {
namespace {

QosPolicyImport import(const std::string& text, const PartitionsSpec& partitions = default_partitions()) {
  Result<QosPolicyImport> imported = parse_qos_policy_conf(text, "q.conf", partitions);
  EXPECT_TRUE(imported.ok()) << imported.error().message;
  return imported.ok() ? *imported : QosPolicyImport{};
}

std::string import_error(const std::string& text) {
  Result<QosPolicyImport> imported = parse_qos_policy_conf(text, "q.conf", default_partitions());
  EXPECT_FALSE(imported.ok());
  return imported.ok() ? "" : imported.error().message;
}

const std::string kDefaultLevel = "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n end-qos-level\nend-qos-levels\n";

TEST(QosPolicyConf, ShortestFileIsOneDefaultLevel) {
  QosPolicyImport q = import(kDefaultLevel);
  ASSERT_EQ(q.spec.levels.size(), 1u);
  EXPECT_EQ(q.spec.levels[0].name, "DEFAULT");
  EXPECT_EQ(q.spec.levels[0].sl, std::optional<std::uint8_t>(0));
  EXPECT_TRUE(q.spec.rules.empty());
  EXPECT_TRUE(q.warnings.empty());
}

TEST(QosPolicyConf, ShortestUlpFileMakesTheDefaultLevel) {
  QosPolicyImport q = import("qos-ulps\n    default  : 3 # default SL\nend-qos-ulps\n");
  ASSERT_EQ(q.spec.levels.size(), 1u);
  EXPECT_EQ(q.spec.levels[0].name, "DEFAULT");
  EXPECT_EQ(q.spec.levels[0].sl, std::optional<std::uint8_t>(3));
}

TEST(QosPolicyConf, PortGroupCriteria) {
  PartitionsSpec parts = default_partitions();
  PartitionSpec p1;
  p1.name = "Part1";
  p1.pkey = 0x1234;
  parts.partitions.push_back(p1);
  QosPolicyImport q = import(
      "port-groups\n"
      "  port-group\n"
      "    name: G\n"
      "    port-guid: 0x10, 0x20-0x22, 0x21\n"  // 0x21 twice: listed once
      "    port-name: h1 HCA-1/P2, sw 7\n"
      "    partition: Part1\n"
      "    pkey: 0xffff\n"  // bit 15 dropped: 0x7fff, the Default partition
      "    node-type: switch, ROUTER, self\n"
      "  end-port-group\n"
      "end-port-groups\n" +
          kDefaultLevel,
      parts);
  ASSERT_EQ(q.spec.port_groups.size(), 1u);
  const QosPortGroup& g = q.spec.port_groups[0];
  EXPECT_EQ(g.name, "G");
  EXPECT_EQ(g.guids, (std::vector<Guid>{0x10, 0x20, 0x21, 0x22}));
  EXPECT_EQ(g.nodes, (std::vector<std::string>{"h1 HCA-1", "sw 7"}));
  EXPECT_EQ(g.partitions, (std::vector<std::string>{"Part1", "Default"}));
  EXPECT_EQ(g.node_types, (std::vector<NodeType>{NodeType::kSwitch, NodeType::kRouter}));
  EXPECT_TRUE(g.self);
  ASSERT_EQ(q.warnings.size(), 2u);
  EXPECT_EQ(q.warnings[0].rfind("q.conf:5:16: port-name 'h1 HCA-1/P2': smd groups every port of node 'h1 HCA-1'", 0), 0u)
      << q.warnings[0];
  EXPECT_EQ(q.warnings[1].rfind("q.conf:7:11: P_Key 0xffff: bit 15", 0), 0u) << q.warnings[1];
}

TEST(QosPolicyConf, NodeTypeAllIsEveryType) {
  QosPolicyImport q =
      import("port-groups\n port-group\n  name: A\n  node-type: ALL\n end-port-group\nend-port-groups\n" + kDefaultLevel);
  ASSERT_EQ(q.spec.port_groups.size(), 1u);
  EXPECT_EQ(q.spec.port_groups[0].node_types,
            (std::vector<NodeType>{NodeType::kCa, NodeType::kSwitch, NodeType::kRouter}));
  EXPECT_FALSE(q.spec.port_groups[0].self);
}

TEST(QosPolicyConf, HugeGuidRangeIsDroppedWithAWarning) {
  QosPolicyImport q = import(
      "port-groups\n port-group\n  name: S\n  port-guid: 0x10000000000005-0x1000000000FFFA, 0x7\n end-port-group\n"
      "end-port-groups\n" +
      kDefaultLevel);
  ASSERT_EQ(q.spec.port_groups.size(), 1u);
  EXPECT_EQ(q.spec.port_groups[0].guids, (std::vector<Guid>{0x7}));
  ASSERT_EQ(q.warnings.size(), 1u);
  EXPECT_NE(q.warnings[0].find("q.conf:4:14: port-guid: 0x0010000000000005-0x001000000000fffa has too many GUIDs"),
            std::string::npos)
      << q.warnings[0];
}

TEST(QosPolicyConf, LevelFields) {
  QosPolicyImport q = import(
      "qos-levels\n"
      "  qos-level\n    name: DEFAULT\n  end-qos-level\n"
      "  qos-level\n    name: WholeSet\n    use: all of them\n    sl: 1\n    mtu-limit: 4\n    rate-limit: 5\n"
      "    pkey: 0x1234, 0x8001-0x8002\n    packet-life: 8\n  end-qos-level\n"
      "end-qos-levels\n");
  ASSERT_EQ(q.spec.levels.size(), 2u);
  const QosLevel& l = q.spec.levels[1];
  EXPECT_EQ(l.name, "WholeSet");
  EXPECT_EQ(l.sl, std::optional<std::uint8_t>(1));
  EXPECT_EQ(l.mtu_limit, std::optional<std::uint8_t>(4));
  EXPECT_EQ(l.rate_limit, std::optional<std::uint8_t>(5));
  EXPECT_EQ(l.packet_life, std::optional<std::uint8_t>(8));
  EXPECT_EQ(l.pkeys, (std::vector<std::uint16_t>{0x1234, 0x0001, 0x0002}));
  EXPECT_FALSE(q.spec.levels[0].sl.has_value());
}

TEST(QosPolicyConf, MatchRulesInOrderAndQosClassRuleDropped) {
  QosPolicyImport q = import(
      "port-groups\n port-group\n  name: Storage\n  port-guid: 0x1\n end-port-group\nend-port-groups\n" +
      kDefaultLevel +
      "qos-match-rules\n"
      " qos-match-rule\n  qos-class: 7-9,11\n  qos-level-name: DEFAULT\n end-qos-match-rule\n"
      " qos-match-rule\n  destination: Storage\n  service-id: 0x10000000000001, 0x10000000000008-0x10000000000FFF\n"
      "  pkey: 0x0F00-0x0FFF\n  qos-level-name: DEFAULT\n end-qos-match-rule\n"
      " qos-match-rule\n  source: Storage\n  qos-level-name: DEFAULT\n end-qos-match-rule\n"
      "end-qos-match-rules\n");
  ASSERT_EQ(q.spec.rules.size(), 2u);
  const QosMatchRule& r = q.spec.rules[0];
  EXPECT_EQ(r.destination, (std::vector<std::string>{"Storage"}));
  EXPECT_TRUE(r.source.empty());
  EXPECT_EQ(r.service_ids, (std::vector<QosRange>{{0x10000000000001, 0x10000000000001}, {0x10000000000008, 0x10000000000FFF}}));
  EXPECT_EQ(r.pkeys, (std::vector<QosRange>{{0x0f00, 0x0fff}}));
  EXPECT_EQ(q.spec.rules[1].source, (std::vector<std::string>{"Storage"}));
  ASSERT_EQ(q.warnings.size(), 1u);
  EXPECT_EQ(q.warnings[0].rfind("q.conf:15:3: qos-class:", 0), 0u) << q.warnings[0];
}

TEST(QosPolicyConf, UlpServiceIdsAsOpenSmDocumentsThem) {
  QosPolicyImport q = import(
      "qos-ulps\n"
      "  default : 0\n"
      "  sdp, port-num 30000 : 1\n"     // 0x10000 + 30000 = 0x17530
      "  sdp, port-num 10000-20000 : 1\n"
      "  sdp : 1\n"                     // 0x10000-0x1ffff
      "  rds : 2\n"                     // 0x10648ca
      "  rds, port-num 0x1234 : 2\n"    // 0x1061234
      "  iser, port-num 900 : 3\n"      // 0x1060384
      "  iser : 3\n"                    // 0x1060cbc
      "  ipoib : 4\n"                   // P_Key 0x7fff
      "  ipoib, pkey 0x0001 : 4\n"
      "  any, service-id 0x6234 : 5\n"
      "  any, pkey 0x0ABC, 0x10-0x11 : 5\n"
      "end-qos-ulps\n");
  ASSERT_EQ(q.spec.rules.size(), 11u);
  const std::vector<std::vector<QosRange>> services = {
      {{0x17530, 0x17530}}, {{0x12710, 0x14e20}}, {{0x10000, 0x1ffff}}, {{0x10648ca, 0x10648ca}},
      {{0x1061234, 0x1061234}}, {{0x1060384, 0x1060384}}, {{0x1060cbc, 0x1060cbc}}};
  for (std::size_t i = 0; i < services.size(); ++i) EXPECT_EQ(q.spec.rules[i].service_ids, services[i]) << i;
  EXPECT_EQ(q.spec.rules[7].pkeys, (std::vector<QosRange>{{0x7fff, 0x7fff}}));
  EXPECT_EQ(q.spec.rules[8].pkeys, (std::vector<QosRange>{{0x0001, 0x0001}}));
  EXPECT_EQ(q.spec.rules[9].service_ids, (std::vector<QosRange>{{0x6234, 0x6234}}));
  EXPECT_EQ(q.spec.rules[10].pkeys, (std::vector<QosRange>{{0x0abc, 0x0abc}, {0x10, 0x11}}));
  // One level per SL, DEFAULT from the default line.
  std::vector<std::pair<std::string, int>> levels;
  for (const QosLevel& l : q.spec.levels) levels.emplace_back(l.name, l.sl.value_or(99));
  EXPECT_EQ(levels, (std::vector<std::pair<std::string, int>>{
                        {"DEFAULT", 0}, {"ulp_sl1", 1}, {"ulp_sl2", 2}, {"ulp_sl3", 3}, {"ulp_sl4", 4}, {"ulp_sl5", 5}}));
  EXPECT_EQ(q.spec.rules[0].level, "ulp_sl1");
  EXPECT_EQ(q.spec.rules[10].level, "ulp_sl5");
}

TEST(QosPolicyConf, UlpGuidCriteriaBecomePortGroupsAfterTheFileRules) {
  QosPolicyImport q = import(
      "port-groups\n port-group\n  name: ulp_line3_target\n  port-guid: 0x9\n end-port-group\nend-port-groups\n"
      "qos-ulps\n"
      "  srp, target-port-guid 0x1234 : 5\n"
      "  any, source-port-guid 0x5678, 0x100-0x101 : 7\n"
      "  default : 1\n"
      "end-qos-ulps\n" +
      kDefaultLevel);
  ASSERT_EQ(q.spec.port_groups.size(), 3u);
  EXPECT_EQ(q.spec.port_groups[1].name, "ulp_line8_target");
  EXPECT_EQ(q.spec.port_groups[1].guids, (std::vector<Guid>{0x1234}));
  EXPECT_EQ(q.spec.port_groups[2].name, "ulp_line9_source");
  EXPECT_EQ(q.spec.port_groups[2].guids, (std::vector<Guid>{0x5678, 0x100, 0x101}));
  ASSERT_EQ(q.spec.rules.size(), 2u);
  EXPECT_EQ(q.spec.rules[0].destination, (std::vector<std::string>{"ulp_line8_target"}));
  EXPECT_EQ(q.spec.rules[1].source, (std::vector<std::string>{"ulp_line9_source"}));
  // The qos-levels DEFAULT (SL 0) wins over the ulp default (SL 1), with a warning.
  ASSERT_EQ(q.warnings.size(), 1u);
  EXPECT_EQ(q.warnings[0].rfind("q.conf:10:3: qos-ulps default SL 1", 0), 0u) << q.warnings[0];
}

TEST(QosPolicyConf, QosSetupIsSkippedWithAWarning) {
  QosPolicyImport q = import("qos-setup\n  vlarb-tables\n  end-vlarb-tables\nend-qos-setup\n" + kDefaultLevel);
  ASSERT_EQ(q.warnings.size(), 1u);
  EXPECT_EQ(q.warnings[0].rfind("q.conf:1:1: qos-setup: OpenSM parses and ignores", 0), 0u);
  EXPECT_TRUE(import("qos-setup\nend-qos-setup\n" + kDefaultLevel).warnings.empty());
}

TEST(QosPolicyConf, Errors) {
  EXPECT_EQ(import_error("qos-levelz\n"), "q.conf:1:1: expected a section (port-groups, qos-setup, qos-levels, "
                                          "qos-match-rules, qos-ulps), got 'qos-levelz'");
  EXPECT_EQ(import_error("qos-levels\n qos-level\n  name: DEFAULT\n"),
            "q.conf:2:2: 'qos-level' is never closed by 'end-qos-level'");
  EXPECT_EQ(import_error("qos-levels\n qos-level\n  name: DEFAULT\n  mtu-limit: 6\n end-qos-level\nend-qos-levels\n"),
            "q.conf:4:14: mtu-limit: 6 is above 5");
  EXPECT_EQ(import_error("qos-levels\n qos-level\n  name: DEFAULT\n  rate-limit: 1\n end-qos-level\nend-qos-levels\n"),
            "q.conf:4:15: rate-limit: an IBA rate code is 2 (2.5 Gb/s) .. 24 (1200 Gb/s), got 1");
  EXPECT_EQ(import_error(kDefaultLevel + "qos-levels\n qos-level\n  name: DEFAULT\n end-qos-level\nend-qos-levels\n"),
            "q.conf:9:9: qos-level 'DEFAULT' is defined twice");
  EXPECT_EQ(import_error("qos-levels\n qos-level\n  name: Fast\n end-qos-level\nend-qos-levels\n"),
            "q.conf:5:1: no qos-level is named DEFAULT (nor a qos-ulps default): queries no rule matches need it");
  EXPECT_EQ(import_error(kDefaultLevel + "qos-match-rules\n qos-match-rule\n  source: Nowhere\n  qos-level-name: DEFAULT\n"
                                         " end-qos-match-rule\nend-qos-match-rules\n"),
            "q.conf:9:11: unknown port group 'Nowhere'");
  EXPECT_EQ(import_error(kDefaultLevel + "qos-match-rules\n qos-match-rule\n  source: \n end-qos-match-rule\n"
                                         "end-qos-match-rules\n"),
            "q.conf:9:10: source: missing value");
  EXPECT_EQ(import_error(kDefaultLevel + "qos-match-rules\n qos-match-rule\n  pkey: 0x10\n end-qos-match-rule\n"
                                         "end-qos-match-rules\n"),
            "q.conf:8:2: qos-match-rule without qos-level-name");
  EXPECT_EQ(import_error("qos-ulps\n  srp : 1\nend-qos-ulps\n"),
            "q.conf:2:3: srp needs target-port-guid (SRP's service IDs differ by vendor)");
  EXPECT_EQ(import_error("qos-ulps\n  sdp, pkey 3 : 1\nend-qos-ulps\n"), "q.conf:2:8: sdp takes port-num, got 'pkey'");
  EXPECT_EQ(import_error("qos-ulps\n  any, service-id 0x20-0x10 : 1\nend-qos-ulps\n"),
            "q.conf:2:19: service-id: empty range '0x20-0x10'");
  EXPECT_EQ(import_error("qos-ulps\n  ipoib : x\nend-qos-ulps\n"), "q.conf:2:11: sl: 'x': " +
                                                                      parse_unsigned("x").error().message);
  EXPECT_EQ(import_error("port-groups\n port-group\n  port-guid: 0x1\n end-port-group\nend-port-groups\n"),
            "q.conf:2:2: port-group without a name");
  EXPECT_EQ(import_error("end-qos-levels\n"), "q.conf:1:1: expected a section (port-groups, qos-setup, qos-levels, "
                                              "qos-match-rules, qos-ulps), got 'end-qos-levels'");
}

// A rule whose only P_Key is 0 (invalid, carried by no query) would match every P_Key without it: dropped.
TEST(QosPolicyConf, PkeyZeroNeverWidensARule) {
  QosPolicyImport q = import(kDefaultLevel +
                             "qos-match-rules\n qos-match-rule\n  pkey: 0x0, 0x8000\n  qos-level-name: DEFAULT\n"
                             " end-qos-match-rule\n qos-match-rule\n  pkey: 0x0-0x3\n  qos-level-name: DEFAULT\n"
                             " end-qos-match-rule\nend-qos-match-rules\nqos-ulps\n  any, pkey 0 : 1\nend-qos-ulps\n");
  ASSERT_EQ(q.spec.rules.size(), 1u);
  EXPECT_EQ(q.spec.rules[0].pkeys, (std::vector<QosRange>{{1, 3}}));
  std::string all;
  for (const std::string& w : q.warnings) all += w + "\n";
  EXPECT_NE(all.find("q.conf:8:2: this qos-match-rule has no P_Key left to match: not carried"), std::string::npos) << all;
  EXPECT_NE(all.find("q.conf:18:3: this qos-ulps line has no P_Key left to match: not carried"), std::string::npos) << all;
}

// The YAML the importer writes, pasted under `qos:`, loads back as the same lists.
TEST(QosPolicyConf, YamlLoadsBackAsTheSameLists) {
  QosPolicyImport q = import(
      "port-groups\n port-group\n  name: a: \"b\" #c\n  port-guid: 0x1, 0x5-0x6\n  port-name: n1 HCA-1/P1\n"
      "  node-type: CA, SELF\n  pkey: 0x7fff\n end-port-group\nend-port-groups\n"
      "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 2\n  mtu-limit: 1\n  rate-limit: 16\n  packet-life: 63\n"
      "  pkey: 0x7fff\n end-qos-level\nend-qos-levels\n"
      "qos-match-rules\n qos-match-rule\n  source: a: \"b\"\n  destination: a: \"b\"\n  service-id: 0x1-0xffffffffffffffff\n"
      "  pkey: 0x0-0x7fff\n  qos-level-name: DEFAULT\n end-qos-match-rule\nend-qos-match-rules\n");
  ASSERT_EQ(q.spec.port_groups.size(), 1u);
  EXPECT_EQ(q.spec.port_groups[0].name, "a: \"b\"");  // '#' ends the line: OpenSM's comments
  std::string yaml = "qos:\n  enabled: true\n";
  for (const QosYamlKey& key : qos_list_keys(q.spec)) yaml += "  " + key.key + ": " + flow_sequence(key) + "\n";
  Result<Policy> loaded = load_policy_string(yaml, "converted");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message << "\n" << yaml;
  EXPECT_EQ(loaded->qos.port_groups, q.spec.port_groups);
  EXPECT_EQ(loaded->qos.levels, q.spec.levels);
  EXPECT_EQ(loaded->qos.rules, q.spec.rules);
}

TEST(QosPolicyConf, RateCodesRoundTrip) {
  for (std::uint8_t code = 2; code <= 24; ++code) {
    const std::string gbps = gbps_of_rate_code(code);
    ASSERT_FALSE(gbps.empty()) << int(code);
  }
  EXPECT_EQ(gbps_of_rate_code(5), "5");
  EXPECT_EQ(gbps_of_rate_code(16), "100");
  EXPECT_EQ(gbps_of_rate_code(1), "");
  EXPECT_EQ(gbps_of_rate_code(25), "");
}

}  // namespace
}  // namespace smd::qos_policy_conf_test
