// `smd plan --compare --collectives` end to end on the bundled 16-host leaf/spine (4 leaves of 4 hosts,
// 2 spines: 2:1 oversubscribed), against figures worked out by hand from the cabling:
// - ring all-reduce in CA order leaves each leaf by one flow (its last host to the next leaf's first),
//   so no cable carries two flows and every scheme is at ideal;
// - all-to-all sends 4 x 12 flows of S/16 out of each leaf over its 2 uplinks: 3 S of data at 2 x line
//   rate take at least 1.5 S / line rate, while the ideal (15 flows of S/16 out of every host) is 15/16:
//   no scheme can do better than 1.6 x ideal.
// The JSON carries every number; a bad --collectives list is refused with the word it did not know.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "smd/cli/plan_command.h"

namespace smd::plan_collectives_test {
namespace {

PlanArgs args_for(const std::string& collectives, const std::string& format) {
  PlanArgs args;
  args.topology = std::string(SMD_SOURCE_DIR) + "/tests/fabrics/leafspine.net";
  args.seeds = 1;
  args.format = format;
  args.roce.compare = true;
  args.roce.collectives = collectives;
  return args;
}

TEST(PlanCollectives, JsonCarriesTheFiguresWorkedOutByHand) {
  std::ostringstream out, err;
  ASSERT_EQ(run_plan(args_for("ring,alltoall", "json"), out, err), 0) << err.str();
  const auto j = nlohmann::json::parse(out.str());
  const auto& collectives = j.at("roce").at("comparison").at("collectives");
  ASSERT_EQ(collectives.size(), 2u);
  const auto& ring = collectives[0];
  EXPECT_EQ(ring.at("name"), "ring-allreduce");
  EXPECT_EQ(ring.at("ranks"), 16);
  EXPECT_EQ(ring.at("phases"), 30);
  EXPECT_NEAR(ring.at("ideal_time").get<double>(), 30.0 / 16, 1e-12);
  EXPECT_NEAR(ring.at("ideal_bus_bandwidth").get<double>(), 1.0, 1e-12);
  ASSERT_EQ(ring.at("schemes").size(), 5u);
  for (const auto& s : ring.at("schemes")) {
    EXPECT_DOUBLE_EQ(s.at("relative_time").get<double>(), 1.0) << s.at("name");
    EXPECT_EQ(s.at("unrouted"), 0);
  }
  const auto& all = collectives[1];
  EXPECT_EQ(all.at("name"), "alltoall");
  EXPECT_NEAR(all.at("ideal_time").get<double>(), 15.0 / 16, 1e-12);
  for (const auto& s : all.at("schemes")) {
    const double rel = s.at("relative_time").get<double>();
    EXPECT_GE(rel, 1.6 - 1e-9) << s.at("name");
    EXPECT_NEAR(s.at("time").get<double>(), rel * 15.0 / 16, 1e-9);
    EXPECT_NEAR(s.at("bus_bandwidth").get<double>(), (15.0 / 16) / s.at("time").get<double>(), 1e-9);
  }
}

TEST(PlanCollectives, TextTableAndBadList) {
  std::ostringstream out, err;
  ASSERT_EQ(run_plan(args_for("pipeline,moe:4", "text"), out, err), 0) << err.str();
  EXPECT_NE(out.str().find("moe-alltoall:4   roce-ecmp"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("pipeline         ib-static"), std::string::npos);
  std::ostringstream out2, err2;
  EXPECT_EQ(run_plan(args_for("ring,rings", "text"), out2, err2), kPlanBadInput);
  EXPECT_NE(err2.str().find("--collectives: unknown collective 'rings'"), std::string::npos) << err2.str();
}

}  // namespace
}  // namespace smd::plan_collectives_test
