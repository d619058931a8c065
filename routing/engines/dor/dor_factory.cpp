#include "routing/engines/dor/dor_factory.h"

#include "routing/engines/common/routing_order.h"
#include "routing/engines/dor/dor.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

bool DorOptions::read(OptionReader& in) { return read_routing_order(in, guid_routing_order); }

std::vector<OptionSummary> DorOptions::summary() const {
  return {{"guid_routing_order", summarise_order(guid_routing_order)}};
}

const EngineFactory& dor_factory() {
  static const SectionEngineFactory<DorOptions, DorEngine> factory;
  return factory;
}

}  // namespace smd
