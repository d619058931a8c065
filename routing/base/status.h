// Errors as values: Result<T> holds a T or an Error whose code tells the caller what to do next.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace smd {

/// What the caller should do about a failure.
enum class ErrorCode {
  kInvalidInput,  ///< fix the input (policy, netfile, guid2lid): never retry as is
  kDeclined,      ///< an engine does not handle this topology: try the next one in the chain
  kVerifyFailed,  ///< a result broke an invariant (loop, black hole, credit loop): never program it
  kTimeout,       ///< a MAD got no answer within its retries: retry later or re-sweep
  kTransport,     ///< the MAD layer failed (umad error, bad status)
  kIo,            ///< a file or socket operation failed
  kInternal,      ///< a bug
};

/// Short stable name of an ErrorCode ("invalid-input", "declined", ...).
const char* to_string(ErrorCode code);

/// An error with its context; context grows outward as the error travels up ("switch 0x... port 3: ...").
struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;

  /// Prepend caller context: Error{kTimeout,"PortInfo"}.with_context("switch 0x20") -> "switch 0x20: PortInfo".
  Error with_context(const std::string& context) const { return Error{code, context + ": " + message}; }
};

/// A value or an Error. Cheap to move; check ok() before value().
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const Error& error() const { return std::get<1>(v_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Error> v_;
};

/// Result of an operation with no value.
struct Ok {};
using Status = Result<Ok>;

inline Error make_error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

}  // namespace smd
