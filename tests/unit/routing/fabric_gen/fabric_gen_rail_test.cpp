// The rail-optimized generator (make_rail_optimized): every HCA on the leaf of its rail in its unit at the
// port its place in the unit gives, every leaf cabled to exactly its spines, the core variant's rail
// planes, names as a real HCA reports them, the netfile round trip, and the shapes it refuses. Counts are
// worked out from the spec here, not read back from the generator.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/netfile/netfile.h"
#include "routing/netfile/netfile_writer.h"

namespace smd::fabric_gen_rail_test {
namespace {

/// Node index by description; -1 when absent.
std::map<std::string, NodeIndex> by_name(const Topology& t) {
  std::map<std::string, NodeIndex> out;
  for (NodeIndex i = 0; i < t.size(); ++i) out[t.node(i).description] = i;
  return out;
}

/// The (peer description, peer port) of node `name`'s port p.
std::pair<std::string, unsigned> peer_of(const Topology& t, const std::map<std::string, NodeIndex>& names,
                                         const std::string& name, PortNum p) {
  const Port& port = t.node(names.at(name)).ports[p];
  if (!port.connected()) return {"", 0};
  return {t.node(port.peer).description, port.peer_port};
}

/// Descriptions of the switches cabled to `name`'s ports, with the number of cables to each.
std::map<std::string, unsigned> switch_peers(const Topology& t, NodeIndex n) {
  std::map<std::string, unsigned> out;
  const Node& node = t.node(n);
  for (PortNum p = 1; p <= node.num_ports; ++p) {
    if (node.ports[p].connected() && t.node(node.ports[p].peer).is_switch())
      ++out[t.node(node.ports[p].peer).description];
  }
  return out;
}

// 2 units x 4 hosts x 4 rails, 4 spines, 2 cables per leaf-spine pair: 32 HCAs, 8 leaves of 4 + 4 x 2 = 12
// ports, 4 spines of 8 leaves x 2 = 16 ports; cables 32 + 8 x 4 x 2 = 96.
TEST(FabricGenRail, EveryHcaOnItsRailLeafEveryLeafOnEverySpine) {
  auto t = make_rail_optimized(RailSpec{2, 4, 4, 4, 2, 0});
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->cas().size(), 32u);
  EXPECT_EQ(t->switches().size(), 12u);
  const auto names = by_name(*t);
  std::size_t cables = 0;
  for (const Node& n : t->nodes()) {
    for (PortNum p = 1; p <= n.num_ports; ++p) cables += n.ports[p].connected() ? 1 : 0;
  }
  EXPECT_EQ(cables, 2 * 96u);
  for (unsigned h = 0; h < 8; ++h) {
    for (unsigned i = 0; i < 4; ++i) {
      const std::string hca = "host-" + std::to_string(h) + " mlx5_" + std::to_string(i);
      ASSERT_TRUE(names.count(hca)) << hca;
      EXPECT_EQ(t->node(names.at(hca)).num_ports, 1);
      const std::string leaf = "leaf-su" + std::to_string(h / 4) + "-r" + std::to_string(i);
      EXPECT_EQ(peer_of(*t, names, hca, 1), std::make_pair(leaf, h % 4 + 1)) << hca;
    }
  }
  for (unsigned su = 0; su < 2; ++su) {
    for (unsigned i = 0; i < 4; ++i) {
      const std::string leaf = "leaf-su" + std::to_string(su) + "-r" + std::to_string(i);
      EXPECT_EQ(t->node(names.at(leaf)).num_ports, 12);
      const std::map<std::string, unsigned> want{{"spine-0", 2}, {"spine-1", 2}, {"spine-2", 2}, {"spine-3", 2}};
      EXPECT_EQ(switch_peers(*t, names.at(leaf)), want) << leaf;
      // Spine 2's second cable: leaf port 4 + 2 x 2 + 1 + 1 = 10, spine port (su x 4 + i) x 2 + 2.
      EXPECT_EQ(peer_of(*t, names, leaf, 10), std::make_pair(std::string("spine-2"), (su * 4 + i) * 2 + 2));
    }
  }
  EXPECT_EQ(t->node(names.at("spine-0")).num_ports, 16);
  // The SM runs on the first HCA, as on every generated fabric.
  EXPECT_EQ(t->node(t->sm_node).description, "host-0 mlx5_0");
}

// With 2 cores the 8 spines form 4 rail planes of 2: spine-r<i>-<j> is cabled to leaf-su0-r<i> and
// leaf-su1-r<i> only (ports 1, 2) and to both cores (ports 3, 4); core port k+1 holds spine k.
TEST(FabricGenRail, CoresJoinRailPlanes) {
  auto t = make_rail_optimized(RailSpec{2, 4, 4, 8, 1, 2});
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->switches().size(), 8u + 8u + 2u);
  const auto names = by_name(*t);
  for (unsigned i = 0; i < 4; ++i) {
    for (unsigned j = 0; j < 2; ++j) {
      const std::string spine = "spine-r" + std::to_string(i) + "-" + std::to_string(j);
      const std::string r = std::to_string(i);
      const std::map<std::string, unsigned> want{
          {"leaf-su0-r" + r, 1}, {"leaf-su1-r" + r, 1}, {"core-0", 1}, {"core-1", 1}};
      EXPECT_EQ(switch_peers(*t, names.at(spine)), want) << spine;
      EXPECT_EQ(peer_of(*t, names, spine, 3), std::make_pair(std::string("core-0"), i * 2 + j + 1));
      EXPECT_EQ(peer_of(*t, names, "leaf-su1-r" + r, 4 + j + 1), std::make_pair(spine, 2u));
    }
  }
  EXPECT_EQ(switch_peers(*t, names.at("core-1")).size(), 8u);
}

// The netfile smd-fabric writes reads back with the same cables and the host-and-device names.
TEST(FabricGenRail, NetfileRoundTrip) {
  auto t = make_rail_optimized(RailSpec{2, 2, 2, 2, 1, 0});
  ASSERT_TRUE(t.ok()) << t.error().message;
  std::ostringstream text;
  ASSERT_TRUE(write_netfile(*t, text).ok());
  EXPECT_NE(text.str().find("Hca 1 \"host-3 mlx5_1\""), std::string::npos);
  auto back = parse_netfile(text.str(), "rail.net");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->size(), t->size());
  const auto names = by_name(*back);
  EXPECT_EQ(peer_of(*back, names, "host-3 mlx5_1", 1), std::make_pair(std::string("leaf-su1-r1"), 2u));
  EXPECT_EQ(peer_of(*back, names, "leaf-su0-r1", 4), std::make_pair(std::string("spine-1"), 2u));
}

TEST(FabricGenRail, RefusesImpossibleShapes) {
  const std::pair<RailSpec, const char*> cases[] = {
      {RailSpec{0, 4, 4, 4, 1, 0}, "must be >= 1"},
      {RailSpec{2, 4, 4, 6, 1, 2}, "multiple of rails"},
      {RailSpec{2, 250, 4, 8, 1, 0}, "a leaf would need 258 > 254 ports"},
      {RailSpec{16, 4, 8, 4, 2, 0}, "a spine would need 256 > 254 ports"},
      // sus * rails * links wraps to 0 in 64 bits: refused before any product is formed.
      {RailSpec{2147483648u, 1, 2147483648u, 1, 4, 0}, "every count must be <= 254"},
      // Every switch fits its ports, but 1 x 200 x 254 = 50,800 HCAs exceed a subnet's unicast LIDs.
      {RailSpec{1, 200, 254, 1, 1, 0}, "would need 51055 LIDs"},
  };
  for (const auto& [spec, words] : cases) {
    auto t = make_rail_optimized(spec);
    ASSERT_FALSE(t.ok()) << words;
    EXPECT_EQ(t.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(t.error().message.find(words), std::string::npos) << t.error().message;
    EXPECT_EQ(t.error().message.rfind("rail: ", 0), 0u) << t.error().message;
  }
}

}  // namespace
}  // namespace smd::fabric_gen_rail_test
