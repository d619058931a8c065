// answer_exit_code: see answer_exit.h.
#include "smd/smctl/answer_exit.h"

namespace smd::smctl {

int answer_exit_code(std::string_view cmd, const control::Json& response) {
  if (!response.is_object() || !response.value("ok", false)) return kExitDaemonError;
  if (cmd != "what_if_drain") return kExitOk;
  const auto result = response.find("result");
  if (result == response.end() || !result->is_object()) return kExitWouldLosePairs;
  const auto safe = result->find("safe");
  return safe != result->end() && safe->is_boolean() && safe->get<bool>() ? kExitOk : kExitWouldLosePairs;
}

}  // namespace smd::smctl
