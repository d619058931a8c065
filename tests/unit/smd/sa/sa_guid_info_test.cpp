// GUIDInfoRecord Set/Delete/Get through answer_mad on sa_rig.h's fabric (guid_info_records.h): who may
// change which port's aliases, what each answer holds (read through libibmad's GIR fields), and that a
// PathRecord by an alias GID finds the port.
#include <gtest/gtest.h>

#include "tests/unit/smd/sa/sa_rig.h"

namespace smd::sa::sa_guid_info_test {
namespace {

using namespace testing;

constexpr std::uint16_t kGir = IB_SA_ATTR_GUIDINFORECORD;
constexpr std::uint64_t kLidBlock = 0b11;  // ComponentMask LID | BlockNum
constexpr std::uint64_t guid_bit(unsigned i) { return 1ull << (4 + i); }

class SaGuidInfo : public ::testing::Test {
 protected:
  SaGuidInfo() {
    // The ports report GUIDCap 32 (four blocks), as ibsim's do.
    ObservedFabric obs = rig.fabric->observed();
    for (auto& node : obs.nodes) {
      for (auto& port : node.ports) {
        if (port.port_info) port.port_info->guid_cap = 32;
      }
    }
    rig.fabric = SaFabric::build(std::move(obs), rig.lids, rig.tables, kPrefix);
    rig.snap.fabric = rig.fabric;
  }

  Mad gir(std::uint8_t method, Lid lid, unsigned block, std::uint64_t mask, std::array<Guid, 8> guids = {},
          std::uint64_t key = 0) {
    Mad m = request(method, kGir, mask, key);
    put16(rec_of(m), 0, lid);
    rec_of(m)[2] = static_cast<std::uint8_t>(block);
    for (unsigned i = 0; i < 8; ++i) put64(rec_of(m), 8 + 8 * i, guids[i]);
    return m;
  }
  static Guid guid_at(const Answer& a, unsigned i) {
    return ib_get(a.record(0), static_cast<MAD_FIELDS>(IB_SA_GIR_GUID0_F + i), true);
  }

  Rig rig = make_rig();
  SaState state;
};

TEST_F(SaGuidInfo, APortSetsItsOwnAliasesAndGetShowsThem) {
  const Answer a =
      ask(rig.snap, state,
          gir(IB_MAD_METHOD_SET, rig.lid_b, 0, kLidBlock | guid_bit(1) | guid_bit(2), {0, 0x0002C900DEAD0001ull, 0}),
          rig.lid_b);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(a.method(), IB_MAD_METHOD_GET_RESPONSE);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_GIR_LID_F), rig.lid_b);
  EXPECT_EQ(guid_at(a, 0), kB + 1) << "entry 0 is the port GUID";
  EXPECT_EQ(guid_at(a, 1), 0x0002C900DEAD0001ull);
  EXPECT_EQ(guid_at(a, 2), 0x0014050000000001ull) << "0 asks the SM: OpenIB OUI, byte 0, counter 1";
  EXPECT_TRUE(state.aliases_changed);
  ASSERT_TRUE(state.alias_bases);
  EXPECT_EQ(state.alias_bases->at(0x0002C900DEAD0001ull), kB + 1);

  const Answer g = ask(rig.snap, state, gir(IB_MAD_METHOD_GET, rig.lid_b, 0, 0b1), rig.lid_c);
  ASSERT_EQ(g.status(), 0);
  EXPECT_EQ(guid_at(g, 1), 0x0002C900DEAD0001ull);
  EXPECT_EQ(guid_at(g, 2), 0x0014050000000001ull);
}

TEST_F(SaGuidInfo, AnotherPortIsDeniedUnlessTrusted) {
  const Mad m = gir(IB_MAD_METHOD_SET, rig.lid_b, 0, kLidBlock | guid_bit(1), {0, 0x42});
  const Answer denied = ask(rig.snap, state, m, rig.lid_c);
  EXPECT_EQ(denied.status(), 0x0700);
  EXPECT_NE(state.alias_why.find("from lid 5 for lid 4 denied"), std::string::npos) << state.alias_why;
  EXPECT_FALSE(state.aliases_changed);
  const Answer trusted =
      ask(rig.snap, state, gir(IB_MAD_METHOD_SET, rig.lid_b, 0, kLidBlock | guid_bit(1), {0, 0x42}, kTrustedKey),
          rig.lid_c);
  ASSERT_EQ(trusted.status(), 0);
  EXPECT_EQ(guid_at(trusted, 1), 0x42u);
}

TEST_F(SaGuidInfo, RefusalsCarryTheIbaStatus) {
  EXPECT_EQ(ask(rig.snap, state, gir(IB_MAD_METHOD_SET, rig.lid_b, 0, 0b1 | guid_bit(1), {0, 1}), rig.lid_b).status(),
            0x0600)
      << "no BlockNum in the ComponentMask";
  EXPECT_EQ(
      ask(rig.snap, state, gir(IB_MAD_METHOD_SET, rig.lid_b, 0, kLidBlock | guid_bit(0), {5}), rig.lid_b).status(),
      0x0200)
      << "entry 0 is the port GUID";
  EXPECT_EQ(
      ask(rig.snap, state, gir(IB_MAD_METHOD_SET, rig.lid_b, 4, kLidBlock | guid_bit(1), {0, 1}), rig.lid_b).status(),
      0x0300)
      << "block 4 is past GUIDCap 32";
  EXPECT_EQ(ask(rig.snap, state, gir(IB_MAD_METHOD_SET, 77, 0, kLidBlock | guid_bit(1), {0, 1}), rig.lid_b).status(),
            0x0300)
      << "no port has LID 77";
  // The port GUID of another port cannot become an alias: answered 0 there.
  const Answer dup =
      ask(rig.snap, state, gir(IB_MAD_METHOD_SET, rig.lid_b, 0, kLidBlock | guid_bit(3), {0, 0, 0, kC + 1}), rig.lid_b);
  ASSERT_EQ(dup.status(), 0);
  EXPECT_EQ(guid_at(dup, 3), 0u);
  EXPECT_NE(state.alias_why.find("entry 3 answered 0"), std::string::npos) << state.alias_why;
}

TEST_F(SaGuidInfo, DeleteAnswersDeleteRespWithTheBlockAsLeft) {
  ASSERT_EQ(
      ask(rig.snap, state,
          gir(IB_MAD_METHOD_SET, rig.lid_b, 1, kLidBlock | guid_bit(0) | guid_bit(7), {0x80, 0, 0, 0, 0, 0, 0, 0x87}),
          rig.lid_b)
          .status(),
      0);
  state.aliases_changed = false;
  const Answer d = ask(rig.snap, state, gir(IB_MAD_METHOD_DELETE, rig.lid_b, 1, kLidBlock | guid_bit(0)), rig.lid_b);
  ASSERT_EQ(d.status(), 0);
  EXPECT_EQ(d.method(), IB_MAD_METHOD_DELETE_RESPONSE);
  EXPECT_EQ(ib_get(d.record(0), IB_SA_GIR_BLOCKNUM_F), 1u);
  EXPECT_EQ(guid_at(d, 0), 0u);
  EXPECT_EQ(guid_at(d, 7), 0x87u);
  EXPECT_TRUE(state.aliases_changed);
  // GetTable for the port: block 0 and block 1 (it still holds an alias).
  const Answer t = ask(rig.snap, state, gir(IB_MAD_METHOD_GET_TABLE, rig.lid_b, 0, 0b1), rig.lid_b);
  ASSERT_EQ(t.status(), 0);
  EXPECT_EQ(t.count(), 2u);
}

TEST_F(SaGuidInfo, PathRecordByAnAliasGidFindsThePortAndAnswersThatGid) {
  constexpr Guid kAlias = 0x0002C900BEEF0001ull;
  ASSERT_EQ(ask(rig.snap, state, gir(IB_MAD_METHOD_SET, rig.lid_b, 0, kLidBlock | guid_bit(1), {0, kAlias}), rig.lid_b)
                .status(),
            0);
  Mad p = request(IB_MAD_METHOD_GET, IB_SA_ATTR_PATHRECORD, (1u << 2) | (1u << 3));  // DGID | SGID
  put_gid(rec_of(p), 8, kPrefix, kAlias);                                            // DGID
  put_gid(rec_of(p), 24, kPrefix, kC + 1);                                           // SGID
  const Answer a = ask(rig.snap, state, p, rig.lid_c);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_PR_DLID_F), rig.lid_b);
  EXPECT_EQ(get_be(a.record(0), 16, 8), kAlias) << "the DGID asked";
  EXPECT_EQ(get_be(a.record(0), 32, 8), kC + 1);
  // Without the alias an unknown GUID is INVALID_GID (0x0500).
  SaState fresh;
  EXPECT_EQ(ask(rig.snap, fresh, p, rig.lid_c).status(), 0x0500);
}

TEST_F(SaGuidInfo, NodeRecordByAnAliasPortGuidIsThePortsNodeShowingTheAlias) {
  constexpr Guid kAlias = 0x0002C900BEEF0002ull;
  ASSERT_EQ(
      ask(rig.snap, state, gir(IB_MAD_METHOD_SET, rig.lid_b, 0, kLidBlock | guid_bit(3), {0, 0, 0, kAlias}), rig.lid_b)
          .status(),
      0);
  Mad n = request(IB_MAD_METHOD_GET, IB_SA_ATTR_NODERECORD, 1u << 8);  // PortGUID
  put64(rec_of(n), 24, kAlias);
  const Answer a = ask(rig.snap, state, n, rig.lid_c);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_NR_LID_F), rig.lid_b);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_NR_GUID_F, true), kB);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_NR_PORT_GUID_F, true), kAlias);
  SaState fresh;
  EXPECT_EQ(ask(rig.snap, fresh, n, rig.lid_c).status(), 0x0300) << "an unknown PortGUID without the alias";
}

}  // namespace
}  // namespace smd::sa::sa_guid_info_test
