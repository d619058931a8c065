// answer_mad on the hand-built fabric of sa_rig.h: the request rules of sa_dispatch.h and the fabric record
// handlers (NodeRecord, PortInfoRecord). Requests are written and answers read through libibmad's fields.
#include <gtest/gtest.h>

#include <set>

#include "tests/unit/smd/sa/sa_rig.h"

namespace smd::sa::sa_dispatch_test {
namespace {

using namespace testing;

constexpr std::uint16_t kNodeRecord = IB_SA_ATTR_NODERECORD;
constexpr std::uint16_t kPortInfoRecord = IB_SA_ATTR_PORTINFORECORD;

class SaDispatch : public ::testing::Test {
 protected:
  Rig rig = make_rig();
  SaState state;
};

TEST_F(SaDispatch, GetNodeRecordByLid) {
  Mad m = request(IB_MAD_METHOD_GET, kNodeRecord, 1);
  put16(rec_of(m), 0, 5);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_TRUE(a.sent());
  EXPECT_EQ(a.raw.size(), 256u);
  EXPECT_EQ(a.method(), IB_MAD_METHOD_GET_RESPONSE);
  EXPECT_EQ(a.status(), 0);
  EXPECT_EQ(a.field(IB_MAD_TRID_F, true), 0x1234u);
  EXPECT_EQ(a.field(IB_SA_MKEY_F, true), 0u) << "answers carry SM_Key 0";
  EXPECT_EQ(a.attr_offset(), 14u);
  const auto r = a.record(0);
  EXPECT_EQ(ib_get(r, IB_SA_NR_LID_F), 5u);
  EXPECT_EQ(ib_get(r, IB_SA_NR_GUID_F, true), kC);
  EXPECT_EQ(ib_get(r, IB_SA_NR_PORT_GUID_F, true), kC + 1);
  EXPECT_EQ(ib_get(r, IB_SA_NR_TYPE_F), 1u);
  EXPECT_EQ(ib_get(r, IB_SA_NR_LOCAL_PORT_F), 1u);
  EXPECT_EQ(ib_get(r, IB_SA_NR_VENDORID_F), 0x0002C9u);
  std::array<char, 64> desc{};
  mad_get_array(const_cast<std::uint8_t*>(r.data()), 0, IB_SA_NR_NODEDESC_F, desc.data());
  EXPECT_STREQ(desc.data(), "host C mlx4_0");
  EXPECT_EQ(a.outcome.kind, SaOutcome::Kind::kAnswered);
  EXPECT_EQ(a.outcome.records, 1u);
}

TEST_F(SaDispatch, GetNodeRecordOfASwitchByItsLid) {
  Mad m = request(IB_MAD_METHOD_GET, kNodeRecord, 1);
  put16(rec_of(m), 0, 2);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_NR_GUID_F, true), kS1);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_NR_TYPE_F), 2u);
}

TEST_F(SaDispatch, GetWithNoMatchIsNoRecords) {
  Mad m = request(IB_MAD_METHOD_GET, kNodeRecord, 1);
  put16(rec_of(m), 0, 77);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_TRUE(a.sent());
  EXPECT_EQ(a.status(), 0x0300);
  EXPECT_EQ(a.attr_offset(), 0u);
  EXPECT_EQ(a.method(), IB_MAD_METHOD_GET_RESPONSE);
}

TEST_F(SaDispatch, GetMatchingSeveralIsTooManyRecords) {
  Mad m = request(IB_MAD_METHOD_GET, kNodeRecord, 1u << 4);  // NodeType
  rec_of(m)[4 + 2] = 1;                                      // CA
  const Answer a = ask(rig.snap, state, m);
  EXPECT_EQ(a.status(), 0x0400);
  EXPECT_EQ(a.attr_offset(), 0u);
}

TEST_F(SaDispatch, GetTableWithNoMatchIsEmptyAndOk) {
  Mad m = request(IB_MAD_METHOD_GET_TABLE, kNodeRecord, 1);
  put16(rec_of(m), 0, 77);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_TRUE(a.sent());
  EXPECT_EQ(a.method(), IB_MAD_METHOD_GET_TABLE_RESPONSE);
  EXPECT_EQ(a.status(), 0);
  EXPECT_EQ(a.attr_offset(), 0u);
  EXPECT_EQ(a.raw.size(), 56u);
  EXPECT_EQ(a.field(IB_SA_RMPP_LEN_F), 20u);
}

TEST_F(SaDispatch, GetTableNodeRecordsCountAndStride) {
  const Answer a = ask(rig.snap, state, request(IB_MAD_METHOD_GET_TABLE, kNodeRecord, 0));
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(a.attr_offset(), 14u);
  ASSERT_EQ(a.raw.size(), 56u + 6 * 112);
  EXPECT_EQ(a.count(), 6u);
  EXPECT_EQ(a.field(IB_SA_RMPP_VERS_F), 1u);
  EXPECT_EQ(a.field(IB_SA_RMPP_TYPE_F), 1u);
  EXPECT_EQ(a.field(IB_SA_RMPP_FLAGS_F), 7u);
  EXPECT_EQ(a.field(IB_SA_RMPP_SEGNUM_F), 1u);
  EXPECT_EQ(a.field(IB_SA_RMPP_LEN_F), 6u * 112 + 20);
  std::set<std::uint64_t> guids;
  for (std::size_t i = 0; i < a.count(); ++i) guids.insert(ib_get(a.record(i), IB_SA_NR_GUID_F, true));
  EXPECT_EQ(guids, (std::set<std::uint64_t>{kS0, kS1, kA, kB, kC, kD}));
  // The two switches by NodeType.
  Mad m = request(IB_MAD_METHOD_GET_TABLE, kNodeRecord, 1u << 4);
  rec_of(m)[4 + 2] = 2;
  EXPECT_EQ(ask(rig.snap, state, m).count(), 2u);
}

TEST_F(SaDispatch, PortInfoRecordByLidAndPort) {
  Mad m = request(IB_MAD_METHOD_GET, kPortInfoRecord, 0b11);
  put16(rec_of(m), 0, 4);
  rec_of(m)[2] = 1;
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(a.attr_offset(), 9u);
  const auto r = a.record(0);
  EXPECT_EQ(get_be(r, 0, 2), 4u);
  EXPECT_EQ(r[2], 1);
  const auto pi = r.subspan(4, 64);
  EXPECT_EQ(ib_get(pi, IB_PORT_LID_F), 4u);
  EXPECT_EQ(ib_get(pi, IB_PORT_MTU_CAP_F), 5u);
  EXPECT_EQ(ib_get(pi, IB_PORT_CAPMASK_F), kCapMaskB);
  EXPECT_EQ(ib_get(pi, IB_PORT_MKEY_F, true), 0u) << "M_Key hidden from an untrusted requester";
}

TEST_F(SaDispatch, PortInfoRecordOfSwitchPortsCarriesTheSwitchLid) {
  Mad m = request(IB_MAD_METHOD_GET_TABLE, kPortInfoRecord, 0b1);
  put16(rec_of(m), 0, 2);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  // S1 has PortInfo for ports 0..3.
  ASSERT_EQ(a.count(), 4u);
  for (std::size_t i = 0; i < a.count(); ++i) {
    EXPECT_EQ(get_be(a.record(i), 0, 2), 2u);
    EXPECT_EQ(a.record(i)[2], i);
  }
}

TEST_F(SaDispatch, MKeyShownOnlyToTrustedRequesters) {
  Mad m = request(IB_MAD_METHOD_GET, kPortInfoRecord, 0b11, kTrustedKey);
  put16(rec_of(m), 0, 3);
  rec_of(m)[2] = 1;
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(ib_get(a.record(0).subspan(4, 64), IB_PORT_MKEY_F, true), kMKey);
  EXPECT_EQ(a.field(IB_SA_MKEY_F, true), 0u);
}

TEST_F(SaDispatch, CapabilityMaskMatchOption) {
  // Options bit 7: every requested CapabilityMask bit set. Bits 6 and 11: A, C, D (B lacks 11).
  Mad m = request(IB_MAD_METHOD_GET_TABLE, kPortInfoRecord, (1u << 2) | (1u << 7));
  rec_of(m)[3] = 0x80;
  put16(rec_of(m), 4 + 20, 0);
  put16(rec_of(m), 4 + 22, 0x0840);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  std::set<std::uint64_t> lids;
  for (std::size_t i = 0; i < a.count(); ++i) lids.insert(get_be(a.record(i), 0, 2));
  EXPECT_EQ(lids, (std::set<std::uint64_t>{3, 5, 6}));
  // Without the option the CapabilityMask must be equal: 0x840 is nobody's.
  Mad exact = request(IB_MAD_METHOD_GET_TABLE, kPortInfoRecord, 1u << 7);
  put16(rec_of(exact), 4 + 22, 0x0840);
  EXPECT_EQ(ask(rig.snap, state, exact).count(), 0u);
  put16(rec_of(exact), 4 + 20, kCaCapMask >> 16);
  put16(rec_of(exact), 4 + 22, kCaCapMask & 0xFFFF);
  EXPECT_EQ(ask(rig.snap, state, exact).count(), 3u);
}

// OpenSM's spelling of the same match, which saquery -s and srp_daemon send: AttributeModifier bit 31,
// no Options in the mask.
TEST_F(SaDispatch, CapabilityMaskMatchByAttributeModifierBit31) {
  Mad m = request(IB_MAD_METHOD_GET_TABLE, kPortInfoRecord, 1u << 7);
  ib_set(m, IB_MAD_ATTRMOD_F, 0x80000000u);
  put16(rec_of(m), 4 + 22, 0x0840);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  std::set<std::uint64_t> lids;
  for (std::size_t i = 0; i < a.count(); ++i) lids.insert(get_be(a.record(i), 0, 2));
  EXPECT_EQ(lids, (std::set<std::uint64_t>{3, 5, 6}));
}

TEST_F(SaDispatch, ForeignSmKeyIsDropped) {
  Mad m = request(IB_MAD_METHOD_GET_TABLE, kNodeRecord, 0, 0x99);
  const Answer a = ask(rig.snap, state, m);
  EXPECT_FALSE(a.sent());
  EXPECT_EQ(a.outcome.kind, SaOutcome::Kind::kDropped);
  EXPECT_STREQ(a.outcome.why, "bad-sm-key");
}

TEST_F(SaDispatch, NotServingDropsEverything) {
  rig.snap.serving = false;
  const Answer a = ask(rig.snap, state, request(IB_MAD_METHOD_GET_TABLE, kNodeRecord, 0));
  EXPECT_FALSE(a.sent());
  EXPECT_STREQ(a.outcome.why, "not-serving");
  SaSnapshot empty;
  empty.serving = true;
  EXPECT_FALSE(ask(empty, state, request(IB_MAD_METHOD_GET_TABLE, kNodeRecord, 0)).sent()) << "no fabric yet";
}

TEST_F(SaDispatch, UnknownMethodAttributeAndVersion) {
  const Answer send = ask(rig.snap, state, request(0x03, kNodeRecord, 0));
  EXPECT_EQ(send.status(), 0x0008);
  EXPECT_EQ(send.method(), IB_MAD_METHOD_GET_RESPONSE);
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_REPORT, kNodeRecord, 0)).status(), 0x0008);
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_GET, 0x0099, 0)).status(), 0x000C);
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_SET, 0x0017, 0)).status(), 0x000C);  // MFTRecord Set
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_SET, kNodeRecord, 0)).status(), 0x000C);
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_DELETE, kNodeRecord, 0)).method(),
            IB_MAD_METHOD_DELETE_RESPONSE);
  Mad v1 = request(IB_MAD_METHOD_GET, kNodeRecord, 0);
  ib_set(v1, IB_MAD_CLASSVER_F, 1);
  const Answer a = ask(rig.snap, state, v1);
  EXPECT_EQ(a.status(), 0x0004);
}

// IBA 15.2.5, table 204: the methods each SA attribute takes. A pair outside it answers
// METHOD_ATTR_UNSUPPORTED (0x000C), in the response method of the request's method (13.4.5).
TEST_F(SaDispatch, PairsOutsideTheAttributeTableAreMethodAttrUnsupported) {
  struct Pair {
    std::uint8_t method;
    std::uint16_t attr;
    std::uint8_t resp;
  };
  const Pair refused[] = {
      {IB_MAD_METHOD_GET, IB_SA_ATTR_MULTIPATH, IB_MAD_METHOD_GET_RESPONSE},
      {IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_MULTIPATH, IB_MAD_METHOD_GET_TABLE_RESPONSE},
      {IB_MAD_METHOD_GETMULTI, IB_SA_ATTR_PATHRECORD, IB_MAD_METHOD_GETMULTI_RESPONSE},
      {IB_MAD_METHOD_SET, IB_SA_ATTR_PATHRECORD, IB_MAD_METHOD_GET_RESPONSE},
      {IB_MAD_METHOD_GET, IB_SA_ATTR_INFORMINFO, IB_MAD_METHOD_GET_RESPONSE},
      {IB_MAD_METHOD_SET, IB_SA_ATTR_INFORMINFORECORD, IB_MAD_METHOD_GET_RESPONSE},
      {IB_MAD_METHOD_DELETE, IB_SA_ATTR_LFTRECORD, IB_MAD_METHOD_DELETE_RESPONSE},
      {IB_MAD_METHOD_SET, 0x0001, IB_MAD_METHOD_GET_RESPONSE},  // ClassPortInfo is read-only here
      {IB_MAD_METHOD_GET, IB_SA_ATTR_NOTICE, IB_MAD_METHOD_GET_RESPONSE},
      {IB_MAD_METHOD_GET_TRACE_TABLE, 0x0039, IB_MAD_METHOD_GET_TRACE_TABLE_RESPONSE},  // TraceRecord
      // Port tables are served only with a table cache; this SaState has none.
      {IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_PKEYTABLERECORD, IB_MAD_METHOD_GET_TABLE_RESPONSE},
      {IB_MAD_METHOD_GET, IB_SA_ATTR_SL2VLTABLERECORD, IB_MAD_METHOD_GET_RESPONSE},
  };
  for (const Pair& p : refused) {
    const Answer a = ask(rig.snap, state, request(p.method, p.attr, 0));
    EXPECT_EQ(a.status(), 0x000C) << "method 0x" << std::hex << unsigned(p.method) << " attr 0x" << p.attr;
    EXPECT_EQ(a.method(), p.resp) << "method 0x" << std::hex << unsigned(p.method) << " attr 0x" << p.attr;
  }
  // A method the SA class does not take (Trap 0x05, TrapRepress 0x07: an SMA's, 13.4.5) is METHOD_UNSUPPORTED,
  // whatever the attribute.
  EXPECT_EQ(ask(rig.snap, state, request(0x05, IB_SA_ATTR_PATHRECORD, 0)).status(), 0x0008);
  EXPECT_EQ(ask(rig.snap, state, request(0x07, 0x0099, 0)).status(), 0x0008);
}

// IBA 15.2.5.1 (CapabilityMask) and table 204: what this SA serves, bit by bit. CapabilityMask: bit 1
// IsSubnetGetSetNoticeSupported (InformInfo Set), 9 IsUDMulticastSupported (MCMemberRecord Set), 10
// IsMultiPathSupported (MultiPathRecord GetMulti), 13 IsPortInfoCapMaskMatchSupported. CapabilityMask2:
// bit 6 IsFullPortInfoRecordSupported, 7 IsExtendedSpeedsSupported, 10 IsPortInfoCapMask2MatchSupported,
// 12 IsSendOnlyFullMemberSupported.
TEST_F(SaDispatch, ClassPortInfoCapabilitiesAreExactlyWhatIsServed) {
  const Answer a = ask(rig.snap, state, request(IB_MAD_METHOD_GET, 0x0001, 0));
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(ib_get(a.record(0), IB_CPI_CAPMASK_F), (1u << 1) | (1u << 9) | (1u << 10) | (1u << 13));
  EXPECT_EQ(ib_get(a.record(0), IB_CPI_CAPMASK2_F), (1u << 6) | (1u << 7) | (1u << 10) | (1u << 12));
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_GETMULTI, IB_SA_ATTR_MULTIPATH, 0)).method(),
            IB_MAD_METHOD_GETMULTI_RESPONSE)
      << "IsMultiPathSupported: GetMulti(MultiPathRecord) is answered";
  EXPECT_NE(ask(rig.snap, state, request(IB_MAD_METHOD_SET, IB_SA_ATTR_INFORMINFO, 0)).status(), 0x000C)
      << "IsSubnetGetSetNoticeSupported: InformInfo Set is taken";
}

TEST_F(SaDispatch, ResponsesAreNotAnswered) {
  const Answer rr = ask(rig.snap, state, request(IB_MAD_METHOD_REPORT_RESPONSE, IB_SA_ATTR_NOTICE, 0));
  EXPECT_FALSE(rr.sent());
  EXPECT_EQ(rr.outcome.kind, SaOutcome::Kind::kReportResp);
  rig.snap.serving = false;
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_REPORT_RESPONSE, IB_SA_ATTR_NOTICE, 0)).outcome.kind,
            SaOutcome::Kind::kReportResp)
      << "a ReportResp retires a Report even when not serving";
  rig.snap.serving = true;
  const Answer gr = ask(rig.snap, state, request(IB_MAD_METHOD_GET_RESPONSE, kNodeRecord, 0));
  EXPECT_FALSE(gr.sent());
  EXPECT_STREQ(gr.outcome.why, "response");
}

TEST_F(SaDispatch, ShortMads) {
  const Mad m = request(IB_MAD_METHOD_GET_TABLE, kNodeRecord, 0);
  EXPECT_STREQ(ask(rig.snap, state, m, 3, 1000, 55).outcome.why, "short");
  // A header alone is a request with an all-zero record.
  const Answer a = ask(rig.snap, state, m, 3, 1000, 56);
  EXPECT_EQ(a.count(), 6u);
}

TEST_F(SaDispatch, ClassPortInfo) {
  const Answer a = ask(rig.snap, state, request(IB_MAD_METHOD_GET, 0x0001, 0));
  ASSERT_EQ(a.status(), 0);
  const auto r = a.record(0);
  EXPECT_EQ(ib_get(r, IB_CPI_CLASSVER_F), 2u);
  EXPECT_EQ(ib_get(r, IB_CPI_RESP_TIME_VALUE_F), rig.snap.settings.resp_time_value);
  EXPECT_NE(ib_get(r, IB_CPI_CAPMASK2_F) & (1u << 12), 0u) << "SendOnlyFullMember";
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_GET_TABLE, 0x0001, 0)).status(), 0x000C);
}

// IBA 15.2.1.1: CapabilityMask bit 9 is IsUDMulticastSupported; an SM that programs no MFTs (sm.multicast
// false, OpenSM's disable_multicast) clears it and nothing else.
TEST_F(SaDispatch, ClassPortInfoWithoutMulticast) {
  const auto cap = [&] {
    return ib_get(ask(rig.snap, state, request(IB_MAD_METHOD_GET, 0x0001, 0)).record(0), IB_CPI_CAPMASK_F);
  };
  const unsigned with = cap();
  EXPECT_NE(with & (1u << 9), 0u);
  rig.snap.settings.multicast = false;
  EXPECT_EQ(cap(), with & ~(1u << 9));
}

TEST_F(SaDispatch, LftRecordsAreTheProgrammedTables) {
  Mad m = request(IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_LFTRECORD, 1);
  put16(rec_of(m), 0, 1);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  ASSERT_EQ(a.count(), 1u) << "LIDs 0..6 fit block 0";
  EXPECT_EQ(a.attr_offset(), 9u);
  const auto r = a.record(0);
  EXPECT_EQ(get_be(r, 0, 2), 1u);
  EXPECT_EQ(get_be(r, 2, 2), 0u);
  // S0: 1->0, 2->1, 3->2, 4->3, 5->1, 6->1 (LFT at byte 8, one port per LID).
  const std::uint8_t want[] = {0, 1, 2, 3, 1, 1};
  for (unsigned lid = 1; lid <= 6; ++lid) EXPECT_EQ(r[8 + lid], want[lid - 1]) << "LID " << lid;
}

TEST_F(SaDispatch, SmInfoRecordShowsSmKeyToTrustedOnly) {
  const Answer plain = ask(rig.snap, state, request(IB_MAD_METHOD_GET, IB_SA_ATTR_SMINFORECORD, 0));
  ASSERT_EQ(plain.status(), 0);
  EXPECT_EQ(get_be(plain.record(0), 0, 2), 1u);
  EXPECT_EQ(get_be(plain.record(0), 4, 8), kS0);
  EXPECT_EQ(get_be(plain.record(0), 12, 8), 0u);
  EXPECT_EQ(plain.record(0)[24], 5 << 4 | 3) << "Priority 5, SMState MASTER";
  const Answer trusted = ask(rig.snap, state, request(IB_MAD_METHOD_GET, IB_SA_ATTR_SMINFORECORD, 0, kTrustedKey));
  ASSERT_EQ(trusted.status(), 0);
  EXPECT_EQ(get_be(trusted.record(0), 12, 8), kTrustedKey);
}

TEST_F(SaDispatch, LinkRecords) {
  // LinkRecord (8 bytes): FromLID 0, FromPort 2, ToPort 3, ToLID 4.
  const Answer all = ask(rig.snap, state, request(IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_LINKRECORD, 0));
  ASSERT_EQ(all.status(), 0);
  EXPECT_EQ(all.attr_offset(), 1u);
  EXPECT_EQ(all.count(), 10u) << "5 cables, one record per direction";
  Mad from_s0 = request(IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_LINKRECORD, 1);
  put16(rec_of(from_s0), 0, 1);
  const Answer a = ask(rig.snap, state, from_s0);
  std::set<std::array<std::uint64_t, 4>> links;
  for (std::size_t i = 0; i < a.count(); ++i) {
    const auto r = a.record(i);
    links.insert({get_be(r, 0, 2), r[2], r[3], get_be(r, 4, 2)});
  }
  EXPECT_EQ(links, (std::set<std::array<std::uint64_t, 4>>{{1, 1, 1, 2}, {1, 2, 1, 3}, {1, 3, 1, 4}}));
  Mad to_c = request(IB_MAD_METHOD_GET, IB_SA_ATTR_LINKRECORD, 1u << 3);
  put16(rec_of(to_c), 4, 5);
  const Answer c = ask(rig.snap, state, to_c);
  ASSERT_EQ(c.status(), 0);
  EXPECT_EQ(get_be(c.record(0), 0, 2), 2u);
  EXPECT_EQ(c.record(0)[2], 2);
  EXPECT_EQ(c.record(0)[3], 1);
}

TEST_F(SaDispatch, GuidInfoRecordHoldsThePortGuid) {
  Mad m = request(IB_MAD_METHOD_GET, IB_SA_ATTR_GUIDINFORECORD, 1);
  put16(rec_of(m), 0, 4);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_GIR_LID_F), 4u);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_GIR_BLOCKNUM_F), 0u);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_GIR_GUID0_F, true), kB + 1);
  EXPECT_EQ(ib_get(a.record(0), IB_SA_GIR_GUID1_F, true), 0u);
}

}  // namespace
}  // namespace smd::sa::sa_dispatch_test
