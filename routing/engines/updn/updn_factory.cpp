#include "routing/engines/updn/updn_factory.h"

#include <string>

#include "routing/engines/common/routing_order.h"
#include "routing/engines/section_engine_factory.h"
#include "routing/engines/updn/updn.h"

namespace smd {

bool UpdnOptions::read(OptionReader& in) {
  const bool roots_ok = read_roots(in, roots);
  const bool order_ok = read_routing_order(in, guid_routing_order);
  const bool ids_ok = in.read_guid_id_map_or_file("ids", ids);
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
