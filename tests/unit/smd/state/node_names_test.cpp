// NodeNames (smd/state/node_names.h) and what the control requests make of it: the mapped name where a
// map names the node, the NodeDescription elsewhere, and NODE arguments that take either.
#include <gtest/gtest.h>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "smd/control/requests.h"
#include "smd/state/node_names.h"

// GCC 12 and 14 inline Result<NodeNameMap>'s std::variant destructor into names_for() and then claim a
// delete of "an unallocated object '1'" (-Wfree-nonheap-object): a false positive, here only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wfree-nonheap-object"
#endif

namespace smd::control::node_names_test {
namespace {

// A 2-leaf, 1-spine fabric (descriptions leaf-N, spine-0, host-N) with LIDs and minhop tables.
std::shared_ptr<FabricSnapshot> make_snapshot() {
  auto topo = make_leaf_spine({.leaves = 2, .spines = 1, .hosts_per_leaf = 2, .links_per_pair = 1});
  EXPECT_TRUE(topo.ok());
  auto snap = std::make_shared<FabricSnapshot>();
  snap->topo = std::make_shared<const Topology>(std::move(topo.value()));
  auto lids = assign_lids(*snap->topo, {}, {});
  EXPECT_TRUE(lids.ok());
  snap->lids = std::make_shared<const LidMap>(std::move(lids.value()));
  auto chain = route_with_chain({"minhop"}, {}, *snap->topo, *snap->lids);
  EXPECT_TRUE(chain.ok());
  snap->tables = std::make_shared<const RoutingTables>(std::move(chain->tables));
  return snap;
}

// A C string, not a std::string: GCC 14 takes a reference returned while a temporary string argument
// lives for a dangling one (-Wdangling-reference), though the node lives in `t`.
const Node& by_description(const Topology& t, const char* description) {
  for (const Node& n : t.nodes()) {
    if (n.description == description) return n;
  }
  ADD_FAILURE() << "no node " << description;
  return t.node(0);
}

// A map naming host-0 and leaf-0 by GUID, written as an operator writes it.
NodeNames names_for(const Topology& t) {
  const std::string text = "# test map\n" + format_guid(by_description(t, "host-0").guid) + " \"gpu-a01\"\n" +
                           format_guid(by_description(t, "leaf-0").guid) + " rack1-leaf   # unquoted\n";
  auto map = parse_node_name_map(text, "test.map");
  EXPECT_TRUE(map.ok()) << (map.ok() ? "" : map.error().message);
  return NodeNames(std::make_shared<const NodeNameMap>(std::move(map.value())));
}

TEST(NodeNames, TheMapNameWinsElseTheNodeDescription) {
  auto snap = make_snapshot();
  const Topology& t = *snap->topo;
  const NodeNames names = names_for(t);
  const Node& host0 = by_description(t, "host-0");
  const Node& host1 = by_description(t, "host-1");
  EXPECT_EQ(names.of(host0), "gpu-a01");
  EXPECT_EQ(names.of(host1), "host-1");
  EXPECT_EQ(names.of(by_description(t, "leaf-0")), "rack1-leaf");
  EXPECT_EQ(names.port(host0, 1), "gpu-a01 port 1");
  EXPECT_EQ(names.describe(host0), format_guid(host0.guid) + " (gpu-a01)");
  EXPECT_TRUE(names.answers_to(host0, "gpu-a01"));
  EXPECT_TRUE(names.answers_to(host0, "host-0"));
  EXPECT_FALSE(names.answers_to(host1, "gpu-a01"));
  // Without a map every node is its NodeDescription.
  const NodeNames none;
  EXPECT_EQ(none.of(host0), "host-0");
  EXPECT_EQ(none.describe(host0), describe_node(host0));
}

TEST(NodeNames, ControlRequestsShowAndAcceptTheMappedName) {
  auto snap = make_snapshot();
  snap->names = names_for(*snap->topo);
  const Topology& t = *snap->topo;
  const Node& host0 = by_description(t, "host-0");
  const Node& leaf0 = by_description(t, "leaf-0");

  const Json nodes = nodes_json(*snap);
  bool seen_host0 = false;
  for (const Json& n : nodes) {
    if (n["guid"] != format_guid(host0.guid)) continue;
    seen_host0 = true;
    EXPECT_EQ(n["name"], "gpu-a01");
    EXPECT_EQ(n["description"], "host-0");  // the node's own words stay beside the name
    EXPECT_EQ(n["ports"][0]["peer"]["name"], "rack1-leaf");
    EXPECT_EQ(n["ports"][0]["peer"]["description"], "leaf-0");
  }
  EXPECT_TRUE(seen_host0);

  // NODE arguments: the mapped name and the NodeDescription both find the node.
  auto by_map = resolve_node(*snap, "gpu-a01");
  ASSERT_TRUE(by_map.ok()) << by_map.error().message;
  EXPECT_EQ(t.node(*by_map).guid, host0.guid);
  auto by_desc = resolve_node(*snap, "host-0");
  ASSERT_TRUE(by_desc.ok());
  EXPECT_EQ(*by_desc, *by_map);
  EXPECT_FALSE(resolve_node(*snap, "gpu-a02").ok());

  // host-0 and host-1 hang off leaf-0: one switch hop, leaf-0 under its mapped name.
  auto route = route_json(*snap, "gpu-a01", "host-1");
  ASSERT_TRUE(route.ok()) << route.error().message;
  EXPECT_EQ((*route)["src"]["name"], "gpu-a01");
  EXPECT_EQ((*route)["dst"]["name"], "host-1");
  ASSERT_EQ((*route)["hops"].size(), 1u);
  EXPECT_EQ((*route)["hops"][0]["name"], "rack1-leaf");
  EXPECT_EQ((*route)["hops"][0]["description"], "leaf-0");

  auto lfts = lfts_json(*snap, "rack1-leaf");
  ASSERT_TRUE(lfts.ok()) << lfts.error().message;
  ASSERT_EQ(lfts->size(), 1u);
  EXPECT_EQ((*lfts)[0]["name"], "rack1-leaf");
  const Lid host0_lid = snap->lids->base_lid(*t.find(host0.guid), 1);
  bool dest_named = false;
  for (const Json& e : (*lfts)[0]["entries"]) {
    if (e["lid"] == host0_lid) dest_named = e["dest"] == "gpu-a01/1";
  }
  EXPECT_TRUE(dest_named) << (*lfts)[0].dump();
  EXPECT_EQ(format_guid(leaf0.guid), (*lfts)[0]["guid"].get<std::string>());
}

// A map may name a node "17" or "0x1a": typed as a NODE argument, that text is also a LID or GUID. When the
// two readings are different nodes the answer is an error naming both, never a guess; a number that is no
// LID or GUID of the fabric is the name.
TEST(NodeNames, ANameThatReadsAsALidOrGuidIsNeverGuessed) {
  auto snap = make_snapshot();
  const Topology& t = *snap->topo;
  const Node& host0 = by_description(t, "host-0");
  const Node& host1 = by_description(t, "host-1");
  const Node& leaf0 = by_description(t, "leaf-0");
  const Lid leaf0_lid = snap->lids->base_lid(*t.find(leaf0.guid), 0);
  const Lid host1_lid = snap->lids->base_lid(*t.find(host1.guid), 1);
  const std::string text = format_guid(host0.guid) + " \"" + std::to_string(leaf0_lid) + "\"\n" +
                           format_guid(host1.guid) + " \"" + std::to_string(host1_lid) + "\"\n" +
                           format_guid(leaf0.guid) + " 65000\n" +
                           format_guid(by_description(t, "spine-0").guid) + " " + format_guid(host0.guid) + "\n";
  auto map = parse_node_name_map(text, "numbers.map");
  ASSERT_TRUE(map.ok()) << map.error().message;
  snap->names = NodeNames(std::make_shared<const NodeNameMap>(std::move(map.value())));

  // host-0 is named with leaf-0's LID: both readings are real and differ.
  auto clash = resolve_node(*snap, std::to_string(leaf0_lid));
  ASSERT_FALSE(clash.ok());
  EXPECT_EQ(clash.error().message, "'" + std::to_string(leaf0_lid) + "' is " + format_guid(leaf0.guid) +
                                       " (65000) as a GUID or LID, and the name of " + format_guid(host0.guid) +
                                       " (" + std::to_string(leaf0_lid) + "); use the node's GUID");
  // spine-0 is named with host-0's GUID.
  auto guid_clash = resolve_node(*snap, format_guid(host0.guid));
  ASSERT_FALSE(guid_clash.ok());
  EXPECT_NE(guid_clash.error().message.find("and the name of " + format_guid(by_description(t, "spine-0").guid)),
            std::string::npos)
      << guid_clash.error().message;
  EXPECT_FALSE(route_json(*snap, std::to_string(leaf0_lid), "host-1").ok());

  // host-1 is named with its own LID: one node either way.
  auto same = resolve_node(*snap, std::to_string(host1_lid));
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_EQ(t.node(*same).guid, host1.guid);
  // 65000 is no LID here: the name leaf-0 carries.
  auto name_only = resolve_node(*snap, "65000");
  ASSERT_TRUE(name_only.ok()) << name_only.error().message;
  EXPECT_EQ(t.node(*name_only).guid, leaf0.guid);
  // A number nobody is called still says what it looked for.
  EXPECT_EQ(resolve_node(*snap, "65001").error().message, "no port holds LID 65001");
}

}  // namespace
}  // namespace smd::control::node_names_test
