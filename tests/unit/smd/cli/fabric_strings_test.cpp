// NodeDescriptions are chosen by the fabric, not the operator: newlines, carriage returns, terminal
// escapes, NUL and bytes that are not UTF-8 are fed through every writer that prints them, and each
// output is checked by the rules of its own format: the RoCE plan JSON parses strictly and keeps the
// names; frr.conf is printable ASCII with exactly the lines smd meant; the ca-order file, `smd --once`'s
// summary, smctl's tables and log lines hold no control character; Prometheus labels stay on one line.
#include <gtest/gtest.h>
#include <spdlog/details/log_msg.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "routing/base/safe_text.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/roce/frr_writer.h"
#include "smd/cli/logging.h"
#include "smd/cli/plan_command.h"
#include "smd/cli/summary_text.h"
#include "smd/control/metrics_text.h"
#include "smd/smctl/smctl_render.h"
#include "smd/state/ca_order_file.h"
#include "smd/state/roce_plan_files.h"

namespace smd::fabric_strings_test {
namespace {

using namespace std::string_literals;

/// Descriptions no operator would choose; each tries another way out of its field.
const std::vector<std::string> kHostile = {
    "sw\nhostname evil\nrouter bgp 1"s,    // config injection
    "\x1b[2J\x1b]0;title\x07"s,            // terminal escapes
    "-\r\n2026-01-01 error forged"s,       // a forged log line
    "\xff\xfe\xc0\xaf not utf-8"s,         // invalid UTF-8, an overlong form
    "nul\0inside \"q\" \\ \xe2\x80\xae"s,  // NUL, quotes, backslash, RIGHT-TO-LEFT OVERRIDE
};

/// A leaf/spine whose every node carries one of kHostile (in turn).
Topology hostile_fabric() {
  auto topo = make_leaf_spine(LeafSpineSpec{3, 2, 2, 1});
  EXPECT_TRUE(topo.ok());
  for (NodeIndex n = 0; n < topo->nodes().size(); ++n)
    topo->mutable_node(n).description = kHostile[n % kHostile.size()];
  return std::move(*topo);
}

/// The lines of `text` that hold a byte below 0x20 or DEL (a line ends at '\n', which is not counted).
std::vector<std::string> lines_with_controls(const std::string& text) {
  std::vector<std::string> bad;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    for (const char c : line) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
        bad.push_back(line);
        break;
      }
    }
  }
  return bad;
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(FabricStrings, RocePlanJsonParsesStrictlyAndKeepsTheNames) {
  const Topology topo = hostile_fabric();
  auto plan = roce::RoutePlan::build(topo);
  ASSERT_TRUE(plan.ok());
  std::ostringstream os;
  write_plan_json(os, topo, *plan);
  const std::string text = os.str();
  EXPECT_TRUE(lines_with_controls(text).empty());
  // The header, `"hosts":[`, one per host, `],"switches":[`, one per switch, `]}`: no name adds a line.
  EXPECT_EQ(count_lines(text), 3 + plan->hosts().size() + plan->switches().size());
  const auto j = nlohmann::json::parse(text);  // throws on invalid UTF-8
  std::set<std::string> frr_dirs;
  for (std::size_t s = 0; s < plan->switches().size(); ++s) {
    EXPECT_EQ(j["switches"][s]["name"], valid_utf8(plan->switches()[s].name));
    frr_dirs.insert(j["switches"][s]["frr_dir"].get<std::string>());
  }
  EXPECT_EQ(frr_dirs.size(), plan->switches().size()) << "frr_dir identifies a switch";
  for (const auto& h : j["hosts"]) EXPECT_TRUE(frr_dirs.count(h["leaf"].get<std::string>()));
}

TEST(FabricStrings, FrrConfigIsPrintableAsciiWithOnlyTheLinesSmdWrites) {
  const Topology topo = hostile_fabric();
  auto plan = roce::RoutePlan::build(topo);
  ASSERT_TRUE(plan.ok());
  const auto names = roce::switch_dir_names(*plan);
  for (SwitchIndex s = 0; s < plan->switches().size(); ++s) {
    const std::string conf = roce::frr_config(*plan, s, names[s]);
    for (const char c : conf) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7F)) << static_cast<int>(c);
    std::size_t hostnames = 0, routers = 0;
    std::istringstream in(conf);
    for (std::string line; std::getline(in, line);) {
      hostnames += line.rfind("hostname ", 0) == 0;
      routers += line.rfind("router bgp ", 0) == 0;
      EXPECT_NE(line, "hostname evil");
    }
    EXPECT_EQ(hostnames, 1u);
    EXPECT_EQ(routers, 1u);
    EXPECT_NE(conf.find("\nhostname " + names[s] + "\n"), std::string::npos);
  }
}

TEST(FabricStrings, CaOrderFileHasOneLinePerCa) {
  const Topology topo = hostile_fabric();
  RoutingTables tables;
  tables.engine = "minhop";
  for (NodeIndex n = 0; n < topo.nodes().size(); ++n) {
    if (!topo.node(n).is_switch()) tables.ca_order.push_back(n);
  }
  const std::string text = ca_order_text(topo, tables);
  EXPECT_EQ(count_lines(text), 1 + tables.ca_order.size());
  EXPECT_TRUE(lines_with_controls(text).empty());
}

TEST(FabricStrings, OnceSummaryAndSmctlTablesHoldNoControlCharacters) {
  SweepSummary s;
  s.engine = "minhop";
  SweepProblem p;
  p.guid = 0x42;
  p.path = "0,1";
  p.attribute = "NodeDescription";
  for (const auto& h : kHostile) {
    s.declined.push_back("ftree: " + h);
    p.reason = "duplicate GUID on " + h;
    s.problems.push_back(p);
  }
  std::ostringstream summary;
  print_summary(summary, s, 1);
  EXPECT_TRUE(lines_with_controls(summary.str()).empty()) << summary.str();

  control::Json nodes = control::Json::array();
  for (const auto& h : kHostile) {
    nodes.push_back(
        {{"type", "CA"},
         {"guid", "0x1"},
         {"lids", {1}},
         {"dr_path", "0"},
         {"name", h},
         {"description", h},
         {"ports",
          {{{"port", 1},
            {"state", "Active"},
            {"peer", {{"name", h}, {"description", h}, {"port", 2}, {"guid", "0x2"}}}}}}});
  }
  std::ostringstream table;
  control::render_text(table, "nodes", nodes);
  EXPECT_TRUE(lines_with_controls(table.str()).empty()) << table.str();
  EXPECT_EQ(count_lines(table.str()), 1 + 2 * kHostile.size());
}

TEST(FabricStrings, LogLinesAreOneLineWithoutControlCharacters) {
  auto formatter = make_log_formatter();
  for (const auto& h : kHostile) {
    const std::string message = "sweep: node " + h + " answered";
    spdlog::details::log_msg msg("smd", spdlog::level::warn, spdlog::string_view_t(message.data(), message.size()));
    spdlog::memory_buf_t out;
    formatter->format(msg, out);
    const std::string line(out.data(), out.size());
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.back(), '\n');
    EXPECT_EQ(count_lines(line), 1u) << line;
    EXPECT_TRUE(lines_with_controls(line).empty()) << line;
    EXPECT_NE(line.find(printable_text(h)), std::string::npos);
  }
}

TEST(FabricStrings, PrometheusLabelStaysOnItsLine) {
  FabricSnapshot snap;
  snap.sm_state = "X\"}\nsmd_fake 1\n\\";  // a state name no daemon has: shown escaped, not injected
  const std::string text = render_metrics(snap);
  EXPECT_NE(text.find("smd_sm_state{state=\"X\\\"}\\nsmd_fake 1\\n\\\\\"} 1\n"), std::string::npos) << text;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) EXPECT_NE(line.rfind("smd_fake", 0), 0u) << line;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FabricStrings, SmdPlanOutputsOfAHostileNetfile) {
  // A netfile holds one description per line, quoted: kHostile without newlines and quotes, given to
  // two leaves L0, L1 (two hosts each) and a spine S, after the node ids ("Switch 3 "L0" # "<desc>"").
  auto desc = [](std::size_t i) {
    std::string d = kHostile[i % kHostile.size()];
    std::replace(d.begin(), d.end(), '\n', '\x01');
    std::replace(d.begin(), d.end(), '"', '\'');
    d.erase(std::remove(d.begin(), d.end(), '\0'), d.end());
    return d;
  };
  std::string net;
  for (int l = 0; l < 2; ++l) {
    net += "Switch 3 \"L" + std::to_string(l) + "\" # \"" + desc(l) + "\"\n[1] \"H" + std::to_string(2 * l) +
           "\"[1]\n[2] \"H" + std::to_string(2 * l + 1) + "\"[1]\n[3] \"S\"[" + std::to_string(l + 1) + "]\n\n";
  }
  net += "Switch 2 \"S\" # \"" + desc(2) + "\"\n[1] \"L0\"[3]\n[2] \"L1\"[3]\n\n";
  for (int h = 0; h < 4; ++h) {
    net += "Hca 1 \"H" + std::to_string(h) + "\" # \"" + desc(3 + h) + "\"\n[1] \"L" + std::to_string(h / 2) + "\"[" +
           std::to_string(h % 2 + 1) + "]\n\n";
  }
  std::string tmpl = (std::filesystem::temp_directory_path() / "smd-strings-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  std::ofstream(dir + "/hostile.net") << net;
  const std::size_t switches = 3;
  PlanArgs args;
  args.topology = dir + "/hostile.net";
  args.seeds = 1;
  args.lft_dump = dir + "/lfts.txt";
  args.roce.plan_json = dir + "/plan.json";
  args.roce.frr_dir = dir + "/frr";
  std::ostringstream out, err;
  ASSERT_EQ(run_plan(args, out, err), 0) << err.str();
  EXPECT_TRUE(lines_with_controls(out.str()).empty()) << out.str();
  EXPECT_TRUE(lines_with_controls(err.str()).empty()) << err.str();
  const std::string lfts = read_text(args.lft_dump);
  EXPECT_TRUE(lines_with_controls(lfts).empty());
  std::size_t switch_lines = 0;
  for (std::size_t at = lfts.find("switch 0x"); at != std::string::npos; at = lfts.find("\nswitch 0x", at + 1)) {
    ++switch_lines;
  }
  EXPECT_EQ(switch_lines, switches) << "one header line per switch";
  EXPECT_TRUE(nlohmann::json::accept(read_text(args.roce.plan_json)));
  std::size_t configs = 0;
  for (const auto& e : std::filesystem::directory_iterator(args.roce.frr_dir)) {
    for (const char c : read_text((e.path() / "frr.conf").string())) {
      EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7F)) << e.path() << ": byte " << static_cast<int>(c);
    }
    ++configs;
  }
  EXPECT_EQ(configs, switches);
  args.format = "json";
  std::ostringstream json_out;
  ASSERT_EQ(run_plan(args, json_out, err), 0) << err.str();
  EXPECT_TRUE(nlohmann::json::accept(json_out.str())) << json_out.str().substr(0, 400);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace smd::fabric_strings_test
