// PathRecord answers on the hand-built fabric of sa_rig.h (see its header comment for the MTUs, rates and
// LFTs the expected values come from). Records are read with libibmad's IB_SA_PR_* fields and, for the
// fields libibmad lacks, the byte/bit offsets of SA-NOTES.md §6.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <set>

#include "tests/unit/smd/sa/sa_rig.h"

namespace smd::sa::sa_path_record_test {
namespace {

using namespace testing;

constexpr std::uint16_t kPathRecord = IB_SA_ATTR_PATHRECORD;
constexpr std::uint64_t kSgid = 1u << 3, kDgid = 1u << 2, kSlid = 1u << 5, kDlid = 1u << 4;
constexpr std::uint64_t kReversible = 1u << 11, kNumbPath = 1u << 12, kPKey = 1u << 13;
constexpr std::uint64_t kMtuSel = 1u << 16, kMtu = 1u << 17, kRateSel = 1u << 18, kRate = 1u << 19;

// SA-NOTES §6 offsets.
struct Pr {
  std::uint64_t sgid_guid, dgid_guid, sgid_prefix;
  unsigned slid, dlid, sl, reversible, numb_path, pkey;
  unsigned mtu_sel, mtu, rate_sel, rate, life_sel, life, preference;
};
Pr read_pr(std::span<const std::uint8_t> r) {
  Pr p{};
  p.dgid_guid = get_be(r, 16, 8);
  p.sgid_prefix = get_be(r, 24, 8);
  p.sgid_guid = get_be(r, 32, 8);
  p.dlid = static_cast<unsigned>(ib_get(r, IB_SA_PR_DLID_F));
  p.slid = static_cast<unsigned>(ib_get(r, IB_SA_PR_SLID_F));
  p.sl = static_cast<unsigned>(ib_get(r, IB_SA_PR_SL_F));
  p.numb_path = static_cast<unsigned>(ib_get(r, IB_SA_PR_NPATH_F));
  p.reversible = r[49] >> 7;
  p.pkey = static_cast<unsigned>(get_be(r, 50, 2));
  p.mtu_sel = r[54] >> 6;
  p.mtu = r[54] & 0x3F;
  p.rate_sel = r[55] >> 6;
  p.rate = r[55] & 0x3F;
  p.life_sel = r[56] >> 6;
  p.life = r[56] & 0x3F;
  p.preference = r[57];
  return p;
}

class SaPath : public ::testing::Test {
 protected:
  Answer path(std::uint8_t method, std::uint64_t mask, const std::function<void(std::span<std::uint8_t>)>& fill) {
    Mad m = request(method, kPathRecord, mask);
    fill(rec_of(m));
    return ask(rig.snap, state, m);
  }
  Answer lids(std::uint8_t method, Lid s, Lid d, std::uint64_t extra = 0,
              const std::function<void(std::span<std::uint8_t>)>& more = {}) {
    return path(method, kSlid | kDlid | extra, [&](std::span<std::uint8_t> r) {
      put16(r, 42, s);
      put16(r, 40, d);
      if (more) more(r);
    });
  }
  Rig rig = make_rig();
  SaState state;
};

TEST_F(SaPath, MtuAndRateAreTheMinimumAlongTheWalk) {
  const Answer a = lids(IB_MAD_METHOD_GET, 3, 5);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(a.attr_offset(), 8u);
  const Pr p = read_pr(a.record(0));
  EXPECT_EQ(p.slid, 3u);
  EXPECT_EQ(p.dlid, 5u);
  EXPECT_EQ(p.sgid_prefix, kPrefix);
  EXPECT_EQ(p.sgid_guid, kA + 1);
  EXPECT_EQ(p.dgid_guid, kC + 1);
  EXPECT_EQ(p.mtu, 3u) << "S1 port 1, a middle hop, has MTUCap 1024";
  EXPECT_EQ(p.rate, 5u) << "the 1x DDR middle link (5 Gb/s) is slower than the 4x SDR ends (code 3)";
  EXPECT_EQ(p.mtu_sel, 2u);
  EXPECT_EQ(p.rate_sel, 2u);
  EXPECT_EQ(p.life_sel, 2u);
  EXPECT_EQ(p.life, 0x13u) << "settings.packet_lifetime";
  EXPECT_EQ(p.reversible, 1u);
  EXPECT_EQ(p.numb_path, 0u);
  EXPECT_EQ(p.pkey, 0xFFFFu);
  EXPECT_EQ(p.sl, 0u);
  EXPECT_EQ(p.preference, 0u);

  const Pr same_switch = read_pr(lids(IB_MAD_METHOD_GET, 3, 4).record(0));
  EXPECT_EQ(same_switch.mtu, 4u) << "S0 port 3 has MTUCap 2048";
  EXPECT_EQ(same_switch.rate, 3u);
}

// A and B on 1x HDR links (50 Gb/s, code 20, an IBA 1.3 code): answered as 50 Gb/s, or as 40 Gb/s (code 7)
// with sa.original_rates_only, whose clients cannot read code 20.
TEST_F(SaPath, OriginalRatesOnlyMapsHdrDown) {
  ObservedFabric obs = rig.fabric->observed();
  for (auto [n, p] : {std::pair{rig.a, 1}, {rig.b, 1}, {rig.s0, 2}, {rig.s0, 3}}) {
    mad::PortInfo& pi = *obs.nodes[n].ports[p].port_info;
    pi.link_width_active = 1;
    pi.link_speed_ext_active = 4;  // HDR
  }
  rig.fabric = SaFabric::build(std::move(obs), rig.lids, rig.tables, kPrefix);
  rig.snap.fabric = rig.fabric;
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 3, 4).record(0)).rate, 20u);
  rig.snap.settings.original_rates_only = true;
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 3, 4).record(0)).rate, 7u);
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 3, 5).record(0)).rate, 5u) << "an old rate is left alone";
}

TEST_F(SaPath, ByGids) {
  const Answer a = path(IB_MAD_METHOD_GET, kSgid | kDgid, [](std::span<std::uint8_t> r) {
    put_gid(r, 8, kPrefix, kD + 1);
    put_gid(r, 24, kPrefix, kB + 1);
  });
  ASSERT_EQ(a.status(), 0);
  const Pr p = read_pr(a.record(0));
  EXPECT_EQ(p.slid, 4u) << "SGID is B";
  EXPECT_EQ(p.dlid, 6u) << "DGID is D";
}

TEST_F(SaPath, GidAndLidOfDifferentPortsNameNoPath) {
  const Answer a = path(IB_MAD_METHOD_GET_TABLE, kSgid | kSlid, [](std::span<std::uint8_t> r) {
    put_gid(r, 24, kPrefix, kA + 1);
    put16(r, 42, 4);  // B's LID
  });
  EXPECT_EQ(a.status(), 0);
  EXPECT_EQ(a.count(), 0u);
}

TEST_F(SaPath, GetTableFromOneSourceToEveryEndport) {
  // A to S0, S1, A (itself), B, C, D.
  const Answer a = path(IB_MAD_METHOD_GET_TABLE, kSlid, [](std::span<std::uint8_t> r) { put16(r, 42, 3); });
  ASSERT_EQ(a.status(), 0);
  std::set<unsigned> dlids;
  for (std::size_t i = 0; i < a.count(); ++i) {
    const Pr p = read_pr(a.record(i));
    dlids.insert(p.dlid);
    if (p.dlid == 3) {
      EXPECT_EQ(p.life, 0u) << "loopback has PacketLifeTime 0";
    }
  }
  EXPECT_EQ(dlids, (std::set<unsigned>{1, 2, 3, 4, 5, 6}));
}

TEST_F(SaPath, BlackHoledLidHasNoPath) {
  rig = make_rig({.black_hole = true});
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 3, 6).status(), 0x0300);
  EXPECT_EQ(lids(IB_MAD_METHOD_GET_TABLE, 3, 6).count(), 0u);
  // D -> A still delivers but cannot be reversed.
  const Answer back = lids(IB_MAD_METHOD_GET, 6, 3);
  ASSERT_EQ(back.status(), 0);
  EXPECT_EQ(read_pr(back.record(0)).reversible, 0u);
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 6, 3, kReversible, [](std::span<std::uint8_t> r) { r[49] = 0x80; }).status(),
            0x0300)
      << "Reversible requested";
  // The rest of the fabric is unaffected.
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 3, 5).status(), 0);
}

TEST_F(SaPath, ForwardingLoopHasNoPath) {
  rig = make_rig({.loop = true});
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 3, 6).status(), 0x0300);
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 5, 6).status(), 0x0300);
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 6, 5).status(), 0) << "D -> C does not use the looping entry";
}

TEST_F(SaPath, SlFromTheRoutingEngine) {
  rig.snap.path_sl = [](Lid slid, Lid dlid) -> std::optional<std::uint8_t> {
    if (slid == 3 && dlid == 5) return 3;
    return std::nullopt;
  };
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 3, 5).record(0)).sl, 3u);
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 3, 4).record(0)).sl, 0u) << "no engine SL: 0";
  constexpr std::uint64_t kSlBit = 1u << 15;
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 3, 5, kSlBit, [](std::span<std::uint8_t> r) { r[53] = 5; }).status(), 0x0300)
      << "the request's SL against the engine's";
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 3, 5, kSlBit, [](std::span<std::uint8_t> r) { r[53] = 3; }).record(0)).sl,
            3u);
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 3, 4, kSlBit, [](std::span<std::uint8_t> r) { r[53] = 7; }).record(0)).sl,
            7u)
      << "the request's SL where the engine has none";
}

TEST_F(SaPath, SlOfALayeredRouting) {
  // A VL-layered engine put routes from S0 to C's LID 5 on layer 2 and from S1 to A's LID 3 on layer 1;
  // A and B sit behind S0, C and D behind S1; a switch's own LID is its own source.
  auto layered = std::make_shared<RoutingTables>(*rig.tables);
  auto layering = std::make_shared<VlLayering>(rig.fabric->topo(), 6);
  layering->set(rig.s0, 5, 2);
  layering->set(rig.s1, 3, 1);
  layered->layering = layering;
  rig.fabric = SaFabric::build(rig.fabric->observed(), rig.lids, layered, kPrefix);
  rig.snap.fabric = rig.fabric;
  EXPECT_EQ(rig.fabric->engine_sl(3, 5), std::optional<std::uint8_t>(2)) << "A -> C: S0's layer for LID 5";
  EXPECT_EQ(rig.fabric->engine_sl(4, 5), std::optional<std::uint8_t>(2)) << "B shares A's switch";
  EXPECT_EQ(rig.fabric->engine_sl(5, 3), std::optional<std::uint8_t>(1)) << "C -> A: S1's layer for LID 3";
  EXPECT_EQ(rig.fabric->engine_sl(1, 5), std::optional<std::uint8_t>(2)) << "S0's own LID";
  EXPECT_EQ(rig.fabric->engine_sl(3, 4), std::optional<std::uint8_t>(0));
  EXPECT_EQ(rig.fabric->engine_sl(9, 5), std::nullopt) << "LID 9 is nobody's";
  rig.snap.path_sl = [f = rig.fabric](Lid slid, Lid dlid) { return f->engine_sl(slid, dlid); };
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 3, 5).record(0)).sl, 2u);
  EXPECT_EQ(read_pr(lids(IB_MAD_METHOD_GET, 6, 3).record(0)).sl, 1u);
  // Without layering there is no engine SL.
  rig = make_rig();
  EXPECT_EQ(rig.fabric->engine_sl(3, 5), std::nullopt);
}

TEST_F(SaPath, MaxRecordsCutsTheTable) {
  rig.snap.settings.max_records = 2;
  Mad m = request(IB_MAD_METHOD_GET_TABLE, kPathRecord, kSlid);
  put16(rec_of(m), 42, 3);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(a.count(), 2u);
  EXPECT_TRUE(a.outcome.truncated);
}

TEST_F(SaPath, MtuSelectors) {
  auto mtu = [&](unsigned sel, unsigned value) -> int {
    const Answer a =
        lids(IB_MAD_METHOD_GET, 3, 5, kMtuSel | kMtu, [&](std::span<std::uint8_t> r) { r[54] = sel << 6 | value; });
    return a.status() == 0 ? static_cast<int>(read_pr(a.record(0)).mtu) : -a.status();
  };
  // The path MTU is 3 (1024).
  EXPECT_EQ(mtu(0, 2), 3) << "> 512";
  EXPECT_EQ(mtu(0, 3), -0x0300) << "> 1024";
  EXPECT_EQ(mtu(1, 4), 3) << "< 2048";
  EXPECT_EQ(mtu(1, 3), 2) << "< 1024 gives 512";
  EXPECT_EQ(mtu(1, 1), -0x0300) << "< 256";
  EXPECT_EQ(mtu(2, 3), 3) << "exactly 1024";
  EXPECT_EQ(mtu(2, 4), -0x0300) << "exactly 2048";
  EXPECT_EQ(mtu(3, 1), 3) << "largest";
  // MTU without its selector is "exactly".
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 3, 5, kMtu, [](std::span<std::uint8_t> r) { r[54] = 4; }).status(), 0x0300);
  // A selector without its value is ignored.
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 3, 5, kMtuSel, [](std::span<std::uint8_t> r) { r[54] = 0 << 6 | 5; }).status(), 0);
}

TEST_F(SaPath, RateSelectors) {
  auto rate = [&](Lid d, unsigned sel, unsigned value) -> int {
    const Answer a =
        lids(IB_MAD_METHOD_GET, 3, d, kRateSel | kRate, [&](std::span<std::uint8_t> r) { r[55] = sel << 6 | value; });
    return a.status() == 0 ? static_cast<int>(read_pr(a.record(0)).rate) : -a.status();
  };
  // A->B is 10 Gb/s (code 3); A->C is 5 Gb/s (code 5).
  EXPECT_EQ(rate(4, 1, 3), 5) << "< 10 Gb/s is 5 Gb/s (code 5), not code 2";
  EXPECT_EQ(rate(5, 1, 3), 5) << "already below 10 Gb/s";
  EXPECT_EQ(rate(5, 1, 5), 2) << "< 5 Gb/s is 2.5 Gb/s";
  EXPECT_EQ(rate(5, 0, 3), -0x0300) << "> 10 Gb/s on a 5 Gb/s path";
  EXPECT_EQ(rate(4, 0, 5), 3) << "> 5 Gb/s on a 10 Gb/s path (code 3 < code 5 numerically)";
  EXPECT_EQ(rate(4, 2, 3), 3);
  EXPECT_EQ(rate(5, 2, 3), -0x0300) << "exactly 10 Gb/s on a 5 Gb/s path";
  EXPECT_EQ(rate(4, 3, 2), 3) << "largest";
}

TEST_F(SaPath, InvalidGids) {
  EXPECT_EQ(path(IB_MAD_METHOD_GET, kSgid, [](std::span<std::uint8_t> r) { put_gid(r, 24, kPrefix, 0xDEAD); }).status(),
            0x0500)
      << "unknown GUID";
  EXPECT_EQ(
      path(IB_MAD_METHOD_GET, kSgid, [](std::span<std::uint8_t> r) { put_gid(r, 24, 0xFEC0000000000001ull, kA + 1); })
          .status(),
      0x0500)
      << "foreign prefix";
  EXPECT_EQ(
      path(IB_MAD_METHOD_GET_TABLE, kDgid, [](std::span<std::uint8_t> r) { put_gid(r, 8, kPrefix, 0xBEEF); }).status(),
      0x0500)
      << "unknown DGID, GetTable";
}

TEST_F(SaPath, ServiceIdNeedsBothHalves) {
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 3, 5, 1u << 0).status(), 0x0600);
  EXPECT_EQ(lids(IB_MAD_METHOD_GET, 3, 5, 1u << 1).status(), 0x0600);
  const Answer a = lids(IB_MAD_METHOD_GET, 3, 5, 0b11, [](std::span<std::uint8_t> r) { put64(r, 0, 0x1000AB); });
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(get_be(a.record(0), 0, 8), 0x1000ABu);
}

TEST_F(SaPath, PKey) {
  auto with_pkey = [&](std::uint8_t method, std::uint16_t pkey) {
    return lids(method, 3, 5, kPKey, [&](std::span<std::uint8_t> r) { put16(r, 50, pkey); });
  };
  EXPECT_EQ(with_pkey(IB_MAD_METHOD_GET, 0x8001).status(), 0x0300);
  const Answer t = with_pkey(IB_MAD_METHOD_GET_TABLE, 0x8001);
  EXPECT_EQ(t.status(), 0);
  EXPECT_EQ(t.count(), 0u);
  EXPECT_EQ(with_pkey(IB_MAD_METHOD_GET, 0xFFFF).status(), 0);
}

class SaPathLmc : public SaPath {
 protected:
  SaPathLmc() { rig = make_rig({.lmc1 = true}); }
  Answer a_to_c(std::uint8_t method, std::uint64_t extra = 0, unsigned numb_path = 0) {
    return path(method, kSgid | kDgid | extra, [&](std::span<std::uint8_t> r) {
      put_gid(r, 24, kPrefix, kA + 1);
      put_gid(r, 8, kPrefix, kC + 1);
      r[49] = static_cast<std::uint8_t>(numb_path);
    });
  }
};

TEST_F(SaPathLmc, DistinctLidPairsFirst) {
  const Answer a = a_to_c(IB_MAD_METHOD_GET_TABLE);
  ASSERT_EQ(a.status(), 0);
  ASSERT_EQ(a.count(), 4u) << "2 SLIDs x 2 DLIDs";
  const Pr p0 = read_pr(a.record(0));
  const Pr p1 = read_pr(a.record(1));
  EXPECT_EQ(p0.preference, 0u);
  EXPECT_EQ(p1.preference, 0u);
  EXPECT_NE(p0.slid, p1.slid);
  EXPECT_NE(p0.dlid, p1.dlid);
  std::set<std::pair<unsigned, unsigned>> pairs;
  for (std::size_t i = 0; i < 4; ++i) {
    const Pr p = read_pr(a.record(i));
    pairs.insert({p.slid, p.dlid});
    EXPECT_TRUE(p.slid == 8 || p.slid == 9);
    EXPECT_TRUE(p.dlid == 10 || p.dlid == 11);
    if (i >= 2) {
      EXPECT_EQ(p.preference, 2u);
    }
  }
  EXPECT_EQ(pairs.size(), 4u);
}

TEST_F(SaPathLmc, NumbPathLimitsAndGetGivesOne) {
  EXPECT_EQ(a_to_c(IB_MAD_METHOD_GET_TABLE, kNumbPath, 2).count(), 2u);
  EXPECT_EQ(a_to_c(IB_MAD_METHOD_GET_TABLE, kNumbPath, 1).count(), 1u);
  const Answer g = a_to_c(IB_MAD_METHOD_GET);
  ASSERT_EQ(g.status(), 0);
  EXPECT_EQ(read_pr(g.record(0)).preference, 0u);
  // A LID of the range names that LID only.
  const Answer l = lids(IB_MAD_METHOD_GET_TABLE, 9, 10);
  ASSERT_EQ(l.count(), 1u);
  EXPECT_EQ(read_pr(l.record(0)).slid, 9u);
}

}  // namespace
}  // namespace smd::sa::sa_path_record_test
