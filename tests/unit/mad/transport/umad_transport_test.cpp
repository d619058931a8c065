// UmadTransport driven through an in-memory MadChannel: window bound and FIFO order, TID matching on the
// low 32 bits, MAD status, umad status 110, timers, retries, late answers, stop(), unsolicited MADs.
// Responses are built with libibmad's field setters, not with our own codec.
#include "mad/transport/umad_transport.h"

#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <boost/asio/executor_work_guard.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

namespace smd::mad::umad_transport_test {
namespace {

using Mad = std::array<std::uint8_t, kMadSize>;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Records every send; receive() hands out what the test injects.
class FakeChannel final : public MadChannel {
 public:
  struct Sent {
    Mad mad;
    MadAddress to;
    unsigned timeout_ms;
  };

  int send(std::span<const std::uint8_t, kMadSize> mad, const MadAddress& to, unsigned timeout_ms) override {
    std::lock_guard lock(mu_);
    Sent s;
    std::copy(mad.begin(), mad.end(), s.mad.begin());
    s.to = to;
    s.timeout_ms = timeout_ms;
    sent_.push_back(s);
    return send_rc_;
  }
  int receive(std::span<std::uint8_t, kMadSize> mad, MadAddress& from, int& status, int timeout_ms) override {
    std::unique_lock lock(mu_);
    if (!cv_.wait_for(lock, milliseconds(timeout_ms), [&] { return !inbox_.empty(); })) return 0;
    const auto& [m, f, st] = inbox_.front();
    std::copy(m.begin(), m.end(), mad.begin());
    from = f;
    status = st;
    inbox_.pop_front();
    return 1;
  }
  std::string describe() const override { return "fake port"; }
  void close() override {
    std::lock_guard lock(mu_);
    inbox_at_close_ = inbox_.size();
    closed_ = true;
  }
  // A port that answers in order: the answers still in flight at stop(), then the wake-up's own answer
  // (unless `answer_wake` is false: it is lost).
  bool wake_receiver() override {
    std::lock_guard lock(mu_);
    if (!wake_sends_) return false;
    for (const Mad& m : in_flight_at_stop_) inbox_.emplace_back(m, MadAddress{}, 0);
    if (answer_wake_) {
      Mad wake{};
      wake[1] = 0x81;
      wake[3] = 0x81;  // GetResp
      mad_set_field64(wake.data(), 0, IB_MAD_TRID_F, (0xDEADBEEFull << 32) | kWakeReceiverTid);
      inbox_.emplace_back(wake, MadAddress{}, 0);
    }
    cv_.notify_one();
    return true;
  }
  void set_wake(bool sends, bool answered, std::vector<Mad> in_flight) {
    std::lock_guard lock(mu_);
    wake_sends_ = sends;
    answer_wake_ = answered;
    in_flight_at_stop_ = std::move(in_flight);
  }
  std::size_t inbox_at_close() const {
    std::lock_guard lock(mu_);
    return inbox_at_close_;
  }

  void inject(const Mad& mad, int status = 0, MadAddress from = {}) {
    std::lock_guard lock(mu_);
    inbox_.emplace_back(mad, from, status);
    cv_.notify_one();
  }
  std::vector<Sent> sent() const {
    std::lock_guard lock(mu_);
    return sent_;
  }
  std::size_t sent_count() const {
    std::lock_guard lock(mu_);
    return sent_.size();
  }
  void fail_sends(int rc) {
    std::lock_guard lock(mu_);
    send_rc_ = rc;
  }
  bool closed() const { return closed_; }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Sent> sent_;
  std::deque<std::tuple<Mad, MadAddress, int>> inbox_;
  int send_rc_ = 0;
  std::atomic<bool> closed_{false};
  bool wake_sends_ = false;
  bool answer_wake_ = true;
  std::vector<Mad> in_flight_at_stop_;
  std::size_t inbox_at_close_ = 0;
};

// The GetResp an SMA would send to `request`: libibmad sets the fields. The high 32 TID bits are
// replaced, as the kernel and the ibsim shim do.
Mad response_to(const Mad& request, std::uint16_t status = 0, std::uint8_t first_data_byte = 0x5A) {
  Mad r = request;
  mad_set_field(r.data(), 0, IB_MAD_METHOD_F, 0x01);
  mad_set_field(r.data(), 0, IB_MAD_RESPONSE_F, 1);
  if (request[1] == 0x81) {
    mad_set_field(r.data(), 0, IB_DRSMP_STATUS_F, status);
    mad_set_field(r.data(), 0, IB_DRSMP_DIRECTION_F, 1);
  } else {
    mad_set_field(r.data(), 0, IB_MAD_STATUS_F, status);
  }
  const std::uint64_t tid = mad_get_field64(r.data(), 0, IB_MAD_TRID_F);
  mad_set_field64(r.data(), 0, IB_MAD_TRID_F, (0xDEADBEEFull << 32) | (tid & 0xFFFFFFFFull));
  r[64] = first_data_byte;
  return r;
}

std::uint32_t attr_mod_of(const Mad& m) {
  return mad_get_field(const_cast<std::uint8_t*>(m.data()), 0, IB_MAD_ATTRMOD_F);
}
std::uint64_t tid_of(const Mad& m) { return mad_get_field64(const_cast<std::uint8_t*>(m.data()), 0, IB_MAD_TRID_F); }

SmpRequest node_info_get(std::uint32_t mod = 0) {
  SmpRequest req;
  req.path = DrPath({1, 3});
  req.attr_id = attr::kNodeInfo;
  req.attr_mod = mod;
  return req;
}

class TransportTest : public ::testing::Test {
 protected:
  void make(UmadTransportOptions o) {
    auto ch = std::make_unique<FakeChannel>();
    fake_ = ch.get();
    t_ = std::make_unique<UmadTransport>(io_, std::move(ch), o);
  }
  void TearDown() override {
    if (t_) t_->stop();
  }
  // Run the io_context until `pred` holds or `limit` passes.
  template <typename Pred>
  bool run_until(Pred pred, milliseconds limit = milliseconds(3000)) {
    const auto end = Clock::now() + limit;
    while (!pred() && Clock::now() < end) io_.run_for(milliseconds(2));
    return pred();
  }
  void run_for(milliseconds d) { io_.run_for(d); }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_{io_.get_executor()};
  FakeChannel* fake_ = nullptr;
  std::unique_ptr<UmadTransport> t_;
};

TEST_F(TransportTest, WindowBoundsOutstandingAndQueueIsFifo) {
  make({.window = 4, .timeout_ms = 10000, .retries = 0});
  std::vector<int> calls(10, 0);
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < 10; ++i) {
    t_->submit(node_info_get(i), [&, i](const SmpReply& r) {
      EXPECT_EQ(r.outcome, SmpOutcome::kOk);
      ++calls[i];
      order.push_back(i);
    });
  }
  ASSERT_TRUE(run_until([&] { return fake_->sent_count() == 4; }));
  run_for(milliseconds(30));
  ASSERT_EQ(fake_->sent_count(), 4u) << "window of 4 must hold the rest back";
  EXPECT_EQ(t_->pending(), 10u);
  // Answer whatever is outstanding, oldest first, until all ten are done.
  std::size_t answered = 0;
  while (answered < 10) {
    ASSERT_TRUE(run_until([&] { return fake_->sent_count() > answered; }));
    fake_->inject(response_to(fake_->sent()[answered].mad));
    ++answered;
    ASSERT_TRUE(run_until([&] { return order.size() == answered; }));
    EXPECT_LE(fake_->sent_count() - order.size(), 4u);
  }
  const auto sent = fake_->sent();
  for (std::uint32_t i = 0; i < 10; ++i) {
    EXPECT_EQ(attr_mod_of(sent[i].mad), i) << "sends leave in submission order";
    EXPECT_EQ(calls[i], 1) << "callback " << i << " exactly once";
  }
  EXPECT_EQ(t_->pending(), 0u);
  EXPECT_EQ(t_->stats().sent, 10u);
  EXPECT_EQ(t_->stats().received, 10u);
}

TEST_F(TransportTest, MatchesOnLowTidBitsAndDeliversPayload) {
  make({.window = 8, .timeout_ms = 10000, .retries = 0});
  std::optional<SmpReply> got;
  t_->submit(node_info_get(), [&](const SmpReply& r) { got = r; });
  ASSERT_TRUE(run_until([&] { return fake_->sent_count() == 1; }));
  const auto s = fake_->sent()[0];
  EXPECT_EQ(s.to.lid, 0xFFFF) << "directed route leaves with the permissive DLID";
  EXPECT_EQ(s.to.qpn, 0u);
  EXPECT_GT(s.timeout_ms, 0u) << "the kernel must be told to expect a response";
  fake_->inject(response_to(s.mad, 0, 0x77));
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  EXPECT_EQ(got->outcome, SmpOutcome::kOk);
  EXPECT_EQ(got->attempts, 1u);
  EXPECT_EQ(got->data[0], 0x77);
}

TEST_F(TransportTest, NonZeroStatusIsBadStatusWithDirectionBitMasked) {
  make({.window = 8, .timeout_ms = 10000, .retries = 3});
  std::optional<SmpReply> got;
  t_->submit(node_info_get(), [&](const SmpReply& r) { got = r; });
  ASSERT_TRUE(run_until([&] { return fake_->sent_count() == 1; }));
  fake_->inject(response_to(fake_->sent()[0].mad, 0x1C));
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  EXPECT_EQ(got->outcome, SmpOutcome::kBadStatus);
  EXPECT_EQ(got->status, 0x1C);
  EXPECT_EQ(fake_->sent_count(), 1u) << "a bad status is an answer: no retry";
}

TEST_F(TransportTest, LidRoutedGoesToTheTargetLid) {
  make({.window = 8, .timeout_ms = 10000, .retries = 0});
  SmpRequest req = node_info_get();
  req.dlid = 0x0123;
  std::optional<SmpReply> got;
  t_->submit(req, [&](const SmpReply& r) { got = r; });
  ASSERT_TRUE(run_until([&] { return fake_->sent_count() == 1; }));
  EXPECT_EQ(fake_->sent()[0].to.lid, 0x0123);
  EXPECT_EQ(fake_->sent()[0].mad[1], 0x01);
  fake_->inject(response_to(fake_->sent()[0].mad, 0x0004));
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  EXPECT_EQ(got->outcome, SmpOutcome::kBadStatus);
  EXPECT_EQ(got->status, 0x0004);
}

TEST_F(TransportTest, UmadStatus110RetriesAtOnceThenTimesOut) {
  make({.window = 8, .timeout_ms = 20000, .retries = 2});
  std::optional<SmpReply> got;
  const auto t0 = Clock::now();
  t_->submit(node_info_get(), [&](const SmpReply& r) { got = r; });
  for (std::size_t n = 1; n <= 3; ++n) {
    ASSERT_TRUE(run_until([&] { return fake_->sent_count() == n; }));
    fake_->inject(fake_->sent()[n - 1].mad, kUmadStatusTimeout);  // the request handed back, unroutable
  }
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  EXPECT_LT(Clock::now() - t0, milliseconds(5000)) << "110 must not wait for the 20 s timer";
  EXPECT_EQ(got->outcome, SmpOutcome::kTimeout);
  EXPECT_EQ(got->attempts, 3u);
  const auto sent = fake_->sent();
  EXPECT_NE(tid_of(sent[0].mad), tid_of(sent[1].mad)) << "each attempt has its own TID";
  EXPECT_EQ(t_->stats().retries, 2u);
  EXPECT_EQ(t_->stats().timeouts, 1u);
}

TEST_F(TransportTest, TimerRetriesThenTimesOut) {
  make({.window = 8, .timeout_ms = 30, .retries = 2});
  std::optional<SmpReply> got;
  const auto t0 = Clock::now();
  t_->submit(node_info_get(), [&](const SmpReply& r) { got = r; });
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  EXPECT_GE(Clock::now() - t0, milliseconds(90)) << "three attempts of 30 ms";
  EXPECT_EQ(got->outcome, SmpOutcome::kTimeout);
  EXPECT_EQ(got->attempts, 3u);
  EXPECT_EQ(fake_->sent_count(), 3u);
}

TEST_F(TransportTest, LateAnswerToAnEarlierAttemptIsAccepted) {
  make({.window = 8, .timeout_ms = 40, .retries = 5});
  std::optional<SmpReply> got;
  t_->submit(node_info_get(), [&](const SmpReply& r) { got = r; });
  ASSERT_TRUE(run_until([&] { return fake_->sent_count() >= 2; }));
  fake_->inject(response_to(fake_->sent()[0].mad));
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  EXPECT_EQ(got->outcome, SmpOutcome::kOk);
  EXPECT_GE(got->attempts, 2u);
}

TEST_F(TransportTest, Stale110ForASupersededAttemptIsIgnored) {
  make({.window = 8, .timeout_ms = 150, .retries = 5});
  std::optional<SmpReply> got;
  t_->submit(node_info_get(), [&](const SmpReply& r) { got = r; });
  ASSERT_TRUE(run_until([&] { return fake_->sent_count() == 2; }));
  fake_->inject(fake_->sent()[0].mad, kUmadStatusTimeout);
  run_for(milliseconds(40));
  EXPECT_EQ(fake_->sent_count(), 2u) << "110 for attempt 1 must not cut attempt 2 short";
  fake_->inject(response_to(fake_->sent()[1].mad));
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  EXPECT_EQ(got->outcome, SmpOutcome::kOk);
  EXPECT_EQ(got->attempts, 2u);
}

TEST_F(TransportTest, SendErrorCompletesLaterNotInsideSubmit) {
  make({.window = 8, .timeout_ms = 10000, .retries = 3});
  fake_->fail_sends(-EIO);
  std::optional<SmpReply> got;
  t_->submit(node_info_get(), [&](const SmpReply& r) { got = r; });
  EXPECT_FALSE(got.has_value()) << "no re-entrant callback from submit()";
  ASSERT_TRUE(run_until([&] { return got.has_value(); }));
  EXPECT_EQ(got->outcome, SmpOutcome::kSendError);
}

TEST_F(TransportTest, StopCancelsQueuedAndOutstandingExactlyOnce) {
  make({.window = 2, .timeout_ms = 10000, .retries = 0});
  std::vector<int> cancelled(5, 0);
  for (int i = 0; i < 5; ++i) {
    t_->submit(node_info_get(static_cast<std::uint32_t>(i)), [&, i](const SmpReply& r) {
      EXPECT_EQ(r.outcome, SmpOutcome::kCancelled);
      ++cancelled[i];
    });
  }
  ASSERT_TRUE(run_until([&] { return fake_->sent_count() == 2; }));
  t_->stop();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(cancelled[i], 1) << i;
  EXPECT_TRUE(fake_->closed());
  EXPECT_EQ(t_->pending(), 0u);
  std::optional<SmpReply> late;
  t_->submit(node_info_get(), [&](const SmpReply& r) { late = r; });
  ASSERT_TRUE(run_until([&] { return late.has_value(); }));
  EXPECT_EQ(late->outcome, SmpOutcome::kCancelled);
  run_for(milliseconds(20));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(cancelled[i], 1) << "still exactly once: " << i;
}

// stop() must not close the port while answers are still coming to it: under ibsim's shim a MAD that arrives
// for a closed agent crashes the process. The receive thread takes everything up to the wake-up's answer.
TEST_F(TransportTest, StopTakesEveryAnswerUpToTheWakeUpBeforeClosing) {
  make({.window = 4, .timeout_ms = 10000, .retries = 0});
  int cancelled = 0;
  for (int i = 0; i < 3; ++i)
    t_->submit(node_info_get(static_cast<std::uint32_t>(i)), [&](const SmpReply&) { ++cancelled; });
  ASSERT_TRUE(run_until([&] { return fake_->sent_count() == 3; }));
  std::vector<Mad> late;
  for (const auto& s : fake_->sent()) late.push_back(response_to(s.mad));
  fake_->set_wake(true, true, late);
  t_->stop();
  EXPECT_EQ(cancelled, 3);
  EXPECT_TRUE(fake_->closed());
  EXPECT_EQ(fake_->inbox_at_close(), 0u) << "an answer was still queued on the port when it closed";
}

// A wake-up that is never answered (lost, or a port that does not answer itself) delays stop() by a bounded
// wait, never forever; one that was not sent does not delay it at all.
TEST_F(TransportTest, StopEndsWhenTheWakeUpIsLostOrNotSent) {
  for (const bool sends : {true, false}) {
    make({.window = 4, .timeout_ms = 10000, .retries = 0});
    fake_->set_wake(sends, false, {});
    t_->stop();
    EXPECT_TRUE(fake_->closed()) << sends;
  }
}

TEST_F(TransportTest, TrapsAndUnknownTidsGoToTheUnsolicitedHandler) {
  make({.window = 8, .timeout_ms = 10000, .retries = 0});
  std::vector<UnsolicitedInfo> seen;
  t_->set_unsolicited_handler(
      [&](std::span<const std::uint8_t, kMadSize>, const UnsolicitedInfo& i) { seen.push_back(i); });
  Mad trap{};
  mad_set_field(trap.data(), 0, IB_MAD_BASEVER_F, 1);
  mad_set_field(trap.data(), 0, IB_MAD_MGMTCLASS_F, 0x01);
  mad_set_field(trap.data(), 0, IB_MAD_CLASSVER_F, 1);
  mad_set_field(trap.data(), 0, IB_MAD_METHOD_F, 0x05);
  mad_set_field(trap.data(), 0, IB_MAD_ATTRID_F, 0x0002);
  MadAddress from;
  from.lid = 7;
  fake_->inject(trap, 0, from);
  Mad stray = trap;
  mad_set_field(stray.data(), 0, IB_MAD_METHOD_F, 0x01);
  mad_set_field(stray.data(), 0, IB_MAD_RESPONSE_F, 1);
  mad_set_field64(stray.data(), 0, IB_MAD_TRID_F, 0x12345678);
  fake_->inject(stray);
  ASSERT_TRUE(run_until([&] { return seen.size() == 2; }));
  EXPECT_EQ(seen[0].method, 0x05);
  EXPECT_EQ(seen[0].attr_id, 0x0002);
  EXPECT_EQ(seen[0].from.lid, 7);
  EXPECT_EQ(seen[1].method, 0x81);
  EXPECT_EQ(t_->stats().unsolicited, 2u);
}

TEST_F(TransportTest, ResponsesGoBackWhereTheRequestCameFrom) {
  make({.window = 8, .timeout_ms = 10000, .retries = 0});
  Mad resp{};
  resp[1] = 0x81;
  UnsolicitedInfo dr;
  dr.mgmt_class = 0x81;
  dr.from.lid = 0x0042;
  ASSERT_TRUE(t_->send_response(dr, resp).ok());
  resp[1] = 0x03;
  UnsolicitedInfo sa;
  sa.mgmt_class = 0x03;
  sa.from.lid = 0x0042;
  sa.from.qpn = 5;
  sa.from.qkey = 0x80010000;
  ASSERT_TRUE(t_->send_response(sa, resp).ok());
  const auto sent = fake_->sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].to.lid, 0xFFFF) << "directed route answers leave permissive";
  EXPECT_EQ(sent[0].to.qpn, 0u);
  EXPECT_EQ(sent[0].timeout_ms, 0u);
  EXPECT_EQ(sent[1].to.lid, 0x0042);
  EXPECT_EQ(sent[1].to.qpn, 5u);
  EXPECT_EQ(sent[1].to.qkey, 0x80010000u);
}

}  // namespace
}  // namespace smd::mad::umad_transport_test
