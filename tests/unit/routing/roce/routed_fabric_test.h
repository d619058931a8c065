// The fixture base the comparison tests share: a generated fabric with LIDs, one engine's tables and the
// RoCE route plan of the same cables, which compare_schemes and the collectives need together.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

#include "routing/chain/registry.h"
#include "routing/lids/lid_assign.h"
#include "routing/roce/clos_plan.h"
#include "routing/roce/compare.h"

namespace smd::roce {

class RoutedFabricTest : public ::testing::Test {
 protected:
  /// Each step must succeed or the figures mean nothing: fatal, so call it in ASSERT_NO_FATAL_FAILURE.
  void route(Result<Topology> generated, const char* engine) {
    ASSERT_TRUE(generated.ok()) << generated.error().message;
    topo = std::move(generated).value();
    auto assigned = assign_lids(topo, Guid2Lid{}, LidAssignOptions{});
    ASSERT_TRUE(assigned.ok()) << assigned.error().message;
    lids = std::move(assigned).value();
    auto e = make_engine(engine, RoutingOptions{});
    ASSERT_TRUE(e.ok()) << e.error().message;
    auto computed = (*e)->compute(topo, lids);
    ASSERT_TRUE(computed.ok()) << computed.error().message;
    tables = std::move(computed).value();
    auto built = RoutePlan::build(topo);
    ASSERT_TRUE(built.ok()) << built.error().message;
    plan.emplace(std::move(built).value());
  }

  Topology topo;
  LidMap lids;
  RoutingTables tables;
  std::optional<RoutePlan> plan;
};

/// The figures of `scheme` on `pattern` in `c`; a failure (and empty figures) when either is missing.
inline const SchemeFigures& figures(const Comparison& c, const std::string& pattern, const std::string& scheme) {
  for (const auto& p : c.patterns) {
    if (p.name != pattern) continue;
    for (const auto& s : p.schemes) {
      if (s.name == scheme) return s;
    }
  }
  ADD_FAILURE() << pattern << "/" << scheme << " missing";
  static const SchemeFigures kNone;
  return kNone;
}

}  // namespace smd::roce
