// routing.file.lfts_file as the policy loader reads it: the dump is read and parsed with the policy (a
// relative path from the policy's folder), and a missing or malformed dump refuses the policy with the
// key's file:line:column followed by the dump's own.
#include <gtest/gtest.h>

#include <fstream>

#include "config/policy_loader.h"
#include "config/policy_summary.h"
#include "routing/engines/file/file_options.h"
#include "tests/unit/temp_dir.h"

namespace smd::file_engine_policy_test {
namespace {

class FileEnginePolicy : public test::TempDirTest {
 protected:
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ + "/" + name) << text; }
  Result<Policy> load(const std::string& lfts_file) {
    write("p.yaml", "routing:\n  engines: [file, minhop]\n  file:\n    lfts_file: " + lfts_file + "\n");
    return load_policy_file(dir_ + "/p.yaml");
  }
};

constexpr const char* kDump =
    "Unicast lids [0-2] of switch Lid 1 guid 0x0000000000200000 ('s'):\n"
    "0x0001 000 # Switch portguid 0x0000000000200000: 's'\n"
    "0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'h'\n"
    "2 lids dumped\n";

TEST_F(FileEnginePolicy, RelativePathIsReadFromThePolicysFolder) {
  write("lfts.dump", kDump);
  auto policy = load("lfts.dump");
  ASSERT_TRUE(policy.ok()) << policy.error().message;
  const FileOptions& o = policy->routing.options.engines.get<FileOptions>();
  EXPECT_EQ(o.lfts_file, "lfts.dump");
  ASSERT_NE(o.dump, nullptr);
  EXPECT_EQ(o.dump->source, dir_ + "/lfts.dump");
  ASSERT_EQ(o.dump->switches.size(), 1u);
  EXPECT_EQ(o.dump->switches[0].guid, 0x200000u);
  ASSERT_EQ(o.dump->switches[0].routes.size(), 2u);
  EXPECT_EQ(o.dump->switches[0].routes[1].port, 1);
}

TEST_F(FileEnginePolicy, AbsentKeyMeansNoDump) {
  write("p.yaml", "routing:\n  engines: [minhop]\n");
  auto policy = load_policy_file(dir_ + "/p.yaml");
  ASSERT_TRUE(policy.ok()) << policy.error().message;
  EXPECT_EQ(policy->routing.options.engines.get<FileOptions>().dump, nullptr);
}

TEST_F(FileEnginePolicy, MalformedDumpRefusesThePolicyAtBothPlaces) {
  write("lfts.dump", std::string(kDump) + "0x0003 001\n");
  auto policy = load("lfts.dump");
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.error().message, dir_ + "/p.yaml:4:5: routing.file.lfts_file: " + dir_ +
                                        "/lfts.dump:5:1: route outside a section (before its \"Unicast lids\" "
                                        "header or after \"<n> lids dumped\")");
}

TEST_F(FileEnginePolicy, MissingDumpRefusesThePolicy) {
  auto policy = load(dir_ + "/absent.dump");
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.error().message, dir_ + "/p.yaml:4:5: routing.file.lfts_file: cannot open file " + dir_ +
                                        "/absent.dump: No such file or directory");
}

}  // namespace
}  // namespace smd::file_engine_policy_test
