// The VL-layering part of the `smd plan` report: layers used, the data VLs available, and each
// layer's channel-dependency graph (VerifyReport::layer_cdg via QualityReport).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "routing/quality/report.h"

namespace smd {

/// Adds "layers" (1 when not layered) and, for layered tables, "vls_available" (0 = not recorded) and
/// "layer_cdg": [{layer, routes, channels, edges, acyclic, ca_acyclic}] to a plan's JSON object.
void add_layer_json(nlohmann::ordered_json& j, const QualityReport& q);

/// Text lines for layered tables: "layers" (used, of how many VLs) and one "layer <k>" line per layer.
/// Nothing for tables that are not layered, so the single-VL report reads as before.
void print_layer_text(std::ostream& out, const QualityReport& q);

}  // namespace smd
