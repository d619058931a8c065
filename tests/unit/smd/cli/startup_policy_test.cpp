// The policy smd starts with, step by step (smd/cli/startup_policy.h): the overrides (-p, -g, -R,
// --log-level) win over the shared policy file, over an instance's own smd-NAME.yaml and over what
// --instance derives; the steps before them stay as they were for `config --effective`.
#include "smd/cli/startup_policy.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "config/effective_policy.h"
#include "tests/unit/temp_dir.h"

namespace smd::startup_policy_test {
namespace {

class StartupPolicyTest : public test::TempDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    ::chmod(path.c_str(), 0600);
    return path;
  }
};

TEST_F(StartupPolicyTest, OverridesWinOverTheInstancesOwnFile) {
  const std::string shared = write("smd.yaml", "sm:\n  priority: 2\n");
  write("smd-rail0.yaml", "sm:\n  priority: 4\n  port: 2\nrouting:\n  engines: [minhop]\nlog:\n  level: warn\n");
  InstancePolicy instance;
  instance.name = "rail0";
  PolicyOverrides o;
  o.priority = 5;
  o.engines = std::vector<std::string>{"updn", "minhop"};
  o.log_level = "debug";
  std::ostringstream err;
  auto steps = build_startup_policy(shared, instance, true, o, true, err);
  ASSERT_TRUE(steps) << err.str();
  EXPECT_EQ(steps->config_path, dir_ + "/smd-rail0.yaml");
  EXPECT_EQ(steps->loaded.sm.priority, 4u);  // the instance's file, not the shared one
  EXPECT_EQ(steps->effective.sm.priority, 5u);
  EXPECT_EQ(steps->effective.sm.port, 2u);  // no -g: the file's port stays
  EXPECT_EQ(steps->effective.routing.engines, (std::vector<std::string>{"updn", "minhop"}));
  EXPECT_EQ(steps->effective.log.level, "debug");
  EXPECT_EQ(steps->effective.sm.state_dir, "/var/lib/smd/rail0");  // --instance still applies
}

TEST_F(StartupPolicyTest, GuidOverrideWinsOverAGuidInstance) {
  const std::string shared = write("smd.yaml", "sm:\n  ca: mlx5_0\n  port: 1\n");
  InstancePolicy instance;
  instance.name = "0x0002c90300000001";
  PolicyOverrides o;
  o.port_guid = Guid{0x0002c90300000002ULL};
  std::ostringstream err;
  auto steps = build_startup_policy(shared, instance, true, o, true, err);
  ASSERT_TRUE(steps) << err.str();
  EXPECT_EQ(steps->with_instance.sm.port_guid, Guid{0x0002c90300000001ULL});
  EXPECT_EQ(steps->effective.sm.port_guid, Guid{0x0002c90300000002ULL});
  EXPECT_EQ(steps->effective.sm.ca, "");
  EXPECT_EQ(steps->effective.sm.port, 0u);
  // The origins config --effective gives: the option for the port, the instance for the state folder.
  const auto keys = effective_keys(
      EffectiveInputs{steps->file_notes, steps->config_path, steps->loaded, steps->with_instance, steps->effective});
  std::map<std::string, std::string> origin;
  for (const EffectiveKey& k : keys) origin[k.key] = k.origin;
  EXPECT_EQ(origin["sm.port_guid"], "--guid");
  EXPECT_EQ(origin["sm.port"], "--guid");
  EXPECT_EQ(origin["sm.state_dir"], "instance 0x0002c90300000001");
  EXPECT_EQ(origin["control.socket"], "instance 0x0002c90300000001");
  EXPECT_EQ(origin["sm.priority"], "default");
}

TEST_F(StartupPolicyTest, AWritableFileIsRefusedUnlessOnlyShown) {
  const std::string path = write("smd.yaml", "sm:\n  priority: 2\n");
  ::chmod(path.c_str(), 0666);
  std::ostringstream err;
  EXPECT_FALSE(build_startup_policy(path, {}, false, {}, true, err));
  EXPECT_NE(err.str().find("group or others may write it"), std::string::npos) << err.str();
  std::ostringstream quiet;
  auto shown = build_startup_policy(path, {}, false, {}, false, quiet);
  ASSERT_TRUE(shown);
  EXPECT_EQ(shown->effective.sm.priority, 2u);
}

TEST_F(StartupPolicyTest, ABadFileOrInstanceNameStopsWithTheReason) {
  const std::string path = write("smd.yaml", "sm:\n  priority: 20\n");
  std::ostringstream err;
  EXPECT_FALSE(build_startup_policy(path, {}, false, {}, true, err));
  EXPECT_NE(err.str().find(":2:13: sm.priority: 20 is out of range 0..15"), std::string::npos) << err.str();
  InstancePolicy bad;
  bad.name = "../x";
  std::ostringstream err2;
  EXPECT_FALSE(build_startup_policy("", bad, true, {}, true, err2));
  EXPECT_EQ(err2.str().rfind("smd: --instance: ", 0), 0u) << err2.str();
}

}  // namespace
}  // namespace smd::startup_policy_test
