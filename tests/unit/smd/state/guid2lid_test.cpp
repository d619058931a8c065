// guid2lid: OpenSM's format written atomically; a damaged file is reported line by line, its valid
// entries are kept and smd carries on.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/state/guid2lid_file.h"
#include "tests/unit/temp_dir.h"

namespace smd::guid2lid_test {
namespace {

class Guid2LidFile : public test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    path_ = dir_ + "/guid2lid";
  }
  void write(const std::string& text) { std::ofstream(path_) << text; }
  std::string path_;
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

// One case per kind of damage: the line named, the entries around it kept.
struct Damage {
  const char* name;
  const char* text;
  std::size_t kept;     ///< entries read
  const char* problem;  ///< expected problem text after "<path>"
};

class Guid2LidDamage : public Guid2LidFile, public ::testing::WithParamInterface<Damage> {};

TEST_P(Guid2LidDamage, NamesTheLineAndKeepsTheRest) {
  write(GetParam().text);
  auto r = read_guid2lid(path_);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->entries.size(), GetParam().kept);
  ASSERT_EQ(r->problems.size(), 1u);
  EXPECT_EQ(r->problems[0], path_ + GetParam().problem);
}

const Damage kDamage[] = {
    {"truncated_last_line", "0x0000000000100001 0x0001 0x0001\n0x0000000000100002 0x00", 1,
     ":2: truncated last line (no newline): expected '0xGUID 0xMINLID 0xMAXLID'"},
    {"truncated_last_value", "0x0000000000100001 0x0004 0x0007\n0x0000000000100002 0x0010 0x001", 1,
     ":2: truncated last line (no newline): LID range 0x0010..0x0001 is empty or starts at 0"},
    {"garbage_in_the_middle", "0x0000000000100001 0x0001 0x0001\n\x01\x02 junk\n0x0000000000100002 0x0002 0x0002\n", 2,
     ":2: expected '0xGUID 0xMINLID 0xMAXLID'"},
    {"duplicate_guid", "0x0000000000100001 0x0001 0x0001\n0x0000000000100001 0x0002 0x0002\n", 1,
     ":2: GUID 0x0000000000100001 listed twice; first entry kept"},
    {"lid_out_of_range", "0x0000000000100001 0xc000 0xc000\n0x0000000000100002 0x0002 0x0002\n", 1,
     ":1: bad hex value or LID above 0xbfff"},
    {"lid_zero", "0x0000000000100001 0x0000 0x0000\n0x0000000000100002 0x0002 0x0002\n", 1,
     ":1: LID range 0x0000..0x0000 is empty or starts at 0"},
    {"two_guids_one_lid", "0x0000000000100001 0x0004 0x0007\n0x0000000000100002 0x0006 0x0006\n", 1,
     ":2: LID 0x0006 already belongs to GUID 0x0000000000100001 (line 1); first entry kept"},
    {"misaligned_range", "0x0000000000100001 0x0005 0x0006\n0x0000000000100002 0x0008 0x0008\n", 1,
     ":1: LID range 0x0005..0x0006 is not an LMC range (2^n LIDs, n <= 7, starting at a multiple of 2^n)"},
};
INSTANTIATE_TEST_SUITE_P(Damage, Guid2LidDamage, ::testing::ValuesIn(kDamage),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST_F(Guid2LidFile, CompleteLastLineWithoutNewlineIsKept) {
  write("0x0000000000100001 0x0001 0x0001\n0x0000000000100002 0x0004 0x0007");
  auto r = read_guid2lid(path_);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->problems.empty());
  ASSERT_EQ(r->entries.count(0x100002), 1u);
  EXPECT_EQ(r->entries.at(0x100002).max, 7);
}

// An entry at or past a switch's LinearFDBCap cannot be granted on that fabric: each is named by file line,
// GUID and LID; entries the switches can forward are not mentioned.
TEST_F(Guid2LidFile, EntriesAboveTheSmallestLinearFdbCapAreNamedByLine) {
  auto t = make_leaf_spine(LeafSpineSpec{2, 1, 2, 1});
  ASSERT_TRUE(t.ok());
  t->mutable_node(t->switches()[0]).lft_cap = 0x80;  // forwards LIDs 1..0x7f
  t->mutable_node(t->switches()[1]).lft_cap = 0x40;  // forwards LIDs 1..0x3f: the fabric's limit
  write(
      "0x0000000000100001 0x0040 0x0040\n"
      "# a comment still counts as a line\n"
      "0x0000000000100002 0x0002 0x0002\n"
      "0x0000000000100003 0x003c 0x003f\n"
      "0x0000000000100004 0x0080 0x0083\n");
  auto r = read_guid2lid(path_);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->problems.empty());
  const std::vector<std::string> warnings = guid2lid_above_lft_cap(*r, path_, *t);
  const std::string tail =
      ", the highest LID every switch can forward (smallest LinearFDBCap); the port gets a new LID";
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], path_ + ":1: GUID 0x0000000000100001 LID 0x0040 is above 0x003f" + tail);
  EXPECT_EQ(warnings[1], path_ + ":5: GUID 0x0000000000100004 LIDs 0x0080..0x0083 is above 0x003f" + tail);
  t->mutable_node(t->switches()[1]).lft_cap = 0;  // a switch without a linear FDB does not limit LIDs
  const std::vector<std::string> one = guid2lid_above_lft_cap(*r, path_, *t);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], path_ + ":5: GUID 0x0000000000100004 LIDs 0x0080..0x0083 is above 0x007f" + tail);
}

TEST_F(Guid2LidFile, DeviceOrFifoIsRefusedWithoutHanging) {
  auto zero = read_guid2lid("/dev/zero");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "cannot read guid2lid file /dev/zero: it is a character device, not a regular file");
  ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
  auto fifo = read_guid2lid(path_);  // no writer: reading it would block forever
  ASSERT_FALSE(fifo.ok());
  EXPECT_EQ(fifo.error().message, "cannot read guid2lid file " + path_ + ": it is a FIFO, not a regular file");
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
}  // namespace smd::guid2lid_test
