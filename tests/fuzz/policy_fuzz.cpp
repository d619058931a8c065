// Policy loader (config/policy_loader): any text is either a Policy whose values are in their documented
// ranges or an error that starts with "fuzz.yaml:LINE:COLUMN: " (an operator can always find the place).
#include <string>

#include "config/policy_loader.h"
#include "config/policy_summary.h"
#include "fuzz_util.h"

namespace {

bool starts_with_location(const std::string& m) {
  const std::string prefix = "fuzz.yaml:";
  if (m.rfind(prefix, 0) != 0) return false;
  std::size_t i = prefix.size();
  for (int field = 0; field < 2; ++field) {
    const std::size_t start = i;
    while (i < m.size() && m[i] >= '0' && m[i] <= '9') ++i;
    if (i == start || i >= m.size() || m[i] != ':') return false;
    ++i;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  auto policy = load_policy_string(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  if (!policy) {
    fuzz::check(policy.error().code == ErrorCode::kInvalidInput, "policy errors are kInvalidInput");
    fuzz::check(starts_with_location(policy.error().message), "policy errors start with file:line:column");
    return 0;
  }
  fuzz::check(policy->sm.priority <= 15 && policy->lid.lmc <= 7, "SMInfo priority and LMC in range");
  fuzz::check(policy->mad.window >= 1 && policy->mad.window <= 64, "MAD window in range");
  fuzz::check(!policy->routing.engines.empty() && !policy->sm.state_dir.empty(), "engines and state_dir set");
  fuzz::check(!summarize_policy(*policy).empty(), "a loaded policy can be summarised");
  return 0;
}
