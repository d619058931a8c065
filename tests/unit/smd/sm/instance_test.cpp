// smd --instance NAME / smctl --instance NAME: which names pass (a port GUID, a rail name) and which are
// refused before anything is made (empty, too long, a path, a hidden or option-like name); the paths and
// the SM port an instance derives; the policy file it reads; what a shared policy loses (metrics).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "config/policy.h"
#include "smd/protocol/instance_name.h"
#include "smd/sm/instance_policy.h"
#include "tests/unit/temp_dir.h"

namespace smd::instance_test {
namespace {

TEST(InstanceName, PortGuidsAndRailNamesPass) {
  for (const char* name : {"0x0002c90300a1b2c3", "rail0", "mlx5_0-1", "a", "r.1:2_x-y", "0"}) {
    EXPECT_TRUE(check_instance_name(name).ok()) << name;
  }
  EXPECT_TRUE(check_instance_name(std::string(kMaxInstanceNameLength, 'a')).ok());
}

TEST(InstanceName, BadNamesAreRefusedByName) {
  struct Case {
    std::string name;
    std::string why;
  };
  const Case cases[] = {
      {"", "empty"},
      {"../x", "must start with a letter or digit"},
      {"..", "must start with a letter or digit"},
      {".hidden", "must start with a letter or digit"},
      {"-x", "must start with a letter or digit"},
      {"a/b", "only letters, digits"},
      {"rail 0", "only letters, digits"},
      {"x\n", "only letters, digits"},
      {std::string(kMaxInstanceNameLength + 1, 'a'), "longer than 64 characters"},
      {"0x10000000000000000", "a port GUID has at most 16 hex digits"},  // a typo, not a plain name
      {"0x0", "port GUID 0 names no port"},
      {"0x0000000000000000", "port GUID 0 names no port"},
  };
  for (const Case& c : cases) {
    Status st = check_instance_name(c.name);
    ASSERT_FALSE(st.ok()) << c.name;
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(st.error().message.find(c.why), std::string::npos) << st.error().message;
    EXPECT_EQ(st.error().message.rfind("instance name '", 0), 0u) << st.error().message;
  }
  // The name is quoted printable: a newline does not break the operator's terminal line.
  EXPECT_NE(check_instance_name("x\n").error().message.find("'x\\x0a'"), std::string::npos)
      << check_instance_name("x\n").error().message;
}

TEST(InstanceName, OnlyHexAfter0xIsAPortGuid) {
  EXPECT_EQ(instance_port_guid("0x0002c90300a1b2c3"), Guid{0x0002c90300a1b2c3});
  EXPECT_EQ(instance_port_guid("0XFFFFFFFFFFFFFFFF"), Guid{0xffffffffffffffff});
  EXPECT_EQ(instance_port_guid("0x1"), Guid{1});
  EXPECT_EQ(instance_port_guid("0x"), std::nullopt);
  EXPECT_EQ(instance_port_guid("0x10000000000000000"), std::nullopt);  // 17 digits: more than 64 bits
  EXPECT_EQ(instance_port_guid("0xg"), std::nullopt);
  EXPECT_EQ(instance_port_guid("rail0"), std::nullopt);
  EXPECT_EQ(instance_port_guid("1234"), std::nullopt);
}

TEST(InstanceName, PathsGetTheNameAsAFolder) {
  EXPECT_EQ(instance_socket_path("/run/smd/control.socket", "rail0"), "/run/smd/rail0/control.socket");
  EXPECT_EQ(instance_socket_path("control.socket", "rail0"), "rail0/control.socket");
  EXPECT_EQ(instance_state_dir("/var/lib/smd", "0x1"), "/var/lib/smd/0x1");
  EXPECT_EQ(instance_state_dir("/var/lib/smd/", "rail0"), "/var/lib/smd/rail0");
}

TEST(InstancePolicy, AGuidNameSelectsThePortAndSharedMetricsAreOff) {
  Policy p;
  p.sm.ca = "mlx5_0";
  p.sm.port = 1;
  p.log.file = "/var/log/smd/smd.log";
  p.sa.services_file = "/srv/smd/services.json";
  apply_instance(p, InstancePolicy{"0x0002c90300a1b2c3", "", false});
  EXPECT_EQ(p.sm.port_guid, 0x0002c90300a1b2c3u);
  EXPECT_EQ(p.sm.ca, "");
  EXPECT_EQ(p.sm.port, 0u);
  EXPECT_EQ(p.sm.state_dir, "/var/lib/smd/0x0002c90300a1b2c3");
  EXPECT_EQ(p.control.socket, "/run/smd/0x0002c90300a1b2c3/control.socket");
  EXPECT_EQ(p.log.file, "/var/log/smd/0x0002c90300a1b2c3/smd.log");
  EXPECT_EQ(p.sa.services_file, "/srv/smd/0x0002c90300a1b2c3/services.json");
  EXPECT_FALSE(p.metrics.enabled);
  EXPECT_EQ(p.instance.name, "0x0002c90300a1b2c3");
  EXPECT_NE(describe_instance(p).find("--metrics-listen"), std::string::npos) << describe_instance(p);
}

TEST(InstancePolicy, AnOwnFileKeepsItsMetricsLogAndPort) {
  Policy p;
  p.sm.ca = "mlx5_1";
  p.log.file = "/var/log/smd/rail1.log";
  p.metrics.listen = "127.0.0.1:9466";
  apply_instance(p, InstancePolicy{"rail1", "", true});
  EXPECT_EQ(p.sm.ca, "mlx5_1");
  EXPECT_EQ(p.sm.state_dir, "/var/lib/smd/rail1");
  EXPECT_EQ(p.control.socket, "/run/smd/rail1/control.socket");
  EXPECT_EQ(p.log.file, "/var/log/smd/rail1.log");
  EXPECT_TRUE(p.metrics.enabled);
  EXPECT_EQ(p.metrics.listen, "127.0.0.1:9466");
}

TEST(InstancePolicy, MetricsListenOverridesWithOrWithoutAName) {
  Policy shared;
  apply_instance(shared, InstancePolicy{"rail0", "127.0.0.1:9470", false});
  EXPECT_TRUE(shared.metrics.enabled);
  EXPECT_EQ(shared.metrics.listen, "127.0.0.1:9470");
  Policy single;
  apply_instance(single, InstancePolicy{"", "127.0.0.1:9471", false});
  EXPECT_EQ(single.metrics.listen, "127.0.0.1:9471");
  EXPECT_EQ(single.sm.state_dir, "/var/lib/smd");
  EXPECT_EQ(single.control.socket, "/run/smd/control.socket");
  EXPECT_EQ(describe_instance(single), "");
}

class InstanceFile : public test::TempDirTest {};

TEST_F(InstanceFile, AnOwnPolicyFileBesideTheSharedOneWins) {
  const std::string shared = dir_ + "/smd.yaml";
  std::ofstream(shared) << "sm: {}\n";
  EXPECT_EQ(instance_policy_path(shared, "rail0"), shared);
  // A folder or a dangling link of the instance's name is its policy all the same: loading it then fails
  // with its path, instead of the instance running silently on the shared policy.
  std::filesystem::create_directory(dir_ + "/smd-rail1.yaml");
  EXPECT_EQ(instance_policy_path(shared, "rail1"), dir_ + "/smd-rail1.yaml");
  std::filesystem::create_symlink(dir_ + "/nowhere", dir_ + "/smd-rail2.yaml");
  EXPECT_EQ(instance_policy_path(shared, "rail2"), dir_ + "/smd-rail2.yaml");
  std::ofstream(dir_ + "/smd-rail0.yaml") << "sm: {}\n";
  EXPECT_EQ(instance_policy_path(shared, "rail0"), dir_ + "/smd-rail0.yaml");
  EXPECT_EQ(instance_policy_path("", "rail0"), "");
}

}  // namespace
}  // namespace smd::instance_test
