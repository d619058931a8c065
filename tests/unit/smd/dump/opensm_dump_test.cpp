// OpenSM's dump formats (smd/dump/) on a hand-built fabric: one 3-port switch and two CAs with GUIDs whose
// byte-reversed order (OpenSM's table order) differs from their numeric order. Every expected text below is
// written by hand from OpenSM's layout (osm_dump.c, and the files OpenSM 3.3.23 wrote on ibsim), not by the
// code under test. Then `{"cmd":"dump"}` through handle_request, and its errors.
#include <gtest/gtest.h>

#include <sstream>

#include "smd/control/dump_requests.h"
#include "smd/control/requests.h"
#include "smd/dump/opensm_lfts.h"
#include "smd/dump/opensm_mcfdbs.h"
#include "smd/dump/opensm_order.h"
#include "smd/dump/opensm_sl2vl.h"
#include "smd/dump/opensm_subnet.h"
#include "tests/unit/smd/null_control.h"

namespace smd::dump::opensm_dump_test {
namespace {

// Numeric order sw < ca-1 < ca-2; OpenSM's order (byte-reversed keys 0x0001.., 0x0003.., 0x0102..) is
// sw, ca-2, ca-1 for nodes, and sw (0x0001..), ca-2's port 0x301 (0x0103..), ca-1's port 0x202 (0x0202..).
constexpr Guid kSw = 0x100, kCa1 = 0x201, kCa1Port = 0x202, kCa2 = 0x300, kCa2Port = 0x301;

struct Fabric {
  std::shared_ptr<Topology> topo = std::make_shared<Topology>();
  std::shared_ptr<LidMap> lids = std::make_shared<LidMap>();
  NodeIndex sw = 0, ca1 = 0, ca2 = 0;
};

Node make_node(Guid guid, Guid sys, NodeType type, const std::string& desc, PortNum num_ports, Guid port_guid) {
  Node n;
  n.guid = guid;
  n.system_image_guid = sys;
  n.type = type;
  n.description = desc;
  n.num_ports = num_ports;
  n.ports.resize(num_ports + 1u);
  for (PortNum p = 0; p <= num_ports; ++p) {
    n.ports[p].num = p;
    n.ports[p].guid = type == NodeType::kSwitch ? guid : (p == 0 ? 0 : port_guid + (p - 1));
  }
  return n;
}

Fabric make_fabric() {
  Fabric f;
  f.sw = f.topo->add_node(make_node(kSw, 0x100, NodeType::kSwitch, "sw-a", 3, kSw)).value();
  f.ca1 = f.topo->add_node(make_node(kCa1, 0x200, NodeType::kCa, "ca-1", 1, kCa1Port)).value();
  // A BEL in the description: OpenSM prints a space for every byte that is not printable.
  f.ca2 = f.topo->add_node(make_node(kCa2, 0x300, NodeType::kCa, "ca-2\x07", 1, kCa2Port)).value();
  EXPECT_TRUE(f.topo->connect(f.sw, 1, f.ca1, 1).ok());
  EXPECT_TRUE(f.topo->connect(f.sw, 2, f.ca2, 1).ok());  // port 3 stays uncabled
  EXPECT_TRUE(f.lids->assign(f.sw, 0, 1, 0).ok());
  EXPECT_TRUE(f.lids->assign(f.ca1, 1, 2, 0).ok());
  EXPECT_TRUE(f.lids->assign(f.ca2, 1, 3, 0).ok());
  return f;
}

TEST(OpensmOrder, SortsByTheByteReversedGuid) {
  std::vector<Guid> g{0x200000, 0x100002, 0x100000, 0x200001};
  sort_as_opensm(g, [](Guid x) { return x; });
  EXPECT_EQ(g, (std::vector<Guid>{0x100000, 0x200000, 0x200001, 0x100002}));  // as opensm-subnet.lst lists them
  EXPECT_EQ(opensm_print_desc(std::string("a\tb\xff") + std::string(70, 'x')), "a b " + std::string(59, 'x'));
}

TEST(OpensmLfts, EveryRoutedLidWithItsDestination) {
  Fabric f = make_fabric();
  RoutingTables t;
  t.lft.resize(f.topo->size());
  Lft lft(4);
  lft.set(1, 0);
  lft.set(2, 1);
  lft.set(3, 2);
  lft.set(4, 3);  // a LID no port holds
  t.lft[f.sw] = lft;
  EXPECT_EQ(opensm_lfts(*f.topo, *f.lids, t),
            "Unicast lids [0-4] of switch Lid 1 guid 0x0000000000000100 ('sw-a'):\n"
            "0x0001 000 # Switch portguid 0x0000000000000100: 'sw-a'\n"
            "0x0002 001 # Channel Adapter portguid 0x0000000000000202: 'ca-1'\n"
            "0x0003 002 # Channel Adapter portguid 0x0000000000000301: 'ca-2 '\n"
            "0x0004 003 # unknown node and type\n"
            "4 lids dumped\n");
}

TEST(OpensmLfts, TheStreamWriterWritesTheSameText) {
  // Two switches, so the writer's per-switch flush runs between blocks: sw-a's table, then sw-b's.
  Fabric f = make_fabric();
  const NodeIndex sw_b = f.topo->add_node(make_node(0x400, 0x400, NodeType::kSwitch, "sw-b", 3, 0x400)).value();
  EXPECT_TRUE(f.topo->connect(f.sw, 3, sw_b, 1).ok());
  EXPECT_TRUE(f.lids->assign(sw_b, 0, 4, 0).ok());
  RoutingTables t;
  t.lft.resize(f.topo->size());
  Lft lft(4);
  lft.set(1, 0);
  lft.set(2, 1);
  lft.set(3, 2);
  lft.set(4, 3);
  t.lft[f.sw] = lft;
  Lft lft_b(4);
  for (Lid lid = 1; lid <= 3; ++lid) lft_b.set(lid, 1);
  lft_b.set(4, 0);
  t.lft[sw_b] = lft_b;
  const std::string whole = opensm_lfts(*f.topo, *f.lids, t);
  std::ostringstream streamed;
  write_opensm_lfts(streamed, *f.topo, *f.lids, t);
  EXPECT_EQ(streamed.str(), whole);
  EXPECT_NE(whole.find("0x0003 002 # Channel Adapter"), std::string::npos) << whole;
  EXPECT_NE(whole.find("switch Lid 4 guid 0x0000000000000400 ('sw-b')"), std::string::npos) << whole;
}

TEST(OpensmLfts, NoRouteLinesAreLeftOut) {
  Fabric f = make_fabric();
  RoutingTables t;
  t.lft.resize(f.topo->size());
  Lft lft(3);
  lft.set(2, 1);
  t.lft[f.sw] = lft;
  EXPECT_EQ(opensm_lfts(*f.topo, *f.lids, t),
            "Unicast lids [0-3] of switch Lid 1 guid 0x0000000000000100 ('sw-a'):\n"
            "0x0002 001 # Channel Adapter portguid 0x0000000000000202: 'ca-1'\n"
            "3 lids dumped\n");
}

TEST(OpensmMcfdbs, OneLinePerMlidPortsAscending) {
  Fabric f = make_fabric();
  McastTables m;
  McastTree t0;
  t0.root = kSw;
  McastPortMask a;
  a.set(2);
  a.set(1);
  t0.switches = {{kSw, a}};
  McastTree t1;
  t1.root = kSw;
  McastPortMask b;
  b.set(17);  // position 1 of the MFT
  b.set(0);
  McastPortMask stray;
  stray.set(1);
  t1.switches = {{kSw, b}, {0x999, stray}};  // 0x999 is not in the fabric: left out
  m.trees[0xC000] = t0;
  m.trees[0xC001] = t1;
  m.trees[0xC002] = McastTree{};  // a group without a tree
  EXPECT_EQ(opensm_mcfdbs(*f.topo, m),
            "\nSwitch 0x0000000000000100\n"
            "LID    : Out Port(s)\n"
            "0xC000 : 0x001  0x002 \n"
            "0xC001 : 0x000  0x011 \n");
  EXPECT_EQ(opensm_mcfdbs(*f.topo, McastTables{}), "");
}

// SL2VL tables chosen so every row is told apart: switch out 1 maps SL s to VL s % 8, out 2 maps every SL
// to the in port's number; ca-1 maps SL s to 15 - s, ca-2 everything to VL 10 (two digits: the column width).
struct FakeSl2Vl : Sl2VlLookup {
  const Fabric* f;
  explicit FakeSl2Vl(const Fabric& fab) : f(&fab) {}
  Sl2Vl table(NodeIndex node, PortNum in, PortNum out) const override {
    Sl2Vl t{};
    for (unsigned s = 0; s < 16; ++s) {
      if (node == f->sw) t[s] = static_cast<std::uint8_t>(out == 1 ? s % 8 : in);
      if (node == f->ca1) t[s] = static_cast<std::uint8_t>(15 - s);
      if (node == f->ca2) t[s] = 10;
    }
    return t;
  }
};

TEST(OpensmSl2vl, SwitchRowsPerCabledOutPortThenEachCaPort) {
  Fabric f = make_fabric();
  const std::string head = "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n";
  const std::string sep = "#--------------------------------------------------------\n";
  const std::string mod8 = ": 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n";
  EXPECT_EQ(opensm_sl2vl(*f.topo, *f.lids, FakeSl2Vl(f)),
            "Switch 0x0000000000000100, base LID 1, \"sw-a\"\n" + head + sep + "0   1   " + mod8 + "1   1   " + mod8 +
                "2   1   " + mod8 + "3   1   " + mod8 +
                "0   2   : 0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0 \n"
                "1   2   : 1  1  1  1  1  1  1  1  1  1  1  1  1  1  1  1 \n"
                "2   2   : 2  2  2  2  2  2  2  2  2  2  2  2  2  2  2  2 \n"
                "3   2   : 3  3  3  3  3  3  3  3  3  3  3  3  3  3  3  3 \n" +
                sep + "\n" + "Channel Adapter 0x0000000000000301, base LID 3, \"ca-2 \"\n" + head + sep +
                "0   0   : 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10\n" + sep + "\n" +
                "Channel Adapter 0x0000000000000202, base LID 2, \"ca-1\"\n" + head + sep +
                "0   0   : 15 14 13 12 11 10 9  8  7  6  5  4  3  2  1  0 \n" + sep + "\n");
}

std::shared_ptr<FabricSnapshot> make_snapshot(const Fabric& f) {
  auto snap = std::make_shared<FabricSnapshot>();
  snap->topo = f.topo;
  snap->lids = f.lids;
  auto tables = std::make_shared<RoutingTables>();
  tables->lft.resize(f.topo->size());
  tables->lft[f.sw] = Lft(3);
  tables->lft[f.sw].set(1, 0);
  tables->lft[f.sw].set(2, 1);
  tables->lft[f.sw].set(3, 2);
  snap->tables = tables;
  auto v = std::make_shared<PortLinkView>();
  v->nodes.resize(3);
  v->ports.resize(3);
  v->nodes[f.sw] = {0x0002c9, 0xc738, 0xa1};
  v->nodes[f.ca1] = {0x0002c9, 0x1003, 0};
  v->nodes[f.ca2] = {0x0002c9, 0x101b, 1};
  v->ports[f.sw].resize(4);
  v->ports[f.ca1].resize(2);
  v->ports[f.ca2].resize(2);
  // Every port's MasterSMLID is 2 (ca-1's LID): only ca-1 is "-SM".
  v->ports[f.sw][0] = PortLinkView::Link{4, 2, 1, 0, false, 2};
  v->ports[f.sw][1] = PortLinkView::Link{4, 2, 4, 0, false, 2};   // 4x QDR
  v->ports[f.sw][2] = PortLinkView::Link{4, 8, 1, 2, false, 2};   // 12x, runs EDR
  v->ports[f.ca1][1] = PortLinkView::Link{3, 1, 2, 0, false, 2};  // Armed 1x DDR
  v->ports[f.ca2][1] = PortLinkView::Link{4, 8, 1, 2, true, 2};   // 12x EDR, advertises extended speeds
  snap->port_links = v;
  snap->sm_lid = 2;
  return snap;
}

TEST(OpensmSubnet, BothEndsOfEveryCabledPortInOpensmOrder) {
  Fabric f = make_fabric();
  auto snap = make_snapshot(f);
  const std::string sw = "SW Ports:03 SystemGUID:0000000000000100 NodeGUID:0000000000000100 PortGUID:0000000000000100 ";
  const std::string ca1 =
      "CA-SM Ports:01 SystemGUID:0000000000000200 NodeGUID:0000000000000201 PortGUID:0000000000000202 ";
  const std::string ca2 =
      "CA Ports:01 SystemGUID:0000000000000300 NodeGUID:0000000000000300 PortGUID:0000000000000301 ";
  // The peer's VenID has 8 digits and its DevID comes out of OpenSM's 32-bit swap (0x1003 -> 10030000); SPD
  // follows the peer's LID port's CapabilityMask: sw port 2 -> ca-2 shows EDR ("25"), ca-2 -> sw (port 0
  // without extended speeds) shows the base speed.
  const Result<std::string> text = opensm_subnet_list(*snap);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(text.value(),
            "{ " + sw + "VenID:0002C9 DevID:C738 Rev:000000A1 {sw-a} LID:0001 PN:01 } { " + ca1 +
                "VenID:000002C9 DevID:10030000 Rev:00000000 {ca-1} LID:0002 PN:01 } PHY=4x LOG=ACT SPD=10\n"
                "{ " +
                sw + "VenID:0002C9 DevID:C738 Rev:000000A1 {sw-a} LID:0001 PN:02 } { " + ca2 +
                "VenID:000002C9 DevID:101B0000 Rev:00000001 {ca-2 } LID:0003 PN:01 } PHY=12x LOG=ACT SPD=25\n"
                "{ " +
                ca2 + "VenID:0002C9 DevID:101B Rev:00000001 {ca-2 } LID:0003 PN:01 } { " + sw +
                "VenID:000002C9 DevID:C7380000 Rev:000000A1 {sw-a} LID:0001 PN:02 } PHY=12x LOG=ACT SPD=2.5\n"
                "{ " +
                ca1 + "VenID:0002C9 DevID:1003 Rev:00000000 {ca-1} LID:0002 PN:01 } { " + sw +
                "VenID:000002C9 DevID:C7380000 Rev:000000A1 {sw-a} LID:0001 PN:01 } PHY=1x LOG=ARM SPD=5\n");
}

TEST(OpensmSubnet, NoSweptFabricIsAnError) {
  FabricSnapshot empty;
  const Result<std::string> text = opensm_subnet_list(empty);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().code, ErrorCode::kInvalidInput);
  // A port view of another fabric (one node short) is refused, not read past its end.
  Fabric f = make_fabric();
  auto snap = make_snapshot(f);
  auto short_view = std::make_shared<PortLinkView>(*snap->port_links);
  short_view->nodes.pop_back();
  short_view->ports.pop_back();
  snap->port_links = short_view;
  const Result<std::string> bad = opensm_subnet_list(*snap);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInternal);
}

// OpenSM's words for node types: ib_get_node_type_str (opensm-lfts, opensm-sl2vl) and subnet.lst's tags,
// as OpenSM 3.3.23's dumps print them.
TEST(OpenSmDump, NodeTypeWords) {
  EXPECT_STREQ(opensm_node_type(NodeType::kCa), "Channel Adapter");
  EXPECT_STREQ(opensm_node_type(NodeType::kSwitch), "Switch");
  EXPECT_STREQ(opensm_node_type(NodeType::kRouter), "Router");
  EXPECT_STREQ(opensm_node_type(static_cast<NodeType>(0)), "Unknown");
  EXPECT_STREQ(opensm_node_tag(NodeType::kCa), "CA");
  EXPECT_STREQ(opensm_node_tag(NodeType::kSwitch), "SW");
  EXPECT_STREQ(opensm_node_tag(NodeType::kRouter), "Rt");
  EXPECT_STREQ(opensm_node_tag(static_cast<NodeType>(9)), "**");
}

}  // namespace
}  // namespace smd::dump::opensm_dump_test

namespace smd::control::opensm_dump_test {
namespace {

using FakeControl = test::NullControl;

TEST(DumpRequest, AnswersWithOpensmsFileNameAndText) {
  dump::opensm_dump_test::Fabric f = dump::opensm_dump_test::make_fabric();
  FakeControl c;
  c.snap = dump::opensm_dump_test::make_snapshot(f);
  const Json r = handle_request({{"cmd", "dump"}, {"what", "lfts"}}, c);
  ASSERT_TRUE(r.value("ok", false)) << r.dump();
  EXPECT_EQ(r["result"]["file"], "opensm-lfts.dump");
  EXPECT_EQ(r["result"]["text"],
            "Unicast lids [0-3] of switch Lid 1 guid 0x0000000000000100 ('sw-a'):\n"
            "0x0001 000 # Switch portguid 0x0000000000000100: 'sw-a'\n"
            "0x0002 001 # Channel Adapter portguid 0x0000000000000202: 'ca-1'\n"
            "0x0003 002 # Channel Adapter portguid 0x0000000000000301: 'ca-2 '\n"
            "3 lids dumped\n");
  const Json mc = handle_request({{"cmd", "dump"}, {"what", "mcfdbs"}}, c);
  ASSERT_TRUE(mc.value("ok", false)) << mc.dump();
  EXPECT_EQ(mc["result"]["file"], "opensm.mcfdbs");
  EXPECT_EQ(mc["result"]["text"], "");  // no trees: OpenSM's file is empty too
  const Json sub = handle_request({{"cmd", "dump"}, {"what", "subnet"}}, c);
  ASSERT_TRUE(sub.value("ok", false)) << sub.dump();
  EXPECT_EQ(sub["result"]["file"], "opensm-subnet.lst");
}

TEST(DumpRequest, RefusesWhatItCannotDump) {
  dump::opensm_dump_test::Fabric f = dump::opensm_dump_test::make_fabric();
  FakeControl c;
  c.snap = dump::opensm_dump_test::make_snapshot(f);
  Json r = handle_request({{"cmd", "dump"}, {"what", "sl2vl"}}, c);
  EXPECT_FALSE(r.value("ok", true));
  EXPECT_NE(r.value("error", "").find("no SL2VL tables"), std::string::npos) << r.dump();
  r = handle_request({{"cmd", "dump"}, {"what", "fdbs"}}, c);
  EXPECT_EQ(r.value("error", ""), "unknown dump 'fdbs' (known: lfts, mcfdbs, sl2vl, subnet)");
  r = handle_request({{"cmd", "dump"}}, c);
  EXPECT_EQ(r.value("error", ""), "dump needs what: lfts, subnet, mcfdbs or sl2vl");
  c.snap = std::make_shared<FabricSnapshot>();
  r = handle_request({{"cmd", "dump"}, {"what", "lfts"}}, c);
  EXPECT_EQ(r.value("error", ""), "dump lfts: no swept fabric yet");
}

}  // namespace
}  // namespace smd::control::opensm_dump_test
