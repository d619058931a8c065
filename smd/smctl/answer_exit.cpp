// answer_exit_code: see answer_exit.h.
#include "smd/smctl/answer_exit.h"

#include <string>

#include "routing/base/status.h"

namespace smd::smctl {

int answer_exit_code(std::string_view cmd, const control::Json& response) {
  if (!response.is_object()) return kExitDaemonError;
  if (!response.value("ok", false)) {
    if (cmd != "what_if_drain") return kExitDaemonError;
    const auto code = response.find("code");
    const std::string name = code != response.end() && code->is_string() ? code->get<std::string>() : "";
    if (name == to_string(ErrorCode::kInvalidInput)) return kExitBadInput;
    if (name == to_string(ErrorCode::kTimeout)) return kExitBusy;
    return kExitDaemonError;
  }
  if (cmd != "what_if_drain") return kExitOk;
  const auto result = response.find("result");
  if (result == response.end() || !result->is_object()) return kExitWouldLosePairs;
  const auto safe = result->find("safe");
  return safe != result->end() && safe->is_boolean() && safe->get<bool>() ? kExitOk : kExitWouldLosePairs;
}

}  // namespace smd::smctl
