#include "routing/engines/dor/dor_factory.h"

#include <string>

#include "routing/engines/common/routing_order.h"
#include "routing/engines/dor/dor.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

bool DorOptions::read(OptionReader& in) {
  const bool order_ok = read_routing_order(in, guid_routing_order);
  const bool search_ok = read_switch_port_file(in, "port_search_ordering_file", parse_port_search_ordering,
                                               port_search_ordering_file, port_search_ordering);
  return order_ok && search_ok;
}

std::vector<OptionSummary> DorOptions::summary() const {
  return {{"guid_routing_order", summarise_order(guid_routing_order)},
          {"port_search_ordering_file", port_search_ordering_file.empty() ? "none" : port_search_ordering_file}};
}

const EngineFactory& dor_factory() {
  static const SectionEngineFactory<DorOptions, DorEngine> factory;
  return factory;
}

}  // namespace smd
