// parse_netfile / read_netfile_file / write_netfile. Expected GUIDs, descriptions and rates are what ibsim 0.10 itself
// reported (ibnetdiscover against `ibsim -s -n` on these very files), not what the reader computes.
#include "routing/netfile/netfile.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config/netfile_file.h"
#include "routing/netfile/netfile_writer.h"

namespace smd::netfile_test {
namespace {

Result<Topology> parse(const std::string& text) { return parse_netfile(text, "t.net", netfile_file_includes()); }

NodeIndex by_desc(const Topology& t, const std::string& d) {
  for (NodeIndex i = 0; i < t.size(); ++i) {
    if (t.node(i).description == d) return i;
  }
  ADD_FAILURE() << "no node " << d;
  return 0;
}

// ibsim format with a 2-port CA first, a header comment as description and a 1x QDR inter-switch link.
constexpr const char* kIbsimFile = R"(# hand written
Hca 2 "h0"
[1] "s1"[1]
[2] "s2"[1]

Switch 4 "s1" # "my switch desc"
[1] "h0"[1]
[2] "h1"[1]
[3] "s2"[3] w=1 s=4

do Dump
Switch 4 "s2"
[1] "h0"[2]
[3] "s1"[3] w=1 s=4
[2] "h2"[1]

Hca 1 "h1"
[1] "s1"[2]

Hca 1 "h2"
[1] "s2"[2]
)";

TEST(NetfileReader, IbsimFormatGuidsAsIbsimAssignsThem) {
  auto t = parse(kIbsimFile);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->size(), 5u);
  EXPECT_EQ(t->switches().size(), 2u);
  EXPECT_EQ(t->link_count(), 5u);
  // Reported by ibnetdiscover on ibsim 0.10 for this file.
  const Node& h0 = t->node(by_desc(*t, "h0"));
  EXPECT_EQ(h0.guid, 0x100000u);
  EXPECT_EQ(h0.ports[1].guid, 0x100001u);
  EXPECT_EQ(h0.ports[2].guid, 0x100002u);
  EXPECT_EQ(t->node(by_desc(*t, "h1")).guid, 0x100003u);
  EXPECT_EQ(t->node(by_desc(*t, "h1")).ports[1].guid, 0x100004u);
  EXPECT_EQ(t->node(by_desc(*t, "h2")).guid, 0x100005u);
  const Node& s1 = t->node(by_desc(*t, "my switch desc"));
  EXPECT_EQ(s1.guid, 0x200000u);
  EXPECT_EQ(s1.ports[3].guid, 0x200000u);
  EXPECT_EQ(s1.lft_cap, 30720u);  // smpquery si on ibsim 0.10
  EXPECT_EQ(t->node(by_desc(*t, "s2")).guid, 0x200001u);
  // ibsim reported 1xQDR for s1[3]-s2[3] and 4xSDR elsewhere.
  EXPECT_EQ(s1.ports[3].link_width_active, 1u);
  EXPECT_EQ(s1.ports[3].link_speed_active, 4u);
  EXPECT_EQ(s1.ports[1].link_width_active, 2u);
  EXPECT_EQ(s1.ports[1].link_speed_active, 1u);
  EXPECT_EQ(s1.ports[1].state, PortState::kActive);
  EXPECT_EQ(s1.ports[4].state, PortState::kDown);
  EXPECT_FALSE(s1.ports[4].connected());
  EXPECT_EQ(t->node(s1.ports[3].peer).description, "s2");
  EXPECT_EQ(s1.ports[3].peer_port, 3u);
  EXPECT_EQ(t->sm_node, by_desc(*t, "h0"));
  EXPECT_EQ(t->sm_port, 1u);
}

TEST(NetfileReader, GuidLinesRestartTheCounters) {
  // ibsim 0.10 gave s1 0x900, s2 0x901, h0 0x500 (ports 0x501/0x502, the "(777)" ignored), h1 0x503, h2 0x505.
  auto t = parse(R"(switchguid=0x900
Switch 4 "s1"
[1] "h0"[1]
[2] "h1"[1]
[3] "s2"[3]

Switch 4 "s2"
[1] "h0"[2]
[2] "h2"[1]
[3] "s1"[3]

caguid=0x500
Hca 2 "h0"
[1](777) "s1"[1]
[2] "s2"[1]

Hca 1 "h1"
[1] "s1"[2]

Hca 1 "h2"
[1] "s2"[2]
)");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->node(by_desc(*t, "s1")).guid, 0x900u);
  EXPECT_EQ(t->node(by_desc(*t, "s2")).guid, 0x901u);
  EXPECT_EQ(t->node(by_desc(*t, "h0")).ports[1].guid, 0x501u);
  EXPECT_EQ(t->node(by_desc(*t, "h1")).guid, 0x503u);
  EXPECT_EQ(t->node(by_desc(*t, "h2")).ports[1].guid, 0x506u);
  // No CA before the switches: the SM is still the first CA listed.
  EXPECT_EQ(t->sm_node, by_desc(*t, "h0"));
}

// CA ports take the node GUID plus the port number: a caguid= line can give two ports one PortGUID (which
// guid2lid would fold into one LID) or wrap past 2^64; both are refused where the second node is declared.
TEST(NetfileReader, PortGuidsAreUniqueAndDoNotWrap) {
  auto dup = parse("caguid=0x100000\nHca 2 \"h0\"\n[1] \"h1\"[1]\n\ncaguid=0x100001\nHca 2 \"h1\"\n[1] \"h0\"[1]\n");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(dup.error().message,
            "t.net:6:7: port \"h1\"[1] gets PortGUID 0x100002 already used by port \"h0\"[2] "
            "(check switchguid=/caguid= lines)");
  auto wrap = parse("caguid=0xffffffffffffffff\nHca 2 \"h0\"\n");
  ASSERT_FALSE(wrap.ok());
  EXPECT_NE(wrap.error().message.find("leaves no room for the PortGUID of port 1"), std::string::npos)
      << wrap.error().message;
  // A switch's ports all carry its own GUID; a CA just below it must not reach it.
  auto onto_switch =
      parse("switchguid=0x200001\nSwitch 2 \"s\"\n[1] \"h\"[1]\n\ncaguid=0x200000\nHca 1 \"h\"\n[1] \"s\"[1]\n");
  ASSERT_FALSE(onto_switch.ok());
  EXPECT_NE(onto_switch.error().message.find("already used by port \"s\"[0]"), std::string::npos)
      << onto_switch.error().message;
}

// The shape of a real cluster's ibnetdiscover output (Mellanox GUIDs, LIDs, EDR links).
constexpr const char* kDiscovered = R"(#
# Topology file: generated on Mon Nov 30 03:06:07 2026
#
vendid=0x2c9
devid=0xcf08
sysimgguid=0x2c9030011a2b0
switchguid=0x2c9030011a2b0(2c9030011a2b0)
Switch	36 "S-0002c9030011a2b0"		# "MF0;leaf01:MSB7700/U1" enhanced port 0 lid 3 lmc 0
[1]	"H-0002c90300e0b720"[1](2c90300e0b721) 		# "node01 mlx5_0" lid 5 4xEDR
[2]	"H-0002c90300e0b730"[1](2c90300e0b731) 		# "node02 mlx5_0" lid 6 4xEDR

vendid=0x2c9
devid=0x1013
sysimgguid=0x2c90300e0b720
caguid=0x2c90300e0b720
Ca	1 "H-0002c90300e0b720"		# "node01 mlx5_0"
[1](2c90300e0b721) 	"S-0002c9030011a2b0"[1]		# lid 5 lmc 0 "MF0;leaf01:MSB7700/U1" lid 3 4xEDR

caguid=0x2c90300e0b730
Ca	1 "H-0002c90300e0b730"		# "node02 mlx5_0"
[1](2c90300e0b731) 	"S-0002c9030011a2b0"[2]		# lid 6 lmc 1 "MF0;leaf01:MSB7700/U1" lid 3 4xEDR
)";

// A *guid= line is one GUID (ibnetdiscover repeats it in parentheses) and perhaps a comment: a digit past
// the 16th or other text would leave the next node with a GUID nobody wrote (ibsim's strtoull stops early).
TEST(NetfileReader, GuidLinesWithMoreThanAGuidAreRefusedWhereTheyGoWrong) {
  const std::string node = "\nSwitch 2 \"s\"\n";  // "0x" is columns 12-13, 16 digits 14-29
  auto digits = parse("switchguid=0x12345678901234567" + node);
  ASSERT_FALSE(digits.ok());
  EXPECT_EQ(digits.error().message, "t.net:1:30: a GUID has at most 16 hex digits");
  auto garbage = parse("switchguid=0x10 trailing garbage" + node);
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().message, "t.net:1:17: unexpected text after the GUID");
  auto paren = parse("caguid=0x10(11" + node);
  ASSERT_FALSE(paren.ok());
  EXPECT_EQ(paren.error().message, "t.net:1:15: expected (GUID)");
  auto fine = parse("switchguid=0x10(10)   # the leaf" + node);
  ASSERT_TRUE(fine.ok()) << fine.error().message;
  EXPECT_EQ(fine->node(0).guid, 0x10u);
}

TEST(NetfileReader, IbnetdiscoverOutput) {
  auto t = parse(kDiscovered);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->size(), 3u);
  const Node& sw = t->node(0);
  EXPECT_TRUE(sw.is_switch());
  EXPECT_EQ(sw.num_ports, 36u);
  EXPECT_EQ(sw.guid, 0x2c9030011a2b0u);
  EXPECT_EQ(sw.description, "MF0;leaf01:MSB7700/U1");
  EXPECT_EQ(sw.ports[0].lid, 3u);
  EXPECT_EQ(sw.ports[1].link_width_active, 2u);  // 4x
  EXPECT_EQ(sw.ports[1].link_speed_active, 4u);  // EDR folded into the best base speed, QDR
  const Node& n1 = t->node(1);
  EXPECT_EQ(n1.type, NodeType::kCa);
  EXPECT_EQ(n1.guid, 0x2c90300e0b720u);
  EXPECT_EQ(n1.ports[1].guid, 0x2c90300e0b721u);
  EXPECT_EQ(n1.description, "node01 mlx5_0");
  EXPECT_EQ(n1.ports[1].lid, 5u);
  EXPECT_EQ(t->node(2).ports[1].lid, 6u);
  EXPECT_EQ(t->node(2).ports[1].lmc, 1u);
  EXPECT_EQ(t->sm_node, 1u);
  EXPECT_EQ(t->sm_port, 1u);
}

// ConnectX-4 and later: a CA port's GUID is its node GUID, not node GUID + port. The port GUID that
// ibnetdiscover prints is the one guid2lid and PathRecords name, so it is the one the topology keeps.
TEST(NetfileReader, IbnetdiscoverPortGuidsAreTakenAsPrinted) {
  std::string text = kDiscovered;
  for (const auto& [from, to] :
       {std::pair{"[1](2c90300e0b721)", "[1](2c90300e0b720)"}, std::pair{"[1](2c90300e0b731)", "[1](2c90300e0b730)"}}) {
    const auto at = text.rfind(from);  // the CA's own line; the switch's names it as its peer first
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, std::string(from).size(), to);
  }
  auto t = parse(text);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->node(1).ports[1].guid, 0x2c90300e0b720u) << "as printed, equal to the node GUID";
  EXPECT_EQ(t->node(2).ports[1].guid, 0x2c90300e0b730u);
  auto plain = parse(kDiscovered);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->node(1).ports[1].guid, 0x2c90300e0b721u);
}

struct BadCase {
  const char* text;
  const char* where_and_what;  // expected prefix of the message after "t.net:"
};

TEST(NetfileReader, ErrorsNameFileLineColumn) {
  const BadCase cases[] = {
      // one-sided: s[2] lists h1 but h1 has no line for port 1 (h1 lists nothing).
      {"Switch 2 \"s\"\n[1] \"h\"[1]\n[2] \"h1\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[1]\n\nHca 1 \"h1\"\n",
       "3:1: one-sided link \"s\"[2] -> \"h1\"[1]"},
      // contradictory: s[1] -> h[1] but h[1] -> s[2]
      {"Switch 2 \"s\"\n[1] \"h\"[1]\n[2] \"h\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[2]\n",
       "2:1: contradictory link \"s\"[1] -> \"h\"[1]"},
      {"Switch 2 \"s\"\n[1] \"nope\"[1]\n", "2:5: unknown node \"nope\""},
      {"Switch 2 \"s\"\n[3] \"h\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[3]\n", "2:1: port 3 outside 1..2"},
      {"Switch 2 \"s\"\n[1] \"h\"[4]\n\nHca 1 \"h\"\n[1] \"s\"[1]\n", "2:8: port 4 outside 1..1 of \"h\""},
      {"Switch 2 \"s\"\n\nSwitch 3 \"s\"\n", "3:10: duplicate node id \"s\" (first at t.net:1:10)"},
      {"Switch 2 \"s\"\n[1] \"h\"[1]\n[1] \"h\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[1]\n", "3:1: port \"s\"[1] listed twice"},
      {"Switch 300 \"s\"\n", "1:8: port count 300 outside 1..254"},
      // numbers of any length are read whole and quoted as written (they were cut at 9 digits)
      {"Switch 1000000000 \"s\"\n", "1:8: port count 1000000000 outside 1..254"},
      {"Switch 99999999999999999999 \"s\"\n", "1:8: port count 99999999999999999999 outside 1..254"},
      {"Switch 2 \"s\"\n[4294967297] \"h\"[1]\n", "2:1: port 4294967297 outside 1..254"},
      {"Switch 2 \"s\"\n[1] \"h\"[00000000000000000004]\n\nHca 1 \"h\"\n[1] \"s\"[1]\n",
       "2:8: port 4 outside 1..1 of \"h\""},
      {"Switch 2 s\n", "1:10: expected a quoted, non-empty node id"},
      {"[1] \"s\"[1]\n", "1:1: port line before any node header"},
      {"Switch 2 \"s\"\n[1] \"h\"[1] x=3\n", "2:12: unexpected text after the peer port"},
      {"Bridge 2 \"s\"\n", "1:1: unrecognised line"},
      // both ends state disjoint widths: ibsim panics on this, the reader refuses it at the second end
      {"Switch 2 \"s\"\n[1] \"h\"[1] w=1\n\nHca 1 \"h\"\n[1] \"s\"[1] w=2\n",
       "5:1: link \"s\"[1] <-> \"h\"[1]: the two ends share no link width"},
      {"Switch 2 \"s\"\n[1] \"h\"[1] # \"h\" lid 0 4xXDR\n", "2:24: unknown link width/speed \"4xXDR\""},
      // a switch cabled to itself: port to the same port, and a loopback cable between two of its ports
      {"Switch 2 \"s\"\n[1] \"s\"[1]\n", "2:1: port \"s\"[1] is cabled to itself"},
      {"Switch 4 \"s\"\n[1] \"s\"[2]\n[2] \"s\"[1]\n",
       "2:1: port \"s\"[1] is cabled to port 2 of the same node (a loopback cable)"},
  };
  for (const BadCase& c : cases) {
    auto t = parse(c.text);
    ASSERT_FALSE(t.ok()) << c.text;
    EXPECT_EQ(t.error().code, ErrorCode::kInvalidInput);
    const std::string want = std::string("t.net:") + c.where_and_what;
    EXPECT_EQ(t.error().message.substr(0, want.size()), want) << "got: " << t.error().message;
  }
}

TEST(NetfileReader, LeadingZerosAreReadAsIbsimReadsThem) {
  // ibsim parses numbers with strtoul: "0000000000008" is 8.
  auto t = parse("Switch 0000000000008 \"s\"\n[0000000001] \"h\"[01]\n\nHca 1 \"h\"\n[1] \"s\"[1]\n");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->node(0).num_ports, 8);
  EXPECT_EQ(t->link_count(), 1u);
}

TEST(NetfileReader, IncludeIsRelativeToTheIncludingFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("smd_netfile_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "main.net") << "Hca 1 \"h\"\n[1] \"s\"[1]\n\ninclude \"sub/sw.net\"\n";
  std::ofstream(dir / "sub" / "sw.net") << "Switch 2 \"s\"\n[1] \"h\"[1]\n";
  auto t = read_netfile_file((dir / "main.net").string());
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->size(), 2u);
  EXPECT_EQ(t->link_count(), 1u);
}

TEST(NetfileReader, IncludesComeFromTheCallersReader) {
  std::vector<std::string> asked;
  const NetfileIncludeReader reader = [&](const std::string& path) -> Result<std::string> {
    asked.push_back(path);
    if (path == "dir/sub/sw.net") return std::string("Switch 2 \"s\"\n[1] \"h\"[1]\n");
    return make_error(ErrorCode::kIo, "no " + path);
  };
  auto t = parse_netfile("Hca 1 \"h\"\n[1] \"s\"[1]\ninclude \"sub/sw.net\"\n", "dir/main.net", reader);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->link_count(), 1u);
  EXPECT_EQ(asked, (std::vector<std::string>{"dir/sub/sw.net"}));  // relative to the including file
  auto missing = parse_netfile("Hca 1 \"h\"\ninclude \"/abs.net\"\n", "dir/main.net", reader);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
  EXPECT_EQ(missing.error().message, "dir/main.net:2:9: include: no /abs.net");
  auto none = parse_netfile("Hca 1 \"h\"\ninclude \"x.net\"\n", "t.net");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message.rfind("t.net:2:9: include \"x.net\": ", 0), 0u) << none.error().message;
}

TEST(NetfileReader, IncludeCycleIsRefusedWhereItCloses) {
  const auto dir = std::filesystem::temp_directory_path() / ("smd_netfile_cycle_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.net") << "Hca 1 \"h\"\n[1] \"s\"[1]\ninclude \"b.net\"\n";
  std::ofstream(dir / "b.net") << "# b\n include \"a.net\"\n";
  auto t = read_netfile_file((dir / "a.net").string());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message,
            (dir / "b.net").string() + ":2:10: include cycle: " + (dir / "a.net").string() + " is already being read");
  std::filesystem::remove_all(dir);
}

TEST(NetfileReader, IncludesShareOneByteBudget) {
  const auto dir = std::filesystem::temp_directory_path() / ("smd_netfile_budget_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string piece = "# 20 bytes of text.\n";  // included again and again: 20 bytes each time
  ASSERT_EQ(piece.size(), 20u);
  std::ofstream(dir / "piece.net") << piece;
  std::string main;
  for (int i = 0; i < 6; ++i) main += "include \"piece.net\"\n";
  const std::string main_path = (dir / "main.net").string();
  // 100 bytes let five copies in; the sixth is refused where it is included.
  auto t = parse_netfile(main, main_path, netfile_file_includes(100));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message, main_path + ":6:9: include: netfile " + (dir / "piece.net").string() +
                                   ": the netfile and its includes add up to more than 100 bytes");
  std::string five;
  for (int i = 0; i < 5; ++i) five += "include \"piece.net\"\n";
  auto within = parse_netfile(five + "Hca 1 \"h\"\n", main_path, netfile_file_includes(100));
  EXPECT_TRUE(within.ok()) << within.error().message;
  std::filesystem::remove_all(dir);
}

TEST(NetfileReader, DeviceFileIsRefusedNotReadForever) {
  auto t = read_netfile_file("/dev/zero");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kIo);
  EXPECT_EQ(t.error().message, "cannot read netfile /dev/zero: it is a character device, not a regular file");
  auto inc = parse("Hca 1 \"h\"\ninclude \"/dev/zero\"\n");
  ASSERT_FALSE(inc.ok());
  EXPECT_EQ(inc.error().message,
            "t.net:2:9: include: cannot read netfile /dev/zero: it is a character device, not a regular file");
}

TEST(NetfileReader, MissingFileIsIoError) {
  auto t = read_netfile_file("/nonexistent/x.net");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kIo);
}

TEST(NetfileWriter, PutsTheSmFirstAndRoundTrips) {
  auto t = parse(kIbsimFile);
  ASSERT_TRUE(t.ok());
  t->sm_node = by_desc(*t, "h2");  // move the SM: h2 must now lead the file
  std::ostringstream out;
  ASSERT_TRUE(write_netfile(*t, out).ok());
  const std::string text = out.str();
  EXPECT_NE(text.find("\nHca 1 \"h2\"\n[1] \"s2\"[2]\n"), std::string::npos) << text;
  EXPECT_LT(text.find("\"h2\"\n"), text.find("Hca 2 \"h0\""));
  EXPECT_NE(text.find("[3] \"s2\"[3] w=1 s=4\n"), std::string::npos) << text;

  auto back = parse(text);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->node(back->sm_node).description, "h2");
  EXPECT_EQ(back->link_count(), t->link_count());
  for (const Node& n : t->nodes()) {
    const Node& m = back->node(by_desc(*back, n.description));
    EXPECT_EQ(m.num_ports, n.num_ports);
    for (PortNum p = 1; p <= n.num_ports; ++p) {
      ASSERT_EQ(m.ports[p].connected(), n.ports[p].connected());
      if (!n.ports[p].connected()) continue;
      EXPECT_EQ(back->node(m.ports[p].peer).description, t->node(n.ports[p].peer).description);
      EXPECT_EQ(m.ports[p].peer_port, n.ports[p].peer_port);
      EXPECT_EQ(m.ports[p].link_width_active, n.ports[p].link_width_active);
      EXPECT_EQ(m.ports[p].link_speed_active, n.ports[p].link_speed_active);
    }
  }
}

TEST(NetfileWriter, RejectsIdsIbsimCannotUse) {
  auto t = parse("Switch 1 \"a\"\n[1] \"b\"[1]\n\nHca 1 \"b\"\n[1] \"a\"[1]\n");
  ASSERT_TRUE(t.ok());
  std::ostringstream out;
  t->mutable_node(1).description = "a";
  EXPECT_NE(write_netfile(*t, out).error().message.find("also used by node 0"), std::string::npos);
  t->mutable_node(1).description = std::string(61, 'x');
  EXPECT_NE(write_netfile(*t, out).error().message.find("longer than 60"), std::string::npos);
  t->mutable_node(1).description = "q\"x";
  EXPECT_NE(write_netfile(*t, out).error().message.find("quote"), std::string::npos);
  EXPECT_TRUE(out.str().empty());
}

TEST(BundledFabrics, ReadWithTheDocumentedShape) {
  struct Want {
    const char* file;
    std::size_t switches, cas, links;
  };
  // Counts from tests/fabrics/README.md.
  for (const Want& w : {Want{"twoswitch.net", 2, 4, 6}, Want{"leafspine.net", 6, 16, 24},
                        Want{"kary4-3.net", 48, 64, 192}, Want{"ring.net", 4, 8, 12}}) {
    auto t = read_netfile_file(std::string(SMD_SOURCE_DIR) + "/tests/fabrics/" + w.file);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->switches().size(), w.switches) << w.file;
    EXPECT_EQ(t->cas().size(), w.cas) << w.file;
    EXPECT_EQ(t->link_count(), w.links) << w.file;
    EXPECT_EQ(t->node(t->sm_node).description, "host-0") << w.file;
    EXPECT_EQ(t->node(t->sm_node).guid, 0x100000u) << w.file;
  }
}

}  // namespace
}  // namespace smd::netfile_test
