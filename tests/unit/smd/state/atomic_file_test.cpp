// Atomic replacement of output and state files (smd/state/atomic_file.h): only a regular file or nothing is
// replaced; a device node, FIFO, symlink or directory at the path is refused and left as it was, and a
// symlink planted at the temporary's name is not followed.
#include "smd/state/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/unit/temp_dir.h"

namespace smd::atomic_file_test {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public test::TempDirTest {
 protected:
  std::string read(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
  }
};

TEST_F(AtomicFile, ReplacesARegularFileAndCreatesAMissingOne) {
  const std::string old_file = dir_ + "/old";
  std::ofstream(old_file) << "before";
  ASSERT_TRUE(write_file_atomic(old_file, "after").ok());
  EXPECT_EQ(read(old_file), "after");
  ASSERT_TRUE(write_file_atomic_stream(dir_ + "/new", [](std::ostream& os) { os << "made"; }).ok());
  EXPECT_EQ(read(dir_ + "/new"), "made");
}

TEST_F(AtomicFile, RefusesToReplaceAFifo) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const bool streamed : {false, true}) {
    const Status st =
        streamed ? write_file_atomic_stream(fifo, [](std::ostream& os) { os << "x"; }) : write_file_atomic(fifo, "x");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::kIo);
    EXPECT_NE(st.error().message.find(fifo + " is a FIFO"), std::string::npos) << st.error().message;
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_FALSE(fs::exists(fifo + ".tmp"));
  }
}

TEST_F(AtomicFile, RefusesToReplaceASymlinkOrADirectoryAndLeavesTheTargetAlone) {
  const std::string target = dir_ + "/target";
  std::ofstream(target) << "keep";
  const std::string link = dir_ + "/link";
  fs::create_symlink(target, link);
  const Status st = write_file_atomic(link, "x");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("is a symbolic link"), std::string::npos) << st.error().message;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(target), "keep");
  fs::create_directory(dir_ + "/sub");
  const Status on_dir = write_file_atomic(dir_ + "/sub", "x");
  ASSERT_FALSE(on_dir.ok());
  EXPECT_NE(on_dir.error().message.find("is a directory"), std::string::npos) << on_dir.error().message;
}

TEST_F(AtomicFile, DoesNotFollowASymlinkPlantedAtTheTemporary) {
  const std::string victim = dir_ + "/victim";
  std::ofstream(victim) << "untouched";
  const std::string out = dir_ + "/out";
  fs::create_symlink(victim, out + ".tmp");
  ASSERT_TRUE(write_file_atomic(out, "new").ok());
  EXPECT_EQ(read(out), "new");
  EXPECT_EQ(read(victim), "untouched");
  fs::create_symlink(victim, out + ".tmp");
  ASSERT_TRUE(write_file_atomic_stream(out, [](std::ostream& os) { os << "newer"; }).ok());
  EXPECT_EQ(read(out), "newer");
  EXPECT_EQ(read(victim), "untouched");
}

// The two halves for a writer of many files (the FRR configs): the same refusals, the temporary made
// afresh and never followed, and nothing at `path` until the commit.
TEST_F(AtomicFile, TemporaryThenCommitRefusesWhatWriteFileAtomicRefuses) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Status on_fifo = write_temporary(fifo, "x");
  ASSERT_FALSE(on_fifo.ok());
  EXPECT_NE(on_fifo.error().message.find(fifo + " is a FIFO"), std::string::npos) << on_fifo.error().message;
  EXPECT_FALSE(fs::exists(fifo + ".tmp"));

  const std::string victim = dir_ + "/victim";
  std::ofstream(victim) << "untouched";
  const std::string out = dir_ + "/out";
  fs::create_symlink(victim, out + ".tmp");
  ASSERT_TRUE(write_temporary(out, "new").ok());
  EXPECT_EQ(read(victim), "untouched");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(read(out + ".tmp"), "new");
  ASSERT_TRUE(commit_temporary(out).ok());
  EXPECT_EQ(read(out), "new");
  EXPECT_FALSE(fs::exists(out + ".tmp"));
  EXPECT_FALSE(commit_temporary(dir_ + "/never-written").ok());
}

}  // namespace
}  // namespace smd::atomic_file_test
