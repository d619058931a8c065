#include "routing/engines/minhop/minhop_factory.h"

#include <string>
#include <utility>

#include "routing/engines/common/routing_order.h"
#include "routing/engines/minhop/minhop.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

bool MinhopOptions::read(OptionReader& in) {
  const bool order_ok = read_routing_order(in, guid_routing_order);
  const bool weights_ok =
      read_switch_port_file(in, "hop_weights_file", parse_hop_weights, hop_weights_file, hop_weights);
  const bool search_ok = read_switch_port_file(in, "port_search_ordering_file", parse_port_search_ordering,
                                               port_search_ordering_file, port_search_ordering);
  const bool ignore_ok = read_switch_port_file(in, "port_prof_ignore_file", parse_port_prof_ignore,
                                               port_prof_ignore_file, port_prof_ignore);
  const bool switches_ok = in.read_bool("port_profile_switch_nodes", port_profile_switch_nodes);
  const bool shifting_ok = in.read_bool("port_shifting", port_shifting);
  const bool scatter_ok = in.read_unsigned("scatter_ports", 0, 0xFFFFFFFFu, scatter_ports);
  return order_ok && weights_ok && search_ok && ignore_ok && switches_ok && shifting_ok && scatter_ok;
}

std::vector<OptionSummary> MinhopOptions::summary() const {
  const auto file = [](const std::string& path) { return path.empty() ? std::string("none") : path; };
  return {{"guid_routing_order", summarise_order(guid_routing_order)},
          {"hop_weights_file", file(hop_weights_file)},
          {"port_search_ordering_file", file(port_search_ordering_file)},
          {"port_prof_ignore_file", file(port_prof_ignore_file)},
          {"port_profile_switch_nodes", port_profile_switch_nodes ? "true" : "false"},
          {"port_shifting", port_shifting ? "on" : "off"},
          {"scatter_ports", scatter_ports == 0 ? "off" : std::to_string(scatter_ports)}};
}

const EngineFactory& minhop_factory() {
  static const SectionEngineFactory<MinhopOptions, MinHopEngine> factory;
  return factory;
}

}  // namespace smd
