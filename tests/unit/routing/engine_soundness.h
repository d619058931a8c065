// One soundness check for the engine tests that promise deadlock freedom on one VL (ftree, updn, dnup):
// the test-side witnesses of updn_ftree_checks.h (every switch reaches every LID, channel-dependency graph
// acyclic) and the project's verifier, the gate before programming, must all agree.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::testing {

/// Non-fatal expectations: `t` comes from `engine`, claims deadlock freedom, delivers every LID from every
/// switch, has an acyclic channel-dependency graph (the witness's own check) and passes verify_tables with
/// deadlock freedom required.
inline void expect_sound_deadlock_free(const Topology& topo, const LidMap& lids, const RoutingTables& t,
                                       std::string_view engine) {
  EXPECT_EQ(t.engine, engine);
  EXPECT_TRUE(t.deadlock_free);
  EXPECT_EQ(check_all_reach(topo, lids, t), "");
  EXPECT_TRUE(cdg_acyclic(topo, lids, t));
  auto v = verify_tables(topo, lids, t, /*require_deadlock_free=*/true);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().message);
}

}  // namespace smd::testing
