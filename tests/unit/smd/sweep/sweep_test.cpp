// A whole heavy sweep against FakeFabric: the fabric ends with every LID set, every cable Active and
// LFTs that deliver every LID (walked here, hop by hop, over the fake switches' own tables).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "config/text_file.h"
#include "tests/unit/smd/lft_witness.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "smd/state/guid2lid_file.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::sweep_test {
namespace {

using test::expect_routes_deliver;
using test::first_problem;
using test::sm_leaf_uplink;
using test::SweepRig;

TEST(Sweep, BringsUpAKaryTree) {
  auto t = make_kary_ntree(4, 2);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  const SweepSummary s = runner.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(s.switches, 8u);
  EXPECT_EQ(s.cas, 16u);
  EXPECT_EQ(s.engine, "minhop");

  std::set<Lid> seen;
  const Lid sm_lid = rig.fabric.lid(rig.topo.sm_node, rig.topo.sm_port);
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    const Node& node = rig.topo.node(n);
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      const bool endport = node.is_switch() ? p == 0 : node.ports[p].connected();
      if (endport) {
        EXPECT_NE(rig.fabric.lid(n, p), 0) << node.description;
        EXPECT_TRUE(seen.insert(rig.fabric.lid(n, p)).second) << "LID reused";
        EXPECT_EQ(rig.fabric.master_sm_lid(n, p), sm_lid);
      }
      if (p > 0 && node.ports[p].connected()) {
        EXPECT_EQ(rig.fabric.state(n, p), 4) << node.description;
      }
    }
  }
  expect_routes_deliver(rig.topo, rig.fabric);
  for (NodeIndex s2 : rig.topo.switches()) EXPECT_EQ(rig.fabric.lft_top(s2), static_cast<Lid>(*seen.rbegin()));
}

// Every cabled port Active and every endport with a LID of its own, read from the fake fabric.
void expect_all_up(const Topology& t, const test::FakeFabric& f) {
  std::set<Lid> seen;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      const bool endport = node.is_switch() ? p == 0 : node.ports[p].connected();
      if (endport) {
        EXPECT_NE(f.lid(n, p), 0) << node.description;
        EXPECT_TRUE(seen.insert(f.lid(n, p)).second) << "LID reused";
      }
      if (p > 0 && node.ports[p].connected()) {
        EXPECT_EQ(f.state(n, p), 4) << node.description << "[" << int(p) << "]";
      }
    }
  }
}

// The subnet is up as the fake switches and ports hold it: expect_all_up and every route delivering.
void expect_fabric_up(const SweepRig& rig) {
  expect_all_up(rig.topo, rig.fabric);
  expect_routes_deliver(rig.topo, rig.fabric);
}

// One sweep over a fabric that loses some answers must still bring it up; the rows differ in what is
// lost and in the figures each checks besides.
struct LostAnswers {
  std::string name{};
  std::function<Result<Topology>()> fabric{};
  std::function<void(SweepRig&)> lose{};       ///< what the fake fabric loses, set before the sweep
  std::optional<unsigned> discovery_rounds{};  ///< extra discovery passes the sweep must take
  bool finds_every_ca = false;
  bool finds_every_cable = false;
  bool fabric_up = false;  ///< every port up and every route delivering, read from the fake switches
};

class OneSweep : public ::testing::TestWithParam<LostAnswers> {};

TEST_P(OneSweep, BringsTheFabricUpDespiteLostAnswers) {
  const LostAnswers& row = GetParam();
  auto t = row.fabric();
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  row.lose(rig);
  const SweepSummary s = rig.runner().heavy_sweep();
  EXPECT_TRUE(s.subnet_up) << first_problem(s);
  if (row.discovery_rounds) {
    EXPECT_EQ(s.discovery_rounds, *row.discovery_rounds);
  }
  if (row.finds_every_ca) {
    EXPECT_EQ(s.cas, rig.topo.cas().size());
  }
  if (row.finds_every_cable) {
    EXPECT_EQ(s.links, rig.topo.link_count());
  }
  if (row.fabric_up) {
    expect_fabric_up(rig);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sweep, OneSweep,
    ::testing::Values(
        // Every PortInfo Set is carried out, but its first answer is lost: the retry of a PortState Set
        // then finds the port already moved and is refused with 0x1C, as ibsim does. A read-back must
        // tell that the port is where it was asked to go, so one sweep is enough.
        LostAnswers{
            .name = "LostAnswersToPortStateSetsAreReadBack",
            .fabric = [] { return make_kary_ntree(4, 2); },
            .lose = [](SweepRig& rig) { rig.fabric.lose_first_answer(mad::attr::kPortInfo, mad::Method::kSet); },
            .fabric_up = true,
        },
        // The only NodeInfo that can reach a host fails after all its retries. The sweep asks again
        // before LIDs and routes, so this one sweep brings the host up too.
        LostAnswers{
            .name = "LostNodeInfoIsAskedAgainBeforeRouting",
            .fabric =
                [] {
                  return make_leaf_spine(LeafSpineSpec{4, 2, 3, 1});
                },
            .lose = [](SweepRig& rig) { rig.fabric.drop_next(rig.topo.cas().back(), 4); },  // 1 attempt + 3 retries
            .discovery_rounds = 1,
            .finds_every_ca = true,
            .fabric_up = true,
        },
        // The first NodeInfo to reach a spine fails after all its retries; the spine is found over
        // another leaf and probes the unknown cable back from its end. Nothing is left missing, so
        // nothing is reported.
        LostAnswers{
            .name = "CableLostFromOneEndIsFoundFromTheOther",
            .fabric =
                [] {
                  return make_leaf_spine(LeafSpineSpec{4, 2, 3, 1});
                },
            .lose = [](SweepRig& rig) { rig.fabric.drop_next(rig.topo.switches().back(), 4); },
            .discovery_rounds = 0,
            .finds_every_cable = true,
        }),
    test::RowName());

TEST(Sweep, ResweepOfWhatFailedBringsUpANodeThatWasSilent) {
  auto t = make_leaf_spine(LeafSpineSpec{4, 2, 3, 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  const NodeIndex spine = rig.topo.switches().back();
  rig.fabric.silence(spine);
  SweepRunner& runner = rig.runner();
  const SweepSummary first = runner.heavy_sweep();
  ASSERT_FALSE(first.subnet_up);
  EXPECT_FALSE(first.resumed);
  EXPECT_EQ(first.switches, rig.topo.switches().size() - 1);

  rig.fabric.speak(spine);
  const SweepSummary second = runner.heavy_sweep({}, SweepScope::kFailed);
  EXPECT_TRUE(second.resumed);
  // The spine is behind one port of each leaf: those NodeInfo probes are all that was missing.
  EXPECT_EQ(second.gaps, 4u);
  EXPECT_TRUE(second.subnet_up) << first_problem(second);
  EXPECT_EQ(second.switches, rig.topo.switches().size());
  expect_fabric_up(rig);
}

TEST(Sweep, HopLossLikeIbsimComesUpWithinTheResweeps) {
  // 5% of SMPs lost at every hop, out and back, on a 3-level tree (paths of up to 6 hops): what
  // `smd --once` does (one sweep, then re-sweeps of what failed) must end with the fabric up.
  auto t = make_kary_ntree(4, 3);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  rig.fabric.set_hop_loss(0.05, 11);
  SweepRunner& runner = rig.runner();
  bool up = false;
  for (unsigned attempt = 1; attempt <= 1 + rig.policy.sm.max_resweeps && !up; ++attempt) {
    up = runner.heavy_sweep({}, attempt == 1 ? SweepScope::kFull : SweepScope::kFailed).subnet_up;
  }
  EXPECT_TRUE(up);
  EXPECT_GT(rig.fabric.stats().retries, 0u);
  expect_fabric_up(rig);
}

TEST(Sweep, SecondSweepWritesNothingAndKeepsLids) {
  auto t = make_leaf_spine(LeafSpineSpec{4, 2, 3, 2});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  const SweepSummary first = runner.heavy_sweep();
  ASSERT_TRUE(first.subnet_up);
  std::vector<Lid> lids;
  for (NodeIndex n = 0; n < rig.topo.size(); ++n)
    lids.push_back(rig.fabric.lid(n, rig.topo.node(n).is_switch() ? 0 : 1));
  const unsigned blocks_before = rig.fabric.lft_block_sets();
  const SweepSummary second = runner.heavy_sweep();
  ASSERT_TRUE(second.subnet_up);
  EXPECT_EQ(second.lft_blocks_written, 0u);
  EXPECT_EQ(second.port_sets, 0u);
  EXPECT_EQ(rig.fabric.lft_block_sets(), blocks_before);
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    EXPECT_EQ(rig.fabric.lid(n, rig.topo.node(n).is_switch() ? 0 : 1), lids[n]);
  }
}

// guid2lid and ca-order are rewritten (temp file, fsync, rename: a new inode) only when what they say
// changed, or when the file has gone.
TEST(Sweep, StateFilesAreRewrittenOnlyWhenTheyChangeOrVanish) {
  auto t = make_kary_ntree(4, 2);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  rig.policy.routing.engines = {"ftree"};  // the engine that keeps a CA order
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  const std::string guid2lid = rig.policy.sm.state_dir + "/guid2lid";
  const std::string ca_order = rig.policy.sm.state_dir + "/ca-order";
  auto inode = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_ino : ino_t{0};
  };
  const ino_t g1 = inode(guid2lid);
  const ino_t c1 = inode(ca_order);
  ASSERT_NE(g1, 0u);
  ASSERT_NE(c1, 0u);
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  EXPECT_EQ(inode(guid2lid), g1);
  EXPECT_EQ(inode(ca_order), c1);
  std::filesystem::remove(guid2lid);
  std::filesystem::remove(ca_order);
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  EXPECT_NE(inode(guid2lid), 0u) << "a vanished guid2lid is written again";
  EXPECT_NE(inode(ca_order), 0u) << "a vanished ca-order is written again";
  const auto entries = read_guid2lid(guid2lid);
  ASSERT_TRUE(entries.ok());
  EXPECT_EQ(entries->entries.size(), rig.topo.switches().size() + rig.topo.cas().size());
}

// A guid2lid file smd cannot read (here larger than kMaxGuid2LidBytes) is the operator's to look at: the
// sweep assigns LIDs without it and never writes over it, in the first sweep or any later one.
TEST(Sweep, AGuid2LidFileThatCannotBeReadIsNeverReplaced) {
  auto t = make_kary_ntree(2, 2);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  const std::string guid2lid = rig.policy.sm.state_dir + "/guid2lid";
  std::filesystem::create_directories(rig.policy.sm.state_dir);
  std::ofstream(guid2lid) << "0x0000000000000001 0x0001 0x0001\n";
  std::filesystem::resize_file(guid2lid, kMaxGuid2LidBytes + 1);  // sparse: no 16 MiB written
  ASSERT_FALSE(read_guid2lid(guid2lid).ok());
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  EXPECT_EQ(std::filesystem::file_size(guid2lid), kMaxGuid2LidBytes + 1);
  std::ifstream in(guid2lid);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "0x0000000000000001 0x0001 0x0001");
}

TEST(Sweep, RestartKeepsLidsThroughGuid2Lid) {
  auto t = make_kary_ntree(2, 3);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  std::vector<Lid> lids;
  {
    SweepRunner runner(rig.io, rig.fabric, rig.policy);  // the first SM process, gone before the second
    ASSERT_TRUE(runner.heavy_sweep().subnet_up);
    for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
      lids.push_back(rig.fabric.lid(n, rig.topo.node(n).is_switch() ? 0 : 1));
    }
  }
  // A new fabric whose ports lost their LIDs (power cycle) and a new SM process: guid2lid decides.
  test::FakeFabric fresh(rig.io, rig.topo);
  SweepRunner runner(rig.io, fresh, rig.policy);
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    EXPECT_EQ(fresh.lid(n, rig.topo.node(n).is_switch() ? 0 : 1), lids[n]) << rig.topo.node(n).description;
  }
}

TEST(Sweep, DamagedGuid2LidKeepsItsValidEntriesAndTheSweepCarriesOn) {
  auto t = make_leaf_spine(LeafSpineSpec{2, 2, 2, 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  const NodeIndex host = rig.topo.cas().back();
  char valid[64];
  std::snprintf(valid, sizeof valid, "0x%016llx 0x0030 0x0030\n",
                static_cast<unsigned long long>(rig.topo.node(host).ports[1].guid));
  std::ofstream(rig.policy.sm.state_dir + "/guid2lid") << "garbage\n" << valid << "0x0000000000abcdef 0x0031 0x00";
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  EXPECT_EQ(rig.fabric.lid(host, 1), 0x30) << "the valid entry between the damaged lines is honoured";
  expect_routes_deliver(rig.topo, rig.fabric);
}

TEST(Sweep, TrapsAfterACableChangeReReadOnlyTheSwitchesThatChanged) {
  auto t = make_kary_ntree(4, 3);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  const SweepSummary first = runner.heavy_sweep();
  ASSERT_TRUE(first.subnet_up) << first.problems.front().to_string();
  const auto [leaf, port, up] = sm_leaf_uplink(rig.topo);
  ASSERT_NE(leaf, kNoNode);
  const std::vector<Lid> trap_lids = {rig.fabric.lid(leaf, 0), rig.fabric.lid(up, 0)};

  rig.fabric.unlink(leaf, port);
  const SweepSummary lost = runner.heavy_sweep({}, SweepScope::kChanged, trap_lids);
  ASSERT_TRUE(lost.subnet_up) << lost.problems.front().to_string();
  EXPECT_TRUE(lost.incremental) << lost.full_discovery_because;
  EXPECT_EQ(lost.links, first.links - 1);
  EXPECT_LT(lost.smps_sent * 3, first.smps_sent) << "an incremental sweep reads a small part of the fabric";
  EXPECT_FALSE(rig.fabric.port_state_change(leaf));
  EXPECT_FALSE(rig.fabric.port_state_change(up));
  expect_routes_deliver(rig.topo, rig.fabric);

  rig.fabric.relink(leaf, port);
  const SweepSummary back = runner.heavy_sweep({}, SweepScope::kChanged, {trap_lids[1]});
  ASSERT_TRUE(back.subnet_up) << back.problems.front().to_string();
  EXPECT_TRUE(back.incremental) << back.full_discovery_because;
  EXPECT_EQ(back.links, first.links);
  expect_fabric_up(rig);
}

TEST(Sweep, TrapFromALidNoPortHoldsMakesTheSweepFull) {
  auto t = make_kary_ntree(4, 2);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  const SweepSummary s = runner.heavy_sweep({}, SweepScope::kChanged, {4000});
  EXPECT_TRUE(s.subnet_up);
  EXPECT_FALSE(s.incremental);
  EXPECT_NE(s.full_discovery_because.find("LID 4000"), std::string::npos) << s.full_discovery_because;
}

TEST(Sweep, LmcGivesAlignedRanges) {
  auto t = make_leaf_spine(LeafSpineSpec{2, 2, 2, 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  rig.policy.lid.lmc = 2;
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  for (NodeIndex n : rig.topo.cas()) {
    EXPECT_EQ(rig.fabric.lmc(n, 1), 2);
    EXPECT_EQ(rig.fabric.lid(n, 1) % 4, 0);
  }
  expect_routes_deliver(rig.topo, rig.fabric);
}

}  // namespace
// A rack powered off: every host of one leaf gone. Counted up from the CAs, that leaf reads as a top switch
// and ftree declines; the sweep routes with the top switches of ftree's last run instead of falling back
// to updn for the whole fabric.
TEST(Sweep, AFatTreeWhoseLeafLostEveryHostStaysOnFtree) {
  auto t = make_kary_ntree(4, 3);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  rig.policy.routing.engines = {"ftree", "updn", "minhop"};
  SweepRunner& runner = rig.runner();
  const SweepSummary first = runner.heavy_sweep();
  ASSERT_TRUE(first.subnet_up) << first_problem(first);
  ASSERT_EQ(first.engine, "ftree");
  NodeIndex leaf = kNoNode;
  for (NodeIndex s : rig.topo.switches()) {
    if (rig.topo.node(s).description == "sw-L0-2") leaf = s;
  }
  ASSERT_NE(leaf, kNoNode);
  const Node& l = rig.topo.node(leaf);
  for (PortNum p = 1; p <= l.num_ports; ++p) {
    if (l.ports[p].connected() && !rig.topo.node(l.ports[p].peer).is_switch()) rig.fabric.unlink(leaf, p);
  }
  runner.request_full_reroute();  // a fresh engine run, as after a relink or `smctl reroute`
  const SweepSummary second = runner.heavy_sweep();
  ASSERT_TRUE(second.subnet_up) << first_problem(second);
  EXPECT_EQ(second.engine, "ftree");
  EXPECT_EQ(second.cas, 60u);
}

}  // namespace smd::sweep_test
