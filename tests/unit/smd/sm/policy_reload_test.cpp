// Which keys of a reloaded policy need a restart (smd/sm/policy_reload.h), and that a reload keeps their
// running values while applying everything else.
#include "smd/sm/policy_reload.h"

#include <gtest/gtest.h>

namespace smd::policy_reload_test {
namespace {

TEST(PolicyReload, AnUnchangedFileNeedsNoRestart) {
  const Policy p;
  EXPECT_TRUE(keys_needing_restart(p, p).empty());
}

TEST(PolicyReload, LiveKeysNeverNeedARestart) {
  const Policy running;
  Policy file;
  file.lid.lmc = 1;
  file.sm.priority = 9;
  file.sm.sm_key = 0x1234;
  file.sm.sweep_interval_s = 1;
  file.sm.max_resweeps = 7;
  file.sm.poll_interval_s = 5;
  file.sm.poll_retries = 9;
  file.sm.subnet_prefix = 0xfe80000000000001ULL;
  file.routing.engines = {"minhop"};
  file.routing.repair = RepairMode::kFull;
  file.security.m_key = 0x77;
  file.roce.frr = false;
  file.partitions.enforcement = PartitionEnforcement::kOff;  // partitions: reloadable on SIGHUP
  file.partitions.partitions.push_back(PartitionSpec{});
  file.source = "/etc/smd/other.yaml";
  EXPECT_TRUE(keys_needing_restart(running, file).empty());
}

TEST(PolicyReload, EveryRestartKeyIsNamedWithBothValues) {
  Policy running;
  running.control.socket = "/run/smd/a.socket";
  Policy file = running;
  file.sm.ca = "mlx5_1";
  file.sm.port = 2;
  file.sm.port_guid = 0x2c9030000abcdULL;
  file.sm.state_dir = "/srv/smd";
  file.mad.window = 16;
  file.mad.timeout_ms = 250;
  file.mad.retries = 5;
  file.log.level = "debug";
  file.log.file = "/var/log/smd.log";
  file.control.socket = "/run/smd/b.socket";
  file.control.mode = 0600;
  file.metrics.listen = "0.0.0.0:9464";
  file.metrics.enabled = false;
  file.sa.alias_guid_byte = 42;
  const std::vector<RestartNeeded> want = {
      {"sm.ca", "\"\"", "mlx5_1"},
      {"sm.port", "0", "2"},
      {"sm.port_guid", "0x0000000000000000", "0x0002c9030000abcd"},
      {"sm.state_dir", "/var/lib/smd", "/srv/smd"},
      {"mad.window", "32", "16"},
      {"mad.timeout_ms", "100", "250"},
      {"mad.retries", "3", "5"},
      {"log.file", "\"\"", "/var/log/smd.log"},
      {"control.socket", "/run/smd/a.socket", "/run/smd/b.socket"},
      {"control.mode", "0660", "0600"},
      {"metrics.listen", "127.0.0.1:9464", "0.0.0.0:9464"},
      {"metrics.enabled", "true", "false"},
      {"sa.alias_guid_byte", "0", "42"},
  };
  EXPECT_EQ(keys_needing_restart(running, file), want);
}

TEST(PolicyReload, AReloadKeepsRestartKeysAndAppliesTheRest) {
  Policy running;
  running.control.socket = "/run/smd/a.socket";
  Policy file = running;
  file.control.socket = "/run/smd/b.socket";
  file.metrics.enabled = false;
  file.lid.lmc = 2;
  file.sm.priority = 11;
  PartitionSpec tenant;
  tenant.pkey = 0x0a01;
  file.partitions.partitions.push_back(tenant);
  file.source = "/etc/smd/smd.yaml";
  const Policy applied = keep_restart_keys(running, file);
  ASSERT_EQ(applied.partitions.partitions.size(), 2u);
  EXPECT_EQ(applied.partitions.partitions[1].pkey, 0x0a01);
  EXPECT_EQ(applied.control.socket, "/run/smd/a.socket");
  EXPECT_TRUE(applied.metrics.enabled);
  EXPECT_EQ(applied.lid.lmc, 2u);
  EXPECT_EQ(applied.sm.priority, 11u);
  EXPECT_EQ(applied.source, "/etc/smd/smd.yaml");
  // log.level is applied by a reload (the daemon sets the running level from it); log.file is not.
  Policy levels = running;
  levels.log.level = "debug";
  levels.log.file = "/var/log/smd.log";
  const Policy kept = keep_restart_keys(running, levels);
  EXPECT_EQ(kept.log.level, "debug");
  EXPECT_EQ(kept.log.file, "");
  EXPECT_TRUE(keys_needing_restart(running, applied).empty());
}

TEST(PolicyReload, AChangedQosSectionIsAppliedWithoutARestart) {
  const Policy running;
  Policy file = running;
  file.qos.enabled = true;
  file.qos.switch_external.max_vls = 4;
  file.routing.options.data_vls = 4;  // what the loader derives from the two above
  file.qos.levels.resize(1);
  file.qos.levels[0].name = "DEFAULT";
  file.qos.levels[0].sl = 3;
  EXPECT_TRUE(keys_needing_restart(running, file).empty());
  const Policy applied = keep_restart_keys(running, file);
  EXPECT_EQ(applied.qos, file.qos);
  EXPECT_EQ(applied.routing.options.data_vls, 4);
}

}  // namespace
}  // namespace smd::policy_reload_test
