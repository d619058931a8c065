// The shared factory shapes (rooted_engine.h, plain_engine_factory.h) behind each engine's registry
// entry: names, whether routing.<name> is a section, the summary strings and the engine each creates.
#include <gtest/gtest.h>

#include <string>

#include "routing/engines/dfsssp/dfsssp_factory.h"
#include "routing/engines/ftree/ftree_factory.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/engines/updn/updn_factory.h"

namespace smd {
namespace {

TEST(EngineFactories, RootedEnginesReadRootsAndNameThemselves) {
  RoutingOptions options;
  for (const EngineFactory* f : {&ftree_factory(), &updn_factory()}) {
    EXPECT_TRUE(f->has_options()) << f->name();
    const auto summary = f->summarise(options);
    ASSERT_EQ(summary.size(), 1u);
    EXPECT_EQ(summary[0].key, "roots");
    EXPECT_EQ(summary[0].value, "auto") << "no roots set: the engine chooses";
    EXPECT_EQ(f->create(options)->name(), f->name());
  }
  EXPECT_EQ(ftree_factory().name(), "ftree");
  EXPECT_EQ(updn_factory().name(), "updn");
  options.engines.set(FtreeOptions({0x10, 0x2c9}));
  EXPECT_EQ(ftree_factory().summarise(options)[0].value, "0x0000000000000010,0x00000000000002c9");
  EXPECT_EQ(updn_factory().summarise(options)[0].value, "auto") << "ftree's roots are not updn's";
}

TEST(EngineFactories, EnginesWithoutOptionsHaveNoSection) {
  const RoutingOptions options;
  for (const EngineFactory* f : {&minhop_factory(), &sssp_factory()}) {
    EXPECT_FALSE(f->has_options()) << f->name();
    EXPECT_TRUE(f->summarise(options).empty()) << f->name();
    EXPECT_EQ(f->create(options)->name(), f->name());
  }
  EXPECT_EQ(minhop_factory().name(), "minhop");
  EXPECT_EQ(sssp_factory().name(), "sssp");
}

}  // namespace
}  // namespace smd
