// Names of SmpOutcome values for logs and error messages.
#include "mad/transport.h"

namespace smd::mad {

const char* to_string(SmpOutcome outcome) {
  switch (outcome) {
    case SmpOutcome::kOk: return "ok";
    case SmpOutcome::kBadStatus: return "bad-status";
    case SmpOutcome::kTimeout: return "timeout";
    case SmpOutcome::kSendError: return "send-error";
    case SmpOutcome::kCancelled: return "cancelled";
  }
  return "unknown";
}

}  // namespace smd::mad
