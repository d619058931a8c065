// Every policy key accepted with a valid value, and the typed value it produces.
#include <gtest/gtest.h>

#include "config/policy_loader.h"
#include "routing/chain/registry.h"
#include "routing/engines/dfsssp/dfsssp_options.h"
#include "routing/engines/ftree/ftree_options.h"
#include "routing/engines/updn/updn_options.h"

namespace smd::policy_loader_accept_test {
namespace {

Policy load_ok(const std::string& yaml) {
  Result<Policy> policy = load_policy_string(yaml, "t.yaml");
  EXPECT_TRUE(policy.ok()) << (policy.ok() ? "" : policy.error().message);
  return policy.ok() ? *policy : Policy{};
}

/// Every registered engine, last first: a chain whose order differs from the registry's whenever there are
/// two or more engines, so the test sees that the policy keeps the operator's order.
std::vector<std::string> reversed_engines() {
  std::vector<std::string> names = engine_names();
  return {names.rbegin(), names.rend()};
}

std::string flow_list(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return "[" + out + "]";
}

TEST(PolicyLoaderAccept, AnEmptyFileLoadsWithAWarning) {
  for (const char* yaml : {"", "# only a comment\n", "---\n", "{}\n"}) {
    Result<Policy> p = load_policy_string(yaml, "t.yaml");
    ASSERT_TRUE(p.ok()) << yaml;
    ASSERT_EQ(p->warnings.size(), 1u) << yaml;
    EXPECT_EQ(p->warnings[0], "t.yaml:1:1: warning: the file sets no key: every value is smd's default");
  }
  Result<Policy> some = load_policy_string("sm:\n  priority: 3\n", "t.yaml");
  ASSERT_TRUE(some.ok());
  EXPECT_TRUE(some->warnings.empty());
}

TEST(PolicyLoaderAccept, EveryKeyWithANonDefaultValue) {
  std::string yaml = R"(
sm:
  state_dir: /srv/smd
  ca: mlx5_1
  port: 2
  priority: 15
  sm_key: 0x00000000deadbeef
  subnet_prefix: 0xfec0000000000001
  sweep_interval: 86400
  max_resweeps: 20
routing:
  engines: {chain}
  adaptive: true
  repair: full
  updn:
    roots: [0x0002c90300001000, 42]
  ftree:
    roots: [0xa, 0xb, 0xc]
lid:
  lmc: 7
mad:
  window: 64
  timeout_ms: 60000
  retries: 20
log:
  level: critical
  file: /var/log/smd.log
)";
  yaml.replace(yaml.find("{chain}"), 7, flow_list(reversed_engines()));
  Policy p = load_ok(yaml);
  EXPECT_EQ(p.sm.state_dir, "/srv/smd");
  EXPECT_EQ(p.sm.ca, "mlx5_1");
  EXPECT_EQ(p.sm.port, 2u);
  EXPECT_EQ(p.sm.port_guid, 0u);
  EXPECT_EQ(p.sm.priority, 15u);
  EXPECT_EQ(p.sm.sm_key, 0xdeadbeefULL);
  EXPECT_EQ(p.sm.subnet_prefix, 0xfec0000000000001ULL);
  EXPECT_EQ(p.sm.sweep_interval_s, 86400u);
  EXPECT_EQ(p.sm.max_resweeps, 20u);
  EXPECT_EQ(p.routing.engines, reversed_engines());
  EXPECT_TRUE(p.routing.options.adaptive);
  EXPECT_EQ(p.routing.repair, RepairMode::kFull);
  EXPECT_EQ(p.routing.options.engines.get<UpdnOptions>().roots, (std::vector<Guid>{0x0002c90300001000ULL, 42}));
  EXPECT_EQ(p.routing.options.engines.get<FtreeOptions>().roots, (std::vector<Guid>{0xa, 0xb, 0xc}));
  EXPECT_EQ(p.lid.lmc, 7u);
  EXPECT_EQ(p.mad.window, 64u);
  EXPECT_EQ(p.mad.timeout_ms, 60000u);
  EXPECT_EQ(p.mad.retries, 20u);
  EXPECT_EQ(p.log.level, "critical");
  EXPECT_EQ(p.log.file, "/var/log/smd.log");
  EXPECT_EQ(p.source, "t.yaml");
}

TEST(PolicyLoaderAccept, LowerBoundsAndPortGuid) {
  Policy p = load_ok(R"(
sm: {port: 0, port_guid: 0x0002c9030000abcd, priority: 0, sweep_interval: 0, max_resweeps: 0}
lid: {lmc: 0}
mad: {window: 1, timeout_ms: 1, retries: 0}
)");
  EXPECT_EQ(p.sm.port, 0u);
  EXPECT_EQ(p.sm.port_guid, 0x0002c9030000abcdULL);
  EXPECT_EQ(p.sm.priority, 0u);
  EXPECT_EQ(p.sm.sweep_interval_s, 0u);
  EXPECT_EQ(p.sm.max_resweeps, 0u);
  EXPECT_EQ(p.lid.lmc, 0u);
  EXPECT_EQ(p.mad.window, 1u);
  EXPECT_EQ(p.mad.timeout_ms, 1u);
  EXPECT_EQ(p.mad.retries, 0u);
}

TEST(PolicyLoaderAccept, GuidsAndKeysInDecimalHexOrQuoted) {
  Policy p = load_ok(R"(
sm:
  port_guid: "0x0002C9030000ABCD"
  sm_key: 18446744073709551615
  subnet_prefix: '0xfe80000000000000'
)");
  EXPECT_EQ(p.sm.port_guid, 0x0002c9030000abcdULL);
  EXPECT_EQ(p.sm.sm_key, 0xffffffffffffffffULL);
  EXPECT_EQ(p.sm.subnet_prefix, 0xfe80000000000000ULL);
}

TEST(PolicyLoaderAccept, QuotedIntegerAndEmptyStrings) {
  Policy p = load_ok("mad:\n  window: \"8\"\nsm:\n  ca: ''\nlog:\n  file: \"\"\n");
  EXPECT_EQ(p.mad.window, 8u);
  EXPECT_EQ(p.sm.ca, "");
  EXPECT_EQ(p.log.file, "");
}

// The unclosed-quote guard must not touch quotes that close: escaped quotes, '' in single quotes, quoted
// scalars over two lines, apostrophes in plain scalars and comments, anchors and tags before a quote.
TEST(PolicyLoaderAccept, ClosedQuotesOfEveryKind) {
  Policy p = load_ok(
      "# it's a comment with a \" in it\n"
      "sm:\n  state_dir: \"/srv/a \\\"b\\\"\"\n  ca: it's\n"
      "log:\n  file: 'it''s.log'\n"
      "control:\n  socket: &s \"/run/smd\n    .sock\"\n"
      "metrics:\n  listen: !!str '127.0.0.1:9464'\n");
  EXPECT_EQ(p.sm.state_dir, "/srv/a \"b\"");
  EXPECT_EQ(p.sm.ca, "it's");
  EXPECT_EQ(p.log.file, "it's.log");
  EXPECT_EQ(p.control.socket, "/run/smd .sock");
  EXPECT_EQ(p.metrics.listen, "127.0.0.1:9464");
}

TEST(PolicyLoaderAccept, EveryLogLevel) {
  for (const char* level : {"trace", "debug", "info", "warn", "error", "critical", "off"}) {
    SCOPED_TRACE(level);
    EXPECT_EQ(load_ok(std::string("log:\n  level: ") + level + "\n").log.level, level);
  }
}

TEST(PolicyLoaderAccept, BooleanSpellings) {
  EXPECT_TRUE(load_ok("routing: {adaptive: True}").routing.options.adaptive);
  EXPECT_TRUE(load_ok("routing: {adaptive: TRUE}").routing.options.adaptive);
  EXPECT_FALSE(load_ok("routing: {adaptive: False}").routing.options.adaptive);
  EXPECT_FALSE(load_ok("routing: {adaptive: false}").routing.options.adaptive);
}

TEST(PolicyLoaderAccept, ControlAndMetrics) {
  Policy p =
      load_ok("control: {socket: /tmp/x.sock, mode: \"0600\"}\nmetrics: {listen: '[::1]:9000', enabled: false}\n");
  EXPECT_EQ(p.control.socket, "/tmp/x.sock");
  EXPECT_EQ(p.control.mode, 0600u);
  EXPECT_EQ(p.metrics.listen, "[::1]:9000");
  EXPECT_FALSE(p.metrics.enabled);
}

TEST(PolicyLoaderAccept, RoceExportAndFrr) {
  const Policy defaults = load_ok("");
  EXPECT_TRUE(defaults.roce.export_plan);
  EXPECT_TRUE(defaults.roce.frr);
  Policy p = load_ok("roce:\n  export: false\n  frr: false\n");
  EXPECT_FALSE(p.roce.export_plan);
  EXPECT_FALSE(p.roce.frr);
  p = load_ok("roce: {frr: false}\n");
  EXPECT_TRUE(p.roce.export_plan);
  EXPECT_FALSE(p.roce.frr);
  p = load_ok("roce: {export: false}\n");
  EXPECT_FALSE(p.roce.export_plan);
  EXPECT_TRUE(p.roce.frr);
}

TEST(PolicyLoaderAccept, BlockSequencesAndEmptyRootLists) {
  Policy p = load_ok(
      "routing:\n  engines:\n    - minhop\n  updn:\n    roots:\n      - 0x5\n      - 7\n  ftree: {roots: []}\n");
  EXPECT_EQ(p.routing.engines, (std::vector<std::string>{"minhop"}));
  EXPECT_EQ(p.routing.options.engines.get<UpdnOptions>().roots, (std::vector<Guid>{5, 7}));
  EXPECT_TRUE(p.routing.options.engines.get<FtreeOptions>().roots.empty());
}

TEST(PolicyLoaderAccept, DfssspSection) {
  Policy p = load_ok("routing:\n  engines: [dfsssp, updn]\n  dfsssp:\n    max_vls: 4\n    spread_vls: true\n");
  EXPECT_EQ(p.routing.engines, (std::vector<std::string>{"dfsssp", "updn"}));
  EXPECT_EQ(p.routing.options.engines.get<DfssspOptions>().max_vls, 4u);
  EXPECT_TRUE(p.routing.options.engines.get<DfssspOptions>().spread_vls);
  p = load_ok("routing:\n  dfsssp: {}\n");
  EXPECT_EQ(p.routing.options.engines.get<DfssspOptions>().max_vls, 0u);
  EXPECT_FALSE(p.routing.options.engines.get<DfssspOptions>().spread_vls);
}

TEST(PolicyLoaderAccept, PartialSectionKeepsOtherDefaults) {
  Policy p = load_ok("mad:\n  window: 16\n");
  EXPECT_EQ(p.mad.window, 16u);
  EXPECT_EQ(p.mad.timeout_ms, 100u);
  EXPECT_EQ(p.mad.retries, 3u);
  EXPECT_EQ(p.sm.sweep_interval_s, 10u);
  EXPECT_EQ(p.routing.engines, (std::vector<std::string>{"ftree", "updn", "minhop"}));
}

TEST(PolicyLoaderAccept, EmptyCommentOnlyAndNullSectionsGiveDefaults) {
  for (const char* yaml : {"", "# nothing set\n", "\n\n", "sm:\nmad:\n# all commented out\nlog: ~\n", "{}", "---\n"}) {
    SCOPED_TRACE(yaml);
    Policy p = load_ok(yaml);
    EXPECT_EQ(p.sm.state_dir, "/var/lib/smd");
    EXPECT_EQ(p.mad.window, 32u);
    EXPECT_EQ(p.log.level, "info");
    EXPECT_EQ(p.routing.engines, (std::vector<std::string>{"ftree", "updn", "minhop"}));
    EXPECT_EQ(p.source, "t.yaml");
  }
}

}  // namespace
}  // namespace smd::policy_loader_accept_test
