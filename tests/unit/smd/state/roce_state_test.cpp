// The RoCE plan on disk (smd/state/roce_plan_files.h) and the daemon's state_dir writer
// (smd/state/roce_state_writer.h): the compact JSON read back and checked against the cabling of a fabric built
// here by hand, the FRR tree holding exactly the current switches (unchanged files untouched), outputs removed when the
// policy turns them off, addresses that do not depend on discovery order, and unchanged fabrics left alone.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/roce/frr_writer.h"
#include "smd/state/atomic_file.h"
#include "smd/state/roce_plan_files.h"
#include "smd/state/roce_state_writer.h"
#include "tests/unit/temp_dir.h"

namespace smd::roce_state_test {
namespace {

namespace fs = std::filesystem;

class RoceState : public test::TempDirTest {};

Node make_node(Guid guid, NodeType type, const std::string& description, PortNum ports) {
  Node n;
  n.guid = guid;
  n.type = type;
  n.description = description;
  n.num_ports = ports;
  n.ports.resize(ports + 1u);
  for (PortNum p = 0; p <= ports; ++p) n.ports[p].num = p;
  return n;
}

/// Switches "A" (GUID 0x10) and "B" (0x20) joined by two cables (port 1-1, 2-2); hosts h1, h2 on A ports
/// 3, 4 and h3, h4 on B ports 3, 4. `reversed` adds the nodes in the opposite order, as a discovery
/// whose answers came back differently would.
Topology two_switches(bool reversed) {
  std::vector<Node> nodes = {make_node(0x10, NodeType::kSwitch, "A", 4), make_node(0x20, NodeType::kSwitch, "B", 4)};
  for (Guid h = 1; h <= 4; ++h) nodes.push_back(make_node(0x100 + h, NodeType::kCa, "h" + std::to_string(h), 1));
  if (reversed) std::reverse(nodes.begin(), nodes.end());
  Topology topo;
  for (auto& n : nodes) EXPECT_TRUE(topo.add_node(std::move(n)).ok());
  auto at = [&](Guid g) { return *topo.find(g); };
  EXPECT_TRUE(topo.connect(at(0x10), 1, at(0x20), 1).ok());
  EXPECT_TRUE(topo.connect(at(0x10), 2, at(0x20), 2).ok());
  EXPECT_TRUE(topo.connect(at(0x10), 3, at(0x101), 1).ok());
  EXPECT_TRUE(topo.connect(at(0x10), 4, at(0x102), 1).ok());
  EXPECT_TRUE(topo.connect(at(0x20), 3, at(0x103), 1).ok());
  EXPECT_TRUE(topo.connect(at(0x20), 4, at(0x104), 1).ok());
  return topo;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string plan_text(const Topology& topo) {
  auto plan = roce::RoutePlan::build(topo);
  EXPECT_TRUE(plan.ok());
  std::ostringstream os;
  write_plan_json(os, topo, *plan);
  return os.str();
}

/// Names of the subdirectories of `dir`.
std::set<std::string> subdirs(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

TEST_F(RoceState, PlanJsonHasTheDocumentedFieldsAndTheCabling) {
  const Topology topo = two_switches(false);
  const std::string text = plan_text(topo);
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["schema"], "smd-roce-plan/3");
  ASSERT_EQ(j["hosts"].size(), 4u);
  std::set<std::string> host_names, host_ips;
  for (const auto& h : j["hosts"]) {
    host_names.insert(h["name"].get<std::string>());
    host_ips.insert(h["ip"].get<std::string>());
  }
  EXPECT_EQ(host_names, (std::set<std::string>{"h1", "h2", "h3", "h4"}));
  EXPECT_EQ(host_ips.size(), 4u) << "every host its own address";
  ASSERT_EQ(j["switches"].size(), 2u);
  for (std::size_t s = 0; s < 2; ++s) {
    const auto& sw = j["switches"][s];
    const std::size_t other = 1 - s;
    // The other switch is reached over both cables (ports 1 and 2): its loopback and its host prefix.
    ASSERT_EQ(sw["routes"].size(), 2u) << sw["name"];
    std::set<std::string> prefixes;
    for (const auto& r : sw["routes"]) {
      prefixes.insert(r["prefix"].get<std::string>());
      EXPECT_EQ(r["dest"], other);
      std::vector<int> ports;
      for (const auto& nh : r["nexthops"]) ports.push_back(nh["port"].get<int>());
      EXPECT_EQ(ports, (std::vector<int>{1, 2}));
    }
    const auto& dest = j["switches"][other];
    EXPECT_EQ(prefixes,
              (std::set<std::string>{dest["loopback"].get<std::string>(), dest["host_prefix"].get<std::string>()}));
    // Each next hop's neighbour and address are in the interface of the same port.
    ASSERT_EQ(sw["interfaces"].size(), 2u);
    // Peers are named by identifiers that are unique: frr_dir and node GUID, not the NodeDescription.
    for (const auto& itf : sw["interfaces"]) {
      EXPECT_EQ(itf["peer"], dest["frr_dir"]);
      EXPECT_EQ(itf["peer_guid"], dest["node_guid"]);
    }
  }
  // Compact: one line per host and per switch after the header, no indentation.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 1 + 4 + 1 + 2);
  EXPECT_EQ(text.find("  "), std::string::npos);
}

TEST_F(RoceState, AddressesDoNotDependOnDiscoveryOrder) {
  const Topology a = two_switches(false);
  const Topology b = two_switches(true);
  EXPECT_NE(plan_text(a), plan_text(b)) << "the plan numbers in node order";
  EXPECT_EQ(plan_text(in_guid_order(a)), plan_text(in_guid_order(b)));
  EXPECT_TRUE(same_cabling(in_guid_order(a), in_guid_order(b)));
  EXPECT_FALSE(same_cabling(a, b));
}

TEST_F(RoceState, SameCablingSeesAMovedCable) {
  Topology moved;
  {
    const Topology base = two_switches(false);
    for (const Node& n : base.nodes()) {
      Node copy = n;
      for (Port& p : copy.ports) p.peer = kNoNode;
      ASSERT_TRUE(moved.add_node(std::move(copy)).ok());
    }
    auto at = [&](Guid g) { return *moved.find(g); };
    ASSERT_TRUE(moved.connect(at(0x10), 1, at(0x20), 1).ok());
    ASSERT_TRUE(moved.connect(at(0x10), 2, at(0x20), 2).ok());
    ASSERT_TRUE(moved.connect(at(0x10), 3, at(0x101), 1).ok());
    ASSERT_TRUE(moved.connect(at(0x10), 4, at(0x102), 1).ok());
    ASSERT_TRUE(moved.connect(at(0x20), 4, at(0x103), 1).ok());  // h3 moved from B port 3 to port 4
    ASSERT_TRUE(moved.connect(at(0x20), 3, at(0x104), 1).ok());
  }
  EXPECT_FALSE(same_cabling(in_guid_order(two_switches(false)), in_guid_order(moved)));
}

TEST_F(RoceState, FrrDirHoldsExactlyTheCurrentSwitches) {
  const std::string frr = dir_ + "/frr";
  auto big = make_leaf_spine(LeafSpineSpec{3, 2, 1, 1});  // 5 switches
  ASSERT_TRUE(big.ok());
  auto plan = roce::RoutePlan::build(*big);
  ASSERT_TRUE(plan.ok());
  auto first = update_frr_dir(frr, *plan);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->written, 5u);
  EXPECT_EQ(subdirs(frr).size(), 5u);
  // The same plan again: every file already right, none rewritten.
  const auto mtime = fs::last_write_time(frr + "/leaf-0/frr.conf");
  auto again = update_frr_dir(frr, *plan);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->written, 0u);
  EXPECT_EQ(again->unchanged, 5u);
  EXPECT_EQ(fs::last_write_time(frr + "/leaf-0/frr.conf"), mtime);
  // A smaller fabric: the vanished switches' directories and a stray file go.
  std::ofstream(frr + "/stray.conf") << "left behind\n";
  const Topology small = two_switches(false);
  auto small_plan = roce::RoutePlan::build(small);
  ASSERT_TRUE(small_plan.ok());
  auto shrunk = update_frr_dir(frr, *small_plan);
  ASSERT_TRUE(shrunk.ok());
  EXPECT_EQ(shrunk->written, 2u);
  EXPECT_EQ(shrunk->removed, 6u);
  EXPECT_EQ(subdirs(frr), (std::set<std::string>{"A", "B"}));
  EXPECT_EQ(subdirs(frr + "/A"), (std::set<std::string>{"frr.conf"})) << "no temporary left";
  EXPECT_EQ(read_text(frr + "/A/frr.conf"), roce::frr_config(*small_plan, 0, "A"));
}

// What stands in frr/ is never read without bound or written through: a FIFO at a switch's frr.conf
// is refused (not opened: a reader would wait for a writer), and a symlink planted at frr.conf.tmp is
// not followed.
TEST_F(RoceState, FrrDirRefusesAFifoAndDoesNotFollowAPlantedTemporary) {
  const std::string frr = dir_ + "/frr";
  const Topology topo = two_switches(false);
  auto plan = roce::RoutePlan::build(topo);
  ASSERT_TRUE(plan.ok());
  fs::create_directories(frr + "/A");
  fs::create_directories(frr + "/B");
  const std::string victim = dir_ + "/victim";
  std::ofstream(victim) << "untouched";
  fs::create_symlink(victim, frr + "/B/frr.conf.tmp");
  ASSERT_EQ(::mkfifo((frr + "/A/frr.conf").c_str(), 0600), 0);
  auto refused = update_frr_dir(frr, *plan);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("A/frr.conf is a FIFO"), std::string::npos) << refused.error().message;
  EXPECT_TRUE(fs::is_fifo(frr + "/A/frr.conf"));
  fs::remove(frr + "/A/frr.conf");
  auto written = update_frr_dir(frr, *plan);
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(written->written, 2u);
  EXPECT_EQ(read_text(victim), "untouched");
  EXPECT_EQ(read_text(frr + "/B/frr.conf"), roce::frr_config(*plan, 1, "B"));
  // plan --frr-dir's writer, the same way.
  fs::create_symlink(victim, frr + "/A/frr.conf.tmp");
  ASSERT_TRUE(write_frr_configs(frr, *plan).ok());
  EXPECT_EQ(read_text(victim), "untouched");
  EXPECT_EQ(read_text(frr + "/A/frr.conf"), roce::frr_config(*plan, 0, "A"));
}

// smd cleans frr/ of what it did not write; a frr/ that is a symlink to another directory is refused, so
// nothing there is removed or written (state_dir/frr -> /etc/frr would lose the operator's files).
TEST_F(RoceState, FrrDirThatIsASymlinkIsRefusedAndItsTargetLeftAlone) {
  const std::string elsewhere = dir_ + "/elsewhere";
  fs::create_directories(elsewhere + "/keep-dir");
  std::ofstream(elsewhere + "/daemons") << "bgpd=yes\n";
  const std::string frr = dir_ + "/frr";
  fs::create_directory_symlink(elsewhere, frr);
  auto plan = roce::RoutePlan::build(two_switches(false));
  ASSERT_TRUE(plan.ok());
  auto refused = update_frr_dir(frr, *plan);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("symbolic link"), std::string::npos) << refused.error().message;
  EXPECT_EQ(subdirs(elsewhere), (std::set<std::string>{"daemons", "keep-dir"}));
}

// A refusal part-way through (switch B's frr.conf is a symlink) leaves the tree as it was: A's new config
// is not left behind as frr.conf.tmp, and A's directory, made by the failed update, is gone again.
TEST_F(RoceState, FrrUpdateThatFailsPartWayLeavesNoTemporaryOrNewDirectory) {
  const std::string frr = dir_ + "/frr";
  const Topology topo = two_switches(false);
  auto plan = roce::RoutePlan::build(topo);
  ASSERT_TRUE(plan.ok());
  const std::string victim = dir_ + "/victim";
  std::ofstream(victim) << "untouched";
  auto left_behind = [&] {
    std::set<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(frr)) files.insert(e.path().lexically_relative(frr).string());
    return files;
  };
  for (int writer = 0; writer < 2; ++writer) {
    fs::remove_all(frr);
    fs::create_directories(frr + "/B");
    fs::create_symlink(victim, frr + "/B/frr.conf");
    std::optional<Error> failed;
    if (writer == 0) {
      if (auto r = update_frr_dir(frr, *plan); !r.ok()) failed = r.error();
    } else if (Status r = write_frr_configs(frr, *plan); !r.ok()) {
      failed = r.error();
    }
    ASSERT_TRUE(failed.has_value()) << "writer " << writer;
    EXPECT_NE(failed->message.find("B/frr.conf"), std::string::npos) << failed->message;
    EXPECT_EQ(left_behind(), (std::set<std::string>{"B", "B/frr.conf"})) << "writer " << writer;
    EXPECT_EQ(read_text(victim), "untouched");
  }
}

TEST_F(RoceState, PolicyDecidesWhatIsWrittenAndRemovesWhatIsOff) {
  const Topology topo = in_guid_order(two_switches(false));
  auto r = write_roce_state(topo, dir_, RocePolicy{true, true});
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.hosts, 4u);
  EXPECT_EQ(r.switches, 2u);
  EXPECT_EQ(r.plan_bytes, fs::file_size(dir_ + "/roce-plan.json"));
  EXPECT_EQ(read_text(dir_ + "/roce-plan.json"), plan_text(topo));
  EXPECT_EQ(subdirs(dir_ + "/frr"), (std::set<std::string>{"A", "B"}));

  r = write_roce_state(topo, dir_, RocePolicy{false, true});
  EXPECT_TRUE(r.errors.empty());
  EXPECT_FALSE(fs::exists(dir_ + "/roce-plan.json"));
  EXPECT_TRUE(fs::exists(dir_ + "/frr/A/frr.conf"));

  r = write_roce_state(topo, dir_, RocePolicy{true, false});
  EXPECT_TRUE(fs::exists(dir_ + "/roce-plan.json"));
  EXPECT_FALSE(fs::exists(dir_ + "/frr"));

  r = write_roce_state(topo, dir_, RocePolicy{false, false});
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.switches, 0u) << "no plan built when nothing is written";
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(RoceState, WriterSkipsAnUnchangedFabricAndRewritesMissingFiles) {
  RoceStateWriter writer;
  EXPECT_FALSE(writer.wait_idle().has_value());
  auto topo = std::make_shared<const Topology>(two_switches(false));
  writer.submit(topo, dir_, RocePolicy{});
  auto first = writer.wait_idle();
  ASSERT_TRUE(first.has_value());
  EXPECT_FALSE(first->unchanged);
  EXPECT_TRUE(first->errors.empty());
  // The same cabling found again in another order: nothing to write.
  writer.submit(std::make_shared<const Topology>(two_switches(true)), dir_, RocePolicy{});
  EXPECT_TRUE(writer.wait_idle()->unchanged);
  // Someone removed the plan: written again.
  fs::remove(dir_ + "/roce-plan.json");
  writer.submit(topo, dir_, RocePolicy{});
  EXPECT_FALSE(writer.wait_idle()->unchanged);
  EXPECT_TRUE(fs::exists(dir_ + "/roce-plan.json"));
  // A policy change is a change.
  writer.submit(topo, dir_, RocePolicy{true, false});
  EXPECT_FALSE(writer.wait_idle()->unchanged);
  EXPECT_FALSE(fs::exists(dir_ + "/frr"));
}

// A caller blocked on the writer (smd --once after its sweep, a stopping daemon) must not wait on an
// idle-priority thread: on a busy host SCHED_IDLE gets next to no CPU. The write it waits for ends at
// SCHED_OTHER; the next write, which nobody waits for when it starts, goes back to SCHED_IDLE.
TEST_F(RoceState, WriterRunsAtNormalPriorityWhileSomethingWaitsForIt) {
  RoceStateWriter writer;
  writer.submit(std::make_shared<const Topology>(two_switches(false)), dir_, RocePolicy{});
  auto waited = writer.wait_idle();
  ASSERT_TRUE(waited.has_value());
  EXPECT_EQ(waited->sched_policy, SCHED_OTHER);
  // Nobody waits for this one (the plan is removed, so it is written in full): it runs at SCHED_IDLE.
  // Its report is read only after its files are there and it has been given time to finish.
  fs::remove(dir_ + "/roce-plan.json");
  writer.submit(std::make_shared<const Topology>(two_switches(false)), dir_, RocePolicy{});
  for (int i = 0; i < 500 && !fs::exists(dir_ + "/roce-plan.json"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto idle = writer.wait_idle();
  ASSERT_TRUE(idle.has_value());
  EXPECT_FALSE(idle->unchanged);
  EXPECT_EQ(idle->sched_policy, SCHED_IDLE);
}

// smd --once waits for every write anyway (set_always_waited_for): a write that ends before anybody has
// called wait_idle ran at SCHED_OTHER all along, not SCHED_IDLE as in the test above.
TEST_F(RoceState, WriterAlwaysWaitedForNeverRunsAtIdlePriority) {
  RoceStateWriter writer;
  writer.set_always_waited_for(true);
  writer.submit(std::make_shared<const Topology>(two_switches(false)), dir_, RocePolicy{});
  for (int i = 0; i < 500 && !fs::exists(dir_ + "/roce-plan.json"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto report = writer.wait_idle();
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->unchanged);
  EXPECT_TRUE(report->errors.empty());
  EXPECT_EQ(report->sched_policy, SCHED_OTHER);
  // Switched off again (a daemon's writer): the next unwaited write is back at SCHED_IDLE.
  writer.set_always_waited_for(false);
  fs::remove(dir_ + "/roce-plan.json");
  writer.submit(std::make_shared<const Topology>(two_switches(false)), dir_, RocePolicy{});
  for (int i = 0; i < 500 && !fs::exists(dir_ + "/roce-plan.json"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto idle = writer.wait_idle();
  ASSERT_TRUE(idle.has_value());
  EXPECT_EQ(idle->sched_policy, SCHED_IDLE);
}

TEST_F(RoceState, StreamedAtomicWriteLeavesNoTemporary) {
  const std::string path = dir_ + "/big.txt";
  ASSERT_TRUE(write_file_atomic_stream(path, [](std::ostream& os) { os << "one\ntwo\n"; }).ok());
  EXPECT_EQ(read_text(path), "one\ntwo\n");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  const auto failed = write_file_atomic_stream(dir_ + "/missing/x.txt", [](std::ostream& os) { os << "x"; });
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, ErrorCode::kIo);
  EXPECT_NE(failed.error().message.find(dir_ + "/missing/x.txt.tmp"), std::string::npos);
}

}  // namespace
}  // namespace smd::roce_state_test
