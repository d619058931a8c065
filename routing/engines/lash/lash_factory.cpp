#include "routing/engines/lash/lash_factory.h"

#include <string>

#include "routing/engines/lash/lash.h"
#include "routing/engines/section_engine_factory.h"
#include "routing/model/vl_layers.h"

namespace smd {

bool LashOptions::read(OptionReader& in) {
  const bool vls_ok = in.read_unsigned("max_vls", 0, kMaxDataVls, max_vls);
  const bool spread_ok = in.read_bool("spread_vls", spread_vls);
  return vls_ok && spread_ok;
}

std::vector<OptionSummary> LashOptions::summary() const {
  return {{"max_vls", max_vls == 0 ? "auto" : std::to_string(max_vls)}, {"spread_vls", spread_vls ? "on" : "off"}};
}

const EngineFactory& lash_factory() {
  static const SectionEngineFactory<LashOptions, LashEngine> factory;
  return factory;
}

}  // namespace smd
