// LatestFileWriter: the file ends with the newest content offered, drain() returns only when it is on
// disk, the destructor writes what still waits, and a failed write leaves the next offer free to succeed.
#include "smd/state/latest_file_writer.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace smd::latest_file_writer_test {
namespace {

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path fresh_dir(const char* name) {
  const auto dir = std::filesystem::temp_directory_path() / (std::string(name) + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(LatestFileWriter, TheNewestOfferIsWhatStays) {
  const auto dir = fresh_dir("latest-writer");
  const auto path = dir / "groups.json";
  LatestFileWriter w(path.string(), "test-writer");
  for (int i = 0; i < 500; ++i) w.offer("content " + std::to_string(i) + "\n");
  w.drain();
  EXPECT_EQ(read_all(path), "content 499\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "groups.json.tmp"));
  std::filesystem::remove_all(dir);
}

TEST(LatestFileWriter, DestructorWritesWhatWaits) {
  const auto dir = fresh_dir("latest-writer-dtor");
  const auto path = dir / "f";
  {
    LatestFileWriter w(path.string(), "test-writer");
    w.offer(std::string(1 << 20, 'a'));
    w.offer("last");
  }
  EXPECT_EQ(read_all(path), "last");
  std::filesystem::remove_all(dir);
}

TEST(LatestFileWriter, AFailedWriteLeavesTheNextFree) {
  const auto dir = fresh_dir("latest-writer-fail");
  const auto path = dir / "sub" / "f";  // its folder does not exist yet: the write fails
  LatestFileWriter w(path.string(), "test-writer");
  w.offer("lost");
  w.drain();
  EXPECT_FALSE(std::filesystem::exists(path));
  std::filesystem::create_directories(dir / "sub");
  w.offer("kept");
  w.drain();
  EXPECT_EQ(read_all(path), "kept");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace smd::latest_file_writer_test
