// GmpWindow against a scripted link: the window's bound, retries, late answers, send failures, a request
// queued from an answer, the pause while the SM sweeps and a stop. The expected counts follow from the
// limits given (1 + retries sends per silent request), not from the window's code.
#include "mad/transport/gmp_window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <map>
#include <set>
#include <thread>
#include <vector>

namespace smd::mad::gmp_window_test {
namespace {

using namespace std::chrono_literals;

struct Req {
  int id = 0;
};

// A fabric of agents behind the link: sends are recorded; `answer` says which sends are answered (by the
// send's ordinal, 0-based) at the next wait.
class ScriptedLink final : public GmpLink<Req> {
 public:
  GmpLimits lim{2, 5ms, 2};
  bool stop = false;
  std::atomic<bool> sweeping{false};  // the test's other thread ends the sweep
  int fail_id = -1;                               // sends of this request id fail
  std::function<bool(std::size_t send_no)> answer = [](std::size_t) { return true; };
  std::vector<std::pair<int, std::uint32_t>> sent;  // (request id, tid) per send
  std::vector<std::uint32_t> in_flight;             // tids sent and not yet answered
  std::size_t max_in_flight = 0;
  std::vector<Mad> extra;  // delivered at the next wait besides the answers (late or foreign MADs)
  double paused_ms = 0;
  int waits_while_sweeping = 0;

  bool stopping() const override { return stop; }
  bool paused() const override { return sweeping; }
  GmpLimits limits() const override { return lim; }
  int send(const Req& r, std::uint32_t tid) override {
    if (r.id == fail_id) return -EIO;
    sent.emplace_back(r.id, tid);
    if (answer(sent.size() - 1)) in_flight.push_back(tid);
    max_in_flight = std::max(max_in_flight, in_flight.size());  // every send is answered at the next wait
    return 0;
  }
  void wait(Clock::time_point until, std::vector<Mad>& answers) override {
    if (sweeping) ++waits_while_sweeping;
    for (const Mad& m : extra) answers.push_back(m);
    extra.clear();
    for (std::uint32_t tid : in_flight) answers.push_back(mad_with_tid(tid));
    in_flight.clear();
    if (answers.empty()) std::this_thread::sleep_until(until);
  }
  std::optional<std::uint32_t> answer_tid(const Mad& m) const override {
    if (m[1] != 0x04) return std::nullopt;
    return (std::uint32_t{m[12]} << 24) | (std::uint32_t{m[13]} << 16) | (std::uint32_t{m[14]} << 8) | m[15];
  }
  void paused_for(double ms) override { paused_ms += ms; }

  static Mad mad_with_tid(std::uint32_t tid, std::uint8_t mgmt_class = 0x04) {
    Mad m{};
    m[1] = mgmt_class;
    m[12] = static_cast<std::uint8_t>(tid >> 24);
    m[13] = static_cast<std::uint8_t>(tid >> 16);
    m[14] = static_cast<std::uint8_t>(tid >> 8);
    m[15] = static_cast<std::uint8_t>(tid);
    return m;
  }
};

struct Outcomes {
  std::map<int, int> answered;  // request id -> answers
  std::map<int, std::vector<GmpGiveUp>> given_up;
  GmpOutcome<Req> hooks() {
    return {[this](const Req& r, const GmpLink<Req>::Mad&) { ++answered[r.id]; },
            [this](const Req& r, GmpGiveUp why) { given_up[r.id].push_back(why); }};
  }
};

TEST(GmpWindow, EveryRequestIsAnsweredOnceAndTheWindowIsNeverExceeded) {
  ScriptedLink link;
  link.lim.max_outstanding = 3;
  GmpWindow<Req> window(link);
  for (int i = 0; i < 10; ++i) window.push_back({i});
  Outcomes out;
  EXPECT_TRUE(window.drain(out.hooks()));
  EXPECT_EQ(link.sent.size(), 10u);
  EXPECT_EQ(link.max_in_flight, 3u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(out.answered[i], 1) << i;
  EXPECT_TRUE(out.given_up.empty());
  std::set<std::uint32_t> tids;
  for (const auto& [id, tid] : link.sent) tids.insert(tid);
  EXPECT_EQ(tids.size(), 10u) << "one TransactionID per send";
  EXPECT_EQ(tids.count(0), 0u) << "TID 0 is never used";
  EXPECT_EQ(window.outstanding(), 0u);
}

TEST(GmpWindow, ASilentRequestIsSentOnePlusRetriesTimesThenGivenUp) {
  ScriptedLink link;
  link.lim = {4, 2ms, 2};
  link.answer = [](std::size_t) { return false; };
  GmpWindow<Req> window(link);
  window.push_back({7});
  window.push_back({8});
  Outcomes out;
  EXPECT_TRUE(window.drain(out.hooks()));
  EXPECT_EQ(link.sent.size(), 6u) << "2 requests x (1 + 2 retries)";
  EXPECT_EQ(out.given_up[7], std::vector<GmpGiveUp>{GmpGiveUp::kNoAnswer});
  EXPECT_EQ(out.given_up[8], std::vector<GmpGiveUp>{GmpGiveUp::kNoAnswer});
  EXPECT_TRUE(out.answered.empty());
}

TEST(GmpWindow, ARetryIsAnsweredAndTheLateAnswerToTheFirstAttemptIsDropped) {
  ScriptedLink link;
  link.lim = {1, 2ms, 3};
  GmpWindow<Req> window(link);
  window.push_back({1});
  Outcomes out;
  bool late_queued = false;
  // The first attempt is lost until it has timed out; then its answer arrives next to the retry's.
  link.answer = [&](std::size_t send_no) {
    if (send_no == 1 && !late_queued) {
      link.extra.push_back(ScriptedLink::mad_with_tid(link.sent[0].second));
      late_queued = true;
    }
    return send_no == 1;
  };
  EXPECT_TRUE(window.drain(out.hooks()));
  ASSERT_EQ(link.sent.size(), 2u);
  EXPECT_NE(link.sent[0].second, link.sent[1].second) << "a retry is a new transaction";
  EXPECT_EQ(out.answered.size(), 1u) << "the late answer is matched to nothing";
  EXPECT_EQ(out.answered[1], 1) << "answered once: the first attempt's answer no longer matches";
  EXPECT_TRUE(out.given_up.empty());
}

TEST(GmpWindow, AFailedSendIsGivenUpAtOnceAndNotRetried) {
  ScriptedLink link;
  link.fail_id = 2;
  GmpWindow<Req> window(link);
  for (int i = 1; i <= 3; ++i) window.push_back({i});
  Outcomes out;
  EXPECT_TRUE(window.drain(out.hooks()));
  EXPECT_EQ(out.given_up[2], std::vector<GmpGiveUp>{GmpGiveUp::kSendFailed});
  EXPECT_EQ(out.answered[1], 1);
  EXPECT_EQ(out.answered[3], 1);
  EXPECT_EQ(link.sent.size(), 2u);
}

TEST(GmpWindow, ForeignMadsAreIgnoredAndARequestQueuedFromAnAnswerIsSentFirst) {
  ScriptedLink link;
  link.lim.max_outstanding = 1;
  link.extra.push_back(ScriptedLink::mad_with_tid(1, 0x81));  // another class, same TID as the first send
  GmpWindow<Req> window(link);
  window.push_back({1});
  window.push_back({2});
  Outcomes out;
  auto hooks = out.hooks();
  hooks.answered = [&](const Req& r, const GmpLink<Req>::Mad&) {
    ++out.answered[r.id];
    if (r.id == 1) window.push_front({100});  // as a PMA redirect re-sends elsewhere
  };
  EXPECT_TRUE(window.drain(hooks));
  ASSERT_EQ(link.sent.size(), 3u);
  EXPECT_EQ(link.sent[0].first, 1);
  EXPECT_EQ(link.sent[1].first, 100) << "ahead of request 2";
  EXPECT_EQ(link.sent[2].first, 2);
  EXPECT_EQ(out.answered[1], 1);
  EXPECT_EQ(out.answered[100], 1);
}

TEST(GmpWindow, NothingIsSentWhileTheSmSweepsAndThePauseIsReported) {
  ScriptedLink link;
  link.sweeping = true;
  GmpWindow<Req> window(link);
  window.push_back({1});
  Outcomes out;
  std::thread ender([&] {  // the sweep ends 30 ms later
    std::this_thread::sleep_for(30ms);
    link.sweeping = false;
  });
  EXPECT_TRUE(window.drain(out.hooks()));
  ender.join();
  EXPECT_EQ(link.sent.size(), 1u);
  EXPECT_EQ(link.waits_while_sweeping, 0) << "with nothing in flight the window sleeps, it does not wait";
  EXPECT_GE(link.paused_ms, 20.0);
  EXPECT_EQ(out.answered[1], 1);
}

TEST(GmpWindow, AStopDropsWhatIsQueuedAndInFlight) {
  ScriptedLink link;
  link.answer = [&](std::size_t) {
    link.stop = true;  // stop arrives while the first request is in flight
    return false;
  };
  GmpWindow<Req> window(link);
  for (int i = 0; i < 5; ++i) window.push_back({i});
  Outcomes out;
  EXPECT_FALSE(window.drain(out.hooks()));
  EXPECT_EQ(window.outstanding(), 0u);
  EXPECT_TRUE(out.answered.empty());
  EXPECT_TRUE(out.given_up.empty()) << "a stop reports nothing: the pass is abandoned";
  // A later drain starts from an empty queue.
  link.stop = false;
  link.sent.clear();
  EXPECT_TRUE(window.drain(out.hooks()));
  EXPECT_TRUE(link.sent.empty());
}

}  // namespace
}  // namespace smd::mad::gmp_window_test
