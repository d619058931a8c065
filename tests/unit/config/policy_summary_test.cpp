// The one-line policy summary printed by `smd check-config` and logged at start-up.
#include "config/policy_summary.h"

#include <gtest/gtest.h>

#include <utility>

#include "routing/engines/dfsssp/dfsssp_options.h"
#include "routing/engines/file/file_options.h"
#include "routing/engines/ftree/ftree_options.h"
#include "routing/engines/minhop/minhop_options.h"
#include "routing/engines/updn/updn_options.h"

namespace smd::policy_summary_test {
namespace {

TEST(PolicySummary, Defaults) {
  EXPECT_EQ(
      summarize_policy(Policy{}),
      "engines=ftree,updn,minhop adaptive=off minhop.guid_routing_order=none minhop.hop_weights_file=none "
      "minhop.port_search_ordering_file=none minhop.port_prof_ignore_file=none minhop.port_profile_switch_nodes=true "
      "minhop.port_shifting=off minhop.scatter_ports=off dor.guid_routing_order=none dor.port_search_ordering_file=none "
      "lash.max_vls=auto lash.spread_vls=off nue.max_vls=1 nue.include_switches=off torus_2qos.geometry=none torus_2qos.config_file=none updn.roots=auto "
      "updn.guid_routing_order=none updn.ids=guids dnup.guid_routing_order=none ftree.roots=auto ftree.cn_guids=none "
      "ftree.io_guids=none "
      "ftree.max_reverse_hops=0 sssp.guid_routing_order=none dfsssp.max_vls=auto "
      "dfsssp.spread_vls=off dfsssp.guid_routing_order=none file.lfts_file=none repair=minimal lmc=0 sm.port=auto "
      "priority=0 "
      "sm_key=default m_key=unset m_key_protect=0 subnet_prefix=0xfe80000000000000 sweep=10s max_resweeps=3 "
      "mad.window=32 "
      "mad.timeout=100ms mad.retries=3 log=info@stderr roce.export=on roce.frr=on sa=on perfmgr=off health=isolate "
      "partitions=1 enforcement=both "
      "qos=off ports=subnet_timeout:18,hoq:18/16,vl_stall:7/7,errors:8/8,sm_sl:0,life:18,link:255/15/31 "
      "state_dir=/var/lib/smd");
}

TEST(PolicySummary, EverySettingAndNoSecret) {
  Policy p;
  p.routing.engines = {"ftree", "minhop"};
  p.routing.options.adaptive = true;
  UpdnOptions updn({0x10, 0x20});
  updn.guid_routing_order = {0x100001, 0x100002, 0x100003};
  updn.ids = {{0x10, 2}, {0x20, 1}};
  p.routing.options.engines.set(updn);
  MinhopOptions minhop;
  minhop.guid_routing_order = {0x100009};
  // Moved, not copied: GCC 14 at -O3 warns (-Warray-bounds, a false positive) on copying a 1-element vector.
  p.routing.options.engines.set(std::move(minhop));
  p.routing.options.engines.set(FtreeOptions({0x0002c90300001000ULL}));
  DfssspOptions dfsssp;
  dfsssp.max_vls = 4;
  dfsssp.spread_vls = true;
  p.routing.options.engines.set(dfsssp);
  FileOptions file;
  file.lfts_file = "/srv/opensm-lfts.dump";
  p.routing.options.engines.set(file);
  p.lid.lmc = 2;
  p.routing.repair = RepairMode::kFull;
  p.sm.ca = "mlx5_0";
  p.sm.port = 1;
  p.sm.priority = 14;
  p.sm.sm_key = 0x1234;
  p.security.m_key = 0x5678;
  p.security.m_key_protect = 2;
  p.sm.subnet_prefix = 0xfec0000000000001ULL;
  p.sm.sweep_interval_s = 0;
  p.sm.max_resweeps = 5;
  p.mad.window = 8;
  p.mad.timeout_ms = 250;
  p.mad.retries = 1;
  p.log.level = "debug";
  p.log.file = "/var/log/smd.log";
  p.sm.state_dir = "/srv/smd";
  p.roce.export_plan = false;
  p.roce.frr = false;
  p.sa.enabled = false;
  p.perfmgr.enabled = true;
  p.perfmgr.interval_s = 15;
  p.health.isolate = false;
  p.partitions.partitions.push_back(PartitionSpec{});
  p.partitions.enforcement = PartitionEnforcement::kOut;
  p.qos.enabled = true;
  p.qos.switch_external.max_vls = 8;
  p.qos.levels.resize(2);
  p.qos.levels[0].name = "DEFAULT";
  p.qos.levels[1].name = "storage";
  p.qos.rules.resize(1);
  p.qos.rules[0].level = "storage";
  p.ports = PortsPolicy{14, 0x13, 0x0c, 5, 2, 4, 6, 3, 0x0f, 1, 0, 30};
  std::string s = summarize_policy(p);
  EXPECT_EQ(s,
            "engines=ftree,minhop adaptive=on minhop.guid_routing_order=1 minhop.hop_weights_file=none "
            "minhop.port_search_ordering_file=none minhop.port_prof_ignore_file=none "
            "minhop.port_profile_switch_nodes=true minhop.port_shifting=off minhop.scatter_ports=off "
            "dor.guid_routing_order=none dor.port_search_ordering_file=none "
            "lash.max_vls=auto lash.spread_vls=off nue.max_vls=1 nue.include_switches=off torus_2qos.geometry=none torus_2qos.config_file=none "
            "updn.roots=0x0000000000000010,0x0000000000000020 "
            "updn.guid_routing_order=3 updn.ids=2 dnup.guid_routing_order=none "
            "ftree.roots=0x0002c90300001000 ftree.cn_guids=none ftree.io_guids=none ftree.max_reverse_hops=0 "
      "sssp.guid_routing_order=none dfsssp.max_vls=4 dfsssp.spread_vls=on "
            "dfsssp.guid_routing_order=none file.lfts_file=/srv/opensm-lfts.dump repair=full lmc=2 "
            "sm.port=mlx5_0/1 priority=14 sm_key=set "
            "m_key=set m_key_protect=2 subnet_prefix=0xfec0000000000001 sweep=0s max_resweeps=5 mad.window=8 "
            "mad.timeout=250ms mad.retries=1 "
            "log=debug@/var/log/smd.log roce.export=off roce.frr=off sa=off perfmgr=15s health=mark "
            "partitions=2 enforcement=out "
            "qos=on vls=8 levels=2 rules=1 "
            "ports=subnet_timeout:14,hoq:19/12,vl_stall:5/2,errors:4/6,sm_sl:3,life:15,link:1/0/30 "
            "state_dir=/srv/smd");
  EXPECT_EQ(s.find("1234"), std::string::npos);  // the SM_Key never reaches a log
  EXPECT_EQ(s.find("5678"), std::string::npos);  // nor the M_Key
}

TEST(PolicySummary, SmPortChoices) {
  Policy p;
  p.sm.port = 2;
  EXPECT_NE(summarize_policy(p).find(" sm.port=auto/2 "), std::string::npos);
  p.sm.port = 0;
  p.sm.ca = "mlx5_1";
  EXPECT_NE(summarize_policy(p).find(" sm.port=mlx5_1/auto "), std::string::npos);
  p.sm.port_guid = 0xabcd;
  EXPECT_NE(summarize_policy(p).find(" sm.port=0x000000000000abcd "), std::string::npos);
}

}  // namespace
}  // namespace smd::policy_summary_test
