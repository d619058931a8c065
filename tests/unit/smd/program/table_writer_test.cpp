// write_plan: a write is believed only when its GetResp echoes it, every answer reaches the recorder,
// and every write not believed is a problem with the right code — whatever the table. The transport
// here is scripted per request (echo, answer something else, no answer, MAD status error), so each
// expectation follows from the script alone.
#include "smd/program/table_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <string>
#include <vector>

#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"

namespace smd::table_writer_test {
namespace {

enum class Answer { kEcho, kOther, kTimeout, kBadStatus };

// Answers request i as script[i] says, on the io_context as a real transport does.
class ScriptedTransport final : public mad::SmpTransport {
 public:
  ScriptedTransport(boost::asio::io_context& io, std::vector<Answer> script) : io_(io), script_(std::move(script)) {}
  /// Answer inside submit() itself, as a transport does whose send fails at once.
  bool answer_inline = false;
  std::size_t in_flight = 0, max_in_flight = 0;
  void submit(mad::SmpRequest req, mad::SmpCallback done) override {
    max_in_flight = std::max(max_in_flight, ++in_flight);
    const Answer a = next_ < script_.size() ? script_[next_] : Answer::kEcho;
    ++next_;
    mad::SmpReply r;
    r.attempts = 1;
    r.data = req.data;
    switch (a) {
      case Answer::kEcho: r.outcome = mad::SmpOutcome::kOk; break;
      case Answer::kOther:
        r.outcome = mad::SmpOutcome::kOk;
        r.data[1] ^= 0x0F;  // LFT: entry 1; PortInfo: byte 1 of M_Key (kept by kPortLidLmc)
        if (req.attr_id == mad::attr::kPortInfo) {
          auto pi = mad::PortInfo::decode(req.data);
          pi.lid = 0;
          pi.port_state = 2;
          pi.encode(r.data);
        }
        break;
      case Answer::kTimeout:
        r.outcome = mad::SmpOutcome::kTimeout;
        r.attempts = 4;
        break;
      case Answer::kBadStatus:
        r.outcome = mad::SmpOutcome::kBadStatus;
        r.status = 0x1c;
        break;
    }
    if (answer_inline) {
      --in_flight;
      done(r);
      return;
    }
    boost::asio::post(io_, [this, done = std::move(done), r] {
      --in_flight;
      done(r);
    });
  }
  std::size_t pending() const override { return 0; }
  mad::TransportStats stats() const override { return {}; }

 private:
  boost::asio::io_context& io_;
  std::vector<Answer> script_;
  std::size_t next_ = 0;
};

struct Recorded {
  std::vector<std::string> events;
};

class ListRecorder final : public WriteRecorder {
 public:
  explicit ListRecorder(Recorded& r) : r_(r) {}
  void answered(const TableWrite& w, const mad::SmpData&, bool believed) override {
    r_.events.push_back(std::to_string(w.request.attr_mod) + (believed ? " believed" : " not echoed"));
  }
  void unanswered(const TableWrite& w) override {
    r_.events.push_back(std::to_string(w.request.attr_mod) + " unanswered");
  }

 private:
  Recorded& r_;
};

TableWrite lft_block(unsigned b) {
  TableWrite w;
  w.node = 0;
  w.guid = 0x200000;
  w.echo = EchoRule::kPayload;
  w.request.path = mad::DrPath({3});
  w.request.method = mad::Method::kSet;
  w.request.attr_id = mad::attr::kLinearForwardingTable;
  w.request.attr_mod = b;
  w.request.data.fill(static_cast<std::uint8_t>(b + 1));
  return w;
}

TableWrite port_set(PortNum port, EchoRule echo, Lid lid, std::uint8_t state) {
  TableWrite w;
  w.node = 1;
  w.port = port;
  w.guid = 0x100000;
  w.echo = echo;
  w.request.path = mad::DrPath({1});
  w.request.method = mad::Method::kSet;
  w.request.attr_id = mad::attr::kPortInfo;
  w.request.attr_mod = port;
  mad::PortInfo pi;
  pi.lid = lid;
  pi.port_state = state;
  pi.encode(w.request.data);
  return w;
}

struct WriteRun {
  WriteReport report;
  Recorded recorded;
  std::vector<SweepProblem> problems;
};

// Send `plan` through a transport answering as `script` says (inside submit() with `inline_answers`);
// the most writes it held at once goes to `max_in_flight` when given.
WriteRun run(const std::vector<TableWrite>& plan, std::vector<Answer> script, bool inline_answers = false,
             std::size_t* max_in_flight = nullptr) {
  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  ScriptedTransport transport(io, std::move(script));
  transport.answer_inline = inline_answers;
  SmpBatch batch(io, transport);
  WriteRun out;
  ListRecorder recorder(out.recorded);
  out.report = write_plan(batch, plan, recorder, out.problems);
  if (max_in_flight != nullptr) *max_in_flight = transport.max_in_flight;
  return out;
}

// 20,000 LFT block writes: the size of the port transitions of a large bring-up.
std::vector<TableWrite> many_blocks() {
  std::vector<TableWrite> plan;
  for (unsigned b = 0; b < 20000; ++b) plan.push_back(lft_block(b));
  return plan;
}

TEST(TableWriter, BelievesOnlyEchoedWritesAndNamesEveryOther) {
  const std::vector<TableWrite> plan = {lft_block(0), lft_block(1), lft_block(2), lft_block(3)};
  const WriteRun r = run(plan, {Answer::kEcho, Answer::kOther, Answer::kTimeout, Answer::kBadStatus});
  EXPECT_EQ(r.report.sent, 4u);
  EXPECT_EQ(r.report.believed, 1u);
  EXPECT_EQ(r.report.not_echoed, 1u);
  EXPECT_EQ(r.report.failed, 2u);
  ASSERT_EQ(r.report.failures.size(), 2u);
  EXPECT_EQ(r.report.failures[0].first, 2u);
  EXPECT_EQ(r.report.failures[1].first, 3u);
  EXPECT_EQ(r.recorded.events,
            (std::vector<std::string>{"0 believed", "1 not echoed", "2 unanswered", "3 unanswered"}));
  ASSERT_EQ(r.problems.size(), 3u);
  EXPECT_EQ(r.problems[0].code, ProblemCode::kNotTaken);
  EXPECT_EQ(r.problems[0].to_string(),
            "node 0x0000000000200000 at DR path 0,3: LinearForwardingTable Set block 1: block not echoed");
  EXPECT_EQ(r.problems[1].code, ProblemCode::kTimeout);
  EXPECT_EQ(r.problems[1].attribute, "LinearForwardingTable Set block 2");
  EXPECT_EQ(r.problems[1].reason, "timeout after 4 attempts");
  EXPECT_EQ(r.problems[2].code, ProblemCode::kRefused);
}

TEST(TableWriter, APortLidSetThatIsNotTakenSaysWhatThePortReports) {
  const WriteRun r = run({port_set(1, EchoRule::kPortLidLmc, 7, 0)}, {Answer::kOther});
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].code, ProblemCode::kNotTaken);
  EXPECT_EQ(r.problems[0].attribute, "PortInfo Set 1");
  EXPECT_EQ(r.problems[0].reason, "LID 7 not taken (port reports 0)");
}

TEST(TableWriter, PortStateSetsAreLeftToTheirCallersReadBack) {
  // A PortState Set is not idempotent: the writer reports it, but names no problem for it.
  const WriteRun r = run({port_set(1, EchoRule::kPortState, 0, 3), port_set(2, EchoRule::kPortState, 0, 3)},
                         {Answer::kTimeout, Answer::kOther});
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.report.failed, 1u);
  EXPECT_EQ(r.report.not_echoed, 1u);
  EXPECT_EQ(r.recorded.events, (std::vector<std::string>{"1 unanswered", "2 not echoed"}));
}

TEST(TableWriter, AnArmingLidSetIsReadBackWhenItFailsButNamedWhenItIsNotTaken) {
  // The endport Set that also arms its port: a failure may be a lost answer to a Set carried out, so the
  // caller reads the port back; an answer without the LID is a problem at once.
  const WriteRun r = run({port_set(1, EchoRule::kPortLidLmcArmed, 7, 3), port_set(2, EchoRule::kPortLidLmcArmed, 8, 3)},
                         {Answer::kTimeout, Answer::kOther});
  EXPECT_EQ(r.report.failed, 1u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].code, ProblemCode::kNotTaken);
  EXPECT_EQ(r.problems[0].attribute, "PortInfo Set 2");
  EXPECT_EQ(r.problems[0].reason, "LID 8 not taken (port reports 0)");
}

TEST(TableWriter, AHugePlanIsFedToTheTransportAFewHundredAtATime) {
  // 20,000 Sets (the port transitions of a large bring-up): the transport never holds more than the
  // writer's look-ahead, and every write is still sent once and believed.
  std::size_t max_in_flight = 0;
  const WriteRun r = run(many_blocks(), {}, false, &max_in_flight);
  EXPECT_EQ(r.report.sent, 20000u);
  EXPECT_EQ(r.report.believed, 20000u);
  EXPECT_EQ(r.recorded.events.size(), 20000u);
  EXPECT_LE(max_in_flight, 128u);
  EXPECT_GE(max_in_flight, 64u) << "enough ahead to keep a 64-SMP window full";
}

TEST(TableWriter, ATransportThatFailsInsideSubmitDoesNotRecurse) {
  // Every send fails at once, inside submit(): the writer must report all of them without re-entering
  // itself once per write (20,000 nested calls would exhaust the stack).
  const WriteRun r = run(many_blocks(), std::vector<Answer>(20000, Answer::kTimeout), /*inline_answers=*/true);
  EXPECT_EQ(r.report.failed, 20000u);
  EXPECT_EQ(r.problems.size(), 20000u);
}

TEST(TableWriter, AnEmptyPlanSendsNothing) {
  const WriteRun r = run({}, {});
  EXPECT_EQ(r.report.sent, 0u);
  EXPECT_TRUE(r.recorded.events.empty());
}

TEST(EchoRule, EachRuleComparesWhatItNames) {
  TableWrite top;
  top.echo = EchoRule::kLinearFdbTop;
  mad::SwitchInfo si;
  si.linear_fdb_top = 70;
  si.encode(top.request.data);
  mad::SwitchInfo reply = si;
  reply.port_state_change = true;  // other fields may differ
  mad::SmpData data{};
  reply.encode(data);
  EXPECT_TRUE(echoed(top, data));
  reply.linear_fdb_top = 69;
  reply.encode(data);
  EXPECT_FALSE(echoed(top, data));

  TableWrite any;
  any.echo = EchoRule::kAnswered;
  EXPECT_TRUE(echoed(any, data));
}

}  // namespace
}  // namespace smd::table_writer_test
