// IPv6 solicited-node multicast consolidation (multicast.consolidate_ipv6_snm, OpenSM's
// consolidate_ipv6_snm_req): the MGID pattern, one MLID per (scope, P_Key) family, each MGID still its own
// group in answers and GetTable, per-member leaves, groups whose properties differ, the MLID's release, the
// MLID space on a small MulticastFDBCap, the groups file, and the tree of the shared MLID (hand-computed masks).
#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <span>

#include "mad/sa/mcmember_record.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/mcast/mcast_tree.h"
#include "smd/sa/ipv6_snm.h"
#include "smd/sa/mcast_db.h"

namespace smd::sa::sa_ipv6_snm_test {
namespace {

using namespace mad::sa;
using enum mad::sa::McMemberRecordField;

constexpr std::uint64_t kPrefix = 0xFE80000000000000ull;
constexpr std::uint64_t kJoin = mask_bit(kMgid) | mask_bit(kPortGid) | mask_bit(kJoinState);
constexpr std::uint64_t kCreate =
    kJoin | mask_bit(kQKey) | mask_bit(kTClass) | mask_bit(kPKey) | mask_bit(kFlowLabel) | mask_bit(kSl);

// The MGID as IPv6 text spells it (inet_pton, not the code under test).
Gid gid_text(const char* text) {
  Gid g{};
  EXPECT_EQ(inet_pton(AF_INET6, text, g.data()), 1) << text;
  return g;
}

// Host `h`'s solicited-node MGID in partition `pkey` (RFC 4391: ff12:601b:<pkey>::1:ff<24 bits>).
Gid snm(unsigned h, const char* pkey = "ffff", const char* scope = "ff12") {
  char text[80];
  std::snprintf(text, sizeof text, "%s:601b:%s::1:ff%02x:%04x", scope, pkey, (h >> 16) & 0xff, h & 0xffff);
  return gid_text(text);
}

// Ports 0x100 + i, all full members of 0x7fff and 0x8001, MTU 4, rate 3.
struct Ports {
  std::map<Guid, McastPort> ports;
  explicit Ports(unsigned n) {
    for (unsigned i = 1; i <= n; ++i) ports[0x100 + i] = McastPort{4, 3, {0xFFFF, 0x8001}};
  }
  McastContext ctx(bool consolidate = true, Lid top = 0xC3FF) const {
    McastContext c;
    c.subnet_prefix = kPrefix;
    c.mlid_top = top;
    c.consolidate_ipv6_snm = consolidate;
    c.port = [this](Guid g) -> std::optional<McastPort> {
      const auto it = ports.find(g);
      if (it == ports.end()) return std::nullopt;
      return it->second;
    };
    return c;
  }
};

SaQuery query(std::uint8_t method, std::uint64_t mask, const McMemberRecord& r, bool trusted = false) {
  SaQuery q;
  q.header.method = method;
  q.header.comp_mask = mask;
  q.trusted = trusted;
  r.encode(q.record);
  return q;
}

// What IPoIB sends for a solicited-node group: the broadcast group's Q_Key, SL, TClass, FlowLabel.
McMemberRecord req(const Gid& m, Guid port, std::uint16_t pkey = 0xFFFF, std::uint32_t q_key = 0x0B1B) {
  McMemberRecord r;
  r.mgid = m;
  r.port_gid = make_gid(kPrefix, port);
  r.join_state = join_state::kFull;
  r.q_key = q_key;
  r.pkey = pkey;
  return r;
}

McastResult join(McastDb& db, const McastContext& ctx, const McMemberRecord& r, std::uint64_t mask = kCreate) {
  return db.join(query(0x02, mask, r), gid_guid(r.port_gid), ctx);
}
McastResult leave(McastDb& db, const McastContext& ctx, const Gid& m, Guid port) {
  return db.leave(query(0x15, kJoin, req(m, port)), port, ctx);
}
Lid mlid_of(const McastResult& r) { return McMemberRecord::decode(r.answer.records).mlid; }

// The MLID a new group that is no SNM group gets: the lowest free one (independent of the SNM path).
Lid next_free(McastDb& db, const McastContext& ctx, Guid port) {
  Gid other = gid_text("ff12:a01c::7");
  other[15] = static_cast<std::uint8_t>(port);
  const McastResult r = join(db, ctx, req(other, port));
  EXPECT_EQ(r.answer.status, status::kOk) << r.why;
  const Lid mlid = mlid_of(r);
  EXPECT_EQ(leave(db, ctx, other, port).answer.status, status::kOk);
  return mlid;
}

TEST(Ipv6Snm, MgidPattern) {
  EXPECT_TRUE(is_ipv6_snm_mgid(gid_text("ff12:601b:ffff::1:ff12:3456")));
  EXPECT_TRUE(is_ipv6_snm_mgid(gid_text("ff15:601b:8001::1:ff00:0")));  // site scope
  EXPECT_FALSE(is_ipv6_snm_mgid(gid_text("ff12:401b:ffff::1:ff12:3456")));  // IPv4 signature
  EXPECT_FALSE(is_ipv6_snm_mgid(gid_text("ff12:601b:ffff::1")));            // all-nodes, not solicited-node
  EXPECT_FALSE(is_ipv6_snm_mgid(gid_text("ff12:601b:ffff::2:ff12:3456")));
  EXPECT_FALSE(is_ipv6_snm_mgid(gid_text("ff12:601b:ffff:1::1:ff12:3456")));
  EXPECT_FALSE(is_ipv6_snm_mgid(gid_text("ff32:601b:ffff::1:ff12:3456")));  // prefix-based flag (RFC 3306)
  EXPECT_FALSE(is_ipv6_snm_mgid(gid_text("ff02:601b:ffff::1:ff12:3456")));  // permanent
  EXPECT_TRUE(same_snm_family(snm(1), snm(0xabcdef)));
  EXPECT_FALSE(same_snm_family(snm(1), snm(1, "8001")));
  EXPECT_FALSE(same_snm_family(snm(1), snm(1, "ffff", "ff15")));
}

TEST(Ipv6Snm, OneMlidPerFamilyEachAnswerItsOwnMgid) {
  Ports p(8);
  const McastContext ctx = p.ctx();
  McastDb db;
  for (unsigned h = 1; h <= 6; ++h) {
    const McastResult r = join(db, ctx, req(snm(0x100 + h), 0x100 + h));
    ASSERT_EQ(r.answer.status, status::kOk) << r.why;
    const McMemberRecord a = McMemberRecord::decode(r.answer.records);
    EXPECT_EQ(a.mgid, snm(0x100 + h)) << "the joiner's own MGID";
    EXPECT_EQ(a.mlid, 0xC000) << "host " << h;
    ASSERT_EQ(r.events.size(), 1u) << "each MGID is a group of its own (trap 66)";
  }
  EXPECT_EQ(db.groups().size(), 6u);
  // Another P_Key, another scope: their own families, their own MLIDs.
  EXPECT_EQ(mlid_of(join(db, ctx, req(snm(0x107, "8001"), 0x107, 0x8001))), 0xC001);
  EXPECT_EQ(mlid_of(join(db, ctx, req(snm(0x108, "8001"), 0x108, 0x8001))), 0xC001);
  EXPECT_EQ(mlid_of(join(db, ctx, req(snm(0x108, "ffff", "ff15"), 0x108))), 0xC002);
  EXPECT_EQ(next_free(db, ctx, 0x101), 0xC003);
  // A second port joining an existing SNM group is a plain join of that group.
  const McastResult again = join(db, ctx, req(snm(0x101), 0x102), kJoin | mask_bit(kPKey));
  ASSERT_EQ(again.answer.status, status::kOk) << again.why;
  EXPECT_EQ(mlid_of(again), 0xC000);
}

TEST(Ipv6Snm, OffGivesEveryGroupItsOwnMlid) {
  Ports p(4);
  const McastContext ctx = p.ctx(false);
  McastDb db;
  for (unsigned h = 1; h <= 4; ++h) EXPECT_EQ(mlid_of(join(db, ctx, req(snm(0x100 + h), 0x100 + h))), 0xC000 + h - 1);
}

TEST(Ipv6Snm, GetTableListsEveryMgidWithItsOwnMembers) {
  Ports p(4);
  const McastContext ctx = p.ctx();
  McastDb db;
  for (unsigned h = 1; h <= 4; ++h) ASSERT_EQ(join(db, ctx, req(snm(0x100 + h), 0x100 + h)).answer.status, status::kOk);
  ASSERT_EQ(join(db, ctx, req(snm(0x101), 0x103), kJoin | mask_bit(kPKey)).answer.status, status::kOk);
  McMemberRecord none;
  const SaAnswer all = db.find(query(0x12, 0, none, true), 0, {0xFFFF}, kPrefix, 100);
  ASSERT_EQ(all.count, 5u);
  std::multimap<Gid, Guid> seen;
  for (std::uint32_t i = 0; i < all.count; ++i) {
    const McMemberRecord r = McMemberRecord::decode(
        std::span<const std::uint8_t>(all.records).subspan(i * all.record_size, McMemberRecord::kSize));
    EXPECT_EQ(r.mlid, 0xC000);
    seen.emplace(r.mgid, gid_guid(r.port_gid));
  }
  const std::multimap<Gid, Guid> want = {{snm(0x101), 0x101}, {snm(0x101), 0x103}, {snm(0x102), 0x102},
                                         {snm(0x103), 0x103}, {snm(0x104), 0x104}};
  EXPECT_EQ(seen, want);
  // Get by one MGID: that group's members only.
  McMemberRecord by_mgid;
  by_mgid.mgid = snm(0x102);
  const SaAnswer one = db.find(query(0x12, mask_bit(kMgid), by_mgid, true), 0, {0xFFFF}, kPrefix, 100);
  ASSERT_EQ(one.count, 1u);
  EXPECT_EQ(gid_guid(McMemberRecord::decode(one.records).port_gid), 0x102u);
}

TEST(Ipv6Snm, LeaveKeepsTheOthersAndTheLastReleasesTheMlid) {
  Ports p(4);
  const McastContext ctx = p.ctx();
  McastDb db;
  for (unsigned h = 1; h <= 3; ++h) ASSERT_EQ(join(db, ctx, req(snm(0x100 + h), 0x100 + h)).answer.status, status::kOk);
  // Host 4 holds two IPv6 addresses: two MGIDs of the family.
  ASSERT_EQ(join(db, ctx, req(snm(0x104), 0x104)).answer.status, status::kOk);
  ASSERT_EQ(join(db, ctx, req(snm(0x10104), 0x104)).answer.status, status::kOk);
  auto ports_on = [&](Lid mlid) {
    for (const McastGroupGuids& g : members_by_mlid(db.snapshot()))
      if (g.mlid == mlid) return std::set<Guid>(g.port_guids.begin(), g.port_guids.end());
    return std::set<Guid>{};
  };
  EXPECT_EQ(ports_on(0xC000), (std::set<Guid>{0x101, 0x102, 0x103, 0x104}));
  const McastResult a = leave(db, ctx, snm(0x101), 0x101);
  ASSERT_EQ(a.answer.status, status::kOk) << a.why;
  ASSERT_EQ(a.events.size(), 1u);
  EXPECT_FALSE(a.events[0].created) << "host 1's group ends (trap 67)";
  EXPECT_FALSE(db.groups().contains(snm(0x101)));
  EXPECT_EQ(db.groups().at(snm(0x102)).members.count(0x102), 1u);
  EXPECT_EQ(ports_on(0xC000), (std::set<Guid>{0x102, 0x103, 0x104}));
  // Host 4 leaves one of its addresses: it stays on the MLID for the other.
  ASSERT_EQ(leave(db, ctx, snm(0x104), 0x104).answer.status, status::kOk);
  EXPECT_EQ(ports_on(0xC000), (std::set<Guid>{0x102, 0x103, 0x104}));
  EXPECT_EQ(next_free(db, ctx, 0x102), 0xC001) << "the MLID is still in use";
  ASSERT_EQ(leave(db, ctx, snm(0x102), 0x102).answer.status, status::kOk);
  ASSERT_EQ(leave(db, ctx, snm(0x103), 0x103).answer.status, status::kOk);
  EXPECT_EQ(next_free(db, ctx, 0x102), 0xC001);
  ASSERT_EQ(leave(db, ctx, snm(0x10104), 0x104).answer.status, status::kOk);
  EXPECT_TRUE(db.groups().empty());
  EXPECT_TRUE(members_by_mlid(db.snapshot()).empty());
  EXPECT_EQ(next_free(db, ctx, 0x102), 0xC000) << "the last member of the last group freed it";
  // A new SNM group after that starts the family again on the lowest free MLID.
  EXPECT_EQ(mlid_of(join(db, ctx, req(snm(0x103), 0x103))), 0xC000);
}

TEST(Ipv6Snm, GroupsWhosePropertiesDifferGetTheirOwnMlid) {
  Ports p(6);
  const McastContext ctx = p.ctx();
  McastDb db;
  ASSERT_EQ(mlid_of(join(db, ctx, req(snm(0x101), 0x101))), 0xC000);
  // Q_Key, SL, TClass, FlowLabel, MTU: each differing group is created, on an MLID of its own.
  ASSERT_EQ(mlid_of(join(db, ctx, req(snm(0x102), 0x102, 0xFFFF, 0x1234))), 0xC001);
  McMemberRecord sl = req(snm(0x103), 0x103);
  sl.sl = 3;
  ASSERT_EQ(mlid_of(join(db, ctx, sl)), 0xC002);
  McMemberRecord tclass = req(snm(0x104), 0x104);
  tclass.tclass = 0x20;
  ASSERT_EQ(mlid_of(join(db, ctx, tclass)), 0xC003);
  McMemberRecord mtu = req(snm(0x105), 0x105);
  mtu.mtu = 2;
  mtu.mtu_selector = selector::kExactly;
  const McastResult m = join(db, ctx, mtu, kCreate | mask_bit(kMtu) | mask_bit(kMtuSelector));
  ASSERT_EQ(m.answer.status, status::kOk) << m.why;
  EXPECT_EQ(mlid_of(m), 0xC004);
  // A later group that agrees with the Q_Key 0x1234 one shares that one's MLID.
  EXPECT_EQ(mlid_of(join(db, ctx, req(snm(0x106), 0x106, 0xFFFF, 0x1234))), 0xC001);
  EXPECT_EQ(mlid_of(join(db, ctx, req(snm(0x10106), 0x106))), 0xC000);
}

TEST(Ipv6Snm, ManyHostsFitInAFewMlids) {
  // Four MLIDs (a MulticastFDBCap of 4): 200 hosts' SNM groups fit in one when consolidated, and all but 4
  // are refused when not.
  Ports p(200);
  McastDb on, off;
  unsigned ok_on = 0, ok_off = 0, no_resources = 0;
  std::set<Lid> used;
  for (unsigned h = 1; h <= 200; ++h) {
    const McastResult a = join(on, p.ctx(true, 0xC003), req(snm(0x100 + h), 0x100 + h));
    if (a.answer.status == status::kOk) {
      ++ok_on;
      used.insert(mlid_of(a));
    }
    const McastResult b = join(off, p.ctx(false, 0xC003), req(snm(0x100 + h), 0x100 + h));
    ok_off += b.answer.status == status::kOk;
    no_resources += b.answer.status == status::kNoResources;
  }
  EXPECT_EQ(ok_on, 200u);
  EXPECT_EQ(used, std::set<Lid>{0xC000});
  EXPECT_EQ(ok_off, 4u);
  EXPECT_EQ(no_resources, 196u);
}

TEST(Ipv6Snm, SharedMlidsDoNotCountAgainstTheCreatorsCap) {
  // One untrusted port creates at most 1024 / 8 = 128 MLIDs' worth of groups; solicited-node groups it
  // creates for 300 hosts (a proxy) share one MLID and all succeed, other groups stop at 128.
  Ports p(300);
  const McastContext ctx = p.ctx();
  McastDb db;
  unsigned snm_ok = 0, other_ok = 0, other_refused = 0;
  for (unsigned h = 1; h <= 300; ++h) {
    snm_ok += db.join(query(0x02, kCreate, req(snm(0x100 + h), 0x100 + h)), 0x101, ctx).answer.status == status::kOk;
    Gid other = gid_text("ff12:a01c::");
    other[14] = static_cast<std::uint8_t>(h >> 8);
    other[15] = static_cast<std::uint8_t>(h);
    const McastResult r = db.join(query(0x02, kCreate, req(other, 0x100 + h)), 0x101, ctx);
    other_ok += r.answer.status == status::kOk;
    other_refused += r.answer.status == status::kNoResources;
  }
  EXPECT_EQ(snm_ok, 300u);
  EXPECT_EQ(other_ok, 127u) << "the SNM family's MLID is one of the 128";
  EXPECT_EQ(other_refused, 173u);
}

TEST(Ipv6Snm, GroupsFileKeepsSharedMlidsAndRefusesOtherSharing) {
  Ports p(3);
  const McastContext ctx = p.ctx();
  McastDb db;
  for (unsigned h = 1; h <= 3; ++h) ASSERT_EQ(join(db, ctx, req(snm(0x100 + h), 0x100 + h)).answer.status, status::kOk);
  McastDb back;
  ASSERT_TRUE(back.load_json(db.to_json()).ok());
  EXPECT_EQ(back.groups().size(), 3u);
  ASSERT_EQ(leave(back, ctx, snm(0x101), 0x101).answer.status, status::kOk);
  EXPECT_EQ(next_free(back, ctx, 0x102), 0xC001) << "the restored MLID is counted per group";
  // Two groups of different kinds on one MLID: a damaged or hand-edited file, refused whole.
  McastDb other;
  ASSERT_EQ(join(other, ctx, req(snm(0x101), 0x101)).answer.status, status::kOk);
  ASSERT_EQ(join(other, ctx, req(gid_text("ff12:a01c::9"), 0x102)).answer.status, status::kOk);
  std::string text = other.to_json();
  const std::string second = "\"mlid\": 49153";
  ASSERT_NE(text.find(second), std::string::npos) << text;
  text.replace(text.find(second), second.size(), "\"mlid\": 49152");
  const Status st = McastDb{}.load_json(text);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("MLID already used"), std::string::npos) << st.error().message;
}

TEST(Ipv6Snm, SharedMlidTreeSpansTheUnionOfTheMembers) {
  // sw-0 (node 4) and sw-1 (node 5) joined at port 1; hosts 0, 1 on sw-0 ports 2, 3; hosts 2, 3 on sw-1
  // ports 2, 3 (fabric_gen's layout). Host n's port GUID here is 0x101 + n.
  const Topology t = make_two_switch(1, 2).value();
  const McastTreeBuilder builder(t);
  auto masks = [&](McastDb& db) {
    std::vector<McastGroupPorts> groups;
    for (const McastGroupGuids& g : members_by_mlid(db.snapshot())) {
      McastGroupPorts ports{g.mlid, {}};
      for (Guid guid : g.port_guids) ports.members.emplace_back(static_cast<NodeIndex>(guid - 0x101), PortNum{1});
      groups.push_back(ports);
    }
    const Result<McastTables> tables = builder.build(groups);
    EXPECT_TRUE(tables.ok());
    std::map<std::pair<Lid, unsigned>, std::set<PortNum>> out;  // (MLID, switch node) -> ports
    for (const auto& [mlid, tree] : tables->trees) {
      for (unsigned sw : {4u, 5u}) {
        if (const McastPortMask* m = tree.mask(t.node(sw).guid)) m->for_each([&](PortNum p) { out[{mlid, sw}].insert(p); });
      }
    }
    return out;
  };
  Ports p(4);
  const McastContext ctx = p.ctx();
  McastDb db;
  for (unsigned h : {0u, 2u, 3u}) ASSERT_EQ(join(db, ctx, req(snm(0x101 + h), 0x101 + h)).answer.status, status::kOk);
  using Masks = std::map<std::pair<Lid, unsigned>, std::set<PortNum>>;
  EXPECT_EQ(masks(db), (Masks{{{0xC000, 4}, {1, 2}}, {{0xC000, 5}, {1, 2, 3}}}));
  ASSERT_EQ(leave(db, ctx, snm(0x101), 0x101).answer.status, status::kOk);
  EXPECT_EQ(masks(db), (Masks{{{0xC000, 5}, {2, 3}}})) << "hosts 2 and 3 keep their branches";
}

}  // namespace
}  // namespace smd::sa::sa_ipv6_snm_test
