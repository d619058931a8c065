// MCMemberRecord through the SA's front door: MADs written and read with libibmad's IB_SA_MCM_* fields on
// the hand-built rig (sa_rig.h), the ClassPortInfo bits, the MLID range from SwitchInfo, the snapshot's
// P_Key lookup; and SaAgent end to end: trap 66/67 Reports, the SM callback, and groups that survive a
// restart through the groups file. Waits poll with a 2 s deadline; nothing asserts timing.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "mad/sa/mcmember_record.h"
#include "tests/unit/smd/sa/sa_rig.h"
#include "smd/sa/mcmember_records.h"
#include "smd/sa/sa_agent.h"
#include "tests/unit/temp_dir.h"

namespace smd::sa::sa_mcmember_test {
namespace {

using namespace testing;

// MGID ff12:401b:ffff::ffff:ffff, the default partition's IPoIB broadcast group.
void put_bcast(std::span<std::uint8_t> r) {
  const std::uint8_t m[16] = {0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  std::copy(m, m + 16, r.begin());
}

// The join IPoIB sends: MGID|PortGID|P_Key|JoinState (bits 0, 1, 7, 16).
Mad ipoib_join(std::uint8_t method, Guid port_guid, std::uint8_t join_state, std::uint64_t tid = 0x55) {
  Mad m = request(method, IB_SA_ATTR_MCRECORD, (1u << 0) | (1u << 1) | (1u << 7) | (1u << 16), 0, tid);
  auto r = rec_of(m);
  put_bcast(r);
  put_gid(r, 16, 0xFE80000000000000ull, port_guid);
  ib_set(r, IB_SA_MCM_PKEY_F, 0xFFFF);
  ib_set(r, IB_SA_MCM_JOIN_STATE_F, join_state);
  return m;
}

class McMember : public ::testing::Test {
 protected:
  void SetUp() override { state.mcast.apply_policy(default_partitions(), mcast_context(rig.snap)); }
  Rig rig = make_rig();
  SaState state;
};

TEST_F(McMember, JoinGetTableLeave) {
  const Answer j = ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kA + 1, 1), rig.lid_a);
  ASSERT_TRUE(j.sent());
  EXPECT_EQ(j.status(), 0u) << state.mcast_why;
  EXPECT_EQ(j.method(), IB_MAD_METHOD_GET_RESPONSE);
  EXPECT_EQ(j.attr_offset(), 7u);
  const auto r = j.record(0);
  EXPECT_EQ(ib_get(r, IB_SA_MCM_MLID_F), 0xC000u);
  EXPECT_EQ(ib_get(r, IB_SA_MCM_QKEY_F), 0x0B1Bu);
  EXPECT_EQ(ib_get(r, IB_SA_MCM_MTU_F), 4u);   // 2048
  EXPECT_EQ(ib_get(r, IB_SA_MCM_RATE_F), 3u);  // 10 Gb/s
  EXPECT_EQ(r[38], 0x84) << "MTUSelector exactly (2) above MTU, as saquery shows 0x84";
  EXPECT_EQ(r[42], 0x83) << "RateSelector exactly";
  EXPECT_EQ(ib_get(r, IB_SA_MCM_PKEY_F), 0xFFFFu);
  EXPECT_EQ(ib_get(r, IB_SA_MCM_JOIN_STATE_F), 1u);
  EXPECT_EQ(get_be(r, 24, 8), kA + 1);
  EXPECT_EQ(r[48] >> 4, 2) << "Scope link-local";
  EXPECT_TRUE(state.mcast_changed);
  EXPECT_EQ(state.mcast_joins, 1u);

  // B proxies C's join (they share the default partition).
  ASSERT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kC + 1, 2), rig.lid_b).status(), 0u);
  const Answer t = ask(rig.snap, state, request(IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_MCRECORD, 0), rig.lid_b);
  EXPECT_EQ(t.method(), IB_MAD_METHOD_GET_TABLE_RESPONSE);
  // Untrusted B, no member itself, sees the group once, without any member's GID or JoinState.
  ASSERT_EQ(t.count(), 1u);
  EXPECT_EQ(ib_get(t.record(0), IB_SA_MCM_JOIN_STATE_F), 0u);
  EXPECT_EQ(get_be(t.record(0), 16, 8) | get_be(t.record(0), 24, 8), 0u) << "PortGID 0";
  const Answer trusted =
      ask(rig.snap, state, request(IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_MCRECORD, 0, kTrustedKey), rig.lid_b);
  ASSERT_EQ(trusted.count(), 2u);
  EXPECT_EQ(ib_get(trusted.record(0), IB_SA_MCM_JOIN_STATE_F) + ib_get(trusted.record(1), IB_SA_MCM_JOIN_STATE_F), 3u);

  const Answer l = ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_DELETE, kA + 1, 1), rig.lid_a);
  EXPECT_EQ(l.status(), 0u);
  EXPECT_EQ(l.method(), IB_MAD_METHOD_DELETE_RESPONSE);
  EXPECT_EQ(state.mcast_leaves, 1u);
  const Answer again = ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_DELETE, kA + 1, 1), rig.lid_a);
  EXPECT_EQ(again.status(), 0x0200u) << "no longer a member";
  EXPECT_FALSE(state.mcast_why.empty());
  EXPECT_TRUE(state.mcast_events.empty()) << "the broadcast group is well known: it stays";
}

TEST_F(McMember, StatusCodesOnTheWire) {
  Mad no_js = ipoib_join(IB_MAD_METHOD_SET, kA + 1, 1);
  ib_set(no_js, IB_SA_COMPMASK_F, 0b11, true);
  EXPECT_EQ(ask(rig.snap, state, no_js, rig.lid_a).status(), 0x0600u);
  EXPECT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, 0x1234, 1), rig.lid_a).status(), 0x0200u);
  EXPECT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kA + 1, 0), rig.lid_a).status(), 0x0200u);
  Mad create = ipoib_join(IB_MAD_METHOD_SET, kA + 1, 1);
  rec_of(create)[15] = 0x01;  // an MGID nobody created, without Q_Key, TClass, FlowLabel, SL
  EXPECT_EQ(ask(rig.snap, state, create, rig.lid_a).status(), 0x0600u);
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_GET, IB_SA_ATTR_MCRECORD, 1), rig.lid_a).status(), 0x0300u);
}

// OpenSM with disable_multicast TRUE answers a join with 0x0200 (seen on ibsim); a leave of a group made
// before the switch is still taken.
TEST_F(McMember, JoinRefusedWhenMulticastIsDisabled) {
  ASSERT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kA + 1, 1), rig.lid_a).status(), 0u);
  rig.snap.settings.multicast = false;
  EXPECT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kB + 1, 1), rig.lid_b).status(), 0x0200u);
  EXPECT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_DELETE, kA + 1, 1), rig.lid_a).status(), 0u);
  rig.snap.settings.multicast = true;
  EXPECT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kB + 1, 1), rig.lid_b).status(), 0u);
}

TEST_F(McMember, PortPKeysFromThePartitionPlan) {
  set_partitions(rig, {{kA + 1, {0xFFFF, 0x8001}}, {kB + 1, {0xFFFF, 0x8001}}, {kD + 1, {0x8001}}});
  EXPECT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kD + 1, 1), rig.lid_d).status(), 0x0200u)
      << "D does not hold 0xFFFF";
  EXPECT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kA + 1, 1), rig.lid_d).status(), 0u)
      << "proxy join by D for A: they share 0x8001, and A holds the group's 0xFFFF";
  set_partitions(rig, {{kA + 1, {0xFFFF, 0x8001}}, {kB + 1, {0xFFFF, 0x8001}}, {kD + 1, {0x8002}}});
  EXPECT_EQ(ask(rig.snap, state, ipoib_join(IB_MAD_METHOD_SET, kB + 1, 1), rig.lid_d).status(), 0x0200u)
      << "proxy join by D for B: no shared P_Key";
}

TEST_F(McMember, ClassPortInfoClaimsMulticast) {
  const Answer a = ask(rig.snap, state, request(IB_MAD_METHOD_GET, 0x0001, 0));
  EXPECT_TRUE(ib_get(a.record(0), IB_CPI_CAPMASK_F) & (1u << 9)) << "IsUDMulticastSupported";
  EXPECT_TRUE(ib_get(a.record(0), IB_CPI_CAPMASK2_F) & (1u << 12)) << "IsSendOnlyFullMemberSupported";
}

TEST(McMemberFabric, MlidTopIsTheSmallestMulticastFdbCap) {
  const Rig r = make_rig();
  EXPECT_EQ(r.fabric->mlid_top(), 0xC3FF) << "no SwitchInfo read: 1024 entries";
  ObservedFabric obs = r.fabric->observed();
  obs.nodes[r.s0].switch_info = mad::SwitchInfo{};
  obs.nodes[r.s0].switch_info->multicast_fdb_cap = 512;
  obs.nodes[r.s1].switch_info = mad::SwitchInfo{};
  obs.nodes[r.s1].switch_info->multicast_fdb_cap = 256;
  const auto f = SaFabric::build(obs, std::make_shared<LidMap>(r.fabric->lids()),
                                 std::make_shared<RoutingTables>(r.fabric->tables()), kPrefix);
  EXPECT_EQ(f->mlid_top(), 0xC0FF);
}

// ---- SaAgent ----

class Recorder {
 public:
  SaAgent::Sender sender() {
    return [this](std::span<const std::uint8_t> m, const mad::MadAddress&) {
      std::lock_guard lock(mu_);
      sent_.emplace_back(m.begin(), m.end());
      return 0;
    };
  }
  std::vector<std::vector<std::uint8_t>> with_method(std::uint8_t method) const {
    std::lock_guard lock(mu_);
    std::vector<std::vector<std::uint8_t>> out;
    for (const auto& s : sent_) {
      if (s.size() >= 56 && s[3] == method) out.push_back(s);
    }
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::vector<std::uint8_t>> sent_;
};

template <class F>
bool eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done();
}

mad::MadAddress from(Lid lid) {
  mad::MadAddress a;
  a.lid = lid;
  a.qpn = 1;
  return a;
}

// A full create: MGID ff12:601b::7 with Q_Key, TClass, P_Key, FlowLabel, SL.
Mad create_join(std::uint8_t method, Guid port_guid, std::uint8_t js) {
  const std::uint64_t mask =
      (1u << 0) | (1u << 1) | (1u << 2) | (1u << 6) | (1u << 7) | (1u << 12) | (1u << 13) | (1u << 16);
  Mad m = request(method, IB_SA_ATTR_MCRECORD, mask, 0, 0x66);
  auto r = rec_of(m);
  const std::uint8_t mgid[16] = {0xff, 0x12, 0x60, 0x1b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};
  std::copy(mgid, mgid + 16, r.begin());
  put_gid(r, 16, kPrefix, port_guid);
  ib_set(r, IB_SA_MCM_QKEY_F, 0x22);
  ib_set(r, IB_SA_MCM_PKEY_F, 0xFFFF);
  ib_set(r, IB_SA_MCM_JOIN_STATE_F, js);
  return m;
}

Mad subscribe(std::uint16_t trap) {
  Mad m = request(IB_MAD_METHOD_SET, IB_SA_ATTR_INFORMINFO, 0, 0, 0x77);
  auto r = rec_of(m);
  put16(r, 16, 0xFFFF);
  r[22] = 1;
  r[23] = 1;
  put16(r, 24, 0xFFFF);
  put16(r, 26, trap);
  r[30] = 1;
  r[33] = r[34] = r[35] = 0xFF;
  return m;
}

class McMemberAgent : public ::smd::test::TempDirTest {};

TEST_F(McMemberAgent, TrapsCallbackAndRestart) {
  SaAgentOptions o;
  o.groups_file = dir_ + "/sa-groups.json";
  o.report_timeout_ms = 20;
  std::mutex mu;
  std::vector<std::vector<McastGroupMembers>> seen;
  auto sink = [&](std::vector<McastGroupMembers> g) {
    std::lock_guard lock(mu);
    seen.push_back(std::move(g));
  };
  auto last = [&] {
    std::lock_guard lock(mu);
    return seen.empty() ? std::vector<McastGroupMembers>{} : seen.back();
  };
  const auto snap = std::make_shared<const SaSnapshot>(make_rig().snap);
  {
    Recorder rec;
    SaAgent agent(o, rec.sender());
    agent.set_mcast_sink(sink);
    agent.start();
    agent.publish(snap);
    ASSERT_TRUE(eventually([&] { return last().size() == 1; })) << "the broadcast group, pre-created";
    EXPECT_EQ(last()[0].mlid, 0xC000);
    ASSERT_TRUE(agent.submit(subscribe(66), from(5)));
    ASSERT_TRUE(agent.submit(subscribe(67), from(5)));
    ASSERT_TRUE(agent.submit(create_join(IB_MAD_METHOD_SET, kA + 1, 1), from(3)));
    ASSERT_TRUE(eventually([&] { return last().size() == 2; }));
    const std::vector<McastGroupMembers> g = last();
    EXPECT_EQ(g[1].mlid, 0xC001);  // ff12:601b::7 sorts after ff12:401b:...
    ASSERT_EQ(g[1].members.size(), 1u);
    EXPECT_EQ(g[1].members[0], (std::pair<Guid, std::uint8_t>{kA + 1, 1}));
    ASSERT_TRUE(eventually([&] { return !rec.with_method(IB_MAD_METHOD_REPORT).empty(); }));
    const auto report = rec.with_method(IB_MAD_METHOD_REPORT)[0];
    const auto notice = std::span<const std::uint8_t>(report).subspan(56);
    EXPECT_EQ(ib_get(notice, IB_NOTICE_TRAP_NUMBER_F), 66u);
    EXPECT_EQ(notice[16], 0xff);
    EXPECT_EQ(notice[16 + 15], 7) << "the MGID in DataDetails";
    ASSERT_TRUE(eventually([&] { return agent.stats().mcast_groups == 2 && agent.stats().mcast_joins == 1; }));
    EXPECT_EQ(agent.stats().mcast_members, 1u);
    agent.stop();
  }
  {
    // Restart: the created group and its MLID come back from the file; then the last member leaves (67).
    Recorder rec;
    SaAgent agent(o, rec.sender());
    agent.set_mcast_sink(sink);
    agent.start();
    agent.publish(snap);
    ASSERT_TRUE(eventually([&] { return agent.stats().mcast_groups == 2; }));
    ASSERT_TRUE(agent.submit(subscribe(67), from(5)));
    ASSERT_TRUE(agent.submit(create_join(IB_MAD_METHOD_DELETE, kA + 1, 1), from(3)));
    ASSERT_TRUE(eventually([&] { return !rec.with_method(IB_MAD_METHOD_DELETE_RESPONSE).empty(); }));
    EXPECT_EQ(ib_get(rec.with_method(IB_MAD_METHOD_DELETE_RESPONSE)[0], IB_MAD_STATUS_F), 0u);
    ASSERT_TRUE(eventually([&] { return !rec.with_method(IB_MAD_METHOD_REPORT).empty(); }));
    const auto notice = std::span<const std::uint8_t>(rec.with_method(IB_MAD_METHOD_REPORT)[0]).subspan(56);
    EXPECT_EQ(ib_get(notice, IB_NOTICE_TRAP_NUMBER_F), 67u);
    ASSERT_TRUE(eventually([&] { return last().size() == 1; }));
    agent.stop();
  }
}

}  // namespace
}  // namespace smd::sa::sa_mcmember_test
