// `drain`, `undrain` and `what_if_drain` on the control socket's command table: what reaches the daemon
// (DaemonControl) from a request, the errors for malformed ones, and the what-if's answer arriving later
// through handle_request_async (and refused by the synchronous handle_request, which cannot wait).
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "smd/control/requests.h"
#include "tests/unit/smd/null_control.h"

namespace smd::control::drain_requests_test {
namespace {

struct DrainControl : test::NullControl {
  std::vector<std::string> parts;
  bool force = false, all = false;
  std::string requester;
  std::function<void(Result<Json>)> pending;  // the what-if's answer, held until the test releases it
  Result<Json> request_drain(const std::vector<std::string>& p, bool f, const std::string& who) override {
    parts = p;
    force = f;
    requester = who;
    return Json{{"drained", p}};
  }
  Result<Json> request_undrain(const std::vector<std::string>& p, bool a, const std::string&) override {
    parts = p;
    all = a;
    if (p.empty() && !a) return make_error(ErrorCode::kInvalidInput, "undrain: name a part, or --all");
    return Json{{"undrained", p}};
  }
  void what_if_drain(const std::vector<std::string>& p, std::function<void(Result<Json>)> done) override {
    parts = p;
    pending = std::move(done);
  }
};

TEST(DrainRequests, DrainHandsPartsForceAndRequesterOn) {
  DrainControl c;
  const Json r =
      handle_request({{"cmd", "drain"}, {"parts", {"sw-L2-0", "0x10/1"}}, {"force", true}}, c, "uid 0 pid 7");
  EXPECT_EQ(r, ok_response({{"drained", {"sw-L2-0", "0x10/1"}}}));
  EXPECT_EQ(c.parts, (std::vector<std::string>{"sw-L2-0", "0x10/1"}));
  EXPECT_TRUE(c.force);
  EXPECT_EQ(c.requester, "uid 0 pid 7");
  handle_request({{"cmd", "drain"}, {"parts", {"a"}}}, c);
  EXPECT_FALSE(c.force);  // absent = false
}

TEST(DrainRequests, MalformedDrainsNeverReachTheDaemon) {
  DrainControl c;
  EXPECT_EQ(handle_request({{"cmd", "drain"}}, c), error_response("drain needs parts: switch or cable names"));
  EXPECT_EQ(handle_request({{"cmd", "drain"}, {"parts", Json::array()}}, c),
            error_response("drain needs parts: switch or cable names"));
  EXPECT_EQ(handle_request({{"cmd", "drain"}, {"parts", "sw"}}, c),
            error_response("drain: parts must be a list of names"));
  EXPECT_EQ(handle_request({{"cmd", "drain"}, {"parts", {"sw", 3}}}, c),
            error_response("drain: every part must be a non-empty name"));
  EXPECT_EQ(handle_request({{"cmd", "drain"}, {"parts", {""}}}, c),
            error_response("drain: every part must be a non-empty name"));
  EXPECT_EQ(handle_request({{"cmd", "drain"}, {"parts", {"sw"}}, {"force", "yes"}}, c),
            error_response("drain: force must be true or false"));
  EXPECT_TRUE(c.parts.empty());
}

TEST(DrainRequests, UndrainTakesNamesOrAll) {
  DrainControl c;
  EXPECT_EQ(handle_request({{"cmd", "undrain"}, {"all", true}}, c), ok_response({{"undrained", Json::array()}}));
  EXPECT_TRUE(c.all);
  EXPECT_EQ(handle_request({{"cmd", "undrain"}, {"parts", {"sw-L2-0"}}}, c), ok_response({{"undrained", {"sw-L2-0"}}}));
  EXPECT_FALSE(c.all);
  // Neither: the daemon's own error comes back as is.
  EXPECT_EQ(handle_request({{"cmd", "undrain"}}, c), error_response("undrain: name a part, or --all"));
  EXPECT_EQ(handle_request({{"cmd", "undrain"}, {"all", 1}}, c), error_response("undrain: all must be true or false"));
}

TEST(DrainRequests, TheWhatIfAnswersWhenTheDaemonIsDone) {
  DrainControl c;
  std::optional<Json> answer;
  handle_request_async({{"cmd", "what_if_drain"}, {"parts", {"sw-L2-0"}}}, c, "", [&](Json r) { answer = r; });
  EXPECT_EQ(c.parts, std::vector<std::string>{"sw-L2-0"});
  EXPECT_FALSE(answer.has_value());  // still computing
  ASSERT_TRUE(c.pending);
  c.pending(Json{{"lost_pairs", 0}});
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(*answer, ok_response({{"lost_pairs", 0}}));
  // An error of the what-if is an error answer with its kind, which smctl's exit status reads (2, 6, 1).
  answer.reset();
  handle_request_async({{"cmd", "what_if_drain"}, {"parts", {"x"}}}, c, "", [&](Json r) { answer = r; });
  c.pending(make_error(ErrorCode::kInvalidInput, "what-if drain: no node is named 'x'"));
  Json bad_name = error_response("what-if drain: no node is named 'x'");
  bad_name["code"] = "invalid-input";
  EXPECT_EQ(*answer, bad_name);
  answer.reset();
  handle_request_async({{"cmd", "what_if_drain"}, {"parts", {"x"}}}, c, "", [&](Json r) { answer = r; });
  c.pending(make_error(ErrorCode::kTimeout, "smctl what-if drain: another what-if is running"));
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->value("code", ""), "timeout");
}

TEST(DrainRequests, AMalformedWhatIfIsAnsweredAtOnce) {
  DrainControl c;
  std::optional<Json> answer;
  handle_request_async({{"cmd", "what_if_drain"}}, c, "", [&](Json r) { answer = r; });
  ASSERT_TRUE(answer.has_value());
  Json malformed = error_response("what_if_drain needs parts: switch or cable names");
  malformed["code"] = "invalid-input";
  EXPECT_EQ(*answer, malformed);
  EXPECT_FALSE(c.pending);
}

TEST(DrainRequests, TheSynchronousEntryRefusesALaterAnswer) {
  DrainControl c;
  EXPECT_EQ(handle_request({{"cmd", "what_if_drain"}, {"parts", {"sw"}}}, c),
            error_response("'what_if_drain' is answered later"));
  EXPECT_FALSE(c.pending);  // nothing was started that would call back into a finished frame
}

}  // namespace
}  // namespace smd::control::drain_requests_test
