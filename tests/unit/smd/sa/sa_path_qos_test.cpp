// PathRecord QoS (SA-NOTES §1.3): what a matched QoS level does to the SL, MTU, rate, PacketLifeTime and
// P_Key of the records, on the fabric of sa_rig.h. Without a level, A->C (LIDs 3->5) is MTU 3 (1024),
// rate code 5 (5 Gb/s), A->B (3->4) MTU 4 (2048), rate code 3 (10 Gb/s); PacketLifeTime is the rig's 0x13.
// Records are read back at the byte offsets of SA-NOTES §6, never through mad/sa's codecs.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>

#include "tests/unit/smd/sa/sa_rig.h"

namespace smd::sa::sa_path_qos_test {
namespace {

using namespace testing;

constexpr std::uint16_t kPathRecord = IB_SA_ATTR_PATHRECORD;
constexpr std::uint64_t kSlid = 1u << 5, kDlid = 1u << 4, kPKey = 1u << 13, kSl = 1u << 15, kServiceId = 0b11;

struct Pr {
  std::uint64_t service_id;
  unsigned sl, pkey, mtu, rate, life;
};
Pr read_pr(std::span<const std::uint8_t> r) {
  Pr p{};
  p.service_id = get_be(r, 0, 8);
  p.sl = static_cast<unsigned>(ib_get(r, IB_SA_PR_SL_F));
  p.pkey = static_cast<unsigned>(get_be(r, 50, 2));
  p.mtu = r[54] & 0x3F;
  p.rate = r[55] & 0x3F;
  p.life = r[56] & 0x3F;
  return p;
}

QosLevel level(std::string name, std::optional<std::uint8_t> sl = std::nullopt) {
  QosLevel l;
  l.name = std::move(name);
  l.sl = sl;
  return l;
}

class SaPathQos : public ::testing::Test {
 protected:
  /// A spec with groups "a" (A's port) and "c" (C's port) and the given levels and rules; DEFAULT first.
  void use(std::vector<QosLevel> levels, std::vector<QosMatchRule> rules) {
    spec.port_groups.resize(2);
    spec.port_groups[0].name = "a";
    spec.port_groups[0].guids = {kA + 1};
    spec.port_groups[1].name = "c";
    spec.port_groups[1].guids = {kC + 1};
    spec.levels = std::move(levels);
    spec.rules = std::move(rules);
    spec.enabled = true;
    rig.snap.qos = std::make_shared<const QosLevelMatcher>(spec, rig.fabric->topo(), PartitionsSpec{}, nullptr, kS0);
  }
  static QosMatchRule a_to_c(std::string level_name) {
    QosMatchRule r;
    r.level = std::move(level_name);
    r.source = {"a"};
    r.destination = {"c"};
    return r;
  }
  Answer get(Lid s, Lid d, std::uint64_t extra = 0, const std::function<void(std::span<std::uint8_t>)>& more = {}) {
    Mad m = request(IB_MAD_METHOD_GET, kPathRecord, kSlid | kDlid | extra);
    put16(rec_of(m), 42, s);
    put16(rec_of(m), 40, d);
    if (more) more(rec_of(m));
    return ask(rig.snap, state, m);
  }
  Pr record(Lid s, Lid d, std::uint64_t extra = 0, const std::function<void(std::span<std::uint8_t>)>& more = {}) {
    const Answer a = get(s, d, extra, more);
    EXPECT_EQ(a.status(), 0);
    return a.status() == 0 ? read_pr(a.record(0)) : Pr{~0ull, ~0u, ~0u, ~0u, ~0u, ~0u};
  }
  Rig rig = make_rig();
  SaState state;
  QosSpec spec;
};

TEST_F(SaPathQos, AnEmptyDefaultLevelChangesNothing) {
  use({level("DEFAULT")}, {});
  const Pr p = record(3, 5);
  EXPECT_EQ(p.sl, 0u);
  EXPECT_EQ(p.mtu, 3u);
  EXPECT_EQ(p.rate, 5u);
  EXPECT_EQ(p.life, 0x13u);
  EXPECT_EQ(p.pkey, 0xFFFFu);
}

TEST_F(SaPathQos, TheMatchedLevelSetsSlCapsMtuAndRateAndSetsLife) {
  QosLevel slow = level("slow", 2);
  slow.mtu_limit = 2;     // 512
  slow.rate_limit = 2;    // 2.5 Gb/s
  slow.packet_life = 10;  // instead of the SA's 0x13
  use({level("DEFAULT", 1), slow}, {a_to_c("slow")});
  const Pr matched = record(3, 5);
  EXPECT_EQ(matched.sl, 2u);
  EXPECT_EQ(matched.mtu, 2u);
  EXPECT_EQ(matched.rate, 2u);
  EXPECT_EQ(matched.life, 10u);
  // A->B matches no rule: DEFAULT, whose only value is SL 1.
  const Pr other = record(3, 4);
  EXPECT_EQ(other.sl, 1u);
  EXPECT_EQ(other.mtu, 4u);
  EXPECT_EQ(other.rate, 3u);
  EXPECT_EQ(other.life, 0x13u);
  // C->A is not A->C: the rule has a direction.
  EXPECT_EQ(record(5, 3).sl, 1u);
}

TEST_F(SaPathQos, LimitsAboveThePathDoNotRaiseItAndRatesCompareByRate) {
  QosLevel wide = level("DEFAULT");
  wide.mtu_limit = 5;   // 4096, above the path's 1024
  wide.rate_limit = 3;  // 10 Gb/s: code 3 is numerically below 5 but faster than 5 Gb/s
  use({wide}, {});
  const Pr p = record(3, 5);
  EXPECT_EQ(p.mtu, 3u);
  EXPECT_EQ(p.rate, 5u) << "5 Gb/s stays: a code minimum would give 3 (10 Gb/s)";
  QosLevel five = level("DEFAULT");
  five.rate_limit = 5;  // 5 Gb/s caps A->B's 10 Gb/s
  use({five}, {});
  EXPECT_EQ(record(3, 4).rate, 5u) << "capped to 5 Gb/s: a code minimum would keep 3";
}

TEST_F(SaPathQos, TheRequestsSlMustBeTheLevels) {
  use({level("DEFAULT"), level("fixed", 2)}, {a_to_c("fixed")});
  EXPECT_EQ(record(3, 5, kSl, [](std::span<std::uint8_t> r) { r[53] = 2; }).sl, 2u);
  EXPECT_EQ(get(3, 5, kSl, [](std::span<std::uint8_t> r) { r[53] = 1; }).status(), 0x0300) << "the level fixes SL 2";
  // DEFAULT fixes no SL: the request's stands.
  EXPECT_EQ(record(3, 4, kSl, [](std::span<std::uint8_t> r) { r[53] = 7; }).sl, 7u);
}

TEST_F(SaPathQos, TheEnginesSlOverridesTheLevels) {
  use({level("DEFAULT"), level("fixed", 2)}, {a_to_c("fixed")});
  rig.snap.path_sl = [](Lid slid, Lid dlid) -> std::optional<std::uint8_t> {
    if (slid == 3 && dlid == 5) return 4;
    return std::nullopt;
  };
  EXPECT_EQ(record(3, 5).sl, 4u);
  EXPECT_EQ(get(3, 5, kSl, [](std::span<std::uint8_t> r) { r[53] = 2; }).status(), 0x0300)
      << "the request fixed SL 2 and the engine needs 4";
}

TEST_F(SaPathQos, TheLevelsPKeysChooseAndLimitThePathsPKey) {
  set_partitions(rig, {{kA + 1, {0xFFFF, 0x8001, 0x8002}}, {kC + 1, {0xFFFF, 0x8001, 0x0002}}});
  QosLevel two = level("DEFAULT");
  two.pkeys = {0x0002};
  use({two}, {});
  EXPECT_EQ(record(3, 5).pkey, 0x8002u) << "the source's entry of the level's P_Key, not the first shared";
  EXPECT_EQ(get(3, 5, kPKey, [](std::span<std::uint8_t> r) { put16(r, 50, 0x8001); }).status(), 0x0300)
      << "0x8001 is shared but not the level's";
  EXPECT_EQ(record(3, 5, kPKey, [](std::span<std::uint8_t> r) { put16(r, 50, 0x8002); }).pkey, 0x8002u);
  QosLevel three = level("DEFAULT");
  three.pkeys = {0x0003};
  use({three}, {});
  EXPECT_EQ(get(3, 5).status(), 0x0300) << "the ends share none of the level's P_Keys";
  use({level("DEFAULT")}, {});
  EXPECT_EQ(record(3, 5).pkey, 0xFFFFu) << "a level without P_Keys: the first shared one";
}

TEST_F(SaPathQos, ServiceIdAndPKeyRulesMatchOnlyWhatTheQueryCarries) {
  QosMatchRule by_sid;
  by_sid.level = "sid";
  by_sid.service_ids = {{0x1000, 0x1fff}};
  QosMatchRule by_pkey;
  by_pkey.level = "pkey";
  by_pkey.pkeys = {{0x7fff, 0x7fff}};
  use({level("DEFAULT", 0), level("sid", 5), level("pkey", 6)}, {by_sid, by_pkey});
  const Pr sid = record(3, 5, kServiceId, [](std::span<std::uint8_t> r) { put64(r, 0, 0x1234); });
  EXPECT_EQ(sid.sl, 5u);
  EXPECT_EQ(sid.service_id, 0x1234u);
  EXPECT_EQ(record(3, 5, kServiceId, [](std::span<std::uint8_t> r) { put64(r, 0, 0x2000); }).sl, 0u);
  EXPECT_EQ(record(3, 5).sl, 0u) << "no ServiceID, no P_Key in the mask: DEFAULT although the path's P_Key is "
                                    "0xffff";
  EXPECT_EQ(record(3, 5, kPKey, [](std::span<std::uint8_t> r) { put16(r, 50, 0xFFFF); }).sl, 6u);
}

}  // namespace
}  // namespace smd::sa::sa_path_qos_test
