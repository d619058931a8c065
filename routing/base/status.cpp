#include "routing/base/status.h"

namespace smd {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput: return "invalid-input";
    case ErrorCode::kDeclined: return "declined";
    case ErrorCode::kVerifyFailed: return "verify-failed";
    case ErrorCode::kTimeout: return "timeout";
    case ErrorCode::kTransport: return "transport";
    case ErrorCode::kIo: return "io";
    case ErrorCode::kInternal: return "internal";
  }
  return "unknown";
}

}  // namespace smd
