// ServiceRecord registration through answer_mad (Set/Get/Delete, leases), the services file's JSON form,
// and InformDb subscriptions. ServiceRecord offsets (IBA table 217): ServiceID 0, ServiceGID 8,
// ServiceP_Key 24, ServiceLease 28, ServiceKey 32, ServiceName 48. InformInfo (IBA 13.4.8.3): GID 0,
// LIDRangeBegin 16, LIDRangeEnd 18, IsGeneric 22, Subscribe 23, Type 24, TrapNumber 26, QPN 28 (24 bits),
// ProducerType 33 (24 bits).
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "tests/unit/smd/sa/sa_rig.h"

namespace smd::sa::sa_service_inform_test {
namespace {

using namespace testing;

constexpr std::uint16_t kServiceRecord = IB_SA_ATTR_SERVICERECORD;
constexpr std::uint64_t kId = 1u << 0, kGid = 1u << 1, kPKeyBit = 1u << 2, kLease = 1u << 4, kName = 1u << 6;

class SaService : public ::testing::Test {
 protected:
  /// A ServiceRecord request from host A (LID 3), trusted (SM_Key = sa.key) unless `sm_key` says otherwise:
  /// a trusted requester may register services of any port.
  Answer service(std::uint8_t method, std::uint64_t mask, std::uint64_t id, std::uint64_t guid, std::uint32_t lease,
                 const char* name, std::int64_t now, std::uint64_t sm_key = kTrustedKey, std::uint16_t pkey = 0xFFFF) {
    Mad m = request(method, kServiceRecord, mask, sm_key);
    auto r = rec_of(m);
    put64(r, 0, id);
    put_gid(r, 8, kPrefix, guid);
    put16(r, 24, pkey);
    put16(r, 28, static_cast<std::uint16_t>(lease >> 16));
    put16(r, 30, static_cast<std::uint16_t>(lease));
    std::memcpy(r.data() + 48, name, std::strlen(name));
    return ask(rig.snap, state, m, 3, now);
  }
  static std::uint32_t lease_of(std::span<const std::uint8_t> r) {
    return static_cast<std::uint32_t>(ib_get(r, IB_SA_SR_LEASE_F));
  }
  static std::string name_of(std::span<const std::uint8_t> r) {
    return std::string(reinterpret_cast<const char*>(r.data() + 48),
                       strnlen(reinterpret_cast<const char*>(r.data() + 48), 64));
  }
  Rig rig = make_rig();
  SaState state;
};

TEST_F(SaService, SetNeedsServiceIdAndGid) {
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId, 0x10, kA + 1, 0, "x", 1000).status(), 0x0600);
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kGid, 0x10, kA + 1, 0, "x", 1000).status(), 0x0600);
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x10, 0xBAD, 0, "x", 1000).status(), 0x0500) << "unknown GID";
  EXPECT_EQ(state.services.size(), 0u);
  EXPECT_FALSE(state.services_changed);
  const Answer ok = service(IB_MAD_METHOD_SET, kId | kGid, 0x10, kA + 1, 0, "x", 1000);
  EXPECT_EQ(ok.status(), 0);
  EXPECT_EQ(ok.method(), IB_MAD_METHOD_GET_RESPONSE);
  EXPECT_EQ(lease_of(ok.record(0)), 0xFFFFFFFFu) << "no ServiceLease in the mask: infinite";
  EXPECT_TRUE(state.services_changed);
  EXPECT_EQ(state.services.size(), 1u);
}

TEST_F(SaService, LeaseCountsDownAndExpires) {
  const Answer set = service(IB_MAD_METHOD_SET, kId | kGid | kLease, 0x20, kB + 1, 60, "srp", 1000);
  ASSERT_EQ(set.status(), 0);
  EXPECT_EQ(lease_of(set.record(0)), 60u);
  const Answer get = service(IB_MAD_METHOD_GET, kId, 0x20, 0, 0, "", 1030);
  ASSERT_EQ(get.status(), 0);
  EXPECT_EQ(lease_of(get.record(0)), 30u);
  EXPECT_EQ(ib_get(get.record(0), IB_SA_SR_ID_F, true), 0x20u);
  EXPECT_EQ(name_of(get.record(0)), "srp");
  EXPECT_EQ(service(IB_MAD_METHOD_GET, kId, 0x20, 0, 0, "", 1060).status(), 0x0300) << "lease over";
  EXPECT_FALSE(state.services.expire(1059));
  EXPECT_EQ(state.services.size(), 1u);
  EXPECT_TRUE(state.services.expire(1060));
  EXPECT_EQ(state.services.size(), 0u);
}

TEST_F(SaService, SameKeyReplaces) {
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x30, kC + 1, 0, "first", 1000).status(), 0);
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x30, kC + 1, 0, "second", 1001).status(), 0);
  EXPECT_EQ(state.services.size(), 1u);
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x31, kC + 1, 0, "other", 1002).status(), 0);
  EXPECT_EQ(state.services.size(), 2u);
  const Answer g = service(IB_MAD_METHOD_GET, kId | kGid | kPKeyBit, 0x30, kC + 1, 0, "", 1003);
  ASSERT_EQ(g.status(), 0);
  EXPECT_EQ(name_of(g.record(0)), "second");
  const Answer all = service(IB_MAD_METHOD_GET_TABLE, 0, 0, 0, 0, "", 1003);
  EXPECT_EQ(all.count(), 2u);
  EXPECT_EQ(all.attr_offset(), 22u);
}

TEST_F(SaService, DeleteByTemplate) {
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x40, kA + 1, 0, "keep", 1000).status(), 0);
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x41, kA + 1, 0, "drop", 1000).status(), 0);
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x42, kB + 1, 0, "drop", 1000).status(), 0);
  state.services_changed = false;
  const Answer del = service(IB_MAD_METHOD_DELETE, kName, 0, 0, 0, "drop", 1001);
  ASSERT_EQ(del.status(), 0);
  EXPECT_EQ(del.method(), IB_MAD_METHOD_DELETE_RESPONSE);
  // Two 176-byte records do not fit one MAD's 200 data bytes: the DeleteResp carries the first.
  EXPECT_EQ(del.raw.size(), 256u);
  ASSERT_EQ(del.count(), 1u);
  EXPECT_EQ(del.attr_offset(), 22u);
  EXPECT_EQ(ib_get(del.record(0), IB_SA_SR_ID_F, true), 0x41u);
  EXPECT_EQ(del.outcome.records, 2u) << "both were deleted";
  EXPECT_TRUE(state.services_changed);
  EXPECT_EQ(state.services.size(), 1u);
  const Answer again = service(IB_MAD_METHOD_DELETE, kName, 0, 0, 0, "drop", 1002);
  EXPECT_EQ(again.status(), 0x0300);
  EXPECT_EQ(state.services.size(), 1u);
}

// Untrusted (SM_Key 0): a port registers and deletes only its own services (ServiceGID = its port's GID).
TEST_F(SaService, UntrustedPortsTouchOnlyTheirOwnServices) {
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x70, kA + 1, 0, "mine", 1000, 0).status(), 0);
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x71, kB + 1, 0, "hijack", 1000, 0).status(), 0x0700)
      << "host A may not register a service of host B";
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x72, kB + 1, 0, "b's", 1000).status(), 0) << "trusted";
  const Answer gone = service(IB_MAD_METHOD_DELETE, 0, 0, 0, 0, "", 1000, 0);  // mask 0: "everything"
  ASSERT_EQ(gone.status(), 0);
  EXPECT_EQ(gone.count(), 1u) << "only host A's own record goes";
  EXPECT_EQ(state.services.size(), 1u) << "host B's service stays";
  EXPECT_EQ(service(IB_MAD_METHOD_GET, kId, 0x72, 0, 0, "", 1000, 0).status(), 0) << "and anyone can still find it";
}

// A client that builds its ServiceGID from the default prefix fe80:: (osmtest under ibsim's shim, a host
// that has not re-read its GID table) registers and deletes its own services on a subnet whose prefix is
// another; the same prefix with another port's GUID is still refused, and its services stay.
TEST_F(SaService, OwnGidWithTheDefaultPrefixButNoOtherPorts) {
  constexpr std::uint64_t kSite = 0xFEC0000000000001ull;  // the subnet prefix the SM set
  constexpr std::uint64_t kDefault = 0xFE80000000000000ull;
  rig.fabric = SaFabric::build(rig.fabric->observed(), rig.lids, rig.tables, kSite, nullptr);
  rig.snap.fabric = rig.fabric;
  const auto send = [&](std::uint8_t method, std::uint64_t mask, std::uint64_t id, std::uint64_t prefix,
                        std::uint64_t guid, std::uint64_t sm_key, Lid from) {
    Mad m = request(method, kServiceRecord, mask, sm_key);
    auto r = rec_of(m);
    put64(r, 0, id);
    put_gid(r, 8, prefix, guid);
    put16(r, 24, 0xFFFF);
    return ask(rig.snap, state, m, from, 1000);
  };
  // Host A is LID 3, host B LID 4.
  const Answer own = send(IB_MAD_METHOD_SET, kId | kGid, 0x90, kDefault, kA + 1, 0, 3);
  ASSERT_EQ(own.status(), 0) << "A's own GUID under fe80::";
  EXPECT_EQ(get_be(own.record(0), 8, 8), kDefault) << "the record keeps the GID it was given";
  EXPECT_EQ(send(IB_MAD_METHOD_SET, kId | kGid, 0x91, kSite, kA + 1, 0, 3).status(), 0) << "and the subnet's";
  EXPECT_EQ(send(IB_MAD_METHOD_SET, kId | kGid, 0x92, kDefault, kB + 1, 0, 3).status(), 0x0700)
      << "fe80:: with host B's GUID from host A: a spoof";
  EXPECT_EQ(send(IB_MAD_METHOD_SET, kId | kGid, 0x93, 0xFEC0000000000002ull, kA + 1, 0, 3).status(), 0x0700)
      << "A's GUID under a third prefix";
  EXPECT_EQ(send(IB_MAD_METHOD_SET, kId | kGid, 0x94, 0xFEC0000000000002ull, kA + 1, kTrustedKey, 3).status(), 0x0500)
      << "trusted, but no port of this subnet has that GID";
  // osmtest 3.3.23 under ibsim writes fe80:: in host byte order: 0000:0000:0000:80fe. Its own GUID only.
  constexpr std::uint64_t kSwapped = 0x00000000000080FEull;
  EXPECT_EQ(send(IB_MAD_METHOD_SET, kId | kGid, 0x96, kSwapped, kA + 1, 0, 3).status(), 0) << "osmtest's form";
  EXPECT_EQ(send(IB_MAD_METHOD_SET, kId | kGid, 0x97, kSwapped, kB + 1, 0, 3).status(), 0x0700)
      << "osmtest's form with host B's GUID from host A: a spoof";
  ASSERT_EQ(send(IB_MAD_METHOD_SET, kId | kGid, 0x95, kDefault, kB + 1, 0, 4).status(), 0) << "B's own";
  EXPECT_EQ(state.services.size(), 4u);
  // Host A deletes "everything": its three records (one per prefix) go, B's stays.
  const Answer gone = send(IB_MAD_METHOD_DELETE, 0, 0, 0, 0, 0, 3);
  ASSERT_EQ(gone.status(), 0);
  EXPECT_EQ(gone.outcome.records, 3u);
  EXPECT_EQ(state.services.size(), 1u);
  // Host A names B's fe80:: GID in a Delete template: nothing of B's goes.
  EXPECT_EQ(send(IB_MAD_METHOD_DELETE, kGid, 0, kDefault, kB + 1, 0, 3).status(), 0x0300);
  EXPECT_EQ(state.services.size(), 1u);
  EXPECT_EQ(send(IB_MAD_METHOD_DELETE, kGid, 0, kDefault, kB + 1, 0, 4).status(), 0) << "B deletes its own";
  EXPECT_EQ(state.services.size(), 0u);
}

// A service under a partition's P_Key is that partition's: host A, in the default partition only, neither
// sees B's service under 0x8010 nor registers one of its own under it; a trusted requester sees it.
TEST_F(SaService, UntrustedPortsSeeAndRegisterOnlyInTheirPartitions) {
  set_partitions(rig, {{kA + 1, {0xFFFF}}, {kB + 1, {0xFFFF, 0x8010}}});
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x80, kB + 1, 0, "red", 1000, kTrustedKey, 0x8010).status(), 0);
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x81, kB + 1, 0, "open", 1000, kTrustedKey, 0xFFFF).status(), 0);
  const Answer seen = service(IB_MAD_METHOD_GET_TABLE, 0, 0, 0, 0, "", 1000, 0);
  ASSERT_EQ(seen.status(), 0);
  EXPECT_EQ(seen.count(), 1u) << "only the default partition's service";
  EXPECT_EQ(service(IB_MAD_METHOD_GET_TABLE, 0, 0, 0, 0, "", 1000).count(), 2u) << "trusted: both";
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x82, kA + 1, 0, "sneak", 1000, 0, 0x8010).status(), 0x0200);
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x83, kA + 1, 0, "ok", 1000, 0, 0xFFFF).status(), 0);
}

TEST_F(SaService, BoundedPerGid) {
  for (std::uint64_t id = 0; id < kMaxServicesPerGid; ++id) {
    ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x1000 + id, kA + 1, 0, "s", 1000).status(), 0) << id;
  }
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x9999, kA + 1, 0, "one too many", 1000).status(), 0x0100);
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x1000, kA + 1, 0, "renewed", 1000).status(), 0)
      << "renewing a registered one is not a new record";
  EXPECT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x9999, kB + 1, 0, "another port", 1000).status(), 0);
}

// A ServiceName is a client's bytes, not necessarily UTF-8: the services file is still written, and reads back.
TEST_F(SaService, ServiceNameThatIsNotUtf8IsPersisted) {
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x80, kA + 1, 0, "\xff\xfe\xc0\x80", 1000).status(), 0);
  std::string json;
  ASSERT_NO_THROW(json = state.services.to_json());
  ServiceDb again;
  ASSERT_TRUE(again.load_json(json).ok());
  ASSERT_EQ(again.list(1000).size(), 1u);
  EXPECT_EQ(again.list(1000)[0].service_name(), "\xff\xfe\xc0\x80") << "the record's own bytes come back";
}

TEST_F(SaService, JsonRoundTrip) {
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid | kLease, 0x50, kA + 1, 100, "leased", 1000).status(), 0);
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x51, kD + 1, 0, "forever", 1000).status(), 0);
  const std::string json = state.services.to_json();
  ServiceDb other;
  ASSERT_TRUE(other.load_json(json).ok());
  EXPECT_EQ(other.size(), 2u);
  EXPECT_EQ(other.to_json(), json);
  // The same deadlines: 40 s left at 1060 in both.
  SaState restored;
  restored.services = other;
  Mad m = request(IB_MAD_METHOD_GET, kServiceRecord, kId);
  put64(rec_of(m), 0, 0x50);
  const Answer a = ask(rig.snap, restored, m, 3, 1060);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(lease_of(a.record(0)), 40u);
  EXPECT_EQ(name_of(a.record(0)), "leased");
  EXPECT_FALSE(other.expire(1099));
  EXPECT_TRUE(other.expire(1100));
  EXPECT_EQ(other.size(), 1u);
}

TEST_F(SaService, LoadJsonRejectsBadInputAndKeepsTheRecords) {
  ASSERT_EQ(service(IB_MAD_METHOD_SET, kId | kGid, 0x60, kA + 1, 0, "kept", 1000).status(), 0);
  ServiceDb& db = state.services;
  const std::string before = db.to_json();
  const std::string good_hex(352, '0');
  const char* bad[] = {
      "",
      "not json",
      "[1,2]",
      R"({"version":2,"services":[]})",
      R"({"version":1})",
      R"({"version":1,"services":{}})",
      R"({"version":1,"services":[{"record":"00","expires":0}]})",
      R"({"version":1,"services":[{"record":7,"expires":0}]})",
      R"({"version":1,"services":[{"expires":0}]})",
  };
  for (const char* text : bad) {
    const Status st = db.load_json(text);
    EXPECT_FALSE(st.ok()) << text;
    if (!st.ok()) {
      EXPECT_FALSE(st.error().message.empty()) << text;
    }
    EXPECT_EQ(db.to_json(), before) << text;
  }
  const std::string not_hex =
      R"({"version":1,"services":[{"record":")" + std::string(350, '0') + "zz" + R"(","expires":0}]})";
  EXPECT_FALSE(db.load_json(not_hex).ok());
  const std::string negative = R"({"version":1,"services":[{"record":")" + good_hex + R"(","expires":-5}]})";
  EXPECT_FALSE(db.load_json(negative).ok());
  const std::string text_expiry = R"({"version":1,"services":[{"record":")" + good_hex + R"(","expires":"soon"}]})";
  EXPECT_FALSE(db.load_json(text_expiry).ok());
  // A bad second entry keeps even the good first one out.
  const std::string half =
      R"({"version":1,"services":[{"record":")" + good_hex + R"(","expires":0},{"record":"x","expires":0}]})";
  const Status st = db.load_json(half);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("services[1]"), std::string::npos) << st.error().message;
  EXPECT_EQ(db.to_json(), before);
  EXPECT_EQ(db.size(), 1u);
  // What Set could never have stored: a lease beyond 32 bits of seconds, one service twice, more services
  // for one port than kMaxServicesPerGid.
  const std::string far = R"({"version":1,"services":[{"record":")" + good_hex + R"(","expires":99999999999}]})";
  EXPECT_FALSE(db.load_json(far).ok());
  const std::string twice = R"({"version":1,"services":[{"record":")" + good_hex + R"(","expires":0},{"record":")" +
                            good_hex + R"(","expires":0}]})";
  EXPECT_FALSE(db.load_json(twice).ok());
  std::string many = R"({"version":1,"services":[)";
  for (std::size_t i = 0; i <= kMaxServicesPerGid; ++i) {
    char id[17];
    std::snprintf(id, sizeof id, "%016zx", i);
    many += std::string(i ? "," : "") + R"({"record":")" + id + std::string(352 - 16, '0') + R"(","expires":0})";
  }
  many += "]}";
  const Status over = db.load_json(many);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().message.find("services[256]"), std::string::npos) << over.error().message;
  EXPECT_EQ(db.to_json(), before);
}

// ---- InformDb ----

struct Inform {
  std::uint16_t lid_begin = 0xFFFF, lid_end = 0;
  bool generic = true, subscribe = true;
  std::uint16_t type = 0xFFFF, trap = 0xFFFF;
  std::uint32_t qpn = 1, producer = 0xFFFFFF;
};

SaQuery inform_query(const Inform& i, Lid from, bool trusted = false) {
  SaQuery q;
  q.header.method = IB_MAD_METHOD_SET;
  q.header.attr_id = IB_SA_ATTR_INFORMINFO;
  q.requester_lid = from;
  q.trusted = trusted;
  std::span<std::uint8_t> r(q.record);
  put16(r, 16, i.lid_begin);
  put16(r, 18, i.lid_end);
  r[22] = i.generic ? 1 : 0;
  r[23] = i.subscribe ? 1 : 0;
  put16(r, 24, i.type);
  put16(r, 26, i.trap);
  r[28] = static_cast<std::uint8_t>(i.qpn >> 16);
  r[29] = static_cast<std::uint8_t>(i.qpn >> 8);
  r[30] = static_cast<std::uint8_t>(i.qpn);
  r[33] = static_cast<std::uint8_t>(i.producer >> 16);
  r[34] = static_cast<std::uint8_t>(i.producer >> 8);
  r[35] = static_cast<std::uint8_t>(i.producer);
  return q;
}

mad::Notice trap(std::uint16_t number, std::uint32_t producer = 4, std::uint8_t type = 4) {
  mad::Notice n;
  n.is_generic = true;
  n.trap_number = number;
  n.producer_type = producer;
  n.type = type;
  return n;
}

const mad::sa::Gid kSubscriber = mad::sa::make_gid(kPrefix, kA + 1);

TEST(SaInform, SubscribeMatchUnsubscribe) {
  InformDb db;
  Inform i;
  i.trap = 65;
  i.qpn = 0x123456;
  const SaAnswer a = db.set(inform_query(i, 3), kSubscriber);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.count, 1u);
  EXPECT_EQ(db.size(), 1u);
  EXPECT_EQ(db.set(inform_query(i, 3), kSubscriber).status, 0);
  EXPECT_EQ(db.size(), 1u) << "an identical subscription is not added twice";
  const auto subs = db.subscribers(trap(65), 1);
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].lid, 3);
  EXPECT_EQ(subs[0].qpn, 0x123456u);
  EXPECT_TRUE(db.subscribers(trap(64), 1).empty());
  Inform off = i;
  off.subscribe = false;
  EXPECT_EQ(db.set(inform_query(off, 3), kSubscriber).status, 0);
  EXPECT_EQ(db.size(), 0u);
  EXPECT_EQ(db.set(inform_query(off, 3), kSubscriber).status, 0x0200) << "nothing left to unsubscribe from";
}

TEST(SaInform, ResubscribingTakesTheNewQpn) {
  InformDb db;
  Inform i;
  i.trap = 128;
  i.qpn = 0x11;
  ASSERT_EQ(db.set(inform_query(i, 3), kSubscriber).status, 0);
  i.qpn = 0x22;
  ASSERT_EQ(db.set(inform_query(i, 3), kSubscriber).status, 0);
  ASSERT_EQ(db.size(), 1u);
  const auto subs = db.subscribers(trap(128), 1);
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].qpn, 0x22u) << "a client that restarted gets its Reports where it now listens";
}

TEST(SaInform, BoundedPerPort) {
  InformDb db;
  Inform i;
  for (std::size_t n = 0; n < kMaxSubscriptionsPerPort; ++n) {
    i.lid_end = static_cast<std::uint16_t>(n);  // each a different subscription
    ASSERT_EQ(db.set(inform_query(i, 3), kSubscriber).status, 0) << n;
  }
  i.lid_end = 0xFFF0;
  EXPECT_EQ(db.set(inform_query(i, 3), kSubscriber).status, 0x0100);
  EXPECT_EQ(db.set(inform_query(i, 4), mad::sa::make_gid(kPrefix, kB + 1)).status, 0) << "another port still can";
}

TEST(SaInform, AllTrapsAndProducers) {
  InformDb db;
  ASSERT_EQ(db.set(inform_query(Inform{}, 3), kSubscriber).status, 0);
  EXPECT_EQ(db.subscribers(trap(64), 1).size(), 1u);
  EXPECT_EQ(db.subscribers(trap(128, 2, 1), 9).size(), 1u);
  mad::Notice vendor = trap(64);
  vendor.is_generic = false;
  EXPECT_TRUE(db.subscribers(vendor, 1).empty());
}

TEST(SaInform, ProducerAndLidRange) {
  InformDb db;
  Inform sw;
  sw.producer = 2;
  sw.lid_begin = 10;
  sw.lid_end = 20;
  ASSERT_EQ(db.set(inform_query(sw, 3), kSubscriber).status, 0);
  EXPECT_EQ(db.subscribers(trap(128, 2), 15).size(), 1u);
  EXPECT_EQ(db.subscribers(trap(128, 2), 10).size(), 1u);
  EXPECT_EQ(db.subscribers(trap(128, 2), 20).size(), 1u);
  EXPECT_TRUE(db.subscribers(trap(128, 2), 21).empty());
  EXPECT_TRUE(db.subscribers(trap(128, 2), 9).empty());
  EXPECT_TRUE(db.subscribers(trap(128, 4), 15).empty()) << "producer SM, subscription wants switches";
  InformDb one;
  Inform single;
  single.lid_begin = 12;
  single.lid_end = 0;
  ASSERT_EQ(one.set(inform_query(single, 3), kSubscriber).status, 0);
  EXPECT_EQ(one.subscribers(trap(128), 12).size(), 1u);
  EXPECT_TRUE(one.subscribers(trap(128), 13).empty());
}

TEST(SaInform, AGidNamesOneIssuerAndOverridesTheLidRange) {
  InformDb db;
  Inform one;
  one.lid_begin = 10;
  one.lid_end = 20;
  SaQuery q = inform_query(one, 3);
  put_gid(std::span<std::uint8_t>(q.record), 0, kPrefix, kC + 1);
  ASSERT_EQ(db.set(q, kSubscriber).status, 0);
  mad::Notice from_c = trap(128, 2);
  const auto c_gid = mad::sa::make_gid(kPrefix, kC + 1);
  std::copy(c_gid.begin(), c_gid.end(), from_c.issuer_gid.begin());
  EXPECT_EQ(db.subscribers(from_c, 5).size(), 1u) << "LID 5 is outside 10..20, but the GID names the issuer";
  mad::Notice from_d = trap(128, 2);
  const auto d_gid = mad::sa::make_gid(kPrefix, kD + 1);
  std::copy(d_gid.begin(), d_gid.end(), from_d.issuer_gid.begin());
  EXPECT_TRUE(db.subscribers(from_d, 15).empty()) << "another issuer, inside the LID range";
}

TEST(SaInform, SecurityTrapsNeedTrust) {
  InformDb db;
  Inform sec;
  sec.type = 2;
  EXPECT_EQ(db.set(inform_query(sec, 3, false), kSubscriber).status, 0x0200);
  EXPECT_EQ(db.size(), 0u);
  EXPECT_EQ(db.set(inform_query(sec, 3, true), kSubscriber).status, 0);
  EXPECT_EQ(db.size(), 1u);
  EXPECT_EQ(db.subscribers(trap(257, 1, 2), 5).size(), 1u);
  EXPECT_TRUE(db.subscribers(trap(257, 1, 4), 5).empty()) << "type must match";
}

// A wildcard Type (0xFFFF) is allowed to anyone, but a security notice reaches only a trusted subscription.
TEST(SaInform, AWildcardTypeFromAnUntrustedPortMissesSecurityNotices) {
  InformDb db;
  Inform any;  // every type, every trap
  ASSERT_EQ(db.set(inform_query(any, 3, false), kSubscriber).status, 0);
  ASSERT_EQ(db.set(inform_query(any, 4, true), mad::sa::make_gid(kPrefix, kB + 1)).status, 0);
  const auto subs = db.subscribers(trap(256, 1, 2), 5);  // bad M_Key, a security notice
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].lid, 4) << "only the trusted subscriber";
  EXPECT_EQ(db.subscribers(trap(128, 2, 1), 5).size(), 2u) << "other notices reach both";
}

TEST(SaInform, DropAndRecords) {
  InformDb db;
  Inform a;
  a.trap = 64;
  Inform b;
  b.trap = 65;
  ASSERT_EQ(db.set(inform_query(a, 3), kSubscriber).status, 0);
  ASSERT_EQ(db.set(inform_query(b, 3), kSubscriber).status, 0);
  SaQuery q;
  q.header.method = IB_MAD_METHOD_GET_TABLE;
  const SaAnswer all = db.records(q, 100);
  EXPECT_EQ(all.count, 2u);
  EXPECT_EQ(all.record_size, 64u);
  const std::uint32_t id = db.all()[0].id;
  EXPECT_TRUE(db.drop(id));
  EXPECT_FALSE(db.drop(id));
  EXPECT_EQ(db.size(), 1u);
  EXPECT_EQ(db.all()[0].info.trap_number, 65);
}

// sa.drop_absent_subscribers: the subscriptions of a port that left go, by the port GUID in the subscriber
// GID (kA + 1 here); those of ports still present stay.
TEST(SaInform, DropAbsentGoesByThePortGuidOfTheSubscriber) {
  InformDb db;
  Inform i;
  i.trap = 64;
  ASSERT_EQ(db.set(inform_query(i, 3), kSubscriber).status, 0);
  i.trap = 65;
  ASSERT_EQ(db.set(inform_query(i, 3), kSubscriber).status, 0);
  ASSERT_EQ(db.set(inform_query(i, 4), mad::sa::make_gid(kPrefix, kB + 1)).status, 0);
  std::vector<Guid> asked;
  EXPECT_EQ(db.drop_absent([&](Guid g) {
    asked.push_back(g);
    return g != kA + 1;
  }),
            2u);
  EXPECT_EQ(asked, (std::vector<Guid>{kA + 1, kA + 1, kB + 1}));
  ASSERT_EQ(db.size(), 1u);
  EXPECT_EQ(db.all()[0].lid, 4);
  EXPECT_EQ(db.drop_absent([](Guid) { return true; }), 0u);
}

TEST(SaInform, InformInfoSetThroughAnswerMad) {
  Rig rig = make_rig();
  SaState state;
  Inform i;
  i.trap = 64;
  Mad m = request(IB_MAD_METHOD_SET, IB_SA_ATTR_INFORMINFO, 0);
  const SaQuery q = inform_query(i, 3);
  std::copy_n(q.record.begin(), 36, rec_of(m).begin());
  const Answer a = ask(rig.snap, state, m, 3);
  ASSERT_EQ(a.status(), 0);
  EXPECT_EQ(a.method(), IB_MAD_METHOD_GET_RESPONSE);
  EXPECT_EQ(get_be(a.record(0), 26, 2), 64u);
  ASSERT_EQ(state.informs.size(), 1u);
  EXPECT_EQ(state.informs.all()[0].subscriber_gid, kSubscriber) << "the requester's GID, from its LID";
  EXPECT_EQ(ask(rig.snap, state, request(IB_MAD_METHOD_GET, IB_SA_ATTR_INFORMINFO, 0)).status(), 0x000C);
}

TEST(SaInform, InformInfoRecordMatchesByTrapNumber) {
  Rig rig = make_rig();
  SaState state;
  for (std::uint16_t t : {64, 65}) {
    Inform i;
    i.trap = t;
    ASSERT_EQ(state.informs.set(inform_query(i, 3), kSubscriber).status, 0);
  }
  // ComponentMask bit 10: InformInfo.TrapNumber, at record byte 24 + 26.
  Mad m = request(IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_INFORMINFORECORD, 1u << 10);
  put16(rec_of(m), 24 + 26, 65);
  const Answer a = ask(rig.snap, state, m);
  ASSERT_EQ(a.status(), 0);
  ASSERT_EQ(a.count(), 1u);
  EXPECT_EQ(get_be(a.record(0), 24 + 26, 2), 65u);
  EXPECT_EQ(get_be(a.record(0), 8, 8), kA + 1) << "SubscriberGID";
  Mad all = request(IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_INFORMINFORECORD, 0);
  EXPECT_EQ(ask(rig.snap, state, all).count(), 2u);
}

}  // namespace
}  // namespace smd::sa::sa_service_inform_test
