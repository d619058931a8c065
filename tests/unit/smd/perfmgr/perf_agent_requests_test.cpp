// `smctl perfmgr pass` and `perfmgr clear` on the PerfMgr thread (smd/perfmgr/perf_agent.h), against a fake
// PMA that answers every Get at once and whose SymbolErrorCounter grows by 3 per PortCounters read: the
// witness is the fake's own count of reads, not the agent's numbers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "mad/codec/pma.h"
#include "smd/perfmgr/perf_agent.h"

namespace smd::perf_agent_requests_test {
namespace {

using namespace std::chrono_literals;

// Poll `done` every 5 ms for up to 5 s.
template <typename F>
bool eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return done();
}

struct FakePma {
  std::atomic<unsigned> counter_reads{0};
  PerfAgent* agent = nullptr;

  // The request back as a GetResp (status 0); PortCounters carries SymbolErrorCounter = 3 x reads so far.
  int answer(std::span<const std::uint8_t> request) {
    std::array<std::uint8_t, mad::kMadSize> resp{};
    std::copy(request.begin(), request.end(), resp.begin());
    resp[3] = 0x81;
    resp[4] = resp[5] = 0;
    const std::uint16_t attr = static_cast<std::uint16_t>(resp[16] << 8 | resp[17]);
    if (attr == mad::kAttrPortCounters) {
      const unsigned value = 3 * ++counter_reads;
      resp[mad::kPmaDataOffset + 4] = static_cast<std::uint8_t>(value >> 8);
      resp[mad::kPmaDataOffset + 5] = static_cast<std::uint8_t>(value);
    }
    agent->submit(resp);
    return 0;
  }
};

TEST(PerfAgentRequests, APassOnRequestAndAClearOfTheStoredTotals) {
  FakePma pma;
  PerfAgent agent([&](std::span<const std::uint8_t> mad, const mad::MadAddress&) { return pma.answer(mad); },
                  [](PerfPassDeltas) {});
  pma.agent = &agent;
  PerfMgrPolicy policy;
  policy.interval_s = 600;  // no periodic pass within the test: every pass after the first is a request
  agent.configure(policy);
  agent.set_targets({PerfTarget{{0x10, 1}, 0x11, 5, "host-0", "leaf-0 port 1"}});
  agent.start();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 1; }));
  EXPECT_EQ(pma.counter_reads.load(), 1u);

  agent.request_pass();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 2; }));
  EXPECT_EQ(pma.counter_reads.load(), 2u);
  const auto sym = static_cast<std::size_t>(PortCounter::kSymbolError);
  ASSERT_EQ(agent.view()->ports.size(), 1u);
  EXPECT_EQ(agent.view()->ports[0].total[sym], 3u);  // 3 -> 6 on the port

  agent.request_clear();
  ASSERT_TRUE(eventually([&] { return agent.view()->clears == 1; }));
  EXPECT_EQ(agent.view()->ports[0].total[sym], 0u);
  EXPECT_EQ(agent.view()->ports[0].raw[sym], 6u);
  EXPECT_NE(agent.view()->cleared_at, std::chrono::system_clock::time_point{});
  EXPECT_EQ(agent.view()->passes, 2u);      // a clear is not a pass
  EXPECT_EQ(pma.counter_reads.load(), 2u);  // nor a read: nothing goes to the fabric

  agent.request_pass();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 3; }));
  EXPECT_EQ(agent.view()->ports[0].total[sym], 3u);  // 6 -> 9 since the clear (not 6, the total since start)
  EXPECT_EQ(agent.view()->clears, 1u);               // carried into the pass's view
  agent.stop();
}

TEST(PerfAgentRequests, NoReachablePortIsAnEmptyPassNotStaleCounters) {
  // The SM's own port drained: lid_reachable leaves no target and counts the ports it dropped. The pass is
  // still published, empty and with that count, and the stored counters are gone; the old agent returned
  // early and kept showing the last readings as current (the tester's d4).
  FakePma pma;
  PerfAgent agent([&](std::span<const std::uint8_t> mad, const mad::MadAddress&) { return pma.answer(mad); },
                  [](PerfPassDeltas) {});
  pma.agent = &agent;
  PerfMgrPolicy policy;
  policy.interval_s = 600;
  agent.configure(policy);
  agent.set_targets({PerfTarget{{0x10, 1}, 0x11, 5, "host-0", "leaf-0 port 1"}});
  agent.start();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 1; }));
  EXPECT_EQ(agent.view()->ports.size(), 1u);
  const unsigned reads = pma.counter_reads.load();

  agent.set_targets({}, 7);
  agent.request_pass();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 2; }));
  EXPECT_TRUE(agent.view()->ports.empty());
  EXPECT_EQ(agent.view()->last_pass.ports, 0u);
  EXPECT_EQ(agent.view()->last_pass.unreachable, 7u);
  EXPECT_EQ(agent.view()->last_pass.mads_sent, 0u);
  EXPECT_EQ(pma.counter_reads.load(), reads);

  // Reachable again: polling resumes with a new baseline.
  agent.set_targets({PerfTarget{{0x10, 1}, 0x11, 5, "host-0", "leaf-0 port 1"}});
  agent.request_pass();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 3; }));
  ASSERT_EQ(agent.view()->ports.size(), 1u);
  EXPECT_EQ(agent.view()->last_pass.unreachable, 0u);
  EXPECT_GT(pma.counter_reads.load(), reads);
  agent.stop();
}

}  // namespace
}  // namespace smd::perf_agent_requests_test
