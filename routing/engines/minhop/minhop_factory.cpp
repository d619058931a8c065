#include "routing/engines/minhop/minhop_factory.h"

#include "routing/engines/common/routing_order.h"
#include "routing/engines/minhop/minhop.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

bool MinhopOptions::read(OptionReader& in) { return read_routing_order(in, guid_routing_order); }

std::vector<OptionSummary> MinhopOptions::summary() const {
  return {{"guid_routing_order", summarise_order(guid_routing_order)}};
}

const EngineFactory& minhop_factory() {
  static const SectionEngineFactory<MinhopOptions, MinHopEngine> factory;
  return factory;
}

}  // namespace smd
