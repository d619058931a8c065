// McastDb rules (IBA 15.2.5.17, OpenSM's join/create/leave, SA-NOTES §1.4) on a hand-made set of ports:
// every error status, MGID 0 generation, MLID allocation and reuse, partial leaves (OpenSM PR #43), a
// 10,000-step join/leave churn checked against a plain model, the groups file, and the policy's groups.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "mad/sa/mcmember_record.h"
#include "smd/sa/mcast_db.h"
#include "smd/sa/state_file_origin.h"

namespace smd::sa::sa_mcast_db_test {
namespace {

using namespace mad::sa;
using enum mad::sa::McMemberRecordField;

constexpr std::uint64_t kPrefix = 0xFE80000000000000ull;
constexpr std::uint64_t kJoin = mask_bit(kMgid) | mask_bit(kPortGid) | mask_bit(kJoinState);
constexpr std::uint64_t kCreate =
    kJoin | mask_bit(kQKey) | mask_bit(kTClass) | mask_bit(kPKey) | mask_bit(kFlowLabel) | mask_bit(kSl);

// Ports 1..N with GUID 0x100 + i; port 0x101 is a full member of 0x7fff and 0x8001, 0x102 a limited
// member of 0x7fff, 0x103 only in 0x8002; the rest full in 0x7fff. MTU 4 (2048), rate 3 (10 Gb/s).
struct Ports {
  std::map<Guid, McastPort> ports;
  explicit Ports(unsigned n = 8) {
    for (unsigned i = 1; i <= n; ++i) ports[0x100 + i] = McastPort{4, 3, {0xFFFF}};
    ports[0x101].pkeys = {0xFFFF, 0x8001};
    ports[0x102].pkeys = {0x7FFF};
    ports[0x103].pkeys = {0x8002};
  }
  McastContext ctx(Lid top = 0xC3FF) const {
    McastContext c;
    c.subnet_prefix = kPrefix;
    c.mlid_top = top;
    c.packet_life = 0x12;
    c.port = [this](Guid g) -> std::optional<McastPort> {
      const auto it = ports.find(g);
      if (it == ports.end()) return std::nullopt;
      return it->second;
    };
    return c;
  }
};

Gid mgid(std::uint8_t last, std::uint16_t sig = 0x601B) {
  Gid g{0xff, 0x12, static_cast<std::uint8_t>(sig >> 8), static_cast<std::uint8_t>(sig), 0xff, 0xff};
  g[15] = last;
  return g;
}

SaQuery query(std::uint8_t method, std::uint64_t mask, const McMemberRecord& r, bool trusted = false) {
  SaQuery q;
  q.header.method = method;
  q.header.comp_mask = mask;
  q.trusted = trusted;
  r.encode(q.record);
  return q;
}

McMemberRecord req(const Gid& m, Guid port, std::uint8_t js, std::uint16_t pkey = 0xFFFF) {
  McMemberRecord r;
  r.mgid = m;
  r.port_gid = make_gid(kPrefix, port);
  r.join_state = js;
  r.q_key = 0x1234;
  r.pkey = pkey;
  r.sl = 1;
  r.tclass = 0;
  r.flow_label = 0;
  return r;
}

McastResult join(McastDb& db, const Ports& p, const McMemberRecord& r, std::uint64_t mask = kCreate,
                 Guid requester = 0) {
  return db.join(query(0x02, mask, r), requester ? requester : gid_guid(r.port_gid), p.ctx());
}
McastResult leave(McastDb& db, const Ports& p, const Gid& m, Guid port, std::uint8_t js, Guid requester = 0) {
  return db.leave(query(0x15, kJoin, req(m, port, js)), requester ? requester : port, p.ctx());
}
McMemberRecord answered(const McastResult& r) { return McMemberRecord::decode(r.answer.records); }

TEST(McastDb, CreateAndJoin) {
  McastDb db;
  Ports p;
  const McastResult r = join(db, p, req(mgid(1), 0x104, join_state::kFull));
  ASSERT_EQ(r.answer.status, status::kOk) << r.why;
  const McMemberRecord a = answered(r);
  EXPECT_EQ(a.mlid, 0xC000);
  EXPECT_EQ(a.mtu, 4);  // the joiner's
  EXPECT_EQ(a.rate, 3);
  EXPECT_EQ(a.mtu_selector, selector::kExactly);
  EXPECT_EQ(a.q_key, 0x1234u);
  EXPECT_EQ(a.scope, 2);
  EXPECT_EQ(a.packet_life, 0x12);
  EXPECT_EQ(a.join_state, 1);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_TRUE(r.events[0].created);
  EXPECT_TRUE(r.changed);
  // IPoIB-style join with only MGID|PortGID|PKey|JoinState; repeated joins OR the bits.
  McastResult j = join(db, p, req(mgid(1), 0x105, join_state::kNon), kJoin | mask_bit(kPKey));
  ASSERT_EQ(j.answer.status, status::kOk) << j.why;
  EXPECT_TRUE(j.events.empty());
  j = join(db, p, req(mgid(1), 0x105, join_state::kSendOnlyNon), kJoin);
  EXPECT_EQ(answered(j).join_state, 0x6);
  j = join(db, p, req(mgid(1), 0x105, join_state::kNon), kJoin);
  EXPECT_FALSE(j.changed);
  EXPECT_EQ(db.groups().at(mgid(1)).members.size(), 2u);
  EXPECT_EQ(db.groups().at(mgid(1)).bit_count, (std::array<std::uint32_t, 4>{1, 1, 1, 0}));
}

TEST(McastDb, JoinErrors) {
  McastDb db;
  Ports p;
  ASSERT_EQ(join(db, p, req(mgid(1), 0x101, join_state::kFull)).answer.status, status::kOk);
  struct Case {
    const char* name;
    McMemberRecord r;
    std::uint64_t mask;
    Guid requester;
    std::uint16_t status;
  };
  McMemberRecord wrong_qkey = req(mgid(1), 0x104, 1);
  wrong_qkey.q_key = 99;
  McMemberRecord mtu_gt = req(mgid(1), 0x104, 1);
  mtu_gt.mtu = 4;
  mtu_gt.mtu_selector = selector::kGreaterThan;  // group MTU 4 is not > 4
  McMemberRecord mtu_lt = mtu_gt;
  mtu_lt.mtu = 5;
  mtu_lt.mtu_selector = selector::kLessThan;  // 4 < 5: fine
  McMemberRecord other_prefix = req(mgid(1), 0x104, 1);
  other_prefix.port_gid = make_gid(0x1234000000000000ull, 0x104);
  const std::vector<Case> cases = {
      {"no JoinState in mask", req(mgid(1), 0x104, 1), mask_bit(kMgid) | mask_bit(kPortGid), 0,
       status::kInsufficientComponents},
      {"no MGID in mask", req(mgid(1), 0x104, 1), mask_bit(kPortGid) | mask_bit(kJoinState), 0,
       status::kInsufficientComponents},
      {"unknown port", req(mgid(1), 0x999, 1), kJoin, 0, status::kReqInvalid},
      {"other subnet", other_prefix, kJoin, 0, status::kReqInvalid},
      {"JoinState 0", req(mgid(1), 0x104, 0), kJoin, 0, status::kReqInvalid},
      {"port lacks the group's P_Key", req(mgid(1), 0x103, 1), kJoin, 0, status::kReqInvalid},
      {"Q_Key mismatch", wrong_qkey, kJoin | mask_bit(kQKey), 0, status::kReqInvalid},
      {"MTU selector >", mtu_gt, kJoin | mask_bit(kMtu) | mask_bit(kMtuSelector), 0, status::kReqInvalid},
      {"MTU selector <", mtu_lt, kJoin | mask_bit(kMtu) | mask_bit(kMtuSelector), 0, status::kOk},
      {"proxy, no shared P_Key", req(mgid(1), 0x104, 1), kJoin, 0x103, status::kReqInvalid},
      {"proxy, unknown requester", req(mgid(1), 0x104, 1), kJoin, 0x998, status::kReqInvalid},
      {"proxy for a port that joined itself", req(mgid(1), 0x104, 2), kJoin, 0x102, status::kReqInvalid},
      {"proxy, shared P_Key", req(mgid(1), 0x105, 1), kJoin, 0x102, status::kOk},
      {"create without Q_Key", req(mgid(2), 0x104, 1), kCreate & ~mask_bit(kQKey), 0, status::kInsufficientComponents},
      {"create without SL", req(mgid(2), 0x104, 1), kCreate & ~mask_bit(kSl), 0, status::kInsufficientComponents},
      {"create as NonMember (no such group)", req(mgid(2), 0x104, 2), kCreate, 0, status::kReqInvalid},
      {"create, P_Key not held", req(mgid(2), 0x104, 1, 0x8001), kCreate, 0, status::kReqInvalid},
      {"create, MGID not 0xff", req(Gid{0xfe, 0x12}, 0x104, 1), kCreate, 0, status::kReqInvalid},
      {"create, MGID flag bits", req(Gid{0xff, 0x32, 0x12, 0x34}, 0x104, 1), kCreate, 0, status::kReqInvalid},
      {"create, a01b link-local", req(Gid{0xff, 0x12, 0xa0, 0x1b}, 0x104, 1), kCreate, 0, status::kReqInvalid},
      {"create, IPoIB MGID of partition 0x8001 with P_Key 0xffff",
       req(Gid{0xff, 0x12, 0x40, 0x1b, 0x80, 0x01}, 0x104, 1), kCreate, 0, status::kReqInvalid},
  };
  for (const Case& c : cases) {
    const McastResult r = join(db, p, c.r, c.mask, c.requester);
    EXPECT_EQ(r.answer.status, c.status) << c.name << ": " << r.why;
    if (c.status != status::kOk) {
      EXPECT_FALSE(r.why.empty()) << c.name;
    }
  }
  EXPECT_EQ(db.groups().size(), 1u);  // no failed create left anything behind
}

// An IPoIB MGID (RFC 4391) names its partition: only a record with that P_Key, from a port that holds it,
// creates the group; the membership bit does not count.
TEST(McastDb, IpoibMgidCreatedOnlyWithItsOwnPKey) {
  McastDb db;
  Ports p;
  const Gid broadcast{0xff, 0x12, 0x40, 0x1b, 0x80, 0x01, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(join(db, p, req(broadcast, 0x104, join_state::kFull, 0xFFFF)).answer.status, status::kReqInvalid)
      << "a port outside 0x8001 squatting its broadcast group";
  EXPECT_EQ(join(db, p, req(broadcast, 0x101, join_state::kFull, 0xFFFF)).answer.status, status::kReqInvalid)
      << "a member of 0x8001, but the record says 0xffff";
  const McastResult r = join(db, p, req(broadcast, 0x101, join_state::kFull, 0x0001));
  ASSERT_EQ(r.answer.status, status::kOk) << r.why;
  EXPECT_EQ(db.groups().at(broadcast).pkey, 0x8001);
}

TEST(McastDb, CreateMtuAndRateSelectors) {
  McastDb db;
  Ports p;
  McMemberRecord r = req(mgid(3), 0x104, 1);
  r.mtu = 2;
  r.mtu_selector = selector::kGreaterThan;
  r.rate = 2;  // 2.5 Gb/s
  r.rate_selector = selector::kGreaterThan;
  McastResult c =
      join(db, p, r, kCreate | mask_bit(kMtu) | mask_bit(kMtuSelector) | mask_bit(kRate) | mask_bit(kRateSelector));
  ASSERT_EQ(c.answer.status, status::kOk) << c.why;
  EXPECT_EQ(answered(c).mtu, 4);   // the port's 2048 is above 512: the port's
  EXPECT_EQ(answered(c).rate, 3);  // the port's 10 Gb/s is above 2.5: the port's
  r.mgid = mgid(4);
  r.mtu = 4;
  r.mtu_selector = selector::kGreaterThan;  // 4096 is beyond the port's 2048
  EXPECT_EQ(join(db, p, r, kCreate | mask_bit(kMtu) | mask_bit(kMtuSelector)).answer.status, status::kReqInvalid);
  r.mtu = 4;
  r.mtu_selector = selector::kLessThan;
  c = join(db, p, r, kCreate | mask_bit(kMtu) | mask_bit(kMtuSelector));
  EXPECT_EQ(answered(c).mtu, 3);
}

// The scope nibble is not policed, as OpenSM: osmtest -f m creates ff1f:a01c:... (o15.0.1.6); the
// reserved scope 0 is accepted the same way.
TEST(McastDb, ReservedScopesAreCreatedAsOpenSmDoes) {
  McastDb db;
  Ports p;
  for (const Gid& m : {Gid{0xff, 0x1f, 0xa0, 0x1c, 0xfe, 0x80}, Gid{0xff, 0x10, 0x12, 0x34}}) {
    const McastResult r = join(db, p, req(m, 0x104, join_state::kFull));
    ASSERT_EQ(r.answer.status, status::kOk) << r.why;
    EXPECT_EQ(answered(r).scope, m[1] & 0xF);
  }
  EXPECT_EQ(db.groups().size(), 2u);
}

// osmtest -f m's creates with MGID 0 (osmt_multicast.c, "o15.0.1.4"), on a 4x SDR port (10 Gb/s, code 3)
// with MTUCap 2048 (code 4). The expected codes are the IBA's (table 222), written here by hand, not
// taken from rate.h: 2 = 2.5 Gb/s, 3 = 10, 5 = 5, 8 = 60; MTU 1 = 256 .. 5 = 4096.
TEST(McastDb, CreateWithMgidZeroPicksWhatThePortCarriesAndTheSelectorAllows) {
  McastDb db;
  Ports p;
  const Gid zero{};
  struct Case {
    const char* what;
    std::uint64_t mask;
    std::uint8_t mtu_sel, mtu, rate_sel, rate;
    std::uint16_t status;
    std::uint8_t want_mtu, want_rate;
  };
  const Case cases[] = {
      {"no MTU, no rate: the port's", 0, 0, 0, 0, 0, status::kOk, 4, 3},
      {"rate < 60 Gb/s: the port's 10 Gb/s", mask_bit(kRate) | mask_bit(kRateSelector), 0, 0, selector::kLessThan, 8,
       status::kOk, 4, 3},
      {"rate < 10 Gb/s: the next slower, 5 Gb/s (code 5)", mask_bit(kRate) | mask_bit(kRateSelector), 0, 0,
       selector::kLessThan, 3, status::kOk, 4, 5},
      {"rate < 2.5 Gb/s: nothing", mask_bit(kRate) | mask_bit(kRateSelector), 0, 0, selector::kLessThan, 2,
       status::kReqInvalid, 0, 0},
      {"rate > 2.5 Gb/s: the port's", mask_bit(kRate) | mask_bit(kRateSelector), 0, 0, selector::kGreaterThan, 2,
       status::kOk, 4, 3},
      {"rate > 10 Gb/s: beyond the port", mask_bit(kRate) | mask_bit(kRateSelector), 0, 0, selector::kGreaterThan, 3,
       status::kReqInvalid, 0, 0},
      {"rate exactly 2.5 Gb/s", mask_bit(kRate) | mask_bit(kRateSelector), 0, 0, selector::kExactly, 2, status::kOk, 4,
       2},
      {"rate exactly 60 Gb/s: beyond the port", mask_bit(kRate), 0, 0, 0, 8, status::kReqInvalid, 0, 0},
      {"MTU < 4096: the port's 2048", mask_bit(kMtu) | mask_bit(kMtuSelector), selector::kLessThan, 5, 0, 0,
       status::kOk, 4, 3},
      {"MTU < 2048: 1024", mask_bit(kMtu) | mask_bit(kMtuSelector), selector::kLessThan, 4, 0, 0, status::kOk, 3, 3},
      {"MTU > 256: the port's 2048", mask_bit(kMtu) | mask_bit(kMtuSelector), selector::kGreaterThan, 1, 0, 0,
       status::kOk, 4, 3},
      {"MTU exactly 4096: beyond the port", mask_bit(kMtu) | mask_bit(kMtuSelector), selector::kExactly, 5, 0, 0,
       status::kReqInvalid, 0, 0},
      {"MTU < 256: nothing", mask_bit(kMtu) | mask_bit(kMtuSelector), selector::kLessThan, 1, 0, 0, status::kReqInvalid,
       0, 0},
  };
  std::set<Lid> mlids;
  for (const Case& c : cases) {
    McMemberRecord r = req(zero, 0x104, join_state::kFull);
    r.mtu_selector = c.mtu_sel;
    r.mtu = c.mtu;
    r.rate_selector = c.rate_sel;
    r.rate = c.rate;
    const McastResult res = join(db, p, r, kCreate | c.mask);
    ASSERT_EQ(res.answer.status, c.status) << c.what << ": " << res.why;
    if (c.status != status::kOk) continue;
    const McMemberRecord a = answered(res);
    EXPECT_EQ(a.mtu, c.want_mtu) << c.what;
    EXPECT_EQ(a.rate, c.want_rate) << c.what;
    EXPECT_EQ(a.rate_selector, selector::kExactly) << c.what;
    EXPECT_EQ(a.mgid[0], 0xff) << c.what << ": the SA picked an MGID";
    EXPECT_TRUE(mlids.insert(a.mlid).second) << c.what << ": a new group each time";
  }
}

// On a subnet whose prefix is not fe80::, a port joins with its own GUID under the default prefix (OpenSM
// 0a8d9392); fe80:: with the GUID of a port that shares no P_Key with the requester is still a refused proxy
// join, exactly as with the subnet prefix.
TEST(McastDb, DefaultPrefixNamesTheRequestersOwnPortOnly) {
  constexpr std::uint64_t kSite = 0xFEC0000000000001ull;
  McastDb db;
  Ports p;
  McastContext ctx = p.ctx();
  ctx.subnet_prefix = kSite;
  const auto send = [&](std::uint64_t prefix, Guid port, Guid requester, std::uint8_t js) {
    McMemberRecord r = req(mgid(9), port, js);
    r.port_gid = make_gid(prefix, port);
    return db.join(query(0x02, kCreate, r), requester, ctx);
  };
  const McastResult own = send(kPrefix, 0x104, 0x104, join_state::kFull);
  ASSERT_EQ(own.answer.status, status::kOk) << own.why;
  EXPECT_EQ(gid_prefix(answered(own).port_gid), kSite) << "answered under the subnet prefix";
  // 0x103 holds only 0x8002, 0x105 only 0x7fff: they share none.
  const McastResult spoof = send(kPrefix, 0x105, 0x103, join_state::kFull);
  EXPECT_EQ(spoof.answer.status, status::kReqInvalid) << "fe80:: + another port's GUID";
  EXPECT_EQ(send(kSite, 0x105, 0x103, join_state::kFull).answer.status, status::kReqInvalid) << "same with the subnet's";
  EXPECT_EQ(send(0xFEC0000000000002ull, 0x104, 0x104, join_state::kFull).answer.status, status::kReqInvalid)
      << "a third prefix";
  EXPECT_EQ(db.groups().at(mgid(9)).members.size(), 1u) << "only 0x104 joined";
  EXPECT_EQ(db.leave(query(0x15, kJoin, [&] {
                       McMemberRecord r = req(mgid(9), 0x104, join_state::kFull);
                       r.port_gid = make_gid(kPrefix, 0x104);
                       return r;
                     }()),
                     0x103, ctx)
                .answer.status,
            status::kReqInvalid)
      << "0x103 may not take 0x104 out through fe80:: either";
  EXPECT_EQ(db.groups().at(mgid(9)).members.size(), 1u);
}

// Joining a group whose MTU or rate the port cannot carry is refused (OpenSM: validate_port_caps); a
// port that can, joins.
TEST(McastDb, JoinNeedsAPortThatCarriesTheGroupsMtuAndRate) {
  McastDb db;
  Ports p;
  p.ports[0x106].mtu = 2;                                                                     // 512
  p.ports[0x107].rate = 2;                                                                    // 2.5 Gb/s
  ASSERT_EQ(join(db, p, req(mgid(5), 0x104, join_state::kFull)).answer.status, status::kOk);  // MTU 4, rate 3
  const McastResult small_mtu = join(db, p, req(mgid(5), 0x106, join_state::kFull), kJoin);
  EXPECT_EQ(small_mtu.answer.status, status::kReqInvalid);
  EXPECT_NE(small_mtu.why.find("MTU"), std::string::npos) << small_mtu.why;
  const McastResult slow = join(db, p, req(mgid(5), 0x107, join_state::kNon), kJoin);
  EXPECT_EQ(slow.answer.status, status::kReqInvalid);
  EXPECT_NE(slow.why.find("rate"), std::string::npos) << slow.why;
  EXPECT_EQ(join(db, p, req(mgid(5), 0x105, join_state::kFull), kJoin).answer.status, status::kOk);
  EXPECT_EQ(db.groups().at(mgid(5)).members.size(), 2u);
}

// One untrusted port cannot take every MLID: with 1024 MLIDs it creates at most 128 groups; others still
// can, and so can a trusted requester (SM_Key) for that port.
TEST(McastDb, OnePortCreatesAtMostAnEighthOfTheMlids) {
  McastDb db;
  Ports p;
  for (unsigned i = 0; i < 128; ++i) {
    McMemberRecord r = req(mgid(0), 0x104, join_state::kFull);
    r.mgid[14] = static_cast<std::uint8_t>(i >> 8);
    r.mgid[15] = static_cast<std::uint8_t>(i);
    ASSERT_EQ(join(db, p, r).answer.status, status::kOk) << i;
  }
  McMemberRecord one_more = req(mgid(0), 0x104, join_state::kFull);
  one_more.mgid[14] = 0x7f;
  const McastResult refused = join(db, p, one_more);
  EXPECT_EQ(refused.answer.status, status::kNoResources);
  EXPECT_NE(refused.why.find("at most 128 per port"), std::string::npos) << refused.why;
  EXPECT_EQ(join(db, p, req(one_more.mgid, 0x105, join_state::kFull)).answer.status, status::kOk) << "another port";
  one_more.mgid[14] = 0x7e;
  EXPECT_EQ(db.join(query(0x02, kCreate, one_more, /*trusted=*/true), 0x104, p.ctx()).answer.status, status::kOk);
  EXPECT_EQ(db.groups().size(), 130u);
}

TEST(McastDb, GeneratedMgid) {
  McastDb db;
  Ports p;
  McMemberRecord r = req(Gid{}, 0x104, 1);
  r.scope = 5;
  const McastResult a = join(db, p, r, kCreate | mask_bit(kScope));
  ASSERT_EQ(a.answer.status, status::kOk) << a.why;
  const Gid want1{0xff, 0x15, 0xa0, 0x1b, 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(answered(a).mgid, want1);
  EXPECT_EQ(answered(a).scope, 5);
  const McastResult b = join(db, p, req(Gid{}, 0x104, 1), kCreate);  // no Scope: link-local
  const Gid want2{0xff, 0x12, 0xa0, 0x1b, 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
  EXPECT_EQ(answered(b).mgid, want2);
  EXPECT_EQ(answered(b).mlid, 0xC001);
}

TEST(McastDb, MlidRangeAndReuse) {
  McastDb db;
  Ports p;
  McastContext small = p.ctx(0xC001);
  auto create = [&](std::uint8_t n) { return db.join(query(0x02, kCreate, req(mgid(n), 0x104, 1)), 0x104, small); };
  EXPECT_EQ(answered(create(1)).mlid, 0xC000);
  EXPECT_EQ(answered(create(2)).mlid, 0xC001);
  const McastResult full = create(3);
  EXPECT_EQ(full.answer.status, status::kNoResources);
  ASSERT_EQ(leave(db, p, mgid(1), 0x104, 1).answer.status, status::kOk);
  EXPECT_EQ(answered(create(3)).mlid, 0xC000);  // the lowest free one again
  // A requested MLID that is free and in range is taken.
  McMemberRecord r = req(mgid(9), 0x104, 1);
  r.mlid = 0xC100;
  EXPECT_EQ(answered(join(db, p, r, kCreate | mask_bit(kMlid))).mlid, 0xC100);
}

TEST(McastDb, PartialLeaveKeepsTheGroupThenFreesIt) {
  McastDb db;
  Ports p;
  ASSERT_EQ(join(db, p, req(mgid(1), 0x104, 0x9)).answer.status, status::kOk);
  McastResult l = leave(db, p, mgid(1), 0x104, 0x1);
  ASSERT_EQ(l.answer.status, status::kOk) << l.why;
  EXPECT_EQ(answered(l).join_state, 0x8);
  EXPECT_TRUE(l.events.empty());
  ASSERT_EQ(db.groups().count(mgid(1)), 1u);  // still a send-only full member
  EXPECT_EQ(db.groups().at(mgid(1)).bit_count, (std::array<std::uint32_t, 4>{0, 0, 0, 1}));
  l = leave(db, p, mgid(1), 0x104, 0x8);
  ASSERT_EQ(l.answer.status, status::kOk);
  ASSERT_EQ(l.events.size(), 1u);
  EXPECT_FALSE(l.events[0].created);
  EXPECT_TRUE(db.groups().empty());
  // The last full member leaving ends the group although a NonMember stays (IBA 15.2.5.17).
  ASSERT_EQ(join(db, p, req(mgid(2), 0x104, 1)).answer.status, status::kOk);
  ASSERT_EQ(join(db, p, req(mgid(2), 0x105, 2), kJoin).answer.status, status::kOk);
  EXPECT_EQ(leave(db, p, mgid(2), 0x104, 1).events.size(), 1u);
  EXPECT_TRUE(db.groups().empty());
  EXPECT_EQ(answered(join(db, p, req(mgid(3), 0x104, 1))).mlid, 0xC000);
}

TEST(McastDb, PortsGoneFromTheSubnetLeave) {
  McastDb db;
  Ports p;
  db.apply_policy(default_partitions(), p.ctx());
  const Gid bcast = ipoib_broadcast_mgid(kDefaultPKeyBase, 2);
  ASSERT_EQ(join(db, p, req(bcast, 0x104, 1), kJoin).answer.status, status::kOk);
  ASSERT_EQ(join(db, p, req(mgid(1), 0x104, 1)).answer.status, status::kOk);
  ASSERT_EQ(join(db, p, req(mgid(1), 0x105, 2), kJoin).answer.status, status::kOk);
  ASSERT_EQ(join(db, p, req(mgid(2), 0x105, 1)).answer.status, status::kOk);
  bool changed = false;
  const std::vector<McastEvent> ev = db.drop_absent([](Guid g) { return g != 0x104; }, &changed);
  EXPECT_TRUE(changed);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].mgid, mgid(1)) << "its only full member left; the NonMember goes with it";
  EXPECT_EQ(db.groups().count(mgid(1)), 0u);
  EXPECT_TRUE(db.groups().at(bcast).members.empty()) << "well known: stays without members";
  EXPECT_EQ(db.groups().at(mgid(2)).members.size(), 1u);
  EXPECT_TRUE(db.drop_absent([](Guid) { return true; }, &changed).empty());
  EXPECT_FALSE(changed);
}

TEST(McastDb, LeaveErrors) {
  McastDb db;
  Ports p;
  ASSERT_EQ(join(db, p, req(mgid(1), 0x104, 0x1)).answer.status, status::kOk);
  EXPECT_EQ(leave(db, p, mgid(7), 0x104, 1).answer.status, status::kReqInvalid);         // no such group
  EXPECT_EQ(leave(db, p, mgid(1), 0x105, 1).answer.status, status::kReqInvalid);         // not a member
  EXPECT_EQ(leave(db, p, mgid(1), 0x104, 2).answer.status, status::kReqInvalid);         // bit not held
  EXPECT_EQ(leave(db, p, mgid(1), 0x104, 3).answer.status, status::kReqInvalid);         // one of two not held
  EXPECT_EQ(leave(db, p, mgid(1), 0x104, 1, 0x103).answer.status, status::kReqInvalid);  // proxy, no P_Key
  const McastResult insuf =
      db.leave(query(0x15, mask_bit(kMgid) | mask_bit(kPortGid), req(mgid(1), 0x104, 1)), 0x104, p.ctx());
  EXPECT_EQ(insuf.answer.status, status::kInsufficientComponents);
  // 0x104 joined for itself: another port of its partition may not end that (OpenSM: ERR 1B25).
  EXPECT_EQ(leave(db, p, mgid(1), 0x104, 1, 0x105).answer.status, status::kReqInvalid);
  EXPECT_EQ(db.groups().at(mgid(1)).members.at(0x104), 1);
  // A PortGID under a foreign prefix names no port of this subnet, for a leave as for a join.
  McMemberRecord foreign = req(mgid(1), 0x104, 1);
  foreign.port_gid = make_gid(0xdeadbeef00000000ull, 0x104);
  EXPECT_EQ(db.leave(query(0x15, kJoin, foreign), 0x104, p.ctx()).answer.status, status::kReqInvalid);
  EXPECT_EQ(leave(db, p, mgid(1), 0x104, 1).answer.status, status::kOk);  // the port itself
}

TEST(McastDb, OnlyAProxyMembershipMayBeEndedOrChangedByAnotherPort) {
  McastDb db;
  Ports p;
  // 0x105 joins 0x104 by proxy (they share the default partition): a proxy membership.
  ASSERT_EQ(join(db, p, req(mgid(1), 0x104, 0x1), kCreate, 0x105).answer.status, status::kOk);
  EXPECT_EQ(join(db, p, req(mgid(1), 0x104, 0x2), kJoin, 0x105).answer.status, status::kOk) << "proxy adds a bit";
  EXPECT_EQ(leave(db, p, mgid(1), 0x104, 0x2, 0x105).answer.status, status::kOk) << "proxy leave";
  // Once 0x104 joins for itself the membership is its own.
  ASSERT_EQ(join(db, p, req(mgid(1), 0x104, 0x1), kJoin).answer.status, status::kOk);
  EXPECT_EQ(join(db, p, req(mgid(1), 0x104, 0x2), kJoin, 0x105).answer.status, status::kReqInvalid);
  EXPECT_EQ(leave(db, p, mgid(1), 0x104, 0x1, 0x105).answer.status, status::kReqInvalid);
  // A trusted requester (the SA's SM_Key) may still end it, as an administrator.
  SaQuery trusted = query(0x15, kJoin, req(mgid(1), 0x104, 0x1));
  trusted.trusted = true;
  EXPECT_EQ(db.leave(trusted, 0x105, p.ctx()).answer.status, status::kOk);
  // The flag is kept in the state file, and a file without it (older) reads as proxy memberships.
  ASSERT_EQ(join(db, p, req(mgid(2), 0x104, 0x1)).answer.status, status::kOk);
  McastDb back;
  ASSERT_TRUE(back.load_json(db.to_json()).ok());
  EXPECT_TRUE(back.groups().at(mgid(2)).self_joined.contains(0x104));
}

TEST(McastDb, FindMatchesAndHidesOthersJoinState) {
  McastDb db;
  Ports p;
  ASSERT_EQ(join(db, p, req(mgid(1), 0x104, 0x1)).answer.status, status::kOk);
  ASSERT_EQ(join(db, p, req(mgid(1), 0x105, 0x2), kJoin).answer.status, status::kOk);
  ASSERT_EQ(join(db, p, req(mgid(2), 0x105, 0x1)).answer.status, status::kOk);
  auto table = [&](std::uint64_t mask, const McMemberRecord& t, Guid requester, bool trusted,
                   std::vector<std::uint16_t> pkeys = {0xFFFF}) {
    SaQuery q = query(0x12, mask, t, trusted);
    const SaAnswer a = db.find(q, requester, pkeys, kPrefix, 1000);
    std::vector<McMemberRecord> out;
    for (std::size_t i = 0; i < a.count; ++i)
      out.push_back(McMemberRecord::decode(std::span(a.records).subspan(i * a.record_size)));
    return out;
  };
  std::vector<McMemberRecord> all = table(0, McMemberRecord{}, 0x104, true);
  ASSERT_EQ(all.size(), 3u);
  // Untrusted: one record per group, its own membership in group 1, the bare group 2 (PortGID 0).
  std::vector<McMemberRecord> mine = table(0, McMemberRecord{}, 0x104, false);
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(gid_guid(mine[0].port_gid), 0x104u);
  EXPECT_EQ(mine[0].join_state, 1);
  EXPECT_EQ(mine[1].port_gid, Gid{});
  EXPECT_EQ(mine[1].join_state, 0);
  EXPECT_TRUE(table(0, McMemberRecord{}, 0x104, false, {0x8001}).empty()) << "groups of another partition";
  EXPECT_EQ(table(0, McMemberRecord{}, 0x104, false, {0x7FFF}).size(), 2u) << "a limited member sees its groups";
  McMemberRecord t;
  t.join_state = 0x2;
  std::vector<McMemberRecord> non = table(mask_bit(kJoinState), t, 0x104, true);
  ASSERT_EQ(non.size(), 1u);
  EXPECT_EQ(gid_guid(non[0].port_gid), 0x105u);
  t = McMemberRecord{};
  t.mgid = mgid(2);
  EXPECT_EQ(table(mask_bit(kMgid), t, 0x104, true).size(), 1u);
  t.port_gid = make_gid(kPrefix, 0x105);
  t.scope = 2;
  EXPECT_EQ(table(mask_bit(kPortGid) | mask_bit(kScope), t, 0x104, true).size(), 2u);
  t.scope = 5;
  EXPECT_EQ(table(mask_bit(kPortGid) | mask_bit(kScope), t, 0x104, true).size(), 0u);
}

TEST(McastDb, PolicyGroups) {
  McastDb db;
  Ports p;
  std::vector<McastEvent> ev = db.apply_policy(default_partitions(), p.ctx());
  ASSERT_EQ(db.groups().size(), 1u);
  const Gid bcast{0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  const McastGroup& g = db.groups().at(bcast);
  EXPECT_EQ(g.mlid, 0xC000);
  EXPECT_EQ(g.q_key, 0x0B1Bu);
  EXPECT_EQ(g.mtu, 4);
  EXPECT_EQ(g.rate, 3);
  EXPECT_EQ(g.pkey, 0xFFFF);
  EXPECT_TRUE(g.well_known);
  ASSERT_EQ(ev.size(), 1u);
  bool changed = true;
  EXPECT_TRUE(db.apply_policy(default_partitions(), p.ctx(), &changed).empty());
  EXPECT_FALSE(changed) << "the same policy again changes nothing";
  // A host joins the way IPoIB does and leaves: the group stays with nobody in it.
  McMemberRecord r = req(bcast, 0x104, 1);
  ASSERT_EQ(join(db, p, r, kJoin | mask_bit(kPKey)).answer.status, status::kOk);
  ASSERT_EQ(leave(db, p, bcast, 0x104, 1).answer.status, status::kOk);
  EXPECT_EQ(db.groups().count(bcast), 1u);

  PartitionsSpec spec = default_partitions();
  PartitionSpec part;
  part.name = "storage";
  part.pkey = 0x0001;
  part.ipoib.enabled = true;
  part.ipoib.scopes = {2, 5};
  part.ipoib.mtu = 5;
  McastGroupSpec extra;
  extra.mgid = Gid{0xff, 0x12, 0x60, 0x1b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x42};
  part.groups.push_back(extra);
  spec.partitions.push_back(part);
  ev = db.apply_policy(spec, p.ctx());
  EXPECT_EQ(ev.size(), 3u);
  const Gid b1{0xff, 0x12, 0x40, 0x1b, 0x80, 0x01, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  const Gid b5{0xff, 0x15, 0x40, 0x1b, 0x80, 0x01, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  const Gid e1{0xff, 0x12, 0x60, 0x1b, 0x80, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x42};  // P_Key filled in
  ASSERT_EQ(db.groups().count(b1) + db.groups().count(b5) + db.groups().count(e1), 3u);
  EXPECT_EQ(db.groups().at(b1).mlid, 0xC001);
  EXPECT_EQ(db.groups().at(b1).mtu, 5);
  EXPECT_EQ(db.groups().at(b5).hop_limit, 0xFF);
  EXPECT_EQ(db.groups().at(b1).pkey, 0x8001);
  // A member keeps a group the policy dropped until it leaves (a port that carries the group's 4096 MTU).
  p.ports[0x101].mtu = 5;
  ASSERT_EQ(join(db, p, req(b1, 0x101, 1, 0x8001), kJoin).answer.status, status::kOk);
  ev = db.apply_policy(default_partitions(), p.ctx());
  EXPECT_EQ(ev.size(), 2u);  // b5 and e1
  ASSERT_EQ(db.groups().count(b1), 1u);
  EXPECT_FALSE(db.groups().at(b1).well_known);
  EXPECT_EQ(leave(db, p, b1, 0x101, 1).events.size(), 1u);
  EXPECT_EQ(db.groups().size(), 1u);
}

// A policy that changes a policy group's values while hosts are in it: the members joined with the values
// the group has, so it keeps them, and apply_policy names the group so the SA can say so.
TEST(McastDb, PolicyValuesOfAGroupWithMembersWaitUntilItIsEmpty) {
  McastDb db;
  Ports p;
  db.apply_policy(default_partitions(), p.ctx());
  const Gid bcast{0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  ASSERT_EQ(join(db, p, req(bcast, 0x104, 1), kJoin | mask_bit(kPKey)).answer.status, status::kOk);
  PartitionsSpec spec = default_partitions();
  ASSERT_FALSE(spec.partitions.empty());
  spec.partitions.front().ipoib.mtu = 5;
  std::vector<Gid> kept;
  db.apply_policy(spec, p.ctx(), nullptr, nullptr, &kept);
  EXPECT_EQ(kept, std::vector<Gid>{bcast});
  EXPECT_EQ(db.groups().at(bcast).mtu, 4) << "the member's values stay";
  // The same policy once the group is empty: its values are taken, and nothing is named.
  ASSERT_EQ(leave(db, p, bcast, 0x104, 1).answer.status, status::kOk);
  kept.clear();
  db.apply_policy(spec, p.ctx(), nullptr, nullptr, &kept);
  EXPECT_TRUE(kept.empty());
  EXPECT_EQ(db.groups().at(bcast).mtu, 5);
}

TEST(McastDb, GroupsFileRoundTrip) {
  McastDb db;
  Ports p;
  db.apply_policy(default_partitions(), p.ctx());
  ASSERT_EQ(join(db, p, req(Gid{}, 0x104, 0x9), kCreate).answer.status, status::kOk);
  ASSERT_EQ(join(db, p, req(mgid(1), 0x105, 0x1)).answer.status, status::kOk);
  ASSERT_EQ(join(db, p, req(mgid(1), 0x106, 0x2), kJoin).answer.status, status::kOk);
  McastDb back;
  ASSERT_TRUE(back.load_json(db.to_json()).ok());
  ASSERT_EQ(back.groups().size(), db.groups().size());
  for (const auto& [m, g] : db.groups()) {
    const McastGroup& h = back.groups().at(m);
    EXPECT_EQ(h.mlid, g.mlid);
    EXPECT_EQ(h.q_key, g.q_key);
    EXPECT_EQ(h.mtu, g.mtu);
    EXPECT_EQ(h.rate, g.rate);
    EXPECT_EQ(h.pkey, g.pkey);
    EXPECT_EQ(h.scope, g.scope);
    EXPECT_EQ(h.packet_life, g.packet_life);
    EXPECT_EQ(h.well_known, g.well_known);
    EXPECT_EQ(h.members, g.members);
    EXPECT_EQ(h.bit_count, g.bit_count);
  }
  EXPECT_EQ(back.to_json(), db.to_json());
  // The MLIDs and the MGID counter carry on where they were.
  const McastResult next = join(back, p, req(Gid{}, 0x104, 1), kCreate);
  EXPECT_EQ(answered(next).mgid[15], 2);
  EXPECT_EQ(answered(next).mlid, 0xC003);
  // Bad files change nothing.
  McastDb keep;
  ASSERT_TRUE(keep.load_json(db.to_json()).ok());
  for (const char* bad : {"[]", "{\"version\":2}", "{\"version\":1,\"next_mgid\":1,\"groups\":[{\"mgid\":\"zz\"}]}",
                          "{\"version\":1,\"next_mgid\":1,\"groups\":[{\"mgid\":\"ff12601bffff00000000000000000001\","
                          "\"mlid\":12}]}"}) {
    EXPECT_FALSE(keep.load_json(bad).ok()) << bad;
  }
  // A group of the file whose MTU or rate is no IBA code (mtu 63, rate 63) is refused, the file kept out.
  nlohmann::json edited = nlohmann::json::parse(db.to_json());
  for (const char* key : {"mtu", "rate"}) {
    nlohmann::json bad = edited;
    bad["groups"][0][key] = 63;
    const Status st = keep.load_json(bad.dump());
    EXPECT_FALSE(st.ok()) << key;
    if (!st.ok()) {
      EXPECT_NE(st.error().message.find(key), std::string::npos) << st.error().message;
    }
  }
  EXPECT_EQ(keep.to_json(), db.to_json());
}

// 10,000 joins and leaves with random JoinState bits over 64 ports and 24 groups, checked against a plain
// model (group alive iff a member holds bit 0 or 3, or it is the policy's); at the end every port leaves
// and only the policy's group with its MLID remains.
TEST(McastDb, ChurnLeavesNothingBehind) {
  McastDb db;
  Ports p(64);
  for (auto& [g, port] : p.ports) port.pkeys = {0xFFFF};
  db.apply_policy(default_partitions(), p.ctx());
  const auto before = db.groups();
  std::map<Gid, std::map<Guid, std::uint8_t>> model;
  std::mt19937 rng(1017);
  for (int step = 0; step < 10000; ++step) {
    const Gid m = mgid(static_cast<std::uint8_t>(rng() % 24));
    const Guid port = 0x101 + rng() % 64;
    const std::uint8_t bits = static_cast<std::uint8_t>(1 + rng() % 15);
    if (rng() % 2) {
      const McastResult r = join(db, p, req(m, port, bits));
      const bool exists = model.count(m) != 0;
      if (!exists && !(bits & 0x9)) {
        ASSERT_EQ(r.answer.status, status::kReqInvalid);
        continue;
      }
      ASSERT_EQ(r.answer.status, status::kOk) << step << ": " << r.why;
      model[m][port] |= bits;
    } else {
      const McastResult r = leave(db, p, m, port, bits);
      const bool held = model.count(m) && model[m].count(port) && (model[m][port] & bits) == bits;
      ASSERT_EQ(r.answer.status, held ? status::kOk : status::kReqInvalid) << step;
      if (!held) continue;
      std::uint8_t& js = model[m][port];
      js = static_cast<std::uint8_t>(js & ~bits);
      if (js == 0) model[m].erase(port);
      bool full = false;
      for (const auto& [g, s] : model[m]) full = full || (s & 0x9);
      if (!full) model.erase(m);
    }
    ASSERT_EQ(db.groups().size(), model.size() + 1) << step;
  }
  std::set<Lid> mlids;
  for (const auto& [m, g] : db.groups()) {
    EXPECT_TRUE(mlids.insert(g.mlid).second);
    std::array<std::uint32_t, 4> count{};
    for (const auto& [port, js] : g.members)
      for (unsigned b = 0; b < 4; ++b) count[b] += (js >> b) & 1u;
    EXPECT_EQ(count, g.bit_count);
    if (!g.well_known) {
      EXPECT_EQ(g.members, model[m]);
    }
  }
  for (const auto& [m, members] : std::map(model)) {
    for (const auto& [port, js] : members) (void)leave(db, p, m, port, js);
  }
  ASSERT_EQ(db.groups().size(), before.size());
  for (const auto& [m, g] : before) {
    ASSERT_EQ(db.groups().count(m), 1u);
    EXPECT_EQ(db.groups().at(m).mlid, g.mlid);
    EXPECT_TRUE(db.groups().at(m).members.empty());
  }
  EXPECT_EQ(answered(join(db, p, req(mgid(200), 0x101, 1))).mlid, 0xC001);  // nothing leaked
}

// The groups file is written as text in one pass (mcast_db_text.cpp): it must be the very text nlohmann
// gives for the document it holds (parsed and dumped again, byte for byte), with and without the writer's
// stamp, for no groups, a memberless group, self and proxy members.
TEST(McastDb, GroupsFileTextIsItsDocumentDumped) {
  auto canonical = [](const std::string& text) { return nlohmann::json::parse(text).dump(1) + "\n"; };
  McastDb empty;
  EXPECT_EQ(empty.to_json(), nlohmann::json({{"groups", nlohmann::json::array()}, {"next_mgid", 1}, {"version", 1}})
                                 .dump(1) + "\n");
  McastDb db;
  Ports p;
  db.apply_policy(default_partitions(), p.ctx());  // the broadcast group: well_known, no members
  ASSERT_EQ(join(db, p, req(mgid(1), 0x105, 0x1)).answer.status, status::kOk);           // self
  ASSERT_EQ(join(db, p, req(mgid(1), 0x106, 0x2), kJoin, 0x101).answer.status, status::kOk);  // proxy
  const std::string plain = db.to_json();
  const std::string stamped = db.to_json(0x0002c90300001234ull);
  EXPECT_EQ(plain, canonical(plain));
  EXPECT_EQ(stamped, canonical(stamped));
  nlohmann::json doc = nlohmann::json::parse(stamped);
  EXPECT_EQ(doc["written_by"], "0x0002c90300001234");
  EXPECT_EQ(file_writer(stamped), 0x0002c90300001234ull);
  doc.erase("written_by");
  EXPECT_EQ(doc, nlohmann::json::parse(plain));
  // The values themselves, read from the document: one memberless group, one with a self and a proxy member.
  unsigned memberless = 0, self = 0, proxy = 0;
  for (const nlohmann::json& g : doc["groups"]) {
    const std::string hex = g["mgid"].get<std::string>();
    ASSERT_EQ(hex.size(), 32u);
    Gid key{};
    for (std::size_t i = 0; i < 16; ++i) key[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    const McastGroup& want = db.groups().at(key);
    EXPECT_EQ(g["mlid"], want.mlid);
    EXPECT_EQ(g["well_known"], want.well_known);
    if (g["members"].empty()) ++memberless;
    for (const nlohmann::json& m : g["members"]) (m.value("self", false) ? self : proxy) += 1;
  }
  EXPECT_EQ(memberless, db.groups().size() - 1);
  EXPECT_EQ(self, 1u);
  EXPECT_EQ(proxy, 1u);
}

}  // namespace
}  // namespace smd::sa::sa_mcast_db_test
