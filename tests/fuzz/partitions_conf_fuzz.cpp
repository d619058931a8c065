// partitions.conf import (config/partitions_conf): any text is either an error that starts with
// "fuzz.conf:LINE:COLUMN: " or partitions whose YAML (config/partitions_yaml) the policy loader reads back
// as the same partitions: the import, its writer and the loader agree (compared through the writer's text).
#include <string>

#include "config/partitions_conf.h"
#include "config/partitions_yaml.h"
#include "config/policy_loader.h"
#include "fuzz_util.h"

namespace {

bool starts_with_location(const std::string& m) {
  const std::string prefix = "fuzz.conf:";
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
  auto imported = parse_partitions_conf(std::string(reinterpret_cast<const char*>(data), size), "fuzz.conf");
  if (!imported) {
    fuzz::check(imported.error().code == ErrorCode::kInvalidInput, "import errors are kInvalidInput");
    fuzz::check(starts_with_location(imported.error().message), "import errors start with file:line:column");
    return 0;
  }
  for (const PartitionSpec& p : imported->spec.partitions) {
    fuzz::check(p.pkey >= 1 && p.pkey <= 0x7fff, "imported P_Keys are 15-bit and not 0");
  }
  auto policy = load_policy_string(partitions_yaml(imported->spec), "out.yaml");
  fuzz::check(policy.ok(), "the writer's YAML loads");
  fuzz::check(partitions_yaml(policy->partitions) == partitions_yaml(with_default_partition(imported->spec)),
              "loaded partitions equal the imported ones");
  return 0;
}
