#include "routing/engines/updn/updn_factory.h"

#include <string>

#include "routing/engines/common/routing_order.h"
#include "routing/engines/section_engine_factory.h"
#include "routing/engines/updn/updn.h"

namespace smd {
namespace {

/// ids or ids_file into `out`; both at once is an error at ids_file.
bool read_ids(OptionReader& in, std::vector<GuidId>& out) {
  std::vector<GuidId> inline_map;
  std::vector<GuidId> from_file;
  const bool map_ok = in.read_guid_id_map("ids", inline_map);
  const bool file_ok = in.read_guid_id_file("ids_file", from_file);
  if (!map_ok || !file_ok) return false;
  if (!inline_map.empty() && !from_file.empty()) {
    in.fail("ids_file", "give ids or ids_file, not both");
    return false;
  }
  out = inline_map.empty() ? std::move(from_file) : std::move(inline_map);
  return true;
}

}  // namespace

bool UpdnOptions::read(OptionReader& in) {
  const bool roots_ok = read_roots(in, roots);
  const bool order_ok = read_routing_order(in, guid_routing_order);
  const bool ids_ok = read_ids(in, ids);
  return roots_ok && order_ok && ids_ok;
}

std::vector<OptionSummary> UpdnOptions::summary() const {
  return {{"roots", summarise_guids(roots)},
          {"guid_routing_order", summarise_order(guid_routing_order)},
          {"ids", ids.empty() ? "guids" : std::to_string(ids.size())}};
}

const EngineFactory& updn_factory() {
  static const SectionEngineFactory<UpdnOptions, UpDownEngine> factory;
  return factory;
}

}  // namespace smd
