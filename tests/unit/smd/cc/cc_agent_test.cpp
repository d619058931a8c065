// The congestion-control manager's thread (smd/cc/cc_agent.h) against fake CC agents that store what a Set
// carries and answer Gets with it, as real switches and HCAs do (ibsim stores no CC attribute:
// see tests/integration/cc_manager_test.sh). Checked: what each agent holds after a pass (bytes by hand), no Set for an
// agent that holds the policy, a reset switch written again, the window never exceeded, unrouted LIDs given up.
#include "smd/cc/cc_agent.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "mad/codec/bits.h"

namespace smd::cc_agent_test {
namespace {

using namespace std::chrono_literals;

// CC agents behind LIDs. Answers are queued and delivered by a network thread, so several MADs are in flight.
class FakeCcFabric {
 public:
  struct Agent {
    std::map<std::pair<std::uint16_t, std::uint32_t>, mad::CcData> store;  ///< (attr, mod) -> bytes held
    std::uint8_t control_table_cap = 0;
    bool unrouted = false;
    bool reflects = false;  ///< answers a Set with the request's own data and stores nothing (ibsim's CAs)
  };

  FakeCcFabric() : net_([this] { deliver(); }) {}
  ~FakeCcFabric() {
    stop_ = true;
    net_.join();
  }
  void attach(CcAgent* agent) { agent_ = agent; }

  int send(std::span<const std::uint8_t> m, const mad::MadAddress& to) {
    std::array<std::uint8_t, mad::kMadSize> r{};
    std::copy(m.begin(), m.end(), r.begin());
    const std::lock_guard lock(mu_);
    ++in_flight_;
    peak_ = std::max(peak_, in_flight_);
    ++sent_;
    EXPECT_EQ(to.qpn, 1u);
    EXPECT_EQ(m[1], 0x21);
    EXPECT_EQ(mad::bits::get64(m.data(), 24), cc_key);  // the policy's CC_Key in every MAD
    Agent& a = agents[to.lid];
    if (!a.unrouted) answer(a, r);
    queue_.push_back(r);
    return 0;
  }

  std::map<std::uint16_t, Agent> agents;  ///< by LID
  std::uint64_t cc_key = 0;
  int peak() {
    const std::lock_guard lock(mu_);
    return peak_;
  }
  int sets() {
    const std::lock_guard lock(mu_);
    return sets_;
  }
  std::mutex mu_;

 private:
  void answer(Agent& a, std::array<std::uint8_t, mad::kMadSize>& r) {
    const std::uint16_t attr = mad::bits::get16(r.data(), 16);
    const std::uint32_t mod = mad::bits::get32(r.data(), 20);
    const bool set = r[3] == 0x02;
    mad::CcData& held = a.store[{attr, mod}];
    if (attr == mad::cc_attr::kCongestionInfo) held[2] = a.control_table_cap;
    r[3] = 0x81;
    if (set) {
      ++sets_;
      if (a.reflects) return;  // the request's data goes back as it came
      std::copy_n(r.begin() + 64, 192, held.begin());
    }
    std::copy(held.begin(), held.end(), r.begin() + 64);
  }
  void deliver() {
    while (!stop_) {
      std::vector<std::array<std::uint8_t, mad::kMadSize>> batch;
      {
        const std::lock_guard lock(mu_);
        batch.assign(queue_.begin(), queue_.end());
        queue_.clear();
        in_flight_ -= static_cast<int>(batch.size());
      }
      for (const auto& m : batch) agent_->submit(m);
      std::this_thread::sleep_for(1ms);
    }
  }
  CcAgent* agent_ = nullptr;
  std::vector<std::array<std::uint8_t, mad::kMadSize>> queue_;
  int in_flight_ = 0, peak_ = 0, sent_ = 0, sets_ = 0;
  std::atomic<bool> stop_{false};
  std::thread net_;
};

// The agent is declared first so it is destroyed last: the fabric's network thread, joined by the fabric's
// destructor, may still hand it an answer.
struct Rig {
  CcAgent agent{[this](std::span<const std::uint8_t> m, const mad::MadAddress& to) { return fabric.send(m, to); }};
  FakeCcFabric fabric;
  Rig() {
    fabric.attach(&agent);
    agent.start();
  }
  ~Rig() { agent.stop(); }
  CcPassStats pass(const std::vector<CcTarget>& targets, std::uint64_t n) {
    agent.request_pass(targets);
    EXPECT_TRUE(agent.wait_for_passes(n, 10s));
    return agent.last_pass();
  }
};

CongestionControlPolicy policy() {
  CongestionControlPolicy p;
  p.enabled = true;
  p.cc_key = 0x0102030405060708ULL;
  p.max_outstanding = 3;
  p.sw.control_map = 0x04;
  p.sw.threshold = 0xF;
  p.sw.packet_size = 8;
  p.ca.control_map = 0x0001;
  p.ca.entries[0] = {0x0150, 1, 2, 0};
  p.cct = {0x0000, 0x4001};  // 0:0, 1:1
  return p;
}

std::vector<CcTarget> fabric_targets(FakeCcFabric& f) {
  std::vector<CcTarget> t;
  for (Lid lid = 1; lid <= 6; ++lid) t.push_back({0x200000u + lid, 0, lid, true, "sw" + std::to_string(lid)});
  for (Lid lid = 7; lid <= 10; ++lid) {
    t.push_back({0x100000u + lid, 1, lid, false, "ca" + std::to_string(lid)});
    f.agents[lid].control_table_cap = 1;
  }
  return t;
}

TEST(CcAgent, ProgramsEveryAgentThenLeavesThemAloneAndRewritesAResetSwitch) {
  Rig rig;
  rig.fabric.cc_key = 0x0102030405060708ULL;
  rig.agent.configure(policy());
  const auto targets = fabric_targets(rig.fabric);
  const CcPassStats first = rig.pass(targets, 1);
  EXPECT_EQ(first.switches, 6u);
  EXPECT_EQ(first.ca_ports, 4u);
  EXPECT_EQ(first.sets, 6u + 4u + 4u);  // every switch; every CA's setting and its one CCT block
  EXPECT_EQ(first.believed, first.sets);
  EXPECT_EQ(first.held, first.sets);  // read back after the Sets
  EXPECT_EQ(first.not_held, 0u);
  EXPECT_EQ(first.unanswered, 0u);
  {
    const std::lock_guard lock(rig.fabric.mu_);
    const auto& sw = rig.fabric.agents[3].store[{0x14, 0}];
    EXPECT_EQ(sw[3], 0x04);   // Control_Map
    EXPECT_EQ(sw[68], 0xF0);  // Threshold
    EXPECT_EQ(sw[69], 8);     // Packet_Size
    const auto& ca = rig.fabric.agents[8].store[{0x16, 0}];
    EXPECT_EQ(ca[3], 0x01);
    EXPECT_EQ(ca[4], 0x01);  // SL 0 CCTI_Timer 0x0150
    EXPECT_EQ(ca[5], 0x50);
    EXPECT_EQ(ca[6], 1);
    EXPECT_EQ(ca[7], 2);
    const auto& cct = rig.fabric.agents[8].store[{0x17, 0}];
    EXPECT_EQ(cct[1], 1);     // CCTI_Limit: two entries
    EXPECT_EQ(cct[6], 0x40);  // entry 1 = 1:1
    EXPECT_EQ(cct[7], 0x01);
  }
  EXPECT_LE(rig.fabric.peak(), 3);  // congestion_control.max_outstanding
  EXPECT_EQ(rig.fabric.peak(), 3);

  const CcPassStats second = rig.pass(targets, 2);
  EXPECT_EQ(second.sets, 0u);  // every agent holds the policy
  EXPECT_EQ(second.reads, first.reads);

  {
    const std::lock_guard lock(rig.fabric.mu_);
    rig.fabric.agents[2].store.clear();  // switch LID 2 was reset
  }
  const CcPassStats third = rig.pass(targets, 3);
  EXPECT_EQ(third.sets, 1u);
  EXPECT_EQ(third.believed, 1u);
}

TEST(CcAgent, AnEchoIsNotEnoughWhenTheAgentReflectsTheSet) {
  Rig rig;
  CongestionControlPolicy p = policy();
  p.cc_key = 0;
  rig.agent.configure(p);
  rig.fabric.agents[7].reflects = true;
  const std::vector<CcTarget> targets = {{0x7, 1, 7, false, "reflecting"}, {0x8, 1, 8, false, "storing"}};
  const CcPassStats s = rig.pass(targets, 1);
  EXPECT_EQ(s.sets, 2u);      // CACongestionSetting on both (no CCT: ControlTableCap 0)
  EXPECT_EQ(s.believed, 2u);  // both answers echo the Set
  EXPECT_EQ(s.held, 1u);      // only one agent shows it when read again
  EXPECT_EQ(s.not_held, 1u);
  // The next pass writes the reflecting agent again and only it.
  const CcPassStats again = rig.pass(targets, 2);
  EXPECT_EQ(again.sets, 1u);
  EXPECT_EQ(again.not_held, 1u);
}

TEST(CcAgent, UnroutedLidsAreGivenUpNotWritten) {
  Rig rig;
  CongestionControlPolicy p = policy();
  p.cc_key = 0;
  rig.agent.configure(p);
  rig.fabric.agents[1].unrouted = true;
  const std::vector<CcTarget> targets = {{0x1, 0, 1, true, "gone"}, {0x2, 0, 2, true, "here"}};
  const CcPassStats s = rig.pass(targets, 1);
  EXPECT_EQ(s.unanswered, 1u);  // handed back at once, not retried
  EXPECT_EQ(s.sets, 1u);
  EXPECT_EQ(rig.fabric.sets(), 1);
}

}  // namespace
}  // namespace smd::cc_agent_test
