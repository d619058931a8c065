// smd plan --lft-dump: every entry line is "0x%04x %u" of the routed tables (the format the dump's header
// promises), whatever the port's number of digits. The expected lines are printed here with snprintf from
// the tables the default engine chain computes on the same netfile, not by the planner's own formatter.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>  // mkdtemp
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config/netfile_file.h"
#include "config/policy.h"
#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "routing/netfile/netfile_writer.h"
#include "smd/cli/plan_command.h"

namespace smd::plan_lft_dump_test {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PlanLftDump, EntryLinesAreTheTablesInHexAndDecimal) {
  // 120 hosts on each of two leaves: leaf ports 1..120 face hosts and 121..122 the spines, so entries
  // have one, two and three decimal digits, and LIDs run past 0x00a0 (hex letters).
  LeafSpineSpec spec;
  spec.leaves = 2;
  spec.spines = 2;
  spec.hosts_per_leaf = 120;
  auto built = make_leaf_spine(spec);
  ASSERT_TRUE(built.ok()) << built.error().message;
  std::string tmpl = (std::filesystem::temp_directory_path() / "smd-lft-dump-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const std::string dir = tmpl;
  {
    std::ofstream net(dir + "/ls.net");
    ASSERT_TRUE(write_netfile(*built, net).ok());
  }
  PlanArgs args;
  args.topology = dir + "/ls.net";
  args.seeds = 1;
  args.lft_dump = dir + "/lfts.txt";
  std::ostringstream out, err;
  ASSERT_EQ(run_plan(args, out, err), 0) << err.str();

  // The same netfile, LIDs and chain as the planner's defaults, formatted independently.
  auto topo = read_netfile_file(args.topology);
  ASSERT_TRUE(topo.ok()) << topo.error().message;
  const Policy policy;
  auto lids = assign_lids(*topo, {}, LidAssignOptions{});
  ASSERT_TRUE(lids.ok()) << lids.error().message;
  auto routed = route_with_chain(policy.routing.engines, policy.routing.options, *topo, *lids, {});
  ASSERT_TRUE(routed.ok()) << routed.error().message;
  std::vector<std::string> expected;
  unsigned three_digit_ports = 0;
  for (NodeIndex n : topo->switches()) {
    const auto& e = routed->tables.lft[n].entries();
    for (std::size_t lid = 1; lid < e.size(); ++lid) {
      if (e[lid] == kNoPort) continue;
      char line[32];
      std::snprintf(line, sizeof line, "0x%04x %u", static_cast<unsigned>(lid), static_cast<unsigned>(e[lid]));
      expected.emplace_back(line);
      three_digit_ports += e[lid] >= 100;
    }
  }
  EXPECT_GT(three_digit_ports, 0u) << "the fabric must route some LID out of a port numbered 100 or more";

  std::vector<std::string> got;
  std::istringstream dump(read_text(args.lft_dump));
  for (std::string line; std::getline(dump, line);) {
    if (!line.empty() && line[0] != '#' && line.rfind("switch ", 0) != 0) got.push_back(line);
  }
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], expected[i]) << "entry line " << i;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace smd::plan_lft_dump_test
