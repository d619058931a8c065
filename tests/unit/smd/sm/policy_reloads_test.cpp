// PolicyReloads (smd/sm/policy_reloads.h): generations, staging and refusals of SIGHUP reloads.
#include "smd/sm/policy_reloads.h"

#include <gtest/gtest.h>

namespace smd::policy_reloads_test {
namespace {

using SysClock = std::chrono::system_clock;

std::shared_ptr<const ReloadedPolicy> reloaded(std::uint64_t generation, std::vector<RestartNeeded> restart = {}) {
  auto r = std::make_shared<ReloadedPolicy>();
  r->generation = generation;
  r->needs_restart = std::move(restart);
  return r;
}

TEST(PolicyReloads, TheStartUpPolicyIsGenerationOne) {
  PolicyReloads r;
  EXPECT_EQ(r.generation(), 1u);
  EXPECT_EQ(r.staged(), nullptr);
  EXPECT_EQ(r.take_staged(), nullptr);
  EXPECT_EQ(r.generation(), 1u);  // nothing staged: nothing takes effect
}

TEST(PolicyReloads, EachFileReadGetsTheNextNumberEvenWhileOneIsStaged) {
  PolicyReloads r;
  EXPECT_EQ(r.next_generation(), 2u);
  r.stage(reloaded(2));
  EXPECT_EQ(r.next_generation(), 3u);
  EXPECT_EQ(r.generation(), 1u);  // staged is not in effect
}

TEST(PolicyReloads, TakingTheStagedPolicyPutsItsGenerationAndRestartListInEffect) {
  PolicyReloads r;
  RestartNeeded k;
  k.key = "sm.port";
  k.running = "1";
  k.file = "2";
  r.stage(reloaded(2));
  r.stage(reloaded(3, {k}));  // a later SIGHUP replaces the one still waiting
  ASSERT_NE(r.staged(), nullptr);
  EXPECT_EQ(r.staged()->generation, 3u);
  const auto taken = r.take_staged();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(taken->generation, 3u);
  EXPECT_EQ(r.generation(), 3u);
  ASSERT_EQ(r.needs_restart().size(), 1u);
  EXPECT_EQ(r.needs_restart()[0].key, "sm.port");
  EXPECT_EQ(r.staged(), nullptr);
  r.stage(reloaded(4));
  (void)r.take_staged();
  EXPECT_TRUE(r.needs_restart().empty());  // the newer file asks for no restart
}

TEST(PolicyReloads, ARunOfRefusalsKeepsItsStartAndTheLatestError) {
  PolicyReloads r;
  const SysClock::time_point t1 = SysClock::time_point{} + std::chrono::seconds(100);
  const SysClock::time_point t2 = t1 + std::chrono::seconds(5);
  r.refuse("policy.yaml:3:1: bad key", t1);
  r.refuse("policy.yaml:9:4: bad value", t2);
  EXPECT_EQ(r.refused(), "policy.yaml:9:4: bad value");
  EXPECT_EQ(r.refused_since(), t1);
  EXPECT_EQ(r.refused_total(), 2u);
  r.accept();
  EXPECT_EQ(r.refused(), "");
  EXPECT_EQ(r.refused_total(), 2u);  // the total counts since start-up
  r.refuse("again", t2);
  EXPECT_EQ(r.refused_since(), t2);  // a new run of refusals
  EXPECT_EQ(r.generation(), 1u);     // refusals never change what is in effect
}

}  // namespace
}  // namespace smd::policy_reloads_test
