// The factories (rooted_engine.h, section_engine_factory.h and the engines' own) behind each engine's registry
// entry: names, whether routing.<name> is a section, the summary strings and the engine each creates.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "routing/engines/dfsssp/dfsssp_factory.h"
#include "routing/engines/ftree/ftree_factory.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/engines/minhop/minhop_options.h"
#include "routing/engines/updn/updn_factory.h"
#include "routing/engines/updn/updn_options.h"

namespace smd::engine_factories_test {
namespace {

TEST(EngineFactories, RootedEnginesReadRootsAndNameThemselves) {
  RoutingOptions options;
  for (const EngineFactory* f : {&ftree_factory(), &updn_factory()}) {
    EXPECT_TRUE(f->has_options()) << f->name();
    const auto summary = f->summarise(options);
    ASSERT_GE(summary.size(), 1u);
    EXPECT_EQ(summary[0].key, "roots");
    EXPECT_EQ(summary[0].value, "auto") << "no roots set: the engine chooses";
    EXPECT_EQ(f->create(options)->name(), f->name());
  }
  // ftree also reads its compute-node and I/O-node lists and max_reverse_hops (OpenSM's names).
  const auto ftree = ftree_factory().summarise(options);
  ASSERT_EQ(ftree.size(), 4u);
  EXPECT_EQ(ftree[1].key + "=" + ftree[1].value, "cn_guids=none");
  EXPECT_EQ(ftree[2].key + "=" + ftree[2].value, "io_guids=none");
  EXPECT_EQ(ftree[3].key + "=" + ftree[3].value, "max_reverse_hops=0");
  EXPECT_EQ(ftree_factory().name(), "ftree");
  EXPECT_EQ(updn_factory().name(), "updn");
  options.engines.set(FtreeOptions({0x10, 0x2c9}));
  EXPECT_EQ(ftree_factory().summarise(options)[0].value, "0x0000000000000010,0x00000000000002c9");
  EXPECT_EQ(updn_factory().summarise(options)[0].value, "auto") << "ftree's roots are not updn's";
}

TEST(EngineFactories, UpdnSummarisesItsOrderAndIds) {
  RoutingOptions options;
  auto summary = updn_factory().summarise(options);
  ASSERT_EQ(summary.size(), 3u);
  EXPECT_EQ(summary[1].key, "guid_routing_order");
  EXPECT_EQ(summary[1].value, "none");
  EXPECT_EQ(summary[2].key, "ids");
  EXPECT_EQ(summary[2].value, "guids");
  UpdnOptions updn;
  updn.guid_routing_order = {0x100001, 0x100003};
  updn.ids = {{0x200000, 7}};
  options.engines.set(updn);
  summary = updn_factory().summarise(options);
  EXPECT_EQ(summary[1].value, "2");
  EXPECT_EQ(summary[2].value, "1");
}

TEST(EngineFactories, MinhopHasItsRoutingOrder) {
  RoutingOptions options;
  EXPECT_TRUE(minhop_factory().has_options());
  EXPECT_EQ(minhop_factory().name(), "minhop");
  EXPECT_EQ(minhop_factory().create(options)->name(), "minhop");
  auto summary = minhop_factory().summarise(options);
  ASSERT_EQ(summary.size(), 7u);
  EXPECT_EQ(summary[0].key, "guid_routing_order");
  EXPECT_EQ(summary[0].value, "none");
  // The balancing inputs follow (minhop_options.h), each "none"/"off" or smd's default when unset.
  EXPECT_EQ(summary[1].key, "hop_weights_file");
  EXPECT_EQ(summary[1].value, "none");
  EXPECT_EQ(summary[4].key, "port_profile_switch_nodes");
  EXPECT_EQ(summary[4].value, "true");
  EXPECT_EQ(summary[6].key, "scatter_ports");
  EXPECT_EQ(summary[6].value, "off");
  MinhopOptions minhop;
  minhop.guid_routing_order = {0x100005};
  minhop.hop_weights_file = "/etc/opensm/hop-weights";
  minhop.scatter_ports = 7;
  options.engines.set(std::move(minhop));
  summary = minhop_factory().summarise(options);
  EXPECT_EQ(summary[0].value, "1");
  EXPECT_EQ(summary[1].value, "/etc/opensm/hop-weights");
  EXPECT_EQ(summary[6].value, "7");
}

TEST(EngineFactories, SsspAndDfssspHaveTheirRoutingOrder) {
  RoutingOptions options;
  EXPECT_TRUE(sssp_factory().has_options());
  EXPECT_EQ(sssp_factory().name(), "sssp");
  EXPECT_EQ(sssp_factory().create(options)->name(), "sssp");
  auto summary = sssp_factory().summarise(options);
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0].key, "guid_routing_order");
  EXPECT_EQ(summary[0].value, "none");
  summary = dfsssp_factory().summarise(options);
  ASSERT_EQ(summary.size(), 3u);
  EXPECT_EQ(summary[2].key, "guid_routing_order");
  SsspOptions sssp;
  sssp.guid_routing_order = {0x100005, 0x100007};
  options.engines.set(sssp);
  EXPECT_EQ(sssp_factory().summarise(options)[0].value, "2");
  EXPECT_EQ(dfsssp_factory().summarise(options)[2].value, "none") << "sssp's order is not dfsssp's";
}

}  // namespace
}  // namespace smd::engine_factories_test
