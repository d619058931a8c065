#include "routing/engines/dfsssp/dfsssp_factory.h"

#include <string>
#include <vector>

#include "routing/engines/common/routing_order.h"
#include "routing/engines/dfsssp/dfsssp.h"
#include "routing/engines/section_engine_factory.h"
#include "routing/model/vl_layers.h"

namespace smd {

bool DfssspOptions::read(OptionReader& in) {
  const bool vls_ok = in.read_unsigned("max_vls", 0, kMaxDataVls, max_vls);
  const bool spread_ok = in.read_bool("spread_vls", spread_vls);
  const bool order_ok = read_routing_order(in, guid_routing_order);
  return vls_ok && spread_ok && order_ok;
}

std::vector<OptionSummary> DfssspOptions::summary() const {
  return {{"max_vls", max_vls == 0 ? "auto" : std::to_string(max_vls)},
          {"spread_vls", spread_vls ? "on" : "off"},
          {"guid_routing_order", summarise_order(guid_routing_order)}};
}

const EngineFactory& sssp_factory() {
  static const SectionEngineFactory<SsspOptions, SsspEngine> factory;
  return factory;
}

const EngineFactory& dfsssp_factory() {
  static const SectionEngineFactory<DfssspOptions, DfssspEngine> factory;
  return factory;
}

}  // namespace smd
