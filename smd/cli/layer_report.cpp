#include "smd/cli/layer_report.h"

#include <cstdio>

namespace smd {

void add_layer_json(nlohmann::ordered_json& j, const QualityReport& q) {
  j["layers"] = q.layers;
  if (!q.layered) return;
  j["vls_available"] = q.vls_available;
  auto layers = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < q.layer_cdg.size(); ++k) {
    const LayerCdg& c = q.layer_cdg[k];
    layers.push_back({{"layer", k},
                      {"routes", c.routes},
                      {"channels", c.channels},
                      {"edges", c.edges},
                      {"acyclic", c.acyclic},
                      {"ca_acyclic", c.ca_acyclic}});
  }
  j["layer_cdg"] = layers;
}

void print_layer_text(std::ostream& out, const QualityReport& q) {
  if (!q.layered) return;
  out << "layers        " << q.layers << " used (SL = VL = layer), ";
  if (q.vls_available) {
    out << static_cast<unsigned>(q.vls_available) << " data VLs available\n";
  } else {
    out << "data VLs available not recorded\n";
  }
  char line[256];
  for (std::size_t k = 0; k < q.layer_cdg.size(); ++k) {
    const LayerCdg& c = q.layer_cdg[k];
    std::snprintf(line, sizeof line, "layer %-7zu %llu routes, CDG %zu channels %llu edges, %s\n", k,
                  static_cast<unsigned long long>(c.routes), c.channels, static_cast<unsigned long long>(c.edges),
                  c.acyclic ? "acyclic" : (c.ca_acyclic ? "cyclic (CA-injected traffic acyclic)" : "cyclic"));
    out << line;
  }
}

}  // namespace smd
