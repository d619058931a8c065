#include "routing/qos/qos_spec.h"

namespace smd {

QosPortSpec default_qos_port_spec() {
  QosPortSpec spec;
  for (std::uint8_t vl = 0; vl < 15; ++vl) {
    spec.vlarb_high.push_back({vl, static_cast<std::uint8_t>(vl == 0 ? 4 : 0)});
    spec.vlarb_low.push_back({vl, static_cast<std::uint8_t>(vl == 0 ? 0 : 4)});
  }
  for (std::uint8_t sl = 0; sl < 15; ++sl) spec.sl2vl[sl] = sl;
  spec.sl2vl[15] = 7;
  return spec;
}

}  // namespace smd
