#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "smd/guid2lid_file.h"

namespace smd {
namespace {

class Guid2LidFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "smd-g2l-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    path_ = dir_ + "/guid2lid";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& text) { std::ofstream(path_) << text; }
  std::string dir_, path_;
};

TEST_F(Guid2LidFile, MissingFileIsEmpty) {
  auto r = read_guid2lid(path_);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->entries.empty());
  EXPECT_TRUE(r->problems.empty());
}

TEST_F(Guid2LidFile, WritesOpenSmFormatSortedByLid) {
  Guid2Lid g;
  g[0x0002c90300001234ULL] = {8, 11};
  g[0x200000ULL] = {1, 1};
  ASSERT_TRUE(write_guid2lid(path_, g).ok());
  std::ifstream in(path_);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "0x0000000000200000 0x0001 0x0001\n0x0002c90300001234 0x0008 0x000b\n");
  EXPECT_FALSE(std::filesystem::exists(path_ + ".tmp"));
}

TEST_F(Guid2LidFile, RoundTrips) {
  Guid2Lid g;
  for (Guid i = 0; i < 100; ++i) g[0x100000 + i] = {static_cast<Lid>(i * 4 + 4), static_cast<Lid>(i * 4 + 7)};
  ASSERT_TRUE(write_guid2lid(path_, g).ok());
  auto r = read_guid2lid(path_);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->problems.empty());
  ASSERT_EQ(r->entries.size(), g.size());
  for (const auto& [guid, range] : g) {
    EXPECT_EQ(r->entries.at(guid).min, range.min);
    EXPECT_EQ(r->entries.at(guid).max, range.max);
  }
}

TEST_F(Guid2LidFile, CorruptLinesAreReportedByNumberAndTheRestKept) {
  write(
      "0x0000000000100001 0x0001 0x0001\n"
      "garbage\n"
      "0x0000000000100002 0x0002\n"
      "0x0000000000100003 0xc000 0xc000\n"
      "# comment\n"
      "0x0000000000100004 0x0005 0x0004\n"
      "0x0000000000100005 0x0006 0x0006\n"
      "0x00000000001000");  // truncated last line
  auto r = read_guid2lid(path_);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->entries.size(), 2u);
  EXPECT_EQ(r->entries.at(0x100001).min, 1);
  EXPECT_EQ(r->entries.at(0x100005).min, 6);
  ASSERT_EQ(r->problems.size(), 5u);
  EXPECT_NE(r->problems[0].find(":2:"), std::string::npos) << r->problems[0];
  EXPECT_NE(r->problems[1].find(":3:"), std::string::npos);
  EXPECT_NE(r->problems[2].find(":4:"), std::string::npos);
  EXPECT_NE(r->problems[3].find(":6:"), std::string::npos);
  EXPECT_NE(r->problems[4].find(":8:"), std::string::npos);
}

TEST_F(Guid2LidFile, FailedWriteLeavesOldFileIntact) {
  Guid2Lid g;
  g[1] = {1, 1};
  ASSERT_TRUE(write_guid2lid(path_, g).ok());
  // A directory where the temp file must go makes the write fail, for root too.
  std::filesystem::create_directory(path_ + ".tmp");
  g[2] = {2, 2};
  auto st = write_guid2lid(path_, g);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kIo);
  EXPECT_NE(st.error().message.find(path_ + ".tmp"), std::string::npos);
  auto r = read_guid2lid(path_);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->entries.size(), 1u);
}

}  // namespace
}  // namespace smd
