// Propagating an error upward while saying where it happened: SMD_RETURN_IF_ERROR(expr) << "context".
//
// A low layer knows what failed ("cannot open: No such file"); only its caller knows which file, node or
// section it was working on. These helpers let each caller on the way up add that piece without losing
// the ErrorCode, which is what tells the top what to do next (fix the input, retry, ...).
// Format, fixed so logs and tests can rely on it: the pieces streamed into one ErrorContext are joined
// as written and prepended as "<context>: <message>" (Error::with_context); each level up prepends again,
// so the outermost context reads first. With nothing streamed, the error passes unchanged.
// Cost: nothing on success. The expression is evaluated once; the context pieces are evaluated only when
// it failed (they sit in the return statement of the failure branch).
#pragma once

#include <sstream>
#include <string>
#include <utility>

#include "routing/base/status.h"

namespace smd {

/// An Error on its way out of a function; `<<` collects context (anything an ostream prints), and it
/// converts to Error or to any Result<T> at the return, prepending the context then.
class [[nodiscard]] ErrorContext {
 public:
  explicit ErrorContext(Error error) : error_(std::move(error)) {}

  /// Appends one piece of context (text, numbers, ...) to what will be prepended.
  template <typename V>
  ErrorContext& operator<<(const V& piece) & {
    context_ << piece;
    return *this;
  }
  template <typename V>
  ErrorContext&& operator<<(const V& piece) && {
    context_ << piece;
    return std::move(*this);
  }

  /// The error with the collected context prepended; unchanged when none was given.
  Error error() const {
    std::string context = context_.str();
    return context.empty() ? error_ : error_.with_context(context);
  }
  operator Error() const { return error(); }  // NOLINT(google-explicit-constructor)
  template <typename T>
  operator Result<T>() const {  // NOLINT(google-explicit-constructor)
    return Result<T>(error());
  }

 private:
  Error error_;
  std::ostringstream context_;
};

/// The error of a failed Result, ready for context: `if (!text) return context_of(text) << "file " << p;`.
/// Precondition: !result.ok().
template <typename T>
ErrorContext context_of(const Result<T>& result) {
  return ErrorContext(result.error());
}

}  // namespace smd

// The switch keeps a following `else` of the caller's from binding to the macro's inner if.
#define SMD_RESULT_CONTEXT_CONCAT_INNER(a, b) a##b
#define SMD_RESULT_CONTEXT_CONCAT(a, b) SMD_RESULT_CONTEXT_CONCAT_INNER(a, b)

/// Evaluates expr (a Status or any Result<T>) once; on failure returns its error from the enclosing
/// function (which returns Error, Status or Result<U>) with whatever is streamed after it prepended:
///   SMD_RETURN_IF_ERROR(pending.commit()) << "RoCE plan directory " << dir;
#define SMD_RETURN_IF_ERROR(expr)                                         \
  switch (0)                                                              \
  case 0:                                                                 \
  default:                                                                \
    if (auto&& SMD_RESULT_CONTEXT_CONCAT(smd_result_, __LINE__) = (expr); \
        SMD_RESULT_CONTEXT_CONCAT(smd_result_, __LINE__).ok()) {          \
    } else                                                                \
      return ::smd::ErrorContext(SMD_RESULT_CONTEXT_CONCAT(smd_result_, __LINE__).error())
