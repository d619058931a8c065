// `smd check-config` and `smd plan` on the bad inputs operators actually feed them: each is refused with
// a nonzero exit and a message that names the place (file:line:column, netfile line, islands), and
// endless or special files are refused instead of read forever.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "smd/cli/check_config_command.h"
#include "smd/cli/plan_command.h"
#include "tests/unit/temp_dir.h"

namespace smd::bad_input_commands_test {
namespace {

class BadInput : public test::TempDirTest {
 protected:
  int check_config(const std::string& path) {
    out_.str("");
    err_.str("");
    return run_check_config(path, true, out_, err_);
  }
  int plan(const std::string& netfile) {
    out_.str("");
    err_.str("");
    PlanArgs args;
    args.topology = netfile;
    args.seeds = 1;
    return run_plan(args, out_, err_);
  }
  std::ostringstream out_, err_;
};

TEST_F(BadInput, CheckConfigRefusesAnUnclosedQuoteAtItsPlace) {
  const std::string path = write("q.yaml", "sm:\n  state_dir: \"/var/lib/smd\nmad:\n  window: 8\n");
  EXPECT_EQ(check_config(path), 2);
  EXPECT_EQ(err_.str(), path + ":2:14: YAML syntax error: double-quoted scalar is never closed\n");
}

// What an error quotes from the input reaches a terminal: a terminal escape in a key (here one that would
// retitle the window) is shown as \xNN, never sent raw.
TEST_F(BadInput, ErrorsQuoteControlCharactersEscaped) {
  const std::string path = write("esc.yaml", "zz\x1b]0;pwned\x07: 1\n");
  EXPECT_EQ(check_config(path), 2);
  EXPECT_EQ(err_.str().find('\x1b'), std::string::npos);
  EXPECT_EQ(err_.str().rfind(path + ":1:1: zz\\x1b]0;pwned\\x07: unknown key;", 0), 0u) << err_.str();
  const std::string net = write("esc.net", "Switch 2 \"s\"\n[1] \"h\x1b[2J\"[1]\n");
  EXPECT_EQ(plan(net), 2);
  EXPECT_EQ(err_.str().find('\x1b'), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("h\\x1b[2J"), std::string::npos) << err_.str();
}

TEST_F(BadInput, CheckConfigValidatesMetricsListen) {
  const std::string bad_port = write("p.yaml", "metrics:\n  listen: 127.0.0.1:99999\n");
  EXPECT_EQ(check_config(bad_port), 2);
  EXPECT_EQ(err_.str(), bad_port + ":2:11: metrics.listen: '127.0.0.1:99999': port must be 0..65535\n");
  const std::string no_port = write("h.yaml", "metrics:\n  enabled: true\n  listen: nohost\n");
  EXPECT_EQ(check_config(no_port), 2);
  EXPECT_EQ(err_.str(), no_port + ":3:11: metrics.listen: 'nohost': expected host:port\n");
  EXPECT_EQ(check_config(write("ok.yaml", "metrics:\n  listen: '[::1]:9464'\n")), 0) << err_.str();
}

TEST_F(BadInput, CheckConfigRefusesEndlessAndSpecialFilesAtOnce) {
  const std::string fifo = dir_ + "/fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(check_config("/dev/zero"), 2);
  EXPECT_EQ(err_.str(), "cannot read policy file /dev/zero: it is a character device, not a regular file\n");
  EXPECT_EQ(check_config(fifo), 2);
  EXPECT_EQ(err_.str(), "cannot read policy file " + fifo + ": it is a FIFO, not a regular file\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(BadInput, PlanRefusesDisconnectedIslandsByName) {
  // Two leaf switches with two hosts each and no cable between them.
  const std::string net = write("islands.net",
                                "Hca 1 \"h0\"\n[1] \"s0\"[1]\n\nHca 1 \"h1\"\n[1] \"s0\"[2]\n\n"
                                "Switch 2 \"s0\"\n[1] \"h0\"[1]\n[2] \"h1\"[1]\n\n"
                                "Hca 1 \"h2\"\n[1] \"s1\"[1]\n\nHca 1 \"h3\"\n[1] \"s1\"[2]\n\n"
                                "Switch 2 \"s1\"\n[1] \"h2\"[1]\n[2] \"h3\"[1]\n");
  EXPECT_EQ(plan(net), kPlanBadInput);
  EXPECT_EQ(err_.str(), "smd plan: " + net +
                            ": the fabric falls apart into 2 islands: [3 nodes: h0, h1, s0] [3 nodes: h2, h3, s1]; "
                            "cable them together or plan each island from its own netfile\n");
  EXPECT_TRUE(out_.str().empty());
}

TEST_F(BadInput, PlanRefusesASwitchCabledToItselfWithItsLine) {
  const std::string net = write("loop.net",
                                "Hca 1 \"h0\"\n[1] \"s0\"[1]\n\n"
                                "Switch 4 \"s0\"\n[1] \"h0\"[1]\n[2] \"s0\"[3]\n[3] \"s0\"[2]\n");
  EXPECT_EQ(plan(net), kPlanBadInput);
  EXPECT_EQ(err_.str(),
            "smd plan: " + net + ":6:1: port \"s0\"[2] is cabled to port 3 of the same node (a loopback cable)\n");
}

TEST_F(BadInput, PlanRefusesDevZeroAtOnce) {
  EXPECT_EQ(plan("/dev/zero"), kPlanBadInput);
  EXPECT_EQ(err_.str(), "smd plan: cannot read netfile /dev/zero: it is a character device, not a regular file\n");
}

TEST_F(BadInput, PlanRefusesAnEndlessPairsFile) {
  PlanArgs args;
  args.topology = std::string(SMD_SOURCE_DIR) + "/tests/fabrics/twoswitch.net";
  args.seeds = 1;
  args.roce.compare = true;
  args.roce.pairs_file = "/dev/zero";
  EXPECT_EQ(run_plan(args, out_, err_), kPlanBadInput);
  EXPECT_NE(err_.str().find("cannot read pairs file /dev/zero: it is a character device, not a regular file"),
            std::string::npos)
      << err_.str();
}

TEST_F(BadInput, PlanRefusesAnOutputFileThatIsAnInput) {
  // The netfile given twice, once as the input and once (through a "./" spelling) as --opensm-lfts: the
  // plan must refuse before it reads or writes anything, and the netfile must stay as it was.
  const std::string text = "Hca 1 \"h0\"\n[1] \"s0\"[1]\n\nHca 1 \"h1\"\n[1] \"s0\"[2]\n\n"
                           "Switch 2 \"s0\"\n[1] \"h0\"[1]\n[2] \"h1\"[1]\n";
  const std::string net = write("in.net", text);
  PlanArgs args;
  args.topology = net;
  args.seeds = 1;
  args.opensm_lfts = dir_ + "/./in.net";
  EXPECT_EQ(run_plan(args, out_, err_), kPlanBadInput);
  EXPECT_EQ(err_.str(), "smd plan: --opensm-lfts " + args.opensm_lfts + " is the --topology input file; writing it "
                        "would replace the input (choose another output file)\n");
  std::ifstream in(net);
  std::stringstream kept;
  kept << in.rdbuf();
  EXPECT_EQ(kept.str(), text);
  // Two outputs into one file: the second would replace the first.
  err_.str("");
  args.opensm_lfts = dir_ + "/same.out";
  args.lft_dump = dir_ + "/./same.out";
  EXPECT_EQ(run_plan(args, out_, err_), kPlanBadInput);
  EXPECT_EQ(err_.str(), "smd plan: --lft-dump and --opensm-lfts name the same file " + args.opensm_lfts +
                            "; give each output its own file\n");
  EXPECT_FALSE(std::filesystem::exists(args.opensm_lfts));
  // The same, relative and spelled two ways (the tester's `--lft-dump ./x --opensm-lfts x`): "x" has no
  // existing first element, which weakly_canonical alone left relative, so the two compared unequal.
  {
    const std::filesystem::path cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir_);
    err_.str("");
    args.lft_dump = "./rel.out";
    args.opensm_lfts = "rel.out";
    const int code = run_plan(args, out_, err_);
    std::filesystem::current_path(cwd);
    EXPECT_EQ(code, kPlanBadInput);
    EXPECT_EQ(err_.str(), "smd plan: --lft-dump and --opensm-lfts name the same file rel.out; give each output its own "
                          "file\n");
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/rel.out"));
  }
  args.lft_dump.clear();
  // A fresh output name is fine.
  err_.str("");
  args.opensm_lfts = dir_ + "/out.dump";
  EXPECT_EQ(run_plan(args, out_, err_), 0) << err_.str();
  EXPECT_TRUE(std::filesystem::exists(args.opensm_lfts));
}

TEST_F(BadInput, PlanSaysDeclinedOnceWithoutRepeatingTheEngine) {
  // A ring is no fat tree: ftree declines, updn routes it.
  const std::string ring = std::string(SMD_SOURCE_DIR) + "/tests/fabrics/ring.net";
  EXPECT_EQ(plan(ring), 0) << err_.str();
  const std::string text = out_.str();
  EXPECT_NE(text.find("declined      ftree: declined: not a fat tree: "), std::string::npos) << text;
  EXPECT_EQ(text.find("ftree: declined: ftree:"), std::string::npos) << text;
}

TEST_F(BadInput, PlanRefusesAGuid2LidFileThatIsMissingOrHasABadLine) {
  PlanArgs args;
  args.topology = std::string(SMD_SOURCE_DIR) + "/tests/fabrics/twoswitch.net";
  args.seeds = 1;
  args.guid2lid = dir_ + "/absent";
  EXPECT_EQ(run_plan(args, out_, err_), kPlanBadInput);
  EXPECT_EQ(err_.str(), "smd plan: cannot open guid2lid file " + args.guid2lid + ": No such file or directory\n");
  err_.str("");
  args.guid2lid = write("guid2lid", "0x0000000000100001 0x0001 0x0001\n0x0000000000100003 0x0002\n");
  EXPECT_EQ(run_plan(args, out_, err_), kPlanBadInput);
  EXPECT_NE(err_.str().find("smd plan: " + args.guid2lid + ":2: "), std::string::npos) << err_.str();
}

TEST_F(BadInput, PlanKeepsTheLidsOfAGuid2LidFile) {
  // host-0's port (GUID 0x100001 in ibsim's numbering) keeps LID 0x40 instead of a fresh low one.
  PlanArgs args;
  args.topology = std::string(SMD_SOURCE_DIR) + "/tests/fabrics/twoswitch.net";
  args.seeds = 1;
  args.format = "json";
  args.guid2lid = write("guid2lid", "0x0000000000100001 0x0040 0x0040\n");
  EXPECT_EQ(run_plan(args, out_, err_), 0) << err_.str();
  EXPECT_NE(out_.str().find("\"max_lid\": 64"), std::string::npos) << out_.str().substr(0, 400);
}

// An entry past --linear-fdb-cap is not kept: the warning names the file's line, the GUID and the LID.
TEST_F(BadInput, PlanWarnsOfAGuid2LidEntryAboveTheLinearFdbCap) {
  PlanArgs args;
  args.topology = std::string(SMD_SOURCE_DIR) + "/tests/fabrics/twoswitch.net";
  args.seeds = 1;
  args.linear_fdb_cap = 0x40;
  args.guid2lid = write("guid2lid", "# host-0\n0x0000000000100001 0x0040 0x0040\n");
  EXPECT_EQ(run_plan(args, out_, err_), 0) << err_.str();
  EXPECT_EQ(err_.str(), "smd plan: warning: " + args.guid2lid +
                            ":2: GUID 0x0000000000100001 LID 0x0040 is above 0x003f, the highest LID every switch "
                            "can forward (smallest LinearFDBCap); the port gets a new LID\n");
}

// A chain of 65 switches: the far end is 65 cables from the SM, beyond directed routes' 63 hops. The plan
// routes it but says that the daemon will not reach what lies past hop 63 (switches 63 and 64 and host h1).
TEST_F(BadInput, PlanWarnsOfNodesBeyondDirectedRouteReach) {
  std::string net = "Hca 1 \"h0\"\n[1] \"s0\"[3]\n\n";
  for (int i = 0; i < 65; ++i) {
    net += "Switch 3 \"s" + std::to_string(i) + "\"\n";
    if (i > 0) net += "[1] \"s" + std::to_string(i - 1) + "\"[2]\n";
    if (i < 64) net += "[2] \"s" + std::to_string(i + 1) + "\"[1]\n";
    if (i == 0) net += "[3] \"h0\"[1]\n";
    if (i == 64) net += "[3] \"h1\"[1]\n";
    net += "\n";
  }
  net += "Hca 1 \"h1\"\n[1] \"s64\"[3]\n";
  PlanArgs args;
  args.topology = write("chain.net", net);
  args.seeds = 1;
  EXPECT_EQ(run_plan(args, out_, err_), 0) << err_.str();
  EXPECT_NE(err_.str().find("smd plan: warning: 3 node(s) more than 63 cables from the SM"), std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("(h1), at 66)"), std::string::npos) << err_.str();
}

// Entries for ports the topology does not have (another fabric, other port numbering) keep no LID: the plan
// says how many instead of planning other LIDs than the fabric's without a word.
TEST_F(BadInput, PlanWarnsOfGuid2LidEntriesThatNameNoPort) {
  PlanArgs args;
  args.topology = std::string(SMD_SOURCE_DIR) + "/tests/fabrics/twoswitch.net";
  args.seeds = 1;
  args.guid2lid = write("guid2lid",
                        "0x0000000000100001 0x0040 0x0040\n0x0000000000999998 0x0041 0x0041\n"
                        "0x0000000000999999 0x0042 0x0042\n");
  EXPECT_EQ(run_plan(args, out_, err_), 0) << err_.str();
  EXPECT_EQ(err_.str(), "smd plan: warning: 2 of 3 entries of " + args.guid2lid +
                            " name no port of the topology (lowest 0x0000000000999998); their LIDs are not kept\n");
}

// Every CA's switch drained: dnup alone declines what is left (no switch has a CA), the default chain routes
// it; both cut every CA pair off, so both exit 5 (smd.8: 5 is what a script must not miss), not 3 for one.
TEST_F(BadInput, PlanDrainCuttingEveryPairOffExits5WhateverTheChain) {
  const std::string net = write(
      "two.net",
      "Hca 1 \"h0\"\n[1] \"leaf-0\"[1]\n\nHca 1 \"h1\"\n[1] \"leaf-1\"[1]\n\n"
      "Switch 4 \"leaf-0\"\n[1] \"h0\"[1]\n[2] \"spine\"[1]\n\nSwitch 4 \"leaf-1\"\n[1] \"h1\"[1]\n[2] \"spine\"[2]\n\n"
      "Switch 4 \"spine\"\n[1] \"leaf-0\"[2]\n[2] \"leaf-1\"[2]\n");
  const std::string dnup_only = write("dnup.yaml", "routing:\n  engines: [dnup]\n");
  for (const std::string& config : {dnup_only, std::string()}) {
    SCOPED_TRACE(config.empty() ? "default chain" : "dnup only");
    out_.str("");
    err_.str("");
    PlanArgs args;
    args.topology = net;
    args.config = config;
    args.seeds = 1;
    args.drain = {"leaf-0", "leaf-1"};
    EXPECT_EQ(run_plan(args, out_, err_), kPlanDrainCutsOff) << err_.str();
    EXPECT_NE(err_.str().find("cut off"), std::string::npos) << err_.str();
  }
}

}  // namespace
}  // namespace smd::bad_input_commands_test
