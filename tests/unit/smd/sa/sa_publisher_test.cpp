// SaPublisher alone: the serving rule case by case (IBA C15-0.1.3), the one-shot "another master was seen"
// flag, the views rebuilt only when what they derive from changes, and the policy's values in the settings.
#include "smd/sa/sa_publisher.h"

#include <gtest/gtest.h>

#include "tests/unit/smd/sa/sa_rig.h"

namespace smd::sa::sa_publisher_test {
namespace {

using testing::make_rig;
using testing::Rig;

SweepProblem problem(ProblemCode code, std::string attribute) {
  SweepProblem p;
  p.code = code;
  p.attribute = std::move(attribute);
  return p;
}

struct ServingCase {
  const char* name;
  bool served, master, subnet_up;
  std::vector<SweepProblem> problems;
  bool want;
};

class ServingRule : public ::testing::TestWithParam<ServingCase> {};

TEST_P(ServingRule, Case) {
  const ServingCase& c = GetParam();
  EXPECT_EQ(serving_after(c.served, c.master, c.subnet_up, c.problems), c.want) << c.name;
}

// Only a MASTER answers, and only once a sweep programmed the fabric it describes; a later sweep that
// leaves problems does not stop it; P_Key tables too small for the policy alone do not hold it back.
INSTANTIATE_TEST_SUITE_P(
    SaPublisher, ServingRule,
    ::testing::Values(
        ServingCase{"standby, subnet up", false, false, true, {}, false},
        ServingCase{"was serving, no longer master", true, false, true, {}, false},
        ServingCase{"master, subnet up", false, true, true, {}, true},
        ServingCase{"master, sweep failed, never served",
                    false,
                    true,
                    false,
                    {problem(ProblemCode::kTimeout, "PortInfo 1")},
                    false},
        ServingCase{"master, sweep failed, served before",
                    true,
                    true,
                    false,
                    {problem(ProblemCode::kTimeout, "PortInfo 1")},
                    true},
        ServingCase{"master, only P_Key tables too small",
                    false,
                    true,
                    false,
                    {problem(ProblemCode::kCapacity, "P_KeyTable 3"), problem(ProblemCode::kCapacity, "P_KeyTable 1")},
                    true},
        ServingCase{"master, P_Key capacity and a timeout",
                    false,
                    true,
                    false,
                    {problem(ProblemCode::kCapacity, "P_KeyTable 3"), problem(ProblemCode::kTimeout, "NodeInfo")},
                    false},
        ServingCase{"master, capacity of another table",
                    false,
                    true,
                    false,
                    {problem(ProblemCode::kCapacity, "LinearForwardingTable")},
                    false},
        ServingCase{"master, no problems yet not up", false, true, false, {}, false}),
    [](const ::testing::TestParamInfo<ServingCase>& i) { return "case" + std::to_string(i.index); });

struct Source {
  Rig rig = make_rig();
  Policy policy;
  McastTables mcast;
  std::vector<SweepProblem> problems;

  SaPublishInput input(bool master, bool up) const {
    SaPublishInput in;
    in.topo = rig.fabric->observed().topo;
    in.known = &rig.fabric->observed();
    in.lids = rig.lids;
    in.tables = rig.tables;
    in.mcast = &mcast;
    in.mcast_generation = 1;
    in.master = master;
    in.subnet_up = up;
    in.problems = &problems;
    in.sm_lid = 1;
    in.sm_guid = testing::kA + 1;
    in.sms.push_back({1, testing::kA + 1, 7, 3, 5, 3});
    in.policy = &policy;
    in.policy_generation = 1;
    return in;
  }
};

TEST(SaPublisher, ServesOnlyWithAFabric) {
  Source src;
  SaPublisher pub;
  SaPublishInput none = src.input(true, true);
  none.topo = nullptr;
  none.known = nullptr;
  EXPECT_FALSE(pub.publish(none)->serving);  // master and up, but nothing to answer from
  const auto snap = pub.publish(src.input(true, true));
  EXPECT_TRUE(snap->serving);
  ASSERT_NE(snap->fabric, nullptr);
  EXPECT_EQ(snap->sm_lid, 1);
  ASSERT_EQ(snap->sms.size(), 1u);
  EXPECT_EQ(snap->sms[0].guid, testing::kA + 1);
  EXPECT_FALSE(pub.publish(src.input(false, true))->serving);  // STANDBY now
  EXPECT_FALSE(pub.publish(src.input(true, false))->serving);  // master again, but no sweep brought it up since
}

TEST(SaPublisher, OtherMasterIsReportedByTheFirstServingSnapshotOnly) {
  Source src;
  SaPublisher pub;
  pub.note_other_master();
  EXPECT_TRUE(pub.publish(src.input(false, false))->other_master_seen);  // not serving: kept for later
  EXPECT_TRUE(pub.publish(src.input(true, true))->other_master_seen);
  EXPECT_FALSE(pub.publish(src.input(true, true))->other_master_seen);
}

TEST(SaPublisher, ViewsAreRebuiltOnlyWhenTheirSourceChanges) {
  Source src;
  SaPublisher pub;
  src.mcast.highest_mlid = 0xC001;
  const auto first = pub.publish(src.input(true, true));
  const auto again = pub.publish(src.input(true, true));
  EXPECT_EQ(first->fabric, again->fabric);  // same topology: the same index
  EXPECT_EQ(first->mfts, again->mfts);      // same trees generation: the same view
  ASSERT_NE(first->mfts, nullptr);
  EXPECT_EQ(first->mfts->highest_mlid, 0xC001);
  src.mcast.highest_mlid = 0xC003;
  SaPublishInput moved = src.input(true, true);
  moved.mcast_generation = 2;
  const auto third = pub.publish(moved);
  EXPECT_NE(third->mfts, first->mfts);
  EXPECT_EQ(third->mfts->highest_mlid, 0xC003);
  // A new discovery (a new topology object) gets a new index.
  Source other;
  EXPECT_NE(pub.publish(other.input(true, true))->fabric, first->fabric);
}

TEST(SaPublisher, SettingsComeFromThePolicy) {
  Source src;
  src.policy.sa.key = 0x1234;
  src.policy.sa.max_records = 99;
  src.policy.sm.multicast = false;
  // RespTimeValue: the smallest v with 4.096 us * 2^v >= 1000 ms; 2^17 * 4.096 us = 537 ms, 2^18 = 1074 ms.
  src.policy.mad.timeout_ms = 1000;
  SaPublisher pub;
  const auto snap = pub.publish(src.input(true, true));
  EXPECT_EQ(snap->settings.key, 0x1234u);
  EXPECT_EQ(snap->settings.max_records, 99u);
  EXPECT_FALSE(snap->settings.multicast);
  EXPECT_EQ(snap->settings.resp_time_value, 18);
  EXPECT_EQ(snap->qos, nullptr);  // qos.enabled is false by default
  EXPECT_EQ(snap->partitions, nullptr);
  pub.set_partition_policy(src.policy.partitions);
  const auto with = pub.publish(src.input(true, true));
  ASSERT_NE(with->partitions, nullptr);
  pub.set_partition_policy(src.policy.partitions);  // each policy that takes effect is a new pointer
  EXPECT_NE(pub.publish(src.input(true, true))->partitions, with->partitions);
}

TEST(SaPublisher, FabricViewsOnlyFromTheSameDiscovery) {
  Source src;
  SaPublisher pub;
  FabricSnapshot snap;
  pub.fill_fabric_views(snap, src.input(true, true), true);
  ASSERT_NE(snap.port_fields, nullptr);
  ASSERT_NE(snap.port_links, nullptr);
  ASSERT_NE(snap.mcast_tables, nullptr);
  FabricSnapshot between;
  pub.fill_fabric_views(between, src.input(true, true), false);
  EXPECT_EQ(between.port_fields, snap.port_fields);  // no sweep since: shared
  EXPECT_EQ(between.mcast_tables, snap.mcast_tables);
  // A topology that is not the known fabric's (routing kept an older one): no port views.
  Source other;
  SaPublishInput mixed = src.input(true, true);
  mixed.topo = other.rig.fabric->observed().topo;
  FabricSnapshot after;
  pub.fill_fabric_views(after, mixed, true);
  EXPECT_EQ(after.port_fields, nullptr);
  EXPECT_EQ(after.port_links, nullptr);
}

}  // namespace
}  // namespace smd::sa::sa_publisher_test
