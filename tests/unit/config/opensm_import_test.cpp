// opensm.conf -> smd policy (config/opensm_conf.h, config/opensm_import.h). The expected policy values are
// OpenSM's meanings written out by hand (opensm(8), `opensm -c` comments), and every converted text is
// loaded by the policy loader, so what the importer writes is what the daemon would run.
#include "config/opensm_import.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "config/opensm_conf.h"
#include "config/policy_loader.h"
#include "routing/engines/dnup/dnup_options.h"
#include "routing/engines/dor/dor_options.h"
#include "routing/engines/minhop/minhop_options.h"
#include "routing/engines/nue/nue_options.h"
#include "routing/engines/ftree/ftree_options.h"
#include "routing/engines/updn/updn_options.h"
#include "routing/engines/file/file_options.h"
#include "routing/engines/torus_2qos/torus_2qos_options.h"
#include "tests/unit/temp_dir.h"

namespace smd::opensm_import_test {
namespace {

// Runs the importer on `text` with a fake file system.
struct Conversion {
  std::map<std::string, std::string> files;
  std::string partitions_file;
  std::string qos_policy_file;

  Result<OpenSmImport> run(const std::string& text) {
    auto settings = parse_opensm_conf(text, "opensm.conf");
    EXPECT_TRUE(settings.ok()) << settings.error().message;
    OpenSmImportInputs in;
    in.read_file = [this](const std::string& path, const std::string& what) -> Result<std::string> {
      auto it = files.find(path);
      if (it == files.end()) return make_error(ErrorCode::kIo, "cannot open " + what + " " + path + ": No such file");
      return it->second;
    };
    in.partitions_file = partitions_file;
    in.qos_policy_file = qos_policy_file;
    return import_opensm_conf(*settings, "opensm.conf", in);
  }

  Policy policy(const std::string& text) {
    auto imported = run(text);
    EXPECT_TRUE(imported.ok()) << imported.error().message;
    if (!imported.ok()) return {};
    auto loaded = load_policy_string(imported->yaml, "converted");
    EXPECT_TRUE(loaded.ok()) << loaded.error().message << "\n" << imported->yaml;
    return loaded.ok() ? *loaded : Policy{};
  }
};

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(OpenSmConf, SettingsWithLineColumnAndSpacedValues) {
  auto s = parse_opensm_conf("# comment\n\n  sm_priority   5  \ncc_ca_cong_setting_ccti_timer 0 0\nlog_prefix\n", "f");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->size(), 3u);
  EXPECT_EQ((*s)[0].name, "sm_priority");
  EXPECT_EQ((*s)[0].value, "5");
  EXPECT_EQ((*s)[0].line, 3);
  EXPECT_EQ((*s)[0].column, 17);
  EXPECT_EQ((*s)[1].value, "0 0");
  EXPECT_EQ((*s)[2].value, "");
}

TEST(OpenSmConf, BadNamesAndControlCharactersNameThePlace) {
  auto bad_name = parse_opensm_conf("sm_priority 1\n  Sm-Priority 2\n", "f");
  ASSERT_FALSE(bad_name.ok());
  EXPECT_EQ(bad_name.error().message.rfind("f:2:3: 'Sm-Priority' is not an option name", 0), 0u)
      << bad_name.error().message;
  auto control = parse_opensm_conf("log_file /var/\x01log\n", "f");
  ASSERT_FALSE(control.ok());
  EXPECT_EQ(control.error().message.rfind("f:1:15:", 0), 0u) << control.error().message;
}

// OpenSM 3.3.23 cuts a line at its first '#' and its clean_val drops one pair of quotes around a value, so
// `sm_priority 1 # was 0` is priority 1 and `log_file "/var/log/a b"` is the path without quotes.
TEST(OpenSmConf, TrailingCommentsAndQuotesAreOpenSms) {
  auto s = parse_opensm_conf(
      "sm_priority 1 # was 0\nlog_file \"/var/log/a b\"  \nnode_name_map_name '/etc/map'#x\nqos_sl2vl \"\"\n"
      "log_prefix \"a\" b\"\ncc_cct \"\n",
      "f");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->size(), 6u);
  EXPECT_EQ((*s)[0].value, "1");
  EXPECT_EQ((*s)[1].value, "/var/log/a b");
  EXPECT_EQ((*s)[1].column, 11);
  EXPECT_EQ((*s)[2].value, "/etc/map");
  EXPECT_EQ((*s)[3].value, "");
  EXPECT_EQ((*s)[4].value, "a\" b");  // only the outer pair goes
  EXPECT_EQ((*s)[5].value, "");        // a lone quote is both ends of itself, as clean_val sees it

  Conversion c;
  c.files["/etc/opensm/partitions.conf"] = "";
  const std::string conf = "sm_priority 7   # raised for the new core switch\nlog_file \"/var/log/smd.log\"\n";
  const Policy p = c.policy(conf);
  EXPECT_EQ(p.sm.priority, 7);
  // log_file is not carried (smd logs to the journal), but the report names the path without its quotes.
  auto r = c.run(conf);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(mentions(r->not_carried, "opensm.conf:2: log_file /var/log/smd.log: partial"))
      << (r->not_carried.empty() ? "" : r->not_carried[0]);
}

// A setting past 1022 characters is one OpenSM would read as two lines: refused with its place; a long
// comment is not.
TEST(OpenSmConf, OverlongSettingIsRefusedOverlongCommentIsNot) {
  const std::string long_value(1100, 'a');
  auto bad = parse_opensm_conf("sm_priority 1\nlog_file /" + long_value + "\n", "f");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.rfind("f:2:1023: line longer than 1022 characters", 0), 0u) << bad.error().message;
  auto comment = parse_opensm_conf("sm_priority 1 #" + long_value + "\n", "f");
  ASSERT_TRUE(comment.ok()) << comment.error().message;
  EXPECT_EQ((*comment)[0].value, "1");
}

// A byte-order mark (Windows editors write one) would otherwise show as 'sm_priority' is not an option name,
// the mark invisible in the terminal.
TEST(OpenSmConf, AByteOrderMarkIsNamed) {
  auto s = parse_opensm_conf("\xEF\xBB\xBFsm_priority 1\n", "f");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message.rfind("f:1:1: a UTF-8 byte-order mark starts the file", 0), 0u) << s.error().message;
}

TEST(OpenSmConf, TableHasEveryOptionOnce) {
  std::set<std::string_view> names;
  for (const OpenSmOption& o : opensm_options()) {
    EXPECT_TRUE(names.insert(o.name).second) << o.name << " twice";
    // A key is named exactly where something is converted or partly covered.
    if (o.conversion != OpenSmConversion::kNone) {
      EXPECT_FALSE(o.smd_key.empty()) << o.name;
    }
    if (o.fate == OpenSmFate::kMissing || o.fate == OpenSmFate::kNotApplicable) {
      EXPECT_EQ(o.conversion, OpenSmConversion::kNone) << o.name;
      EXPECT_FALSE(o.note.empty()) << o.name << ": say why";
    }
  }
  EXPECT_EQ(names.size(), 160u);  // opensm -c of OpenSM 3.3.23
  EXPECT_NE(find_opensm_option("sm_priority"), nullptr);
  EXPECT_EQ(find_opensm_option("sm_prio"), nullptr);
}

TEST(OpenSmImport, ValuesCarriedWithTheirMeaning) {
  Conversion c;
  const Policy p = c.policy(
      "sm_priority 7\nsminfo_polling_timeout 1500\npolling_retry_number 6\nsweep_interval 0x1e\n"
      "lmc 2\nguid 0x0002c90300001234\nsm_key 0xABCD\nsubnet_prefix 0xfec0000000000000\n"
      "transaction_timeout 250\nmax_wire_smps 16\nperfmgr TRUE\nperfmgr_sweep_time_s 30\n"
      "head_of_queue_lifetime 0x13\nsubnet_timeout 20\nlog_flags 0x01\n"
      "qos TRUE\nqos_max_vls 4\nqos_swe_sl2vl 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,7\nqos_ca_high_limit 10\n");
  EXPECT_EQ(p.sm.priority, 7u);
  EXPECT_EQ(p.sm.poll_interval_s, 2u);  // 1500 ms, rounded up to whole seconds
  EXPECT_EQ(p.sm.poll_retries, 6u);
  EXPECT_EQ(p.sm.sweep_interval_s, 30u);
  EXPECT_EQ(p.lid.lmc, 2u);
  EXPECT_EQ(p.sm.port_guid, 0x0002c90300001234ULL);
  EXPECT_EQ(p.sm.sm_key, 0xabcdULL);
  EXPECT_EQ(p.sm.subnet_prefix, 0xfec0000000000000ULL);
  EXPECT_EQ(p.mad.timeout_ms, 250u);
  EXPECT_EQ(p.mad.window, 16u);
  EXPECT_TRUE(p.perfmgr.enabled);
  EXPECT_EQ(p.perfmgr.interval_s, 30u);
  EXPECT_EQ(p.ports.head_of_queue_lifetime, 0x13u);
  EXPECT_EQ(p.ports.subnet_timeout, 20u);
  EXPECT_EQ(p.log.level, "error");  // ERROR only
  EXPECT_TRUE(p.qos.enabled);
}

TEST(OpenSmImport, LogFlagsBecomeTheLevelThatShowsAsMuch) {
  const std::map<std::string, std::string> want = {{"0x01", "error"}, {"0x02", "info"},  {"0x07", "debug"},
                                                   {"0x0f", "debug"}, {"0x23", "trace"}, {"0x00", "off"}};
  for (const auto& [flags, level] : want) {
    Conversion c;
    EXPECT_EQ(c.policy("log_flags " + flags + "\n").log.level, level) << flags;
  }
}

TEST(OpenSmImport, EnginesSmdLacksAreDroppedAndMinhopEndsTheChain) {
  Conversion c;
  auto r = c.run("routing_engine ftree,chaos, updn\n");
  ASSERT_TRUE(r.ok());
  auto p = load_policy_string(r->yaml, "x");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->routing.engines, (std::vector<std::string>{"ftree", "updn", "minhop"}));
  EXPECT_TRUE(mentions(r->not_carried, "engine chaos is not in smd")) << r->yaml;
  // Only engines smd lacks: smd's default chain stays.
  Conversion d;
  EXPECT_EQ(d.policy("routing_engine kautz\n").routing.engines, Policy{}.routing.engines);
}

TEST(OpenSmImport, DnupIsCarried) {
  Conversion c;
  auto r = c.run("routing_engine dnup,updn\n");
  ASSERT_TRUE(r.ok());
  auto p = load_policy_string(r->yaml, "x");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->routing.engines, (std::vector<std::string>{"dnup", "updn", "minhop"}));
  EXPECT_TRUE(r->not_carried.empty()) << r->not_carried.front();
}

TEST(OpenSmImport, DefaultsThatDifferAreListedNotChanged) {
  Conversion c;
  auto r = c.run("polling_retry_number 4\ntransaction_timeout 150\n");
  ASSERT_TRUE(r.ok());
  // Set at OpenSM's default, or not set at all: smd's default stays, and the difference is said.
  EXPECT_TRUE(mentions(r->defaults_differ, "polling_retry_number 4 -> sm.poll_retries: 3"));
  EXPECT_TRUE(mentions(r->defaults_differ, "perfmgr_sweep_time_s 180 -> perfmgr.interval: 60"));
  EXPECT_FALSE(mentions(r->defaults_differ, "transaction_timeout"));  // the file set it: carried instead
  EXPECT_NE(r->yaml.find("#   polling_retry_number 4 -> sm.poll_retries: 3\n"), std::string::npos) << r->yaml;
  auto p = load_policy_string(r->yaml, "x");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->sm.poll_retries, 3u);
  EXPECT_EQ(p->mad.timeout_ms, 150u);
}

TEST(OpenSmImport, OpenSmsLogFileIsNotSmds) {
  Conversion c;
  auto r = c.run("log_file /var/log/site-opensm.log\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(mentions(r->not_carried, "log_file /var/log/site-opensm.log: partial: not converted"));
  EXPECT_EQ(r->yaml.find("file:"), std::string::npos) << r->yaml;
}

TEST(OpenSmImport, DefaultsAreLeftOutAndCounted) {
  Conversion c;
  auto r = c.run("sm_priority 0\nvl_stall_count 0x07\nlog_flags 0x3\nqos_high_limit -1\nperfmgr FALSE\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->at_default, 5u);
  EXPECT_TRUE(r->carried.empty());
  EXPECT_EQ(r->yaml.find("priority"), std::string::npos) << r->yaml;
}

TEST(OpenSmImport, WhatSmdCannotCarryIsListedWithTheReason) {
  Conversion c;
  auto r = c.run("avoid_throttled_links TRUE\nm_key_lookup FALSE\nhonor_guid2lid_file TRUE\nmax_op_vls 2\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(mentions(r->not_carried, "opensm.conf:1: avoid_throttled_links TRUE: missing: no routing input"));
  EXPECT_TRUE(mentions(r->not_carried, "opensm.conf:4: max_op_vls 2: partial:"));
  // smd behaves as these values: nothing to report.
  EXPECT_FALSE(mentions(r->not_carried, "m_key_lookup"));
  EXPECT_FALSE(mentions(r->not_carried, "honor_guid2lid_file"));
  EXPECT_NE(r->yaml.find("# Not carried over from opensm.conf:\n#   opensm.conf:1: avoid_throttled_links"),
            std::string::npos)
      << r->yaml;
}

TEST(OpenSmImport, CongestionControlOptionsBecomeTheSection) {
  Conversion c;
  const Policy p = c.policy(
      "congestion_control TRUE\ncc_key 0x10\ncc_max_outstanding_mads 32\ncc_sw_cong_setting_control_map 0x1f\n"
      "cc_sw_cong_setting_victim_mask 0x0000000000000000000000000000000000000000000000000000000000000106\n"
      "cc_sw_cong_setting_threshold 0x0f\ncc_sw_cong_setting_packet_size 8\n"
      "cc_sw_cong_setting_credit_starvation_return_delay 1:20\ncc_sw_cong_setting_marking_rate 7\n"
      "cc_ca_cong_setting_port_control 0x0001\ncc_ca_cong_setting_control_map 0x0005\n"
      "cc_ca_cong_setting_ccti_timer 0 150\ncc_ca_cong_setting_ccti_timer 2 300\ncc_ca_cong_setting_ccti_increase 2 4\n"
      "cc_cct 0:0,0:4,1:8\n");
  const CongestionControlPolicy& cc = p.congestion_control;
  EXPECT_TRUE(cc.enabled);
  EXPECT_EQ(cc.cc_key, 0x10u);
  EXPECT_EQ(cc.max_outstanding, 32u);
  EXPECT_EQ(cc.sw.control_map, 0x1Fu);
  EXPECT_EQ(cc.sw.victim_mask[30], 0x01);  // port 8
  EXPECT_EQ(cc.sw.victim_mask[31], 0x06);  // ports 1, 2
  EXPECT_EQ(cc.sw.threshold, 15);
  EXPECT_EQ(cc.sw.packet_size, 8);
  EXPECT_EQ(cc.sw.credit_starvation_return_delay, (1u << 14) | 20u);
  EXPECT_EQ(cc.sw.marking_rate, 7);
  EXPECT_EQ(cc.ca.port_control, 1);
  EXPECT_EQ(cc.ca.control_map, 5);
  // Both ccti_timer lines count (OpenSM sets one SL per line), not only the last.
  EXPECT_EQ(cc.ca.entries[0].ccti_timer, 150);
  EXPECT_EQ(cc.ca.entries[1].ccti_timer, 0);
  EXPECT_EQ(cc.ca.entries[2].ccti_timer, 300);
  EXPECT_EQ(cc.ca.entries[2].ccti_increase, 4);
  ASSERT_EQ(cc.cct.size(), 3u);
  EXPECT_EQ(cc.cct[2], (1u << 14) | 8u);
  auto r = c.run("cc_ca_cong_setting_ccti_min 16 3\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(mentions(r->not_carried, "SL 0..15")) << r->yaml;
}

TEST(OpenSmImport, AValueSmdRefusesIsMovedOutWithTheLoadersWords) {
  Conversion c;
  auto r = c.run("sm_priority 9\nperfmgr_max_outstanding_queries 100\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(mentions(r->not_carried,
                       "opensm.conf:2: perfmgr_max_outstanding_queries 100: refused by smd: "
                       "perfmgr.max_outstanding"))
      << r->yaml;
  auto p = load_policy_string(r->yaml, "x");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->sm.priority, 9u);
  EXPECT_EQ(p->perfmgr.max_outstanding, PerfMgrPolicy{}.max_outstanding);
}

TEST(OpenSmImport, PartitionsFileEnforcementAndBothPkeys) {
  Conversion c;
  c.files["/etc/site/partitions.conf"] =
      "Default=0x7fff,ipoib : ALL=full ;\nstorage=0x0a01 : 0x0002c90300001234=full ;\n";
  const Policy p =
      c.policy("partition_config_file /etc/site/partitions.conf\npart_enforce in\nallow_both_pkeys TRUE\n");
  ASSERT_EQ(p.partitions.partitions.size(), 2u);
  EXPECT_EQ(p.partitions.partitions[1].pkey, 0x0a01);
  EXPECT_EQ(p.partitions.enforcement, PartitionEnforcement::kIn);
  EXPECT_TRUE(p.partitions.allow_both_pkeys);
  // no_partition_enforcement wins over part_enforce, as in OpenSM.
  Conversion d;
  EXPECT_EQ(d.policy("part_enforce in\nno_partition_enforcement TRUE\n").partitions.enforcement,
            PartitionEnforcement::kOff);
  // Without a partitions file the default partition stays OpenSM's: ALL full.
  EXPECT_EQ(d.policy("part_enforce out\n").partitions.partitions.size(), default_partitions().partitions.size());
}

TEST(OpenSmImport, MissingPartitionsFiles) {
  Conversion c;  // OpenSM's default path, absent: as OpenSM, the default partition, no warning
  auto r = c.run("sm_priority 1\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->warnings.empty());
  auto named = c.run("partition_config_file /nowhere/p.conf\n");
  ASSERT_TRUE(named.ok());
  EXPECT_TRUE(
      mentions(named->warnings, "opensm.conf:1: partition_config_file: cannot open partitions file /nowhere/p.conf"));
  c.partitions_file = "/nowhere/q.conf";  // named on the command line: it must exist
  auto absent = c.run("sm_priority 1\n");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.error().code, ErrorCode::kIo);
  // The error says which option brought the file in, before what went wrong with it.
  EXPECT_EQ(absent.error().message.rfind("--partitions: cannot open partitions file /nowhere/q.conf", 0), 0u)
      << absent.error().message;
  Conversion bad;
  bad.files["/etc/opensm/partitions.conf"] = "Default=0x7fff : ALL=full\n";  // no ';'
  auto refused = bad.run("sm_priority 1\n");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(refused.error().message.rfind("OpenSM's default partition_config_file: /etc/opensm/partitions.conf:", 0),
            0u)
      << refused.error().message;
  Conversion named_bad;
  named_bad.files["/etc/site/p.conf"] = "Default=0x7fff : ALL=full\n";
  auto named_refused = named_bad.run("sm_priority 1\npartition_config_file /etc/site/p.conf\n");
  ASSERT_FALSE(named_refused.ok());
  EXPECT_EQ(named_refused.error().message.rfind("opensm.conf:2: partition_config_file: /etc/site/p.conf:", 0), 0u)
      << named_refused.error().message;
}

// Issue 44's options: two of them hold the opposite truth value of smd's key.
TEST(OpenSmImport, MulticastReregisterRatesAndPerfMgrCas) {
  Conversion c;
  const Policy p = c.policy(
      "no_clients_rereg TRUE\ndisable_multicast TRUE\nuse_original_extended_sa_rates_only TRUE\n"
      "perfmgr_ignore_cas TRUE\n");
  EXPECT_FALSE(p.sm.client_reregister);
  EXPECT_FALSE(p.sm.multicast);
  EXPECT_TRUE(p.sa.original_rates_only);
  EXPECT_TRUE(p.perfmgr.ignore_cas);
  const Policy d = c.policy("no_clients_rereg FALSE\ndisable_multicast FALSE\n");
  EXPECT_TRUE(d.sm.client_reregister);
  EXPECT_TRUE(d.sm.multicast);
}

// babbling_port_policy and perfmgr_redir (issue 44): carried to health.babbling_port and
// perfmgr.follow_redirect.
TEST(OpenSmImport, BabblingPortPolicyAndPerfMgrRedirection) {
  Conversion c;
  const Policy p = c.policy("babbling_port_policy TRUE\nperfmgr_redir FALSE\n");
  EXPECT_TRUE(p.health.babbling_port);
  EXPECT_FALSE(p.perfmgr.follow_redirect);
  const Policy d = c.policy("babbling_port_policy FALSE\nperfmgr_redir TRUE\n");
  EXPECT_FALSE(d.health.babbling_port);
  EXPECT_TRUE(d.perfmgr.follow_redirect);
}

// The qos-policy.conf is read only with qos TRUE, as OpenSM; its port groups may name the partitions of the
// partitions.conf beside it.
TEST(OpenSmImport, QosPolicyFileWithQosTrue) {
  Conversion c;
  c.files["/etc/site/partitions.conf"] = "Default=0x7fff : ALL=full ;\nstorage=0x0a01 : ALL_CAS=full ;\n";
  c.files["/etc/site/qos.conf"] =
      "port-groups\n port-group\n  name: Stor\n  partition: storage\n end-port-group\nend-port-groups\n"
      "qos-levels\n qos-level\n  name: Fast\n  sl: 3\n end-qos-level\nend-qos-levels\n"
      "qos-match-rules\n qos-match-rule\n  destination: Stor\n  qos-level-name: Fast\n end-qos-match-rule\n"
      "end-qos-match-rules\nqos-ulps\n  default : 1\n  iser : 3\nend-qos-ulps\n";
  const std::string conf =
      "partition_config_file /etc/site/partitions.conf\nqos TRUE\nqos_policy_file /etc/site/qos.conf\n";
  const Policy p = c.policy(conf);
  EXPECT_TRUE(p.qos.enabled);
  ASSERT_EQ(p.qos.port_groups.size(), 1u);
  EXPECT_EQ(p.qos.port_groups[0].partitions, (std::vector<std::string>{"storage"}));
  ASSERT_EQ(p.qos.levels.size(), 3u);
  EXPECT_EQ(p.qos.levels[0].name, "DEFAULT");
  EXPECT_EQ(p.qos.levels[0].sl, std::optional<std::uint8_t>(1));
  ASSERT_EQ(p.qos.rules.size(), 2u);
  EXPECT_EQ(p.qos.rules[0].level, "Fast");
  EXPECT_EQ(p.qos.rules[1].level, "ulp_sl3");
  EXPECT_EQ(p.qos.rules[1].service_ids, (std::vector<QosRange>{{0x1060cbc, 0x1060cbc}}));
  auto r = c.run(conf);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(mentions(r->carried, "opensm.conf:3: qos_policy_file /etc/site/qos.conf -> qos.rules: "));
  // qos FALSE: the file is not read, and naming it is reported.
  Conversion off;
  off.files = c.files;
  auto no_qos = off.run("qos_policy_file /etc/site/qos.conf\n");
  ASSERT_TRUE(no_qos.ok());
  EXPECT_TRUE(mentions(no_qos->not_carried, "opensm.conf:1: qos_policy_file /etc/site/qos.conf: partial: OpenSM reads "
                                            "it only with qos TRUE"));
  EXPECT_EQ(no_qos->yaml.find("rules:"), std::string::npos);
  // A malformed file is refused with its place; a missing named one warns; one named on the command line
  // must exist.
  Conversion bad;
  bad.files["/etc/opensm/qos-policy.conf"] = "qos-levels\n";
  auto refused = bad.run("qos TRUE\n");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(refused.error().message.rfind(
                "opensm.conf:1: qos TRUE: /etc/opensm/qos-policy.conf:1:1: 'qos-levels' is never closed", 0),
            0u)
      << refused.error().message;
  bad.files["/etc/site/q.conf"] = "qos-levels\n";
  auto named_refused = bad.run("qos TRUE\nqos_policy_file /etc/site/q.conf\n");
  ASSERT_FALSE(named_refused.ok());
  EXPECT_EQ(named_refused.error().message.rfind("opensm.conf:2: qos_policy_file: /etc/site/q.conf:1:1: ", 0), 0u)
      << named_refused.error().message;
  Conversion missing;
  auto warned = missing.run("qos TRUE\nqos_policy_file /nowhere/q.conf\n");
  ASSERT_TRUE(warned.ok());
  EXPECT_TRUE(mentions(warned->warnings, "opensm.conf:2: qos_policy_file: cannot open QoS policy file /nowhere/q.conf"));
  EXPECT_TRUE(missing.run("qos TRUE\n").ok());  // OpenSM's default path, absent: no levels, as OpenSM
  missing.qos_policy_file = "/nowhere/q.conf";
  auto absent = missing.run("qos TRUE\n");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.error().code, ErrorCode::kIo);
  EXPECT_EQ(absent.error().message.rfind("--qos-policy: cannot open QoS policy file /nowhere/q.conf", 0), 0u)
      << absent.error().message;
}

TEST(OpenSmImport, RootGuidFileFeedsUpdnAndFtree) {
  Conversion c;
  c.files["/etc/opensm/roots"] = "# spines\n0x0000000000000011\n  0x22\n";
  auto r = c.run("root_guid_file /etc/opensm/roots\n");
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->yaml.find("  updn:\n    roots: [0x0000000000000011, 0x0000000000000022]"), std::string::npos) << r->yaml;
  EXPECT_NE(r->yaml.find("  ftree:\n    roots: [0x0000000000000011, 0x0000000000000022]"), std::string::npos)
      << r->yaml;
  ASSERT_TRUE(load_policy_string(r->yaml, "x").ok());
  c.files["/etc/opensm/roots"] = "0x11\nspine-1\n";
  auto bad = c.run("root_guid_file /etc/opensm/roots\n");
  ASSERT_TRUE(bad.ok());
  EXPECT_TRUE(mentions(bad->not_carried, "/etc/opensm/roots:2: 'spine-1' is not a GUID"));
  EXPECT_EQ(bad->yaml.find("updn:"), std::string::npos) << bad->yaml;
}

TEST(OpenSmImport, UnknownAndRepeatedOptionsWarn) {
  Conversion c;
  auto r = c.run("sm_priority 3\nmystery_knob 1\nsm_priority 4\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(mentions(r->warnings, "opensm.conf:2: mystery_knob is not an OpenSM 3.3.23 option"));
  EXPECT_TRUE(mentions(r->warnings, "opensm.conf:3: sm_priority given again (line 1)"));
  auto p = load_policy_string(r->yaml, "x");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->sm.priority, 4u);
}

class OpenSmImportFiles : public test::TempDirTest {};

// The node-name map is the same file for both SMs: its path is carried, and the loader's check that it
// reads is the importer's too (a map that is not there is not carried, with the loader's words).
TEST_F(OpenSmImportFiles, NodeNameMapPathIsCarriedWhenTheFileReads) {
  const std::string map = dir_ + "/node-name-map";
  {
    std::ofstream(map) << "0x0002c90300001234 \"gpu-a01\"\n";
  }
  Conversion c;
  const Policy p = c.policy("node_name_map_name " + map + "\n");
  EXPECT_EQ(p.sm.node_name_map, map);
  ASSERT_NE(p.node_names, nullptr);
  auto missing = c.run("node_name_map_name " + dir_ + "/absent\n");
  ASSERT_TRUE(missing.ok());
  EXPECT_TRUE(mentions(missing->not_carried, "node_name_map_name " + dir_ + "/absent: refused by smd: sm.node_name_map"))
      << (missing->not_carried.empty() ? "" : missing->not_carried[0]);
}

// guid_routing_order_file feeds minhop, updn and dnup, the engines OpenSM applies it to; ids_guid_file feeds
// updn. The files keep OpenSM's format, so their paths are carried; one that does not read is not.
TEST_F(OpenSmImportFiles, RoutingOrderAndIdsFilesAreCarried) {
  const std::string order = dir_ + "/order";
  const std::string ids = dir_ + "/ids";
  std::ofstream(order) << "0x0000000000100003\n0x0000000000100001\n";
  std::ofstream(ids) << "0x0000000000200001 7\n";
  Conversion c;
  const Policy p = c.policy("guid_routing_order_file " + order + "\nids_guid_file " + ids + "\n");
  EXPECT_EQ(p.routing.options.engines.get<MinhopOptions>().guid_routing_order, (std::vector<Guid>{0x100003, 0x100001}));
  const UpdnOptions& updn = p.routing.options.engines.get<UpdnOptions>();
  EXPECT_EQ(updn.guid_routing_order, (std::vector<Guid>{0x100003, 0x100001}));
  EXPECT_EQ(p.routing.options.engines.get<DnupOptions>().guid_routing_order, (std::vector<Guid>{0x100003, 0x100001}));
  ASSERT_EQ(updn.ids.size(), 1u);
  EXPECT_EQ(updn.ids[0].guid, 0x200001u);
  EXPECT_EQ(updn.ids[0].id, 7u);

  std::ofstream(order) << "0x0000000000100003\n0x0000000000100003\n";  // a GUID twice: smd refuses the file
  auto twice = c.run("guid_routing_order_file " + order + "\n");
  ASSERT_TRUE(twice.ok());
  EXPECT_TRUE(mentions(twice->not_carried, order + ":2:1: 0x0000000000100003 is listed twice (first at line 1)"))
      << (twice->not_carried.empty() ? "" : twice->not_carried[0]);
  EXPECT_TRUE(load_policy_string(twice->yaml, "x").ok());
  auto scatter = c.run("guid_routing_order_no_scatter TRUE\n");
  ASSERT_TRUE(scatter.ok());
  EXPECT_TRUE(mentions(scatter->not_carried, "guid_routing_order_no_scatter TRUE: missing: routing.minhop.scatter_ports"))
      << (scatter->not_carried.empty() ? "" : scatter->not_carried[0]);
}

// hop_weights_file, port_search_ordering_file, port_prof_ignore_file and port_profile_switch_nodes feed minhop,
// the engine OpenSM's unicast manager applies them to; the files keep OpenSM's format. OpenSM's default FALSE of
// port_profile_switch_nodes differs from smd's true, so an opensm.conf that leaves it lists the difference.
TEST_F(OpenSmImportFiles, MinhopBalancingInputsAreCarried) {
  const std::string weights = dir_ + "/weights";
  const std::string search = dir_ + "/search";
  const std::string ignore = dir_ + "/ignore";
  std::ofstream(weights) << "0x0000000000200000 3 4\n";
  std::ofstream(search) << "0x0000000000200000 4 3\n";
  std::ofstream(ignore) << "0x0000000000200001 5\n";
  Conversion c;
  const Policy p = c.policy("hop_weights_file " + weights + "\nport_search_ordering_file " + search +
                            "\nport_prof_ignore_file " + ignore + "\nport_profile_switch_nodes TRUE\n" +
                            "port_shifting TRUE\nscatter_ports 0x2a\n");
  const MinhopOptions& minhop = p.routing.options.engines.get<MinhopOptions>();
  EXPECT_EQ(minhop.hop_weights, (std::vector<HopWeight>{{0x200000, 3, 4}}));
  EXPECT_EQ(minhop.port_search_ordering, (std::vector<PortSearchOrder>{{0x200000, {4, 3}}}));
  EXPECT_EQ(p.routing.options.engines.get<DorOptions>().port_search_ordering, minhop.port_search_ordering);
  EXPECT_EQ(minhop.port_prof_ignore, (std::vector<SwitchPort>{{0x200001, 5}}));
  EXPECT_TRUE(minhop.port_profile_switch_nodes);
  EXPECT_TRUE(minhop.port_shifting);
  EXPECT_EQ(minhop.scatter_ports, 42u);

  auto plain = c.run("sm_priority 1\n");
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(mentions(plain->defaults_differ,
                       "port_profile_switch_nodes FALSE -> routing.minhop.port_profile_switch_nodes: true"));
  std::ofstream(weights) << "0x0000000000200000 3 300\n";  // OpenSM skips the line; smd refuses the file
  auto bad = c.run("hop_weights_file " + weights + "\n");
  ASSERT_TRUE(bad.ok());
  EXPECT_TRUE(mentions(bad->not_carried, weights + ":1:22: '300' is not a hop weight 1..255"))
      << (bad->not_carried.empty() ? "" : bad->not_carried[0]);
  EXPECT_TRUE(load_policy_string(bad->yaml, "x").ok());
  // connect_roots TRUE is how smd's updn and ftree always route (tests/integration/connect_roots_opensm_test.sh).
  auto roots = c.run("connect_roots TRUE\n");
  ASSERT_TRUE(roots.ok());
  EXPECT_TRUE(mentions(roots->carried, "connect_roots TRUE -> (smd always behaves so)"));
  EXPECT_TRUE(roots->not_carried.empty());
}

// cn_guid_file, io_guid_file and max_reverse_hops feed ftree's own keys: the files keep OpenSM's format, so
// their paths are carried and read when the policy loads.
TEST_F(OpenSmImportFiles, FtreeNodeListsAndReverseHopsAreCarried) {
  const std::string cn = dir_ + "/cn";
  const std::string io = dir_ + "/io";
  std::ofstream(cn) << "# compute nodes\n0x0000000000100002\n0x0000000000100004\n";
  std::ofstream(io) << "0x0000000000100007\n";
  Conversion c;
  const Policy p = c.policy("routing_engine ftree\ncn_guid_file " + cn + "\nio_guid_file " + io +
                            "\nmax_reverse_hops 2\n");
  const FtreeOptions& ftree = p.routing.options.engines.get<FtreeOptions>();
  EXPECT_EQ(ftree.cn_guids, (std::vector<Guid>{0x100002, 0x100004}));
  EXPECT_EQ(ftree.io_guids, (std::vector<Guid>{0x100007}));
  EXPECT_EQ(ftree.max_reverse_hops, 2u);

  auto bad = c.run("max_reverse_hops 70000\n");  // OpenSM keeps it in 16 bits; so does smd
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(bad->not_carried.empty());
  EXPECT_TRUE(load_policy_string(bad->yaml, "x").ok());
}

// routing_engine nue with nue_max_num_vls and nue_include_switches: nue's own keys; a VL count past the IBA's
// 15 data VLs (OpenSM takes any number and caps it at the fabric's) is not carried.
TEST(OpenSmImport, NueAndItsOptionsAreCarried) {
  Conversion c;
  const Policy p = c.policy("routing_engine nue\nnue_max_num_vls 4\nnue_include_switches TRUE\n");
  EXPECT_EQ(p.routing.engines, (std::vector<std::string>{"nue", "minhop"}));
  const NueOptions& nue = p.routing.options.engines.get<NueOptions>();
  EXPECT_EQ(nue.max_vls, 4u);
  EXPECT_TRUE(nue.include_switches);
  Conversion d;
  EXPECT_EQ(d.policy("routing_engine nue\n").routing.options.engines.get<NueOptions>().max_vls, 1u);
  auto bad = c.run("nue_max_num_vls 16\n");
  ASSERT_TRUE(bad.ok());
  EXPECT_TRUE(mentions(bad->not_carried, "nue_max_num_vls 16")) << bad->yaml;
  EXPECT_TRUE(load_policy_string(bad->yaml, "x").ok());
}

// routing_engine torus-2QoS with torus_config: both carry, the file read by the loader; a torus_config
// without the engine is not carried (OpenSM reads it only for torus-2QoS).
TEST_F(OpenSmImportFiles, TorusEngineAndItsConfigAreCarried) {
  const std::string conf = dir_ + "/torus-2QoS.conf";
  { std::ofstream(conf) << "torus 3 3 1\nxp_link 0x10 0x11\nyp_link 0x10 0x13\n"; }
  Conversion c;
  const Policy p = c.policy("routing_engine torus-2QoS\ntorus_config " + conf + "\n");
  EXPECT_EQ(p.routing.engines, (std::vector<std::string>{"torus-2QoS", "minhop"}));
  const Torus2QosOptions& o = p.routing.options.engines.get<Torus2QosOptions>();
  EXPECT_EQ(o.config_file, conf);
  EXPECT_EQ(o.geometry.radix, (std::array<unsigned, 3>{3, 3, 1}));
  ASSERT_EQ(o.geometry.seeds.size(), 1u);
  EXPECT_EQ(o.geometry.seeds[0].origin, 0x10u);

  auto unused = c.run("routing_engine updn\ntorus_config " + conf + "\n");
  ASSERT_TRUE(unused.ok());
  EXPECT_TRUE(mentions(unused->not_carried, "routing_engine does not name torus-2QoS"));
}

// routing_engine file with lfts_file: both carry (the file engine stays in the chain, minhop after it as
// OpenSM's fallback); the loader reads the dump, so one that is not there or does not parse is not carried.
TEST_F(OpenSmImportFiles, FileEngineAndItsDumpAreCarried) {
  const std::string dump = dir_ + "/opensm-lfts.dump";
  {
    std::ofstream(dump) << "Unicast lids [0-1] of switch Lid 1 guid 0x0000000000200000 ('s'):\n0x0001 000\n1 lids dumped\n";
  }
  Conversion c;
  const Policy p = c.policy("routing_engine file\nlfts_file " + dump + "\n");
  EXPECT_EQ(p.routing.engines, (std::vector<std::string>{"file", "minhop"}));
  const FileOptions& o = p.routing.options.engines.get<FileOptions>();
  EXPECT_EQ(o.lfts_file, dump);
  ASSERT_NE(o.dump, nullptr);
  EXPECT_EQ(o.dump->switches.size(), 1u);

  auto missing = c.run("routing_engine file,updn\nlfts_file " + dir_ + "/absent\n");
  ASSERT_TRUE(missing.ok());
  EXPECT_TRUE(mentions(missing->not_carried,
                       "opensm.conf:2: lfts_file " + dir_ + "/absent: refused by smd: routing.file.lfts_file: cannot open"))
      << (missing->not_carried.empty() ? "" : missing->not_carried[0]);
  auto p2 = load_policy_string(missing->yaml, "x");
  ASSERT_TRUE(p2.ok()) << p2.error().message;
  EXPECT_EQ(p2->routing.engines, (std::vector<std::string>{"file", "updn", "minhop"}));

  auto bare = c.run("routing_engine file\n");
  ASSERT_TRUE(bare.ok());
  EXPECT_TRUE(mentions(bare->warnings, "opensm.conf:1: routing_engine names file but no lfts_file is set"));
  auto relative = c.run("lfts_file lfts.dump\n");
  ASSERT_TRUE(relative.ok());
  EXPECT_TRUE(mentions(relative->warnings, "opensm.conf:1: lfts_file lfts.dump is relative"));
}

TEST(OpenSmImport, FileNamesAreWrittenAsEscapedScalars) {
  // A path with U+0085 (a line break to PyYAML) and a quote is written escaped; yaml_scalar_test.cpp and
  // cli_import_opensm_conf.sh read such scalars back with yaml-cpp and PyYAML. One that is not UTF-8 is not
  // carried: no YAML scalar holds those bytes.
  Conversion c;
  auto r = c.run("hop_weights_file /x/n\xc2\x85\"q.w\nport_prof_ignore_file /x/bad\xff.w\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  // The loader (yaml-cpp) read the escaped scalar back as the very bytes: it looked for that file.
  EXPECT_TRUE(mentions(r->not_carried, "routing.minhop.hop_weights_file: cannot open file /x/n\xc2\x85\"q.w: No such"))
      << (r->not_carried.empty() ? "" : r->not_carried.back());
  EXPECT_TRUE(mentions(r->not_carried, "opensm.conf:2: port_prof_ignore_file /x/bad\xff.w: not converted: not valid "
                                       "UTF-8 at byte 6"))
      << (r->not_carried.empty() ? "" : r->not_carried[0]);
  EXPECT_EQ(r->yaml.find("port_prof_ignore_file:"), std::string::npos) << r->yaml;
}

TEST(OpenSmImport, TheCarriedLinesKeepAFileNameWithASpaceWhole) {
  // "carried: w2/: lead.conf:1 ..." split the file name at its space; the place is FILE:LINE whole.
  auto settings = parse_opensm_conf("sm_priority 5\n", "w2/ lead.conf");
  ASSERT_TRUE(settings.ok()) << settings.error().message;
  OpenSmImportInputs in;
  in.read_file = [](const std::string& path, const std::string&) -> Result<std::string> {
    return make_error(ErrorCode::kIo, "cannot open " + path);
  };
  auto r = import_opensm_conf(*settings, "w2/ lead.conf", in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->carried.size(), 1u);
  EXPECT_EQ(r->carried[0], "w2/ lead.conf:1: sm_priority 5 -> sm.priority: 5");
}

TEST(OpenSmImport, MalformedValuesAreNotCarried) {
  Conversion c;
  auto r = c.run("sm_priority high\nperfmgr maybe\nsm_key -1\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(mentions(r->not_carried, "sm_priority high: not converted: not a number"));
  EXPECT_TRUE(mentions(r->not_carried, "perfmgr maybe: not converted: not TRUE or FALSE"));
  EXPECT_TRUE(mentions(r->not_carried, "sm_key -1: not converted"));
  EXPECT_TRUE(load_policy_string(r->yaml, "x").ok());
}

}  // namespace
}  // namespace smd::opensm_import_test
