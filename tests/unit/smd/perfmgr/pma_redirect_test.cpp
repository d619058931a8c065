// perfmgr.follow_redirect (OpenSM's perfmgr_redir): the ClassPortInfo redirect fields as IBA 13.4.8.1 lays
// them out, the route a redirect asks for (smd/perfmgr/pma_redirect.h), and the PerfMgr thread following a
// PMA that redirects. ibsim's PMA never redirects, so a fake PMA here does: at its GSI (LID 5, QP1) it answers
// every Get with MAD status "redirect" and a ClassPortInfo naming LID 9, QP 0x42; only there does it answer
// with counters. The witness is the fake's own log of where MADs arrived, not the agent's numbers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "mad/codec/pma.h"
#include "smd/perfmgr/perf_agent.h"
#include "smd/perfmgr/pma_redirect.h"

namespace smd::pma_redirect_test {
namespace {

using namespace std::chrono_literals;

// ClassPortInfo attribute bytes with the redirect fields at the offsets of IBA 13.4.8.1 table 126.
std::array<std::uint8_t, 192> class_port_info(std::uint16_t lid, std::uint32_t qp, std::uint32_t qkey,
                                              std::uint16_t pkey, std::uint8_t gid_first_byte = 0) {
  std::array<std::uint8_t, 192> d{};
  d[0] = 1;     // BaseVersion
  d[1] = 1;     // ClassVersion
  d[3] = 0x02;  // CapabilityMask: none of the extended-counter bits
  d[8] = gid_first_byte;  // RedirectGID starts at byte 8
  d[24] = 0x12;           // RedirectTC
  d[25] = 0x3A;           // RedirectSL 3, RedirectFL 0xABCDE
  d[26] = 0xBC;
  d[27] = 0xDE;
  d[28] = static_cast<std::uint8_t>(lid >> 8);
  d[29] = static_cast<std::uint8_t>(lid);
  d[30] = static_cast<std::uint8_t>(pkey >> 8);
  d[31] = static_cast<std::uint8_t>(pkey);
  d[32] = 0xEE;  // reserved: not part of RedirectQP
  d[33] = static_cast<std::uint8_t>(qp >> 16);
  d[34] = static_cast<std::uint8_t>(qp >> 8);
  d[35] = static_cast<std::uint8_t>(qp);
  for (int i = 0; i < 4; ++i) d[36 + i] = static_cast<std::uint8_t>(qkey >> (24 - 8 * i));
  return d;
}

TEST(PmaClassPortInfo, RedirectFieldsDecodeFromTheirIbaOffsets) {
  const auto c = mad::PmaClassPortInfo::decode(class_port_info(0x0109, 0x000042, 0x11223344, 0x8001, 0xFE));
  EXPECT_EQ(c.redirect_gid[0], 0xFE);
  EXPECT_EQ(c.redirect_tc, 0x12);
  EXPECT_EQ(c.redirect_sl, 3);
  EXPECT_EQ(c.redirect_fl, 0xABCDEu);
  EXPECT_EQ(c.redirect_lid, 0x0109);
  EXPECT_EQ(c.redirect_pkey, 0x8001);
  EXPECT_EQ(c.redirect_qp, 0x42u);
  EXPECT_EQ(c.redirect_qkey, 0x11223344u);
  EXPECT_EQ(c.capability_mask, 0x0002);
  // Too short for the redirect fields: they stay zero.
  const auto full = class_port_info(9, 1, 1, 0xFFFF);
  const auto shortc = mad::PmaClassPortInfo::decode(std::span<const std::uint8_t>(full).first(39));
  EXPECT_EQ(shortc.redirect_lid, 0);
  EXPECT_EQ(shortc.redirect_qp, 0u);
}

TEST(RedirectRoute, LidQpQkeyAndPkeyAreTaken) {
  const auto to = redirect_route(mad::PmaClassPortInfo::decode(class_port_info(9, 0x42, 0x1234, 0xFFFF)), gsi_route(5));
  ASSERT_TRUE(to.ok()) << to.error().message;
  EXPECT_EQ(to->lid, 9);
  EXPECT_EQ(to->qpn, 0x42u);
  EXPECT_EQ(to->qkey, 0x1234u);
  EXPECT_EQ(to->pkey, 0xFFFF);
}

TEST(RedirectRoute, LidZeroMeansTheLidAsked) {
  const auto to = redirect_route(mad::PmaClassPortInfo::decode(class_port_info(0, 0x42, 7, 0x7FFF)), gsi_route(5));
  ASSERT_TRUE(to.ok()) << to.error().message;
  EXPECT_EQ(to->lid, 5);
  EXPECT_EQ(to->qpn, 0x42u);
  EXPECT_EQ(to->pkey, 0x7FFF);  // limited member of the default partition: still index 0
}

TEST(RedirectRoute, WhatCannotBeFollowedIsAnErrorNamingTheField) {
  struct Case {
    std::array<std::uint8_t, 192> cpi;
    const char* field;
  };
  const Case cases[] = {{class_port_info(0, 0x42, 7, 0xFFFF, 0xFE), "RedirectGID"},
                        {class_port_info(9, 0, 7, 0xFFFF), "RedirectQP"},
                        {class_port_info(9, 0x42, 7, 0x8001), "RedirectP_Key 0x8001"},
                        {class_port_info(5, 1, 0x80010000, 0xFFFF), "already took"}};
  for (const Case& c : cases) {
    const auto to = redirect_route(mad::PmaClassPortInfo::decode(c.cpi), gsi_route(5));
    ASSERT_FALSE(to.ok()) << c.field;
    EXPECT_EQ(to.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(to.error().message.find(c.field), std::string::npos) << to.error().message;
  }
}

template <typename F>
bool eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return done();
}

// A PMA reached at LID 5 QP1 that redirects everything to LID 9 QP 0x42 Q_Key 0x1234.
struct RedirectingPma {
  struct Arrival {
    std::uint16_t lid;
    std::uint32_t qpn;
    std::uint32_t qkey;
    std::uint16_t attr;
  };
  std::mutex mutex;
  std::vector<Arrival> arrivals;
  PerfAgent* agent = nullptr;

  int answer(std::span<const std::uint8_t> request, const mad::MadAddress& to) {
    std::array<std::uint8_t, mad::kMadSize> resp{};
    std::copy(request.begin(), request.end(), resp.begin());
    resp[3] = 0x81;
    resp[4] = resp[5] = 0;
    const std::uint16_t attr = static_cast<std::uint16_t>(resp[16] << 8 | resp[17]);
    {
      const std::lock_guard lock(mutex);
      arrivals.push_back({to.lid, to.qpn, to.qkey, attr});
    }
    std::fill(resp.begin() + mad::kPmaDataOffset, resp.end(), 0);
    if (to.lid == 5 && to.qpn == 1) {
      resp[5] = 0x02;  // status: redirect
      const auto cpi = class_port_info(9, 0x42, 0x1234, 0xFFFF);
      std::copy(cpi.begin(), cpi.end(), resp.begin() + mad::kPmaDataOffset);
    } else if (to.lid == 9 && to.qpn == 0x42 && to.qkey == 0x1234) {
      if (attr == mad::kAttrPortCounters) {
        resp[mad::kPmaDataOffset + 1] = request[mad::kPmaDataOffset + 1];  // PortSelect
        resp[mad::kPmaDataOffset + 5] = 7;                                // SymbolErrorCounter
      } else {
        const auto cpi = class_port_info(0, 0, 0, 0);
        std::copy(cpi.begin(), cpi.end(), resp.begin() + mad::kPmaDataOffset);
      }
    } else {
      return 0;  // nobody there: no answer
    }
    agent->submit(resp);
    return 0;
  }
  std::vector<Arrival> seen() {
    const std::lock_guard lock(mutex);
    return arrivals;
  }
};

unsigned counters_at(const std::vector<RedirectingPma::Arrival>& a, std::uint16_t lid) {
  unsigned n = 0;
  for (const auto& x : a) n += x.lid == lid && x.attr == mad::kAttrPortCounters ? 1 : 0;
  return n;
}

TEST(PerfAgentRedirect, CountersAreReadWhereThePmaRedirectsAndTheRouteIsKept) {
  RedirectingPma pma;
  PerfAgent agent([&](std::span<const std::uint8_t> mad, const mad::MadAddress& to) { return pma.answer(mad, to); },
                  [](PerfPassDeltas) {});
  pma.agent = &agent;
  PerfMgrPolicy policy;
  policy.interval_s = 600;
  agent.configure(policy);
  agent.set_targets({PerfTarget{{0x10, 1}, 0x11, 5, "host-0", "leaf-0 port 1"}});
  agent.start();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 1; }));
  ASSERT_EQ(agent.view()->ports.size(), 1u);
  EXPECT_EQ(agent.view()->ports[0].raw[static_cast<std::size_t>(PortCounter::kSymbolError)], 7u);
  const auto first = pma.seen();
  EXPECT_EQ(counters_at(first, 9), 1u);
  EXPECT_EQ(counters_at(first, 5), 0u) << "ClassPortInfo redirected first; PortCounters go straight to LID 9";

  agent.request_pass();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 2; }));
  const auto second = pma.seen();
  EXPECT_EQ(counters_at(second, 9), 2u);
  EXPECT_EQ(counters_at(second, 5), 0u);
  for (const auto& a : second) {
    if (a.lid == 9) {
      EXPECT_EQ(a.qpn, 0x42u);
      EXPECT_EQ(a.qkey, 0x1234u);
    }
  }
  agent.stop();
}

TEST(PerfAgentRedirect, OffTheRedirectedPortIsNotRead) {
  RedirectingPma pma;
  PerfAgent agent([&](std::span<const std::uint8_t> mad, const mad::MadAddress& to) { return pma.answer(mad, to); },
                  [](PerfPassDeltas) {});
  pma.agent = &agent;
  PerfMgrPolicy policy;
  policy.interval_s = 600;
  policy.follow_redirect = false;
  agent.configure(policy);
  agent.set_targets({PerfTarget{{0x10, 1}, 0x11, 5, "host-0", "leaf-0 port 1"}});
  agent.start();
  ASSERT_TRUE(eventually([&] { return agent.view()->passes == 1; }));
  EXPECT_TRUE(agent.view()->ports.empty());
  const auto seen = pma.seen();
  for (const auto& a : seen) EXPECT_EQ(a.lid, 5) << "nothing is sent to the redirected LID";
  EXPECT_EQ(counters_at(seen, 5), 1u);
  EXPECT_GE(agent.view()->last_pass.errors, 1u);
  agent.stop();
}

}  // namespace
}  // namespace smd::pma_redirect_test
