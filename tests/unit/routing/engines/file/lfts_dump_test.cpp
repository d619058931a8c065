// parse_lfts_dump: a dump as OpenSM 3.3.23 writes it (the rows below are copied in OpenSM's layout, from a
// run on tests/fabrics/leafspine.net) reads into its fields, and every kind of bad line is refused with
// the file:line:column an operator goes to (counted by hand, 1-based).
#include "routing/engines/file/lfts_dump.h"

#include <gtest/gtest.h>

#include <string>

namespace smd::lfts_dump_test {
namespace {

constexpr const char* kGood =
    "Unicast lids [0-9] of switch Lid 2 guid 0x0000000000200000 ('leaf-0'):\n"
    "0x0001 001 # Channel Adapter portguid 0x0000000000100001: 'host-0'\n"
    "0x0002 000 # Switch portguid 0x0000000000200000: 'leaf-0'\n"
    "0x0009 012 # Switch portguid 0x0000000000200005: 'spine-1'\n"
    "9 lids dumped\n"
    "\n"
    "Unicast lids [0-3] of switch Lid 3 guid 0x0000000000200001 ('leaf-1'):\r\n"
    "0x3 4\n"
    "3 lids dumped\n";

/// The error message of parsing `text` as "t.dump", or "" when it parses.
std::string error_of(const std::string& text) {
  auto dump = parse_lfts_dump(text, "t.dump");
  if (dump) return "";
  EXPECT_EQ(dump.error().code, ErrorCode::kInvalidInput);
  return dump.error().message;
}

const std::string kHead = "Unicast lids [0-9] of switch Lid 2 guid 0x0000000000200000 ('leaf-0'):\n";

TEST(LftsDump, ReadsOpenSmLayout) {
  auto dump = parse_lfts_dump(kGood, "t.dump");
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  EXPECT_EQ(dump->source, "t.dump");
  ASSERT_EQ(dump->switches.size(), 2u);
  const DumpSwitch& a = dump->switches[0];
  EXPECT_EQ(a.guid, 0x200000u);
  EXPECT_EQ(a.top, 9);
  EXPECT_EQ(a.guid_at.line, 1u);
  EXPECT_EQ(a.guid_at.column, 41u);
  EXPECT_EQ(a.top_at.column, 17u);
  EXPECT_EQ(a.lid, 2);
  EXPECT_EQ(a.lid_at.column, 34u);
  ASSERT_EQ(a.routes.size(), 3u);
  EXPECT_EQ(a.routes[0].lid, 1);
  EXPECT_EQ(a.routes[0].port, 1);
  EXPECT_EQ(a.routes[1].lid, 2);
  EXPECT_EQ(a.routes[1].port, 0);
  EXPECT_EQ(a.routes[2].lid, 9);
  EXPECT_EQ(a.routes[2].port, 12);
  EXPECT_EQ(a.routes[2].lid_at.line, 4u);
  EXPECT_EQ(a.routes[2].lid_at.column, 1u);
  EXPECT_EQ(a.routes[2].port_at.column, 8u);
  const DumpSwitch& b = dump->switches[1];
  EXPECT_EQ(b.guid, 0x200001u);
  EXPECT_EQ(b.top, 3);
  EXPECT_EQ(b.lid, 3);
  EXPECT_EQ(b.guid_at.line, 7u);
  ASSERT_EQ(b.routes.size(), 1u);  // short hex and an unpadded port read too
  EXPECT_EQ(b.routes[0].lid, 3);
  EXPECT_EQ(b.routes[0].port, 4);
  EXPECT_EQ(b.routes[0].port_at.column, 5u);
}

TEST(LftsDump, MalformedLines) {
  EXPECT_EQ(error_of(kHead + "0x0001 001\nhello\n"),
            "t.dump:3:1: not a line of opensm-lfts.dump (a \"Unicast lids\" header, a \"0x<LID> <port>\" route or "
            "\"<n> lids dumped\")");
  EXPECT_EQ(error_of("0x0001 001\n" + kHead),
            "t.dump:1:1: route outside a section (before its \"Unicast lids\" header or after \"<n> lids dumped\")");
  EXPECT_EQ(error_of(kHead + "0x0001 001\n9 lids dumped\n0x0002 001\n"),
            "t.dump:4:1: route outside a section (before its \"Unicast lids\" header or after \"<n> lids dumped\")");
  EXPECT_EQ(error_of("Unicast lids [1-9] of switch guid 0x1\n"),
            "t.dump:1:15: expected \"0-<top>]\" after \"Unicast lids [\"");
  EXPECT_EQ(error_of("Unicast lids [0-x] of switch guid 0x1\n"),
            "t.dump:1:17: top LID must be a decimal number 0..49151");
  EXPECT_EQ(error_of("Unicast lids [0-49152] of switch guid 0x1\n"),
            "t.dump:1:17: top LID must be a decimal number 0..49151");
  EXPECT_EQ(error_of("Unicast lids [0-9 of switch guid 0x1\n"), "t.dump:1:18: expected ']' after the top LID");
  EXPECT_EQ(error_of("Unicast lids [0-9] of switch Lid 2 ('leaf-0'):\n"),
            "t.dump:1:35: section header has no \"guid 0x...\"");
  EXPECT_EQ(error_of("Unicast lids [0-9] of switch Lid x guid 0x1 ('leaf-0'):\n"),
            "t.dump:1:34: switch LID must be a decimal number 1..49151");
  EXPECT_EQ(error_of("Unicast lids [0-9] of switch Lid 0 guid 0x1 ('leaf-0'):\n"),
            "t.dump:1:34: switch LID must be a decimal number 1..49151");
  EXPECT_EQ(error_of("Unicast lids [0-9] of switch guid 0x00000000002000001 ('x'):\n"),
            "t.dump:1:35: switch GUID must be 0x and 1..16 hex digits");
  EXPECT_EQ(error_of("Unicast lids [0-9] of switch guid 0xzz ('x'):\n"),
            "t.dump:1:35: switch GUID must be 0x and 1..16 hex digits");
  EXPECT_EQ(error_of("Unicast lids [0-9] of switch guid 0x0 ('x'):\n"), "t.dump:1:35: switch GUID 0 names no switch");
  EXPECT_EQ(error_of(kHead + "0x00001 001\n"), "t.dump:2:1: LID must be 0x and 1..4 hex digits, then a space");
  EXPECT_EQ(error_of(kHead + "0x0001\n"), "t.dump:2:1: LID must be 0x and 1..4 hex digits, then a space");
  EXPECT_EQ(error_of(kHead + "0x0001 x01\n"), "t.dump:2:8: port must be a decimal number 0..254");
  EXPECT_EQ(error_of(kHead + "0x0001  255 # no route is left out\n"),
            "t.dump:2:9: port must be a decimal number 0..254");
  EXPECT_EQ(error_of(kHead + "0x0001 001 host-0\n"),
            "t.dump:2:12: unexpected text after the port (a comment starts with '#')");
  EXPECT_EQ(error_of(""), "t.dump:1:1: no \"Unicast lids\" section: not an opensm-lfts.dump");
  EXPECT_EQ(error_of("\n\n7 lids dumped\n"), "t.dump:3:1: no \"Unicast lids\" section: not an opensm-lfts.dump");
}

TEST(LftsDump, LidsAndSwitchesOutOfPlace) {
  EXPECT_EQ(error_of(kHead + "0x000a 001\n"), "t.dump:2:1: LID 0x000a is above this switch's top 9 (line 1)");
  EXPECT_EQ(error_of("Unicast lids [0-49151] of switch guid 0x1 ('x'):\n0xc000 001\n"),
            "t.dump:2:1: LID 0xc000 is not a unicast LID (0x0001..0xbfff)");
  EXPECT_EQ(error_of(kHead + "0x0000 001\n"), "t.dump:2:1: LID 0x0000 is not a unicast LID (0x0001..0xbfff)");
  EXPECT_EQ(error_of(kHead + "0x0001 001\n0x0002 002\n0x0001 003\n"),
            "t.dump:4:1: LID 0x0001 is listed twice for this switch");
  // The same LID in two sections is two switches' entries, not a repeat.
  EXPECT_EQ(error_of(kHead + "0x0001 001\n" +
                     "Unicast lids [0-9] of switch Lid 3 guid 0x0000000000200001 ('leaf-1'):\n0x0001 002\n"),
            "");
  EXPECT_EQ(error_of(kHead + "0x0001 001\n" + kHead), "t.dump:3:41: switch 0x0000000000200000 has a second section");
}

}  // namespace
}  // namespace smd::lfts_dump_test
