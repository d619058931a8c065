// read_regular_file: reads plain files whole; refuses devices, FIFOs, directories and oversized files
// without blocking or reading them.
#include "config/text_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/temp_dir.h"

namespace smd::text_file_test {
namespace {

class TextFile : public test::TempDirTest {};

TEST_F(TextFile, ReadsAPlainFileWhole) {
  const std::string path = dir_ + "/a.txt";
  const std::string text(200000, 'x');  // several read() calls
  std::ofstream(path) << text << "end\n";
  auto r = read_regular_file(path, 1u << 20, "test file");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, text + "end\n");
}

TEST_F(TextFile, RefusesWhatIsNotAPlainFile) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  struct Case {
    std::string path;
    const char* kind;
  };
  for (const Case& c : {Case{"/dev/zero", "a character device"}, Case{fifo, "a FIFO"}, Case{dir_, "a directory"}}) {
    auto r = read_regular_file(c.path, 1u << 20, "netfile");
    ASSERT_FALSE(r.ok()) << c.path;
    EXPECT_EQ(r.error().code, ErrorCode::kIo);
    EXPECT_EQ(r.error().message, "cannot read netfile " + c.path + ": it is " + c.kind + ", not a regular file");
  }
}

TEST_F(TextFile, RefusesAFileAboveTheLimit) {
  const std::string path = dir_ + "/big";
  std::ofstream(path) << std::string(1025, 'y');
  auto r = read_regular_file(path, 1024, "policy file");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot read policy file " + path + ": larger than 1024 bytes");
  EXPECT_TRUE(read_regular_file(path, 1025, "policy file").ok());
}

TEST_F(TextFile, MissingFileNamesPathAndErrno) {
  auto r = read_regular_file(dir_ + "/absent", 10, "guid2lid file");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot open guid2lid file " + dir_ + "/absent: No such file or directory");
}

}  // namespace
}  // namespace smd::text_file_test
