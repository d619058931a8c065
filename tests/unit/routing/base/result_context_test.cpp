// SMD_RETURN_IF_ERROR / ErrorContext of routing/base/result_context.h: the code survives, the context reads
// "<outer>: <inner>: <message>", and success costs no evaluation of the context.
#include "routing/base/result_context.h"

#include <gtest/gtest.h>

#include <ios>
#include <string>

namespace smd::result_context_test {
namespace {

Status fail_with(ErrorCode code, const std::string& message) { return make_error(code, message); }

Status pass() { return Ok{}; }

/// One level up: names the file it was reading.
Status read_section(const Status& inner) {
  SMD_RETURN_IF_ERROR(inner) << "file "
                             << "/etc/smd/smd.yaml";
  return Ok{};
}

/// Two levels up: names the section, then the file level adds its part.
Status load(const Status& inner) {
  SMD_RETURN_IF_ERROR(read_section(inner)) << "section routing";
  return Ok{};
}

TEST(ResultContext, PrependsContextAndKeepsTheCode) {
  const Status got = read_section(fail_with(ErrorCode::kIo, "cannot open: No such file or directory"));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kIo);
  EXPECT_EQ(got.error().message, "file /etc/smd/smd.yaml: cannot open: No such file or directory");
}

TEST(ResultContext, OuterContextReadsFirst) {
  const Status got = load(fail_with(ErrorCode::kInvalidInput, "line 3: bad key"));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(got.error().message, "section routing: file /etc/smd/smd.yaml: line 3: bad key");
}

Status propagate_bare(const Status& inner) {
  SMD_RETURN_IF_ERROR(inner);
  return Ok{};
}

TEST(ResultContext, NoContextPassesTheErrorUnchanged) {
  const Status got = propagate_bare(fail_with(ErrorCode::kTimeout, "PortInfo"));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kTimeout);
  EXPECT_EQ(got.error().message, "PortInfo");
}

TEST(ResultContext, NumbersAndManipulatorsFormatAsOnAnOstream) {
  auto at_node = [](const Status& inner) -> Status {
    SMD_RETURN_IF_ERROR(inner) << "switch 0x" << std::hex << 0x2c90300000200ULL << std::dec << " port " << 17;
    return Ok{};
  };
  const Status got = at_node(fail_with(ErrorCode::kTimeout, "PortInfo timeout"));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message, "switch 0x2c90300000200 port 17: PortInfo timeout");
}

/// A Result<T> of one type propagates into a function returning a Result<U> of another.
Result<int> parse_count(const Result<std::string>& text, int* continued) {
  SMD_RETURN_IF_ERROR(text) << "count";
  ++*continued;
  return static_cast<int>(text->size());
}

TEST(ResultContext, WorksAcrossResultTypes) {
  int continued = 0;
  const Result<int> bad = parse_count(Result<std::string>(make_error(ErrorCode::kInvalidInput, "empty")), &continued);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(bad.error().message, "count: empty");
  EXPECT_EQ(continued, 0);

  const Result<int> good = parse_count(Result<std::string>(std::string("abcd")), &continued);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 4);
  EXPECT_EQ(continued, 1);
}

TEST(ResultContext, HappyPathEvaluatesTheExpressionOnceAndNoContext) {
  int evaluated = 0;
  int context_built = 0;
  auto count_eval = [&evaluated]() -> Status {
    ++evaluated;
    return Ok{};
  };
  auto expensive_context = [&context_built]() {
    ++context_built;
    return std::string("never");
  };
  auto body = [&]() -> Status {
    SMD_RETURN_IF_ERROR(count_eval()) << expensive_context();
    return make_error(ErrorCode::kInternal, "reached the end");
  };
  const Status got = body();
  EXPECT_EQ(evaluated, 1);
  EXPECT_EQ(context_built, 0);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message, "reached the end");  // the macro did not return; the body went on
}

TEST(ResultContext, FailurePathEvaluatesTheExpressionOnce) {
  int evaluated = 0;
  auto count_eval = [&evaluated]() -> Status {
    ++evaluated;
    return make_error(ErrorCode::kIo, "write failed");
  };
  auto body = [&]() -> Status {
    SMD_RETURN_IF_ERROR(count_eval()) << "state file";
    return Ok{};
  };
  const Status got = body();
  EXPECT_EQ(evaluated, 1);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message, "state file: write failed");
}

TEST(ResultContext, CallersElseBindsToTheCallersIf) {
  auto body = [](bool check, const Status& inner) -> Status {
    if (check)
      SMD_RETURN_IF_ERROR(inner) << "checked";
    else
      return make_error(ErrorCode::kDeclined, "not checked");
    return Ok{};
  };
  EXPECT_EQ(body(false, pass()).error().code, ErrorCode::kDeclined);
  EXPECT_TRUE(body(true, pass()).ok());
  EXPECT_EQ(body(true, fail_with(ErrorCode::kIo, "x")).error().message, "checked: x");
}

TEST(ResultContext, ContextOfAFailedResult) {
  auto body = [](const Result<std::string>& text) -> Result<int> {
    if (!text)
      return context_of(text) << "guid2lid file "
                              << "/var/cache/smd/guid2lid";
    return 0;
  };
  const Result<int> got = body(Result<std::string>(make_error(ErrorCode::kIo, "read failed")));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kIo);
  EXPECT_EQ(got.error().message, "guid2lid file /var/cache/smd/guid2lid: read failed");
}

TEST(ResultContext, ConvertsToAPlainError) {
  const Error e = ErrorContext(make_error(ErrorCode::kVerifyFailed, "loop")) << "engine "
                                                                             << "updn";
  EXPECT_EQ(e.code, ErrorCode::kVerifyFailed);
  EXPECT_EQ(e.message, "engine updn: loop");
}

}  // namespace
}  // namespace smd::result_context_test
