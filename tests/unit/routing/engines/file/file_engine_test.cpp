// The file engine on tests/fabrics/twoswitch.net's shape: tables are exactly the dump's rows (written by
// hand below, not computed by any engine), a dump that does not fit the fabric is refused at its
// file:line:column, and through the chain a dump that loops or black-holes is refused by the verifier
// while `[file, minhop]` falls back to minhop's tables.
#include "routing/engines/file/file_engine.h"

#include <gtest/gtest.h>

#include <string>

#include "routing/chain/registry.h"
#include "routing/engines/file/file_factory.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/netfile/netfile.h"

namespace smd::file_engine_test {
namespace {

constexpr const char* kNet =
    "Hca 1 \"host-0\"\n[1] \"sw-0\"[3]\n\n"
    "Hca 1 \"host-1\"\n[1] \"sw-0\"[4]\n\n"
    "Hca 1 \"host-2\"\n[1] \"sw-1\"[3]\n\n"
    "Hca 1 \"host-3\"\n[1] \"sw-1\"[4]\n\n"
    "Switch 4 \"sw-0\"\n[1] \"sw-1\"[1]\n[2] \"sw-1\"[2]\n[3] \"host-0\"[1]\n[4] \"host-1\"[1]\n\n"
    "Switch 4 \"sw-1\"\n[1] \"sw-0\"[1]\n[2] \"sw-0\"[2]\n[3] \"host-2\"[1]\n[4] \"host-3\"[1]\n";

struct TwoSwitch {
  Topology topo;
  LidMap lids;
  NodeIndex sw0 = kNoNode, sw1 = kNoNode;

  TwoSwitch() {
    auto parsed = parse_netfile(kNet, "two.net");
    EXPECT_TRUE(parsed.ok()) << parsed.error().message;
    topo = std::move(parsed).value();
    // host-0..3 = LIDs 1..4, sw-0 = 5, sw-1 = 6.
    Lid next = 1;
    for (NodeIndex n = 0; n < topo.nodes().size(); ++n) {
      if (!topo.node(n).is_switch()) {
        EXPECT_TRUE(lids.assign(n, 1, next++, 0).ok());
      }
    }
    for (NodeIndex n : topo.switches()) {
      EXPECT_TRUE(lids.assign(n, 0, next++, 0).ok());
      (topo.node(n).description == "sw-0" ? sw0 : sw1) = n;
    }
  }
  std::string header(NodeIndex sw, unsigned top) const {
    return "Unicast lids [0-" + std::to_string(top) + "] of switch Lid " + std::to_string(lids.base_lid(sw, 0)) +
           " guid " + format_guid(topo.node(sw).guid) + " ('x'):\n";
  }
  /// A dump that routes every LID: hosts on the other switch through port `cross` (1 or 2).
  std::string good(unsigned cross) const {
    const std::string c = "00" + std::to_string(cross);
    return header(sw0, 6) + "0x0001 003\n0x0002 004\n0x0003 " + c + "\n0x0004 " + c + "\n0x0005 000\n0x0006 " + c +
           "\n6 lids dumped\n" + header(sw1, 6) + "0x0001 " + c + "\n0x0002 " + c +
           "\n0x0003 003\n0x0004 004\n0x0005 " + c + "\n0x0006 000\n6 lids dumped\n";
  }
};

RoutingOptions with_dump(const std::string& text) {
  RoutingOptions options;
  auto dump = parse_lfts_dump(text, "d.dump");
  EXPECT_TRUE(dump.ok()) << dump.error().message;
  FileOptions file;
  file.lfts_file = "d.dump";
  if (dump) file.dump = std::make_shared<const LftsDump>(std::move(dump).value());
  options.engines.set(std::move(file));
  return options;
}

Result<RoutingTables> run(const TwoSwitch& f, const std::string& text) {
  return file_factory().create(with_dump(text))->compute(f.topo, f.lids);
}

TEST(FileEngine, TablesAreTheDumpsRows) {
  TwoSwitch f;
  auto tables = run(f, f.good(2));
  ASSERT_TRUE(tables.ok()) << tables.error().message;
  EXPECT_EQ(tables->engine, "file");
  EXPECT_FALSE(tables->deadlock_free);
  const std::vector<PortNum> want0 = {kNoPort, 3, 4, 2, 2, 0, 2};
  const std::vector<PortNum> want1 = {kNoPort, 2, 2, 3, 4, 2, 0};
  EXPECT_EQ(tables->lft[f.sw0].entries(), want0);
  EXPECT_EQ(tables->lft[f.sw1].entries(), want1);
  for (NodeIndex n = 0; n < f.topo.nodes().size(); ++n) {
    if (!f.topo.node(n).is_switch()) {
      EXPECT_TRUE(tables->lft[n].empty());
    }
  }
}

TEST(FileEngine, TopAndUnlistedLidsFollowTheDump) {
  TwoSwitch f;
  // A top above every LID (rows for LIDs nobody holds are kept) and LID 2 not listed: 0xFF there.
  const std::string text = f.header(f.sw0, 70) + "0x0001 003\n0x0040 001\n" + f.header(f.sw1, 6) + "0x0003 003\n";
  auto tables = run(f, text);
  ASSERT_TRUE(tables.ok()) << tables.error().message;
  EXPECT_EQ(tables->lft[f.sw0].top(), 70);
  EXPECT_EQ(tables->lft[f.sw0].get(1), 3);
  EXPECT_EQ(tables->lft[f.sw0].get(2), kNoPort);
  EXPECT_EQ(tables->lft[f.sw0].get(0x40), 1);
  EXPECT_EQ(tables->lft[f.sw1].top(), 6);
}

TEST(FileEngine, DumpThatDoesNotFitTheFabricIsRefusedAtItsPlace) {
  TwoSwitch f;
  auto stranger = run(f, f.good(1) + "Unicast lids [0-6] of switch Lid 7 guid 0x00000000002000ff ('gone'):\n");
  ASSERT_FALSE(stranger.ok());
  EXPECT_EQ(stranger.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(stranger.error().message, "d.dump:17:41: switch 0x00000000002000ff is not in the fabric");

  const Guid host = f.topo.node(0).guid;
  auto ca = run(f, "Unicast lids [0-6] of switch Lid 7 guid " + format_guid(host) + " ('h'):\n");
  ASSERT_FALSE(ca.ok());
  EXPECT_EQ(ca.error().message, "d.dump:1:41: " + describe_node(f.topo.node(0)) + " is not a switch");

  f.topo.mutable_node(f.sw1).lft_cap = 6;  // LIDs 0..5 only
  auto cap = run(f, f.good(1));
  ASSERT_FALSE(cap.ok());
  EXPECT_EQ(cap.error().message,
            "d.dump:9:17: top LID 6 is beyond " + describe_node(f.topo.node(f.sw1)) + "'s LinearFDBCap 6");

  TwoSwitch g;
  auto port = run(g, g.header(g.sw0, 6) + "0x0001 003\n0x0002 005 # sw-0 has 4 ports\n");
  ASSERT_FALSE(port.ok());
  EXPECT_EQ(port.error().message,
            "d.dump:3:8: port 5 for LID 0x0002: " + describe_node(g.topo.node(g.sw0)) + " has ports 0..4");
}

TEST(FileEngine, SwitchLidOtherThanTheDumpsIsRefused) {
  TwoSwitch f;
  // sw-1 holds LID 6; a dump made where it held 7 routes other LIDs than this fabric's.
  std::string text = f.good(1);
  const std::string sw1 = "of switch Lid 6 guid";
  text.replace(text.find(sw1), sw1.size(), "of switch Lid 7 guid");
  auto tables = run(f, text);
  ASSERT_FALSE(tables.ok());
  EXPECT_EQ(tables.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(tables.error().message, "d.dump:9:34: " + describe_node(f.topo.node(f.sw1)) +
                                        " has LID 6 in the fabric, 7 in the dump: run with the guid2lid of the "
                                        "fabric the dump was made on");
  // A header without "Lid N" (hand-written) is not checked.
  text.replace(text.find("of switch Lid 7 guid"), 20, "of switch guid");
  EXPECT_TRUE(run(f, text).ok());
}

TEST(FileEngine, SwitchWithoutSectionDeclines) {
  TwoSwitch f;
  auto tables = run(f, f.header(f.sw0, 6) + "0x0001 003\n");
  ASSERT_FALSE(tables.ok());
  EXPECT_EQ(tables.error().code, ErrorCode::kDeclined);
  EXPECT_EQ(tables.error().message,
            "d.dump: no section for " + describe_node(f.topo.node(f.sw1)) + ": the dump was made on another fabric");
}

TEST(FileEngine, NoDumpConfigured) {
  TwoSwitch f;
  auto tables = file_factory().create(RoutingOptions{})->compute(f.topo, f.lids);
  ASSERT_FALSE(tables.ok());
  EXPECT_EQ(tables.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(tables.error().message, "routing.file.lfts_file is not set: no dump to replay");
}

TEST(FileEngine, ChainProgramsAGoodDumpAsItIs) {
  TwoSwitch f;
  // Port 1 for every crossing route: minhop would spread them over ports 1 and 2.
  auto chain = route_with_chain({"file", "minhop"}, with_dump(f.good(1)), f.topo, f.lids);
  ASSERT_TRUE(chain.ok()) << chain.error().message;
  EXPECT_EQ(chain->tables.engine, "file");
  EXPECT_TRUE(chain->declined.empty());
  EXPECT_EQ(chain->tables.lft[f.sw0].entries(), (std::vector<PortNum>{kNoPort, 3, 4, 1, 1, 0, 1}));
}

TEST(FileEngine, VerifierRefusesALoopAndABlackHole) {
  TwoSwitch f;
  // LID 3 (host-2, on sw-1): sw-1 sends it back to sw-0, which sends it to sw-1 again.
  std::string loop = f.good(1);
  loop.replace(loop.find("0x0003 003"), 10, "0x0003 001");
  // LID 4 missing at sw-1: a black hole.
  std::string hole = f.good(1);
  hole.erase(hole.find("0x0004 004\n"), 11);
  for (const std::string& text : {loop, hole}) {
    auto alone = route_with_chain({"file"}, with_dump(text), f.topo, f.lids);
    ASSERT_FALSE(alone.ok());
    EXPECT_EQ(alone.error().code, ErrorCode::kVerifyFailed) << alone.error().message;
    auto fallback = route_with_chain({"file", "minhop"}, with_dump(text), f.topo, f.lids);
    ASSERT_TRUE(fallback.ok()) << fallback.error().message;
    EXPECT_EQ(fallback->tables.engine, "minhop");
    ASSERT_EQ(fallback->declined.size(), 1u);
    EXPECT_EQ(fallback->declined[0].engine, "file");
    EXPECT_EQ(fallback->declined[0].error.code, ErrorCode::kVerifyFailed);
    // What was programmed is minhop's own result, not a mix with the dump's rows.
    auto minhop = minhop_factory().create(RoutingOptions{})->compute(f.topo, f.lids);
    ASSERT_TRUE(minhop.ok());
    EXPECT_EQ(fallback->tables.lft, minhop->lft);
  }
}

}  // namespace
}  // namespace smd::file_engine_test
