// `smd import-partitions` (smd/cli/import_commands.h): its exit codes, where the YAML and the
// warnings go, and that a refused input or an unwritable output leaves nothing behind.
#include "smd/cli/import_commands.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/unit/temp_dir.h"

namespace smd::import_partitions_command_test {
namespace {

class ImportPartitions : public test::TempDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  int run(const std::string& input, const std::string& output) {
    out_.str("");
    err_.str("");
    return run_import_partitions(input, output, out_, err_);
  }
  std::ostringstream out_, err_;
};

TEST_F(ImportPartitions, PrintsTheSectionAndWarnsOnStderr) {
  const std::string conf = write("p.conf", "Tenant : 0x10=full ;\n");
  EXPECT_EQ(run(conf, ""), 0) << err_.str();
  EXPECT_EQ(err_.str(), "warning: " + conf +
                            ":1:1: partition 'Tenant' has no P_Key; assigned 0x0001 (the lowest P_Key no other "
                            "statement of the file names)\n");
  const std::string yaml = out_.str();
  EXPECT_NE(yaml.find("partitions:\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("    - name: \"Tenant\"\n      pkey: 0x0001\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("        - {guid: 0x0000000000000010, membership: full}\n"), std::string::npos) << yaml;
}

TEST_F(ImportPartitions, WritesTheOutputFileInsteadOfStdout) {
  const std::string conf = write("p.conf", "A=0x10 : ALL ;\n");
  const std::string out = dir_ + "/p.yaml";
  EXPECT_EQ(run(conf, out), 0) << err_.str();
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(), "");
  std::ifstream file(out);
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_NE(text.str().find("pkey: 0x0010"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST_F(ImportPartitions, AFileThatCannotBeConvertedExits2AndWritesNothing) {
  const std::string conf = write("p.conf", "A=0x10 : ALL ;\nB=0x20,ipob : ALL ;\n");
  const std::string out = dir_ + "/p.yaml";
  EXPECT_EQ(run(conf, out), 2);
  EXPECT_EQ(err_.str(), conf +
                            ":2:8: unknown flag 'ipob'; expected indx0, ipoib, defmember=, rate=, mtu=, sl=, "
                            "scope=, Q_Key=, TClass=, FlowLabel=\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(run(dir_ + "/absent.conf", ""), 2);
  EXPECT_EQ(err_.str(), "cannot open partitions file " + dir_ + "/absent.conf: No such file or directory\n");
}

TEST_F(ImportPartitions, ASectionLargerThanAPolicyMayBeExits2AndWritesNothing) {
  // 40,000 short GUIDs: about 300 KB of partitions.conf, some 1.5 MB of YAML (one line per member).
  std::string conf_text = "Big=0x10 : ";
  for (unsigned g = 1; g <= 40000; ++g) conf_text += (g > 1 ? "," : "") + std::to_string(g);
  conf_text += " ;\n";
  const std::string conf = write("big.conf", conf_text);
  const std::string out = dir_ + "/p.yaml";
  EXPECT_EQ(run(conf, out), 2);
  EXPECT_NE(err_.str().find(conf + ": the converted partitions: section would be "), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("more than the 1048576 a policy file may hold"), std::string::npos) << err_.str();
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(out_.str(), "");
}

TEST_F(ImportPartitions, AnUnwritableOutputExits4) {
  const std::string conf = write("p.conf", "A=0x10 : ALL ;\n");
  const std::string out = dir_ + "/no/such/dir/p.yaml";
  EXPECT_EQ(run(conf, out), 4);
  EXPECT_EQ(err_.str().rfind("cannot write " + out + ": create " + out + ".tmp: ", 0), 0u) << err_.str();
}

// A FIFO (or a device such as /dev/full) given as the output is refused and left as it was, never
// replaced by a file; a symlink planted at OUT.tmp is not followed.
TEST_F(ImportPartitions, AnOutputThatIsNotARegularFileIsRefusedAndKept) {
  const std::string conf = write("p.conf", "A=0x10 : ALL ;\n");
  const std::string fifo = dir_ + "/out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(run(conf, fifo), 4);
  EXPECT_NE(err_.str().find(fifo + " is a FIFO"), std::string::npos) << err_.str();
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  const std::string victim = write("victim", "untouched");
  const std::string out = dir_ + "/p.yaml";
  std::filesystem::create_symlink(victim, out + ".tmp");
  err_.str("");
  EXPECT_EQ(run(conf, out), 0) << err_.str();
  std::ifstream in(victim);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "untouched");
  EXPECT_TRUE(std::filesystem::is_regular_file(out));
}

}  // namespace
}  // namespace smd::import_partitions_command_test
