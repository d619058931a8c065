// Names of SmpOutcome values for logs and error messages.
#include "mad/transport/transport.h"

#include <cstdio>

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

std::string describe_failure(const SmpReply& reply) {
  if (reply.outcome == SmpOutcome::kBadStatus) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "MAD status 0x%04x", reply.status);
    return buf;
  }
  return std::string(to_string(reply.outcome)) + " after " + std::to_string(reply.attempts) + " attempts";
}

}  // namespace smd::mad
