#include "routing/engines/ftree/ftree_factory.h"

#include <string>

#include "routing/engines/ftree/ftree.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {
namespace {

/// OpenSM keeps max_reverse_hops in a uint16_t.
constexpr std::uint64_t kMaxReverseHops = 0xFFFF;

std::string summarise_count(const std::vector<Guid>& guids) {
  return guids.empty() ? "none" : std::to_string(guids.size());
}

}  // namespace

bool FtreeOptions::read(OptionReader& in) {
  const bool roots_ok = read_roots(in, roots);
  const bool cn_ok = in.read_guid_list_or_file("cn_guids", cn_guids);
  const bool io_ok = in.read_guid_list_or_file("io_guids", io_guids);
  const bool hops_ok = in.read_unsigned("max_reverse_hops", 0, kMaxReverseHops, max_reverse_hops);
  return roots_ok && cn_ok && io_ok && hops_ok;
}

std::vector<OptionSummary> FtreeOptions::summary() const {
  return {{"roots", summarise_guids(roots)},
          {"cn_guids", summarise_count(cn_guids)},
          {"io_guids", summarise_count(io_guids)},
          {"max_reverse_hops", std::to_string(max_reverse_hops)}};
}

const EngineFactory& ftree_factory() {
  static const SectionEngineFactory<FtreeOptions, FatTreeEngine> factory;
  return factory;
}

}  // namespace smd
