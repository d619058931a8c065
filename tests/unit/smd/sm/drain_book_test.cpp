// DrainBook (smd/sm/drain_book.h): the operator's drains on the hand-drawn two-spine tree
// (tests/unit/routing/two_spine_fabric.h), whose answers are read off the drawing: either spine alone may
// go, both together split L0's hosts from L1's, a host's own cable cuts it off. The file is read back
// with a second book and by reading its text.
#include "smd/sm/drain_book.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/routing/two_spine_fabric.h"
#include "tests/unit/temp_dir.h"

namespace smd {
namespace {

using test::TwoSpineFabric;

class DrainBookTest : public test::TempDirTest {
 protected:
  std::string path() const { return dir_ + "/drained"; }
  std::string file_text() const {
    std::ifstream in(path());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static std::vector<std::string> names(std::initializer_list<const char*> l) { return {l.begin(), l.end()}; }
  TwoSpineFabric f;
};

constexpr const char* kHeader =
    "# smd drains (smctl drain / undrain): node GUID, port (0 = whole switch), checked|forced\n";

TEST_F(DrainBookTest, OneSpineIsRecordedByGuidAndWritten) {
  DrainBook book(path());
  auto r = book.drain(f.t, names({"S0"}), false);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->changed.size(), 1u);
  EXPECT_EQ(r->changed[0].part, (PortKey{0x300, 0}));
  EXPECT_EQ(r->separated, "");
  EXPECT_EQ(book.parts(), (std::vector<PortKey>{{0x300, 0}}));
  EXPECT_EQ(file_text(), std::string(kHeader) + "0x0000000000000300 0 checked\n");
  EXPECT_EQ(describe_drain(&f.t, book.records()[0]), "switch 0x0000000000000300 (S0)");
}

TEST_F(DrainBookTest, TheSecondSpineIsRefusedAndNothingIsRecorded) {
  DrainBook book(path());
  ASSERT_TRUE(book.drain(f.t, names({"S0"}), false).ok());
  const std::string before = file_text();
  auto r = book.drain(f.t, names({"S1"}), false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error().message,
            "drain: would cut off 0x0000000000000010 (h0) port 1 and 0x0000000000000030 (h2) port 1 from each other "
            "(every path lost): nothing drained; --force drains anyway");
  EXPECT_EQ(book.parts(), (std::vector<PortKey>{{0x300, 0}}));
  EXPECT_EQ(file_text(), before);
}

TEST_F(DrainBookTest, BothSpinesInOneRequestAreRefusedWhole) {
  DrainBook book(path());
  EXPECT_FALSE(book.drain(f.t, names({"S0", "S1"}), false).ok());
  EXPECT_TRUE(book.records().empty());
  EXPECT_EQ(file_text(), "");  // never written
}

TEST_F(DrainBookTest, ForceRecordsTheCutAndSaysWhatItSeparates) {
  DrainBook book(path());
  ASSERT_TRUE(book.drain(f.t, names({"S0"}), false).ok());
  auto r = book.drain(f.t, names({"S1"}), true);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->separated, "0x0000000000000010 (h0) port 1 and 0x0000000000000030 (h2) port 1");
  EXPECT_EQ(file_text(), std::string(kHeader) + "0x0000000000000300 0 checked\n0x0000000000000400 0 forced\n");
}

TEST_F(DrainBookTest, AHostCableIsRefusedALeafUplinkIsNot) {
  DrainBook book(path());
  EXPECT_FALSE(book.drain(f.t, names({"h3[1]"}), false).ok());
  auto r = book.drain(f.t, names({"L0[1]"}), false);  // L0 keeps its way up through S1
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(book.parts(), (std::vector<PortKey>{{0x100, 1}}));
  EXPECT_EQ(describe_drain(&f.t, book.records()[0]), "cable 0x0000000000000100 (L0) port 1");
}

TEST_F(DrainBookTest, ACableNamedAgainFromItsOtherEndIsAlreadyDrained) {
  DrainBook book(path());
  ASSERT_TRUE(book.drain(f.t, names({"L0[1]"}), false).ok());
  auto r = book.drain(f.t, names({"0x0000000000000300/1"}), false);  // S0 port 1: the same cable
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->changed.empty());
  ASSERT_EQ(r->already.size(), 1u);
  EXPECT_EQ(book.records().size(), 1u);
  // And undrained from that other end.
  auto u = book.undrain(&f.t, names({"S0[1]"}), false);
  ASSERT_TRUE(u.ok()) << u.error().message;
  EXPECT_EQ(u->changed.size(), 1u);
  EXPECT_TRUE(book.records().empty());
  EXPECT_EQ(file_text(), kHeader);
}

TEST_F(DrainBookTest, ABadNameIsRefusedWithTheResolversWords) {
  DrainBook book(path());
  auto r = book.drain(f.t, names({"S0", "S9"}), false);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'S9'"), std::string::npos) << r.error().message;
  EXPECT_TRUE(book.records().empty());
}

TEST_F(DrainBookTest, UndrainNamesAllAndWhatIsNotDrained) {
  DrainBook book(path());
  ASSERT_TRUE(book.drain(f.t, names({"S0"}), false).ok());
  // A cable S0's drain already took out is recorded on its own (it stays out when S0 comes back).
  ASSERT_TRUE(book.drain(f.t, names({"L1[1]"}), false).ok());
  auto not_drained = book.undrain(&f.t, names({"S1"}), false);
  ASSERT_FALSE(not_drained.ok());
  EXPECT_EQ(not_drained.error().message, "undrain: 'S1' is not drained");
  EXPECT_FALSE(book.undrain(&f.t, names({"S0"}), true).ok());  // --all with names
  EXPECT_FALSE(book.undrain(&f.t, {}, false).ok());            // neither
  EXPECT_EQ(book.records().size(), 2u);
  auto all = book.undrain(&f.t, {}, true);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->changed.size(), 2u);
  EXPECT_TRUE(book.records().empty());
}

TEST_F(DrainBookTest, AGuidOutsideTheFabricIsUndrainedByItsText) {
  DrainBook book(path());
  ASSERT_TRUE(book.drain(f.t, names({"S0"}), false).ok());
  Topology empty;
  auto r = book.undrain(&empty, names({"0x300"}), false);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(book.records().empty());
}

TEST_F(DrainBookTest, TheFileSurvivesARestart) {
  {
    DrainBook book(path());
    ASSERT_TRUE(book.drain(f.t, names({"S0"}), false).ok());
    ASSERT_TRUE(book.drain(f.t, names({"S1"}), true).ok());
  }
  DrainBook again(path());
  auto problems = again.load();
  ASSERT_TRUE(problems.ok()) << problems.error().message;
  EXPECT_TRUE(problems->empty());
  ASSERT_EQ(again.records().size(), 2u);
  EXPECT_EQ(again.records()[0], (DrainRecord{{0x300, 0}, false}));
  EXPECT_EQ(again.records()[1], (DrainRecord{{0x400, 0}, true}));
}

TEST_F(DrainBookTest, BadLinesAreNamedAndSkipped) {
  write("drained",
        "0x0000000000000300 0 checked\n"
        "0x300 0 checked\n"              // listed twice
        "0xzz 0 checked\n"               // not a GUID
        "0x400 255 checked\n"            // port out of range
        "0x400 0 maybe\n"                // neither mode
        "0x400 0\n"                      // a field short
        "0x0000000000000100 1 forced");  // no newline: a write cut short
  DrainBook book(path());
  auto problems = book.load();
  ASSERT_TRUE(problems.ok());
  const std::string p = path();
  EXPECT_EQ(*problems, (std::vector<std::string>{
                           p + ":2: 0x0000000000000300 port 0 is listed twice",
                           p + ":3: '0xzz' is not a 0x GUID",
                           p + ":4: port '255' is not 0..254",
                           p + ":5: 'maybe' is neither checked nor forced",
                           p + ":6: expected '0xGUID PORT checked|forced'",
                       }));
  EXPECT_EQ(book.records().size(), 2u);  // the truncated last line still parses whole
}

TEST_F(DrainBookTest, AMissingFileIsNoDrain) {
  DrainBook book(path());
  auto problems = book.load();
  ASSERT_TRUE(problems.ok());
  EXPECT_TRUE(book.records().empty());
}

TEST_F(DrainBookTest, AnUnwritableFileRecordsNothing) {
  DrainBook book(dir_ + "/no-such-dir/drained");
  auto r = book.drain(f.t, names({"S0"}), false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_TRUE(book.records().empty());
}

}  // namespace
}  // namespace smd
