// program_multicast against the in-memory fabric: trees built on the discovered fabric are verified,
// written (every (block, position) the first time, nothing the second), read back from the fake
// switches mask for mask; a tree that fails the verifier writes nothing; MulticastFDBTop where a switch
// honours it, and a switch reset behind the SM's back is written whole again.
#include "smd/program/mcast_programmer.h"

#include <gtest/gtest.h>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/mcast/mcast_tree.h"
#include "smd/sweep/discovery.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::mcast_programmer_test {
namespace {

// 2 leaves of 16 hosts (leaf ports 1..16 hosts, 17 and 18 spines: positions 0 and 1), 2 spines of 2 ports.
struct McastRig {
  test::SweepRig rig{make_leaf_spine({2, 2, 16, 1}).value()};
  SweepFabric fabric;
  McastTables want;

  McastRig() { discover(); }
  void discover() { fabric = SweepFabric(discover_fabric(rig.batch)); }
  // Every host in 0xC000; hosts 0, 15 (leaf-0 port 16: position 1) and 20 in 0xC021 (block 1).
  void build() {
    const Topology& t = fabric.topo();
    McastGroupPorts all{0xC000, {}};
    for (NodeIndex n : t.cas()) all.members.emplace_back(n, 1);
    McastGroupPorts few{0xC021, {}};
    for (const char* name : {"host-0", "host-15", "host-20"}) {
      for (NodeIndex n : t.cas()) {
        if (t.node(n).description == name) few.members.emplace_back(n, 1);
      }
    }
    ASSERT_EQ(few.members.size(), 3u);
    want = McastTreeBuilder(t).build({all, few}).value();
  }
  // Every wanted mask equals what the fake switch holds, position by position.
  void expect_held() {
    for (const auto& [mlid, tree] : want.trees) {
      for (const auto& [guid, mask] : tree.switches) {
        const NodeIndex n = *rig.topo.find(guid);
        for (unsigned pos = 0; pos < 2; ++pos) {
          EXPECT_EQ(rig.fabric.mft_mask(n, mlid, pos), mask.words[pos])
              << format_mlid(mlid) << " " << format_guid(guid);
        }
      }
    }
  }
};

TEST(McastProgrammer, WritesEveryBlockOnceThenNothing) {
  McastRig r;
  r.build();
  AppliedMft applied;
  std::vector<SweepProblem> problems;
  const McastProgramCounts first = program_multicast(r.rig.batch, r.fabric, r.want, applied, problems);
  ASSERT_TRUE(problems.empty()) << problems.front().to_string();
  EXPECT_TRUE(first.verified);
  EXPECT_EQ(first.groups, 2u);
  EXPECT_EQ(first.switches, 4u);
  // Blocks 0 and 1 on every switch: leaves 2 positions each, spines 1.
  EXPECT_EQ(first.blocks_written, 2u * 2 + 2u * 2 + 2u * 1 + 2u * 1);
  EXPECT_EQ(first.blocks_failed, 0u);
  EXPECT_EQ(first.top_updates, 0u);
  EXPECT_EQ(r.rig.fabric.mft_block_sets(), first.blocks_written);
  r.expect_held();
  // host-15 hangs off leaf-0 port 16: position 1, bit 0.
  const McastTree& few = r.want.trees.at(0xC021);
  const Guid leaf0 = r.rig.topo.node(*r.rig.topo.find(r.fabric.topo().node(r.fabric.topo().switches()[0]).guid)).guid;
  ASSERT_NE(few.mask(leaf0), nullptr);
  EXPECT_TRUE(few.mask(leaf0)->words[1] & 1u);

  r.discover();
  const McastProgramCounts again = program_multicast(r.rig.batch, r.fabric, r.want, applied, problems);
  EXPECT_EQ(again.blocks_written, 0u);
  EXPECT_EQ(again.blocks_skipped, first.blocks_written);
  EXPECT_EQ(r.rig.fabric.mft_block_sets(), first.blocks_written);
}

TEST(McastProgrammer, TreesThatFailTheVerifierWriteNothing) {
  McastRig r;
  r.build();
  McastTree& tree = r.want.trees.at(0xC000);
  tree.switches.back().second.reset(1);  // a spine stops sending to leaf-0
  AppliedMft applied;
  std::vector<SweepProblem> problems;
  const McastProgramCounts c = program_multicast(r.rig.batch, r.fabric, r.want, applied, problems);
  EXPECT_FALSE(c.verified);
  EXPECT_EQ(r.rig.fabric.mft_block_sets(), 0u);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].code, ProblemCode::kNoRoute);
  EXPECT_NE(problems[0].reason.find("MLID 0xc000"), std::string::npos) << problems[0].reason;
  EXPECT_EQ(applied.size(), 0u);
}

TEST(McastProgrammer, MulticastFdbTopWhereHonouredAndAResetSwitchIsWrittenWhole) {
  McastRig r;
  const NodeIndex leaf0 = r.rig.topo.switches()[0];
  r.rig.fabric.support_mft_top(leaf0);
  r.discover();
  r.build();
  AppliedMft applied;
  std::vector<SweepProblem> problems;
  const McastProgramCounts first = program_multicast(r.rig.batch, r.fabric, r.want, applied, problems);
  ASSERT_TRUE(problems.empty()) << problems.front().to_string();
  EXPECT_EQ(first.top_updates, 1u);
  EXPECT_EQ(r.rig.fabric.mft_top(leaf0), 0xC03F);
  const unsigned sets = r.rig.fabric.mft_block_sets();

  r.rig.fabric.reset_switch(leaf0);  // MFT empty, MulticastFDBTop 0
  r.discover();
  const McastProgramCounts again = program_multicast(r.rig.batch, r.fabric, r.want, applied, problems);
  EXPECT_EQ(again.blocks_written, 4u) << "leaf-0's 2 blocks x 2 positions; the others hold theirs";
  EXPECT_EQ(again.top_updates, 1u);
  EXPECT_EQ(r.rig.fabric.mft_block_sets(), sets + 4);
  EXPECT_EQ(r.rig.fabric.mft_top(leaf0), 0xC03F);
  r.expect_held();
}

}  // namespace
}  // namespace smd::mcast_programmer_test
