// NodeDescription and LinearForwardingTable block codecs (whole-payload attributes).
#include <gtest/gtest.h>

#include <cstring>

#include "mad/codec/lft_block.h"
#include "mad/codec/node_description.h"
#include "tests/unit/mad/oracle.h"

namespace smd::mad::small_attrs_test {
namespace {

TEST(NodeDescription, TrimsAtTheFirstNul) {
  SmpData d{};
  const char text[] = "sw1 leaf 3";
  std::memcpy(d.data(), text, sizeof text - 1);
  d[20] = 'x';  // garbage after the NUL is not part of the text
  const NodeDescription nd = NodeDescription::decode(d);
  EXPECT_EQ(nd.text, "sw1 leaf 3");
  SmpData again{};
  nd.encode(again);
  EXPECT_EQ(again, d) << "unchanged text must give back the exact bytes";
}

TEST(NodeDescription, SixtyFourBytesWithoutNulAreAllText) {
  SmpData d;
  d.fill('a');
  EXPECT_EQ(NodeDescription::decode(d).text, std::string(64, 'a'));
}

TEST(NodeDescription, EncodeMatchesLibibmadArray) {
  NodeDescription nd;
  nd.text = "HCA-7 mlx5_0";
  SmpData d;
  d.fill(0xEE);
  nd.encode(d);
  char oracle[64];
  mad_get_array(d.data(), 0, IB_NODE_DESC_F, oracle);
  EXPECT_STREQ(oracle, "HCA-7 mlx5_0");
  for (std::size_t i = nd.text.size(); i < 64; ++i) EXPECT_EQ(d[i], 0) << i;
}

TEST(LftBlock, EntryIIsLidBaseplusI) {
  SmpData d;
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<std::uint8_t>(i % 37);
  d[63] = kLftNoRoute;
  const LftBlock b = LftBlock::decode(d);
  EXPECT_EQ(b.ports[5], 5);
  EXPECT_EQ(b.ports[40], 3);
  EXPECT_EQ(b.ports[63], 0xFF);
  SmpData again{};
  b.encode(again);
  EXPECT_EQ(again, d);
  EXPECT_EQ(LftBlock::block_of(63), 0u);
  EXPECT_EQ(LftBlock::block_of(64), 1u);
  EXPECT_EQ(LftBlock::block_of(0xBFFF), 767u);
}

}  // namespace
}  // namespace smd::mad::small_attrs_test
