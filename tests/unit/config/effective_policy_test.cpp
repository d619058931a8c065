// `smd config --effective`: every key the loader knows, its value, its origin; the YAML loads back to the
// same policy.
#include "config/effective_policy.h"

#include <gtest/gtest.h>

#include <map>

#include "config/partitions_yaml.h"
#include "config/policy_loader.h"
#include "config/policy_overrides.h"
#include "config/policy_summary.h"

namespace smd::effective_policy_test {
namespace {

struct Steps {
  std::vector<KeyNote> notes;
  Policy loaded, with_instance, effective;
};

Steps load(const std::string& text, const PolicyOverrides& overrides = {}) {
  Steps s;
  auto loaded = load_policy_string(text, "p.yaml", &s.notes);
  EXPECT_TRUE(loaded.ok()) << loaded.error().message;
  if (loaded.ok()) s.loaded = *loaded;
  s.with_instance = s.loaded;
  s.effective = s.with_instance;
  apply_overrides(s.effective, overrides);
  return s;
}

std::vector<EffectiveKey> keys_of(const Steps& s) {
  return effective_keys(EffectiveInputs{s.notes, "p.yaml", s.loaded, s.with_instance, s.effective});
}

const EffectiveKey& find(const std::vector<EffectiveKey>& keys, const std::string& key) {
  for (const EffectiveKey& k : keys) {
    if (k.key == key) return k;
  }
  ADD_FAILURE() << key << " not listed";
  static const EffectiveKey none;
  return none;
}

/// key -> value text, the origins left out; qos apart (a file with qos shows it whole, one without key by
/// key: the test compares the QosSpec instead).
std::map<std::string, std::string> values(const std::vector<EffectiveKey>& keys) {
  std::map<std::string, std::string> out;
  for (const EffectiveKey& k : keys) {
    if (k.key == "qos" || k.key.starts_with("qos.")) continue;
    out[k.key] = k.unset ? "<unset>" : YAML::Dump(k.value);
  }
  return out;
}

TEST(EffectivePolicy, DefaultsListEveryKeyAsDefault) {
  const Steps s = load("");
  const std::vector<EffectiveKey> keys = keys_of(s);
  for (const EffectiveKey& k : keys) EXPECT_EQ(k.origin, "default") << k.key;
  // A few values read from config/smd.yaml's documented defaults, not from the code.
  EXPECT_EQ(find(keys, "sm.priority").value.Scalar(), "0");
  EXPECT_EQ(find(keys, "mad.window").value.Scalar(), "32");
  EXPECT_EQ(find(keys, "control.mode").value.Scalar(), "0660");
  EXPECT_EQ(find(keys, "health.thresholds.link_downed").value.Scalar(), "2");
  EXPECT_EQ(YAML::Dump(find(keys, "routing.engines").value), "- ftree\n- updn\n- minhop");
  auto missing = keys_missing_from(effective_yaml(keys));
  ASSERT_TRUE(missing.ok());
  EXPECT_TRUE(missing->empty()) << (*missing)[0];
}

TEST(EffectivePolicy, AKeyMissingFromTheOutputIsFound) {
  std::string text = effective_yaml(keys_of(load("")));
  const std::size_t at = text.find("  priority: 0");
  ASSERT_NE(at, std::string::npos) << text;
  text.erase(at, text.find('\n', at) + 1 - at);
  auto missing = keys_missing_from(text);
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(*missing, std::vector<std::string>{"sm.priority"});
  // The same for an engine's option, a nested section's key and the unset sa.services_file.
  std::string more = effective_yaml(keys_of(load("")));
  for (const std::string line :
       {"    roots: []  # default\n", "    xmit_wait: 0  # default\n", "# services_file: unset  # default\n"}) {
    const std::size_t where = more.find(line);
    ASSERT_NE(where, std::string::npos) << line << more;
    more.erase(where, line.size());
  }
  missing = keys_missing_from(more);
  ASSERT_TRUE(missing.ok());
  // updn's roots line comes first; ftree's stays.
  EXPECT_EQ(*missing,
            (std::vector<std::string>{"routing.updn.roots", "sa.services_file", "health.thresholds.xmit_wait"}));
}

TEST(EffectivePolicy, OriginsAreThePlaceTheOptionOrTheDefault) {
  const std::string text =
      "sm:\n"
      "  priority: 3\n"
      "  sweep_interval: 20\n"
      "routing:\n"
      "  updn:\n"
      "    roots: [0x10, 0x20]\n";
  PolicyOverrides o;
  o.priority = 5;
  const std::vector<EffectiveKey> keys = keys_of(load(text, o));
  EXPECT_EQ(find(keys, "sm.priority").origin, "--priority");
  EXPECT_EQ(find(keys, "sm.priority").value.Scalar(), "5");
  EXPECT_EQ(find(keys, "sm.sweep_interval").origin, "p.yaml:3:3");
  EXPECT_EQ(find(keys, "sm.sweep_interval").value.Scalar(), "20");
  EXPECT_EQ(find(keys, "routing.updn.roots").origin, "p.yaml:6:5");
  EXPECT_EQ(YAML::Dump(find(keys, "routing.updn.roots").value), "- 0x0000000000000010\n- 0x0000000000000020");
  EXPECT_EQ(find(keys, "routing.engines").origin, "default");
  EXPECT_EQ(find(keys, "partitions").origin, "default");
}

TEST(EffectivePolicy, TheYamlLoadsBackToTheSamePolicy) {
  const std::string text =
      "sm:\n  priority: 3\n  port: 2\n  ca: mlx5_1\n  subnet_prefix: 0xfe80000000000abc\n"
      "routing:\n  engines: [updn, minhop]\n  adaptive: true\n  repair: full\n"
      "  updn:\n    roots: [0x10]\n  dfsssp:\n    max_vls: 4\n    spread_vls: true\n"
      "control:\n  mode: \"0600\"\n  socket: /tmp/a b.socket\n"
      "log:\n  file: \"\"\n"
      "sa:\n  services_file: /var/tmp/services.json\n"
      "health:\n  thresholds:\n    xmit_wait: 1000\n"
      "partitions:\n  enforcement: in\n  list:\n    - name: storage\n      pkey: 0x0801\n      members: [ALL_CAS]\n";
  PolicyOverrides o;
  o.priority = 7;
  o.engines = std::vector<std::string>{"ftree", "minhop"};
  const Steps first = load(text, o);
  const std::string dumped = effective_yaml(keys_of(first));
  const Steps second = load(dumped);
  const auto again = values(keys_of(second)), before = values(keys_of(first));
  EXPECT_EQ(again.size(), before.size());
  for (const auto& [key, value] : before) EXPECT_EQ(again.count(key) ? again.at(key) : "<absent>", value) << key;
  // And field by field where the list's texts could hide a difference.
  EXPECT_EQ(second.effective.sm.priority, 7u);
  EXPECT_EQ(second.effective.sm.port, 2u);
  EXPECT_EQ(second.effective.sm.ca, "mlx5_1");
  EXPECT_EQ(second.effective.sm.subnet_prefix, 0xfe80000000000abcULL);
  EXPECT_EQ(second.effective.routing.engines, (std::vector<std::string>{"ftree", "minhop"}));
  EXPECT_EQ(second.effective.routing.repair, RepairMode::kFull);
  EXPECT_TRUE(second.effective.routing.options.adaptive);
  EXPECT_EQ(second.effective.control.mode, 0600u);
  EXPECT_EQ(second.effective.control.socket, "/tmp/a b.socket");
  EXPECT_EQ(second.effective.sa.services_file, "/var/tmp/services.json");
  EXPECT_EQ(second.effective.health.thresholds[12], 1000u);
  EXPECT_EQ(partitions_yaml(second.effective.partitions), partitions_yaml(first.effective.partitions));
  EXPECT_EQ(summarize_policy(second.effective), summarize_policy(first.effective));
  EXPECT_FALSE(second.effective.qos.enabled);
  EXPECT_EQ(second.effective.qos.ca.max_vls, first.effective.qos.ca.max_vls);
  EXPECT_EQ(second.effective.qos.router.high_limit, first.effective.qos.router.high_limit);
}

TEST(EffectivePolicy, DefaultPartitionsLoadBackTheSame) {
  const Steps first = load("");
  const Steps second = load(effective_yaml(keys_of(first)));
  EXPECT_EQ(partitions_yaml(second.effective.partitions), partitions_yaml(first.effective.partitions));
  EXPECT_EQ(second.effective.sa.services_file, "");
}

TEST(EffectivePolicy, QosFromTheFileIsShownAsWritten) {
  const std::string text = "qos:\n  enabled: true\n  max_vls: 4\n  ca:\n    max_vls: 2\n";
  const Steps first = load(text);
  const std::vector<EffectiveKey> keys = keys_of(first);
  EXPECT_EQ(find(keys, "qos").origin, "p.yaml:1:1");
  const Steps second = load(effective_yaml(keys));
  EXPECT_TRUE(second.effective.qos.enabled);
  EXPECT_EQ(second.effective.qos.ca.max_vls, 2u);
  EXPECT_EQ(second.effective.qos.switch_external.max_vls, 4u);  // inherited, as in the file
  EXPECT_EQ(second.effective.routing.options.data_vls, first.effective.routing.options.data_vls);
}

}  // namespace
}  // namespace smd::effective_policy_test
