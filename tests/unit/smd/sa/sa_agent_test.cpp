// SaAgent end to end with a recording Sender: an InformInfo Set is answered, a published fabric where a CA
// port lost its LID sends trap 65 Reports to the subscriber, re-sent every report_timeout_ms until a
// ReportResp with the Report's TID, and a subscriber that answers none loses its subscription after
// report_retries + 1 sends; ServiceRecords written to the services file are served again after a restart,
// unless this SM wrote them before another master ran the subnet.
// Every wait polls with a 2 s deadline; nothing asserts timing.
#include "smd/sa/sa_agent.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>

#include "tests/unit/smd/sa/sa_rig.h"
#include "tests/unit/temp_dir.h"

namespace smd::sa::sa_agent_test {
namespace {

using namespace testing;

struct Sent {
  std::vector<std::uint8_t> mad;
  mad::MadAddress to;
};

class Recorder {
 public:
  SaAgent::Sender sender() {
    return [this](std::span<const std::uint8_t> m, const mad::MadAddress& to) {
      std::lock_guard lock(mu_);
      sent_.push_back({std::vector<std::uint8_t>(m.begin(), m.end()), to});
      return 0;
    };
  }
  std::vector<Sent> sent() const {
    std::lock_guard lock(mu_);
    return sent_;
  }
  /// The MADs sent with `method` so far.
  std::vector<Sent> with_method(std::uint8_t method) const {
    std::vector<Sent> out;
    for (const Sent& s : sent()) {
      if (s.mad.size() >= 56 && s.mad[3] == method) out.push_back(s);
    }
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::vector<Sent> sent_;
};

/// Poll `done` every millisecond for up to 2 s.
template <class F>
bool eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done();
}

Mad inform_set(std::uint16_t trap_number) {
  Mad m = request(IB_MAD_METHOD_SET, IB_SA_ATTR_INFORMINFO, 0, 0, 0x77);
  auto r = rec_of(m);
  put16(r, 16, 0xFFFF);  // every issuer
  r[22] = 1;             // generic
  r[23] = 1;             // subscribe
  put16(r, 24, 0xFFFF);  // every type
  put16(r, 26, trap_number);
  r[30] = 1;  // QPN 1
  r[33] = r[34] = r[35] = 0xFF;
  return m;
}

mad::MadAddress from_a() {
  mad::MadAddress a;
  a.lid = 3;
  a.qpn = 1;
  return a;
}

std::shared_ptr<const SaSnapshot> snapshot(RigOptions o) {
  return std::make_shared<const SaSnapshot>(make_rig(o).snap);
}

class SaAgentTest : public ::testing::Test {
 protected:
  void start(unsigned retries) {
    SaAgentOptions o;
    o.report_timeout_ms = 20;
    o.report_retries = retries;
    agent = std::make_unique<SaAgent>(o, rec.sender());
    agent->start();
    agent->publish(snapshot({}));
    const Mad set = inform_set(65);
    ASSERT_TRUE(agent->submit(set, from_a()));
    ASSERT_TRUE(eventually([&] { return !rec.with_method(IB_MAD_METHOD_GET_RESPONSE).empty(); }));
    const Sent resp = rec.with_method(IB_MAD_METHOD_GET_RESPONSE)[0];
    EXPECT_EQ(ib_get(resp.mad, IB_MAD_STATUS_F), 0u);
    EXPECT_EQ(ib_get(resp.mad, IB_MAD_ATTRID_F), IB_SA_ATTR_INFORMINFO);
    EXPECT_EQ(ib_get(resp.mad, IB_MAD_TRID_F, true), 0x77u);
    EXPECT_EQ(resp.to.lid, 3);
    EXPECT_EQ(resp.to.qkey, 0x80010000u);
  }
  void TearDown() override {
    if (agent) agent->stop();
  }
  Recorder rec;
  std::unique_ptr<SaAgent> agent;
};

TEST_F(SaAgentTest, PortLeavingSendsTrap65UntilAcknowledged) {
  start(50);
  agent->publish(snapshot({.no_d = true}));
  ASSERT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_REPORT).size() >= 2; }))
      << "the Report and at least one re-send";
  const auto reports = rec.with_method(IB_MAD_METHOD_REPORT);
  const Sent& r = reports[0];
  EXPECT_EQ(r.to.lid, 3);
  EXPECT_EQ(r.to.qpn, 1u);
  EXPECT_EQ(ib_get(r.mad, IB_MAD_MGMTCLASS_F), 3u);
  EXPECT_EQ(ib_get(r.mad, IB_MAD_CLASSVER_F), 2u);
  EXPECT_EQ(ib_get(r.mad, IB_MAD_ATTRID_F), IB_SA_ATTR_NOTICE);
  const auto notice = std::span<const std::uint8_t>(r.mad).subspan(56);
  EXPECT_EQ(ib_get(notice, IB_NOTICE_IS_GENERIC_F), 1u);
  EXPECT_EQ(ib_get(notice, IB_NOTICE_TRAP_NUMBER_F), 65u);
  EXPECT_EQ(ib_get(notice, IB_NOTICE_PRODUCER_F), 4u);
  // Trap 65 DataDetails: GID at bytes 6..21 of DataDetails (Notice byte 16).
  EXPECT_EQ(get_be(notice, 16, 8), kPrefix);
  EXPECT_EQ(get_be(notice, 24, 8), kD + 1);
  // IssuerGID (Notice bytes 64..79 in a Report): the SM's port, S0 port 0 at the SM LID 1.
  EXPECT_EQ(get_be(notice, 64, 8), kPrefix);
  EXPECT_EQ(get_be(notice, 72, 8), kS0);
  const std::uint64_t tid = ib_get(r.mad, IB_MAD_TRID_F, true);
  for (const Sent& s : reports) EXPECT_EQ(ib_get(s.mad, IB_MAD_TRID_F, true), tid) << "a re-send keeps its TID";

  Mad ack = request(IB_MAD_METHOD_REPORT_RESPONSE, IB_SA_ATTR_NOTICE, 0, 0, tid);
  mad::MadAddress spoofer = from_a();
  spoofer.lid = 9;  // the right TID from another port acknowledges nothing
  ASSERT_TRUE(agent->submit(ack, spoofer));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(agent->stats().reports_acknowledged, 0u);
  ASSERT_TRUE(agent->submit(ack, from_a()));
  ASSERT_TRUE(eventually([&] { return agent->stats().reports_acknowledged == 1; }));
  // No more re-sends once acknowledged: the count stays put across several report timeouts.
  const std::size_t settled = rec.with_method(IB_MAD_METHOD_REPORT).size();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(rec.with_method(IB_MAD_METHOD_REPORT).size(), settled);
  EXPECT_EQ(agent->stats().subscriptions, 1u);
  EXPECT_EQ(agent->stats().subscriptions_dropped, 0u);
}

TEST_F(SaAgentTest, UnansweredReportsDropTheSubscription) {
  start(2);
  agent->publish(snapshot({.no_d = true}));
  ASSERT_TRUE(eventually([&] { return agent->stats().subscriptions_dropped == 1; }));
  EXPECT_EQ(rec.with_method(IB_MAD_METHOD_REPORT).size(), 3u) << "report_retries (2) + 1 sends";
  EXPECT_TRUE(eventually([&] { return agent->stats().subscriptions == 0; }));
  // Trap 64 when D comes back goes to nobody now.
  agent->publish(snapshot({}));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(rec.with_method(IB_MAD_METHOD_REPORT).size(), 3u);
}

TEST_F(SaAgentTest, NoRetriesMeansOneSend) {
  start(0);
  agent->publish(snapshot({.no_d = true}));
  ASSERT_TRUE(eventually([&] { return agent->stats().subscriptions_dropped == 1; }));
  const std::size_t n = rec.with_method(IB_MAD_METHOD_REPORT).size();
  EXPECT_EQ(n, 1u) << "report_retries 0: one send";
}

class SaAgentServicesFile : public ::smd::test::TempDirTest {};

Mad service_request(std::uint8_t method, std::uint64_t mask) {
  Mad m = request(method, IB_SA_ATTR_SERVICERECORD, mask, 0, 0x99);
  auto r = rec_of(m);
  put64(r, 0, 0xABCD);
  put_gid(r, 8, kPrefix, kA + 1);
  put16(r, 24, 0xFFFF);
  const char name[] = "persisted";
  std::copy(name, name + sizeof name - 1, r.begin() + 48);
  return m;
}

/// A serving snapshot whose SM (first SmEntry) has port GUID `self`.
std::shared_ptr<const SaSnapshot> snapshot_of(Guid self, bool other_master_seen) {
  SaSnapshot snap = make_rig({}).snap;
  snap.sms.front().guid = self;
  snap.other_master_seen = other_master_seen;
  return std::make_shared<const SaSnapshot>(std::move(snap));
}

/// Register the "persisted" ServiceRecord through `agent`, serving `snap`.
void register_service(SaAgent& agent, Recorder& rec) {
  ASSERT_TRUE(agent.submit(service_request(IB_MAD_METHOD_SET, 0b11), from_a()));
  ASSERT_TRUE(eventually([&] { return !rec.with_method(IB_MAD_METHOD_GET_RESPONSE).empty(); }));
  EXPECT_EQ(ib_get(rec.with_method(IB_MAD_METHOD_GET_RESPONSE)[0].mad, IB_MAD_STATUS_F), 0u);
}

/// Whether `agent` answers a Get for the "persisted" ServiceRecord with it (else: no record, status != 0).
bool serves_the_service(SaAgent& agent, Recorder& rec) {
  const std::size_t before = rec.with_method(IB_MAD_METHOD_GET_RESPONSE).size();
  EXPECT_TRUE(agent.submit(service_request(IB_MAD_METHOD_GET, 0b1), from_a()));
  EXPECT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_GET_RESPONSE).size() > before; }));
  const auto answers = rec.with_method(IB_MAD_METHOD_GET_RESPONSE);
  if (answers.size() <= before) return false;
  const Sent& got = answers[before];
  if (ib_get(got.mad, IB_MAD_STATUS_F) != 0) return false;
  const auto r = std::span<const std::uint8_t>(got.mad).subspan(56);
  EXPECT_EQ(get_be(r, 0, 8), 0xABCDu);
  return std::string(reinterpret_cast<const char*>(r.data() + 48), 9) == "persisted";
}

/// The services file `file` after an SM with port GUID `writer` registered the service and stopped.
void write_services_file(const SaAgentOptions& o, Guid writer) {
  Recorder rec;
  SaAgent agent(o, rec.sender());
  agent.start();
  agent.publish(snapshot_of(writer, false));
  register_service(agent, rec);
  ASSERT_TRUE(eventually([&] {
    std::ifstream in(o.services_file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str().find("persisted") != std::string::npos;
  }));
  agent.stop();
}

/// Whether a fresh SaAgent with `o`, serving as `self`, serves the registered service.
bool restarted_serves(const SaAgentOptions& o, Guid self, bool other_master_seen) {
  Recorder rec;
  SaAgent again(o, rec.sender());
  again.start();
  again.publish(snapshot_of(self, other_master_seen));
  const bool served = serves_the_service(again, rec);
  again.stop();
  return served;
}

constexpr Guid kSmA = 0x0002c90300000a0aull;
constexpr Guid kSmB = 0x0002c90300000b0bull;

/// Whether SM `self` restores the services file SM `writer` wrote, when it starts serving.
bool restores(const std::string& dir, Guid writer, Guid self, bool other_master_seen) {
  SaAgentOptions o;
  o.services_file = dir + "/services.json";
  write_services_file(o, writer);
  return restarted_serves(o, self, other_master_seen);
}

TEST_F(SaAgentServicesFile, ServicesSurviveARestart) {
  EXPECT_TRUE(restores(dir_, kSmA, kSmA, /*other_master_seen=*/false));
}

TEST_F(SaAgentServicesFile, AnSmBackAfterAnotherMasterLeavesItsOwnFileAlone) {
  // Another master ran the subnet meanwhile: what this SM wrote may have been deleted there.
  EXPECT_FALSE(restores(dir_, kSmA, kSmA, /*other_master_seen=*/true));
}

TEST_F(SaAgentServicesFile, AFileAnotherSmWroteIsRestoredAfterThatMaster) {
  // A state_dir shared with the other SM: its file is that master's latest state.
  EXPECT_TRUE(restores(dir_, kSmB, kSmA, /*other_master_seen=*/true));
}

TEST(SaAgentMastership, ServingAgainAfterAnotherMasterStartsWithoutWhatItHeld) {
  for (const bool other_master_seen : {false, true}) {
    SCOPED_TRACE(other_master_seen ? "another master ran the subnet" : "no other master");
    Recorder rec;
    SaAgent agent(SaAgentOptions{}, rec.sender());
    agent.start();
    agent.publish(snapshot_of(kSmA, false));
    register_service(agent, rec);
    auto standby = std::make_shared<SaSnapshot>(*snapshot_of(kSmA, false));
    standby->serving = false;
    agent.publish(standby);
    ASSERT_TRUE(eventually([&] { return !agent.stats().serving; }));  // the SA thread took the standby one
    agent.publish(snapshot_of(kSmA, other_master_seen));
    EXPECT_EQ(serves_the_service(agent, rec), !other_master_seen);
    agent.stop();
  }
}

TEST_F(SaAgentTest, ForwardedTrapCarriesTheIssuersGid) {
  start(50);
  mad::Notice t128;
  t128.is_generic = true;
  t128.type = 1;
  t128.producer_type = 2;
  t128.trap_number = 128;
  t128.issuer_lid = 2;
  ASSERT_TRUE(agent->submit(inform_set(0xFFFF), from_a()));  // every trap
  ASSERT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_GET_RESPONSE).size() == 2; }));
  agent->forward(t128, 2);
  ASSERT_TRUE(eventually([&] { return !rec.with_method(IB_MAD_METHOD_REPORT).empty(); }));
  const auto reports = rec.with_method(IB_MAD_METHOD_REPORT);  // the span below looks into it: keep it
  const auto notice = std::span<const std::uint8_t>(reports[0].mad).subspan(56);
  EXPECT_EQ(ib_get(notice, IB_NOTICE_TRAP_NUMBER_F), 128u);
  EXPECT_EQ(ib_get(notice, IB_NOTICE_ISSUER_LID_F), 2u);
  EXPECT_EQ(get_be(notice, 64, 8), kPrefix) << "IssuerGID: S1, the switch at LID 2";
  EXPECT_EQ(get_be(notice, 72, 8), kS1);
}

// With answer_here (the SM has no SMP outstanding) a read-only query is answered before submit() returns,
// on the calling thread; a ServiceRecord Set, which changes the SA thread's state, still goes to the queue.
TEST(SaAgentInline, ReadOnlyQueriesAnswerOnTheCallingThread) {
  Recorder rec;
  SaAgent agent(SaAgentOptions{}, rec.sender());
  agent.start();
  agent.publish(snapshot({}));
  ASSERT_TRUE(eventually([&] { return agent.stats().serving; }));
  Mad get = request(IB_MAD_METHOD_GET, IB_SA_ATTR_NODERECORD, 1, 0, 0x55);  // NodeRecord by LID
  put16(rec_of(get), 0, 1);
  ASSERT_TRUE(agent.submit(get, from_a(), /*answer_here=*/true));
  const auto answers = rec.with_method(IB_MAD_METHOD_GET_RESPONSE);
  ASSERT_EQ(answers.size(), 1u) << "answered inside submit()";
  EXPECT_EQ(ib_get(answers[0].mad, IB_MAD_TRID_F, true), 0x55u);
  EXPECT_EQ(ib_get(answers[0].mad, IB_MAD_STATUS_F), 0u);
  EXPECT_EQ(agent.stats().answered_inline, 1u);

  Mad set = request(IB_MAD_METHOD_SET, IB_SA_ATTR_SERVICERECORD, 0x3, 0, 0x56);  // ServiceID | ServiceGID
  put64(rec_of(set), 0, 0x1234);
  put64(rec_of(set), 8, kPrefix);
  put64(rec_of(set), 16, kA + 1);
  ASSERT_TRUE(agent.submit(set, from_a(), /*answer_here=*/true));
  ASSERT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_GET_RESPONSE).size() == 2; }));
  EXPECT_EQ(agent.stats().answered_inline, 1u) << "the Set went through the SA thread";
  agent.stop();
}

// The answer latency is kept per attribute, whichever thread answered: the receive thread's NodeRecord Get
// and the SA thread's ServiceRecord Set each in its own histogram, and the whole SA's is their sum.
TEST(SaAgentInline, LatencyIsKeptByAttribute) {
  Recorder rec;
  SaAgent agent(SaAgentOptions{}, rec.sender());
  agent.start();
  agent.publish(snapshot({}));
  ASSERT_TRUE(eventually([&] { return agent.stats().serving; }));
  Mad get = request(IB_MAD_METHOD_GET, IB_SA_ATTR_NODERECORD, 1, 0, 0x57);
  put16(rec_of(get), 0, 1);
  ASSERT_TRUE(agent.submit(get, from_a(), /*answer_here=*/true));
  Mad set = request(IB_MAD_METHOD_SET, IB_SA_ATTR_SERVICERECORD, 0x3, 0, 0x58);
  put64(rec_of(set), 0, 0x1234);
  put64(rec_of(set), 8, kPrefix);
  put64(rec_of(set), 16, kA + 1);
  ASSERT_TRUE(agent.submit(set, from_a(), /*answer_here=*/true));
  ASSERT_TRUE(eventually([&] { return agent.stats().latency.count == 2; }));
  const SaStats st = agent.stats();
  ASSERT_EQ(st.latency_by_attribute.size(), 2u);
  const SaLatency& node = st.latency_by_attribute.at("NodeRecord");
  const SaLatency& service = st.latency_by_attribute.at("ServiceRecord");
  EXPECT_EQ(node.count, 1u);
  EXPECT_EQ(service.count, 1u);
  // Each answer sits in exactly one bucket of its attribute's histogram.
  EXPECT_EQ(std::accumulate(node.buckets.begin(), node.buckets.end(), std::uint64_t{0}), 1u);
  EXPECT_EQ(std::accumulate(service.buckets.begin(), service.buckets.end(), std::uint64_t{0}), 1u);
  EXPECT_DOUBLE_EQ(st.latency.sum_us, node.sum_us + service.sum_us);
  for (std::size_t b = 0; b < st.latency.buckets.size(); ++b)
    EXPECT_EQ(st.latency.buckets[b], node.buckets[b] + service.buckets[b]) << "bucket " << b;
  agent.stop();
}

// What could take long never runs on the receive thread, where the SM's own SMP answers wait behind it:
// a GetTable (it grows with the fabric) and a PathRecord Get that does not name both ports go to the SA
// thread even with answer_here; a PathRecord Get between two named ports is answered inline.
TEST(SaAgentInline, OnlyBoundedQueriesAnswerOnTheCallingThread) {
  Recorder rec;
  SaAgent agent(SaAgentOptions{}, rec.sender());
  agent.start();
  const Rig rig = make_rig({});
  agent.publish(std::make_shared<const SaSnapshot>(rig.snap));
  ASSERT_TRUE(eventually([&] { return agent.stats().serving; }));
  constexpr std::uint64_t kDlid = 1u << 4, kSlid = 1u << 5;  // PathRecord ComponentMask (IBA 15.2.5.16)
  const auto path_query = [&](std::uint8_t method, std::uint64_t mask, std::uint64_t tid) {
    Mad m = request(method, IB_SA_ATTR_PATHRECORD, mask, 0, tid);
    put16(rec_of(m), 40, rig.lid_d);  // DLID
    put16(rec_of(m), 42, rig.lid_a);  // SLID
    return m;
  };
  ASSERT_TRUE(agent.submit(path_query(IB_MAD_METHOD_GET, kSlid | kDlid, 0x61), from_a(), /*answer_here=*/true));
  ASSERT_EQ(rec.with_method(IB_MAD_METHOD_GET_RESPONSE).size(), 1u) << "A to D, both named: answered inside submit()";
  EXPECT_EQ(agent.stats().answered_inline, 1u);

  ASSERT_TRUE(agent.submit(path_query(IB_MAD_METHOD_GET, kSlid, 0x62), from_a(), /*answer_here=*/true));
  ASSERT_TRUE(agent.submit(path_query(IB_MAD_METHOD_GET_TABLE, kSlid | kDlid, 0x63), from_a(), /*answer_here=*/true));
  Mad nodes = request(IB_MAD_METHOD_GET_TABLE, IB_SA_ATTR_NODERECORD, 0, 0, 0x64);
  ASSERT_TRUE(agent.submit(nodes, from_a(), /*answer_here=*/true));
  ASSERT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_GET_RESPONSE).size() == 1u + 1u; }));
  ASSERT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_GET_TABLE_RESPONSE).size() == 2u; }));
  EXPECT_EQ(agent.stats().answered_inline, 1u) << "the other three went through the SA thread";
  agent.stop();
}

// One trap that matches many subscriptions does not become a burst: at most 16 Reports wait for their
// ReportResp at once, and each ReportResp lets the next one go.
TEST(SaAgentReports, AtMostSixteenInFlight) {
  Recorder rec;
  SaAgentOptions o;
  o.report_timeout_ms = 60000;  // no re-sends during the test
  SaAgent agent(o, rec.sender());
  agent.start();
  agent.publish(snapshot({}));
  for (std::uint16_t n = 0; n < 40; ++n) {
    Mad set = inform_set(65);
    put16(rec_of(set), 18, n);  // LIDRangeEnd: forty different subscriptions, all matching
    ASSERT_TRUE(agent.submit(set, from_a()));
  }
  ASSERT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_GET_RESPONSE).size() == 40; }));
  agent.publish(snapshot({.no_d = true}));
  ASSERT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_REPORT).size() >= 16; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto first = rec.with_method(IB_MAD_METHOD_REPORT);
  EXPECT_EQ(first.size(), 16u) << "the other 24 wait for ReportResps";
  for (std::size_t k = 0; k < 4; ++k) {
    Mad ack =
        request(IB_MAD_METHOD_REPORT_RESPONSE, IB_SA_ATTR_NOTICE, 0, 0, ib_get(first[k].mad, IB_MAD_TRID_F, true));
    ASSERT_TRUE(agent.submit(ack, from_a()));
  }
  EXPECT_TRUE(eventually([&] { return rec.with_method(IB_MAD_METHOD_REPORT).size() == 20; }));
  agent.stop();
}

}  // namespace
}  // namespace smd::sa::sa_agent_test
