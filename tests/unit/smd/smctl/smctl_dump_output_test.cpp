// `smctl dump -o FILE` (smd/smctl/dump_output.h). smctl runs as root in folders others write: the file is
// replaced whole, a symlink planted at the temporary name is not followed, and nothing but a regular file is
// replaced (a rename over /dev/null would have made it a regular file). The expected bytes are read back
// with the standard library, independently of the writer.
#include "smd/smctl/dump_output.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "tests/unit/temp_dir.h"

namespace smd::smctl::smctl_dump_output_test {
namespace {

class DumpOutput : public test::TempDirTest {
 protected:
  std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

TEST_F(DumpOutput, ReplacesARegularFileWhole) {
  const std::string out = dir_ + "/lfts.dump";
  std::ofstream(out) << "an older and much longer dump that must not survive in part\n";
  EXPECT_EQ(write_whole_file(out, "Unicast lids [0x0-0x3] of switch\n"), "");
  EXPECT_EQ(read(out), "Unicast lids [0x0-0x3] of switch\n");
  EXPECT_NE(::access((out + ".tmp-" + std::to_string(::getpid())).c_str(), F_OK), 0);
}

TEST_F(DumpOutput, APlantedSymlinkAtTheTemporaryIsNotFollowed) {
  const std::string out = dir_ + "/lfts.dump";
  const std::string victim = dir_ + "/shadow";
  std::ofstream(victim) << "root:x:0:0\n";
  ASSERT_EQ(::symlink(victim.c_str(), (out + ".tmp-" + std::to_string(::getpid())).c_str()), 0);
  EXPECT_EQ(write_whole_file(out, "dump text\n"), "");
  EXPECT_EQ(read(victim), "root:x:0:0\n");
  EXPECT_EQ(read(out), "dump text\n");
}

TEST_F(DumpOutput, OnlyARegularFileIsReplaced) {
  // A character device like /dev/null (made here, not the real one: the test must not need to break it).
  const std::string dev = dir_ + "/null";
  ASSERT_EQ(::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0) << "needs root, as the test suite runs";
  EXPECT_EQ(write_whole_file(dev, "x\n"),
            dev + " is a device node, not a regular file; write to a file, or leave -o out for stdout");
  struct stat st {};
  ASSERT_EQ(::lstat(dev.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));

  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(write_whole_file(fifo, "x\n"),
            fifo + " is a FIFO, not a regular file; write to a file, or leave -o out for stdout");

  const std::string target = dir_ + "/target";
  std::ofstream(target) << "kept\n";
  const std::string link = dir_ + "/link";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  EXPECT_EQ(write_whole_file(link, "x\n"),
            link + " is a symbolic link, not a regular file; write to a file, or leave -o out for stdout");
  EXPECT_EQ(read(target), "kept\n");

  EXPECT_EQ(write_whole_file(dir_, "x\n"),
            dir_ + " is a directory, not a regular file; write to a file, or leave -o out for stdout");
  const std::string missing = dir_ + "/no/such/folder/f";
  EXPECT_EQ(write_whole_file(missing, "x\n").rfind("cannot create " + missing + ".tmp-", 0), 0u);
}

}  // namespace
}  // namespace smd::smctl::smctl_dump_output_test
