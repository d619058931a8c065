// Coalescing of heavy-sweep requests (smd/sm/pending_sweep.h): one sweep for a burst of requests.
#include "smd/sm/pending_sweep.h"

#include <gtest/gtest.h>

namespace smd::pending_sweep_test {
namespace {

TEST(PendingSweep, TheFirstReasonIsKept) {
  PendingSweep p;
  EXPECT_TRUE(p.empty());
  p.add("trap 128", SweepScope::kChanged, 7);
  p.add("smctl sweep", SweepScope::kFull);
  EXPECT_FALSE(p.empty());
  EXPECT_EQ(p.take().reason, "trap 128");
  EXPECT_TRUE(p.empty());
}

TEST(PendingSweep, FullWinsOverChangedAndFailed) {
  PendingSweep p;
  p.add("re-sweep of what failed", SweepScope::kFailed);
  p.add("trap 128", SweepScope::kChanged, 7);
  p.add("SIGHUP", SweepScope::kFull);
  const SweepOrder o = p.take();
  EXPECT_EQ(o.scope, SweepScope::kFull);
  EXPECT_EQ(o.trap_lids, std::vector<Lid>({7}));  // handed over all the same; a full sweep reads everything
}

TEST(PendingSweep, TrapIssuersAreMergedInArrivalOrder) {
  PendingSweep p;
  p.add("trap 128", SweepScope::kChanged, 9);
  p.add("trap 128", SweepScope::kChanged, 4);
  p.add("trap 128", SweepScope::kChanged, 9);
  p.add("re-sweep of what failed", SweepScope::kFailed);
  const SweepOrder o = p.take();
  EXPECT_EQ(o.scope, SweepScope::kChanged);
  EXPECT_EQ(o.trap_lids, std::vector<Lid>({9, 4}));
}

TEST(PendingSweep, OnlyFailedRequestsResumeWhatFailed) {
  PendingSweep p;
  p.add("re-sweep of what failed", SweepScope::kFailed);
  const SweepOrder o = p.take();
  EXPECT_EQ(o.scope, SweepScope::kFailed);
  EXPECT_TRUE(o.trap_lids.empty());
}

TEST(PendingSweep, TakeForgetsAndAnEmptyOrderIsARequestedResweep) {
  PendingSweep p;
  p.add("SIGHUP", SweepScope::kFull);
  (void)p.take();
  const SweepOrder o = p.take();
  EXPECT_EQ(o.reason, "requested");
  EXPECT_EQ(o.scope, SweepScope::kFailed);
}

TEST(PendingSweep, ClearForgetsEverything) {
  PendingSweep p;
  p.add("trap 128", SweepScope::kChanged, 3);
  p.clear();
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.take().scope, SweepScope::kFailed);
}

}  // namespace
}  // namespace smd::pending_sweep_test
