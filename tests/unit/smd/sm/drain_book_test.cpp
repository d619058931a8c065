// DrainBook (smd/sm/drain_book.h): the operator's drains on the hand-drawn two-spine tree
// (tests/unit/routing/two_spine_fabric.h), whose answers are read off the drawing: either spine alone may
// go, both together split L0's hosts from L1's, a host's own cable cuts it off. The file is read back
// with a second book and by reading its text.
#include "smd/sm/drain_book.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/routing/two_spine_fabric.h"
#include "tests/unit/temp_dir.h"

namespace smd::drain_book_test {
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

TEST_F(DrainBookTest, TheSmsOwnPortOrSwitchIsNamedAsSuch) {
  // The SM sits on h2 port 1, cabled to L1 port 3 (the drawing): its cable by either end, h2 whole and L1
  // are the SM's own; S0, L0 and h3's cable are not.
  const auto own = [&](Guid guid, PortNum port) {
    const DrainRecord r{{guid, port}, true};
    return sm_own_drain(f.t, std::span<const DrainRecord>(&r, 1));
  };
  EXPECT_EQ(own(0x30, 1), "the SM's own port 0x0000000000000030 (h2) port 1");
  EXPECT_EQ(own(0x200, 3), "the SM's own port 0x0000000000000030 (h2) port 1");
  EXPECT_EQ(own(0x30, 0), "the SM's own port 0x0000000000000030 (h2) port 1");
  EXPECT_EQ(own(0x200, 0), "the SM's own switch 0x0000000000000200 (L1)");
  EXPECT_EQ(own(0x300, 0), "");
  EXPECT_EQ(own(0x100, 0), "");
  EXPECT_EQ(own(0x200, 4), "");
  EXPECT_EQ(own(0x40, 1), "");
  Topology no_sm = f.t;
  no_sm.sm_node = kNoNode;
  const DrainRecord r{{0x30, 1}, true};
  EXPECT_EQ(sm_own_drain(no_sm, std::span<const DrainRecord>(&r, 1)), "");
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
  // Not drained: said so, not an error, nothing written (undrain is idempotent per part).
  const std::string before = file_text();
  auto not_drained = book.undrain(&f.t, names({"S1"}), false);
  ASSERT_TRUE(not_drained.ok()) << not_drained.error().message;
  EXPECT_TRUE(not_drained->changed.empty());
  ASSERT_EQ(not_drained->already.size(), 1u);
  EXPECT_EQ(not_drained->already[0].part, (PortKey{0x400, 0}));
  EXPECT_EQ(file_text(), before);
  auto unknown = book.undrain(&f.t, names({"S9"}), false);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "undrain: 'S9' names no part of the fabric (a switch, NAME[PORT], 0xGUID or 0xGUID/PORT)");
  EXPECT_FALSE(book.undrain(&f.t, names({"S0"}), true).ok());  // --all with names
  EXPECT_FALSE(book.undrain(&f.t, {}, false).ok());            // neither
  EXPECT_EQ(book.records().size(), 2u);
  auto all = book.undrain(&f.t, {}, true);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->changed.size(), 2u);
  EXPECT_TRUE(book.records().empty());
}

// The same part twice in one request, a cable by both of its ends, and the request again: each part is
// undrained once and the rest answered "not drained", never an error (the tester's `smctl undrain` failed).
TEST_F(DrainBookTest, UndrainIsIdempotentPerPartAndReadsBothEndsOfACable) {
  DrainBook book(path());
  ASSERT_TRUE(book.drain(f.t, names({"L1[2]"}), false).ok());  // L1 port 2 - S1 port 2
  auto u = book.undrain(&f.t, names({"L1[2]", "S1[2]", "0x0000000000000200/2", "L1[2]"}), false);
  ASSERT_TRUE(u.ok()) << u.error().message;
  EXPECT_EQ(u->changed, (std::vector<DrainRecord>{{{0x200, 2}, false}}));
  EXPECT_TRUE(u->already.empty());
  EXPECT_TRUE(book.records().empty());
  EXPECT_EQ(file_text(), kHeader);
  ASSERT_TRUE(book.drain(f.t, names({"S0"}), false).ok());
  auto s0 = book.undrain(&f.t, names({"S0", "0x300"}), false);
  ASSERT_TRUE(s0.ok()) << s0.error().message;
  EXPECT_EQ(s0->changed, (std::vector<DrainRecord>{{{0x300, 0}, false}}));
  auto again = book.undrain(&f.t, names({"S0", "S1[2]", "L1[2]"}), false);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_TRUE(again->changed.empty());
  EXPECT_EQ(again->already, (std::vector<DrainRecord>{{{0x300, 0}, false}, {{0x400, 2}, false}}));
}

// A drain the route check refuses (no engine of the chain routes the fabric with it) is not recorded, and the
// message names the command, the parts and the check's own words; forced, it is recorded as forced and the
// answer carries the reason. The check sees every drain: the recorded ones and the new ones.
TEST_F(DrainBookTest, ADrainNoEngineRoutesIsRefusedUnlessForced) {
  DrainBook book(path());
  const DrainRouteCheck pass = [](std::span<const CableEnd>) -> Status { return Ok{}; };
  ASSERT_TRUE(book.drain(f.t, names({"L0[1]"}), false, pass).ok());  // L0 - S0
  std::vector<CableEnd> seen;
  const DrainRouteCheck refuse = [&seen](std::span<const CableEnd> drains) -> Status {
    seen.assign(drains.begin(), drains.end());
    return make_error(ErrorCode::kDeclined, "every engine failed: ftree: not a fat tree");
  };
  const std::string before = file_text();
  auto r = book.drain(f.t, names({"L1[1]"}), false, refuse);  // L1 - S0: S0 then joins nothing, no pair lost
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error().message,
            "smctl drain L1[1]: no engine of the chain routes the fabric with it drained (every engine failed: ftree: "
            "not a fat tree): nothing drained; --force drains anyway (the SM then routes with minhop, as OpenSM "
            "falls back to its default engine)");
  EXPECT_EQ(seen, (std::vector<CableEnd>{{f.l0, 1}, {f.l1, 1}}));
  EXPECT_EQ(book.records().size(), 1u);
  EXPECT_EQ(file_text(), before);
  auto forced = book.drain(f.t, names({"L1[1]"}), true, refuse);
  ASSERT_TRUE(forced.ok()) << forced.error().message;
  EXPECT_EQ(forced->unroutable, "every engine failed: ftree: not a fat tree");
  EXPECT_EQ(forced->separated, "");
  EXPECT_EQ(file_text(), std::string(kHeader) + "0x0000000000000100 1 checked\n0x0000000000000200 1 forced\n");
  seen.clear();
  auto again = book.drain(f.t, names({"S0[2]"}), false, refuse);  // the same cable: nothing new to check
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_TRUE(again->changed.empty());
  EXPECT_TRUE(seen.empty());
}

// Lines the fabric cannot apply are warned by file:line and part once the fabric is known; the good lines
// and the parts not in the fabric stay (a switch powered off comes back drained).
TEST_F(DrainBookTest, LoadedPartsTheFabricCannotApplyAreWarnedByLine) {
  write("drained",
        "# comment\n"
        "0x0000000000000300 0 checked\n"     // S0: fine
        "0x0000000000000999 0 checked\n"     // no such node
        "0x0000000000000100 9 checked\n"     // L0 has 4 ports
        "0x0000000000000010 0 forced\n"      // h0 whole: a CA is never drained whole
        "0x0000000000000100 2 checked\n"     // L0 port 2: fine
        "0x0000000000000100 77 checked\n");  // undrained below before the check
  DrainBook book(path());
  auto problems = book.load();
  ASSERT_TRUE(problems.ok()) << problems.error().message;
  EXPECT_TRUE(problems->empty());
  EXPECT_EQ(book.records().size(), 6u);
  ASSERT_TRUE(book.undrain(&f.t, names({"0x100/77"}), false).ok());
  const std::string p = path();
  EXPECT_EQ(book.check_loaded(f.t),
            (std::vector<std::string>{
                p + ": 1 drain(s) name a GUID no node of the fabric has (" + p +
                    ":3 0x0000000000000999 port 0); kept, each drains nothing until its node is back",
                p + ":4: 0x0000000000000100 (L0) has no port 9 (ports 1..4); it drains nothing (smctl undrain "
                    "0x0000000000000100/9 removes it)",
                p + ":5: 0x0000000000000010 (h0) port 0: a CA is never drained whole (name its cable); it drains "
                    "nothing (smctl undrain 0x0000000000000010 removes it)",
            }));
  EXPECT_EQ(book.records().size(), 5u);         // every line kept
  EXPECT_TRUE(book.check_loaded(f.t).empty());  // once
}

// A large file (a powered-off rack: 170,000 lines, as a tester's) loads and is checked in linear time, and
// its unknown GUIDs make one warning: the count and the first few places, not one line each. The lines are
// made here from their numbers; the expected places are the same numbers. Before the fix, parsing and
// checking searched the records once per line: about 35 CPU-s for this file, so 5 CPU-s (ASan included)
// separates the two without timing noise deciding.
TEST_F(DrainBookTest, AHugeFileOfUnknownGuidsLoadsLinearlyAndWarnsOnce) {
  constexpr unsigned kLines = 170000;
  std::string text = "# generated\n0x0000000000000300 0 checked\n";  // S0: in the fabric, line 2
  char line[64];
  for (unsigned i = 0; i < kLines; ++i) {
    std::snprintf(line, sizeof line, "0x%016x %u checked\n", 0x5000000u + i / 36, 1 + i % 36);
    text += line;
  }
  write("drained", text);
  DrainBook book(path());
  const std::clock_t cpu0 = std::clock();
  auto problems = book.load();
  ASSERT_TRUE(problems.ok()) << problems.error().message;
  EXPECT_TRUE(problems->empty());
  ASSERT_EQ(book.records().size(), kLines + 1);
  const std::vector<std::string> warnings = book.check_loaded(f.t);
  const double cpu_s = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  EXPECT_LT(cpu_s, 5.0);
  const std::string p = path();
  std::string first;
  for (unsigned i = 0; i < DrainBook::kUnknownListed; ++i) {
    std::snprintf(line, sizeof line, ":%u 0x%016x port %u", 3 + i, 0x5000000u, 1 + i);
    first += (i ? ", " : "") + p + line;
  }
  EXPECT_EQ(warnings, (std::vector<std::string>{p + ": " + std::to_string(kLines) +
                                                " drain(s) name a GUID no node of the fabric has (" + first +
                                                " and " + std::to_string(kLines - DrainBook::kUnknownListed) +
                                                " more); kept, each drains nothing until its node is back"}));
}

// A hand-edited file that lists one cable by both of its ends (L0 port 1 - S0 port 1): undraining it by
// either end removes both lines, and the file is rewritten without them.
TEST_F(DrainBookTest, ACableListedByBothEndsIsUndrainedWhole) {
  write("drained", std::string(kHeader) +
                       "0x0000000000000100 1 checked\n"
                       "0x0000000000000400 0 checked\n"
                       "0x0000000000000300 1 checked\n");
  DrainBook book(path());
  ASSERT_TRUE(book.load().ok());
  ASSERT_EQ(book.records().size(), 3u);
  auto r = book.undrain(&f.t, names({"S0[1]"}), false);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->changed.size(), 2u);
  EXPECT_TRUE(r->already.empty());
  EXPECT_EQ(book.parts(), (std::vector<PortKey>{{0x400, 0}}));
  EXPECT_EQ(file_text(), std::string(kHeader) + "0x0000000000000400 0 checked\n");
  DrainBook again(path());
  ASSERT_TRUE(again.load().ok());
  EXPECT_EQ(again.parts(), (std::vector<PortKey>{{0x400, 0}}));
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

TEST_F(DrainBookTest, AByteOrderMarkBeforeTheFirstLineIsSkipped) {
  // A file saved by an editor that adds a UTF-8 BOM: its first drain holds, as in the word files (it was
  // reported as a bad GUID and dropped). A BOM anywhere else is still junk.
  write("drained", "\xEF\xBB\xBF" "0x0000000000000300 0 checked\n0x400 1 forced\n\xEF\xBB\xBF" "0x200 1 checked\n");
  DrainBook book(path());
  auto problems = book.load();
  ASSERT_TRUE(problems.ok()) << problems.error().message;
  ASSERT_EQ(problems->size(), 1u);
  EXPECT_NE((*problems)[0].find(":3: '\xEF\xBB\xBF" "0x200' is not a 0x GUID"), std::string::npos) << (*problems)[0];
  ASSERT_EQ(book.records().size(), 2u);
  EXPECT_EQ(book.records()[0], (DrainRecord{{0x300, 0}, false}));
  EXPECT_EQ(book.records()[1], (DrainRecord{{0x400, 1}, true}));
}

TEST_F(DrainBookTest, ACaNamedWholeIsNotCalledASwitch) {
  // smctl status listed a CA's port-0 line (hand-written; it drains nothing) as "switch".
  EXPECT_EQ(describe_drain(&f.t, DrainRecord{{0x30, 0}, false}),
            "CA 0x0000000000000030 (h2) named whole (drains nothing: name its cable)");
  EXPECT_EQ(describe_drain(&f.t, DrainRecord{{0x300, 0}, false}), "switch 0x0000000000000300 (S0)");
  EXPECT_EQ(describe_drain(nullptr, DrainRecord{{0x30, 0}, false}), "switch 0x0000000000000030");
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

// A file smd could not read (here: over the 16 MiB a state file may hold) may still hold the operator's
// drains: a later drain or undrain must not replace it with the one part it names.
TEST_F(DrainBookTest, AnUnreadableFileIsNeverOverwritten) {
  const std::string first = "0x0000000000000300 0 checked\n";
  write("drained", first + std::string(16u * 1024 * 1024, '#'));
  DrainBook book(path());
  ASSERT_FALSE(book.load().ok());
  auto drained = book.drain(f.t, names({"S1"}), false);
  ASSERT_FALSE(drained.ok());
  EXPECT_EQ(drained.error().code, ErrorCode::kIo);
  EXPECT_NE(drained.error().message.find("not overwritten"), std::string::npos) << drained.error().message;
  auto undrained = book.undrain(&f.t, {}, true);
  EXPECT_TRUE(!undrained.ok() || undrained->changed.empty());
  EXPECT_EQ(file_text().substr(0, first.size()), first);
  EXPECT_EQ(file_text().size(), first.size() + 16u * 1024 * 1024);
}

}  // namespace
}  // namespace smd::drain_book_test
