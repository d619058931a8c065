// `smctl nodes` (control::nodes_json and its text rendering) shows the SM-owned PortInfo fields and
// LifeTimeValue of every port after a sweep on FakeFabric (two switches cabled once, two hosts on each):
// the view is made from the runner's known fabric as the daemon makes it (smd/state/port_fields_view.h).
#include "smd/state/port_fields_view.h"

#include <gtest/gtest.h>

#include <sstream>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/control/requests.h"
#include "smd/smctl/smctl_render.h"
#include "smd/state/fabric_snapshot.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::port_fields_view_test {
namespace {

TEST(PortFieldsView, SmctlNodesShowsWhatEveryPortHolds) {
  auto fabric = make_two_switch(1, 2);
  ASSERT_TRUE(fabric.ok());
  auto r = std::make_unique<test::SweepRig>(std::move(fabric.value()));
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  FabricSnapshot snap;
  snap.topo = r->runner().topology();
  snap.lids = r->runner().lids_snapshot();
  snap.port_fields = std::make_shared<const PortFieldsView>(make_port_fields_view(r->runner().known_fabric()));
  const control::Json nodes = control::nodes_json(snap);
  const Topology& t = *snap.topo;
  unsigned leaf_ports = 0, trunk_ports = 0;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const control::Json& node = nodes[n];
    const Node& tn = t.node(n);
    if (tn.is_switch()) {
      EXPECT_EQ(node["life_time_value"], 0x12);
      EXPECT_EQ(node["port0_fields"]["SubnetTimeOut"], 18);
    }
    for (const control::Json& port : node["ports"]) {
      const PortNum p = port["port"].get<PortNum>();
      if (!tn.ports[p].connected()) continue;
      const control::Json& f = port["fields"];
      if (!tn.is_switch()) {
        EXPECT_EQ(f["SubnetTimeOut"], 18);
        EXPECT_EQ(f["LinkWidthEnabled"], 3);
        continue;
      }
      const bool leaf = !t.node(tn.ports[p].peer).is_switch();
      EXPECT_EQ(f["HOQLife"], leaf ? 0x10 : 0x12);
      EXPECT_EQ(f["VLStallCount"], 7);
      EXPECT_EQ(f["LocalPhyErrors"], 8);
      ++(leaf ? leaf_ports : trunk_ports);
    }
  }
  EXPECT_EQ(leaf_ports, 4u);
  EXPECT_EQ(trunk_ports, 2u);
  std::ostringstream text;
  control::render_text(text, "nodes", nodes);
  EXPECT_NE(text.str().find("HOQLife 16"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("LifeTimeValue 18"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace smd::port_fields_view_test
