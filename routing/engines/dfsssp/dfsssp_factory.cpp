#include "routing/engines/dfsssp/dfsssp_factory.h"

#include <string>
#include <vector>

#include "routing/engines/dfsssp/dfsssp.h"
#include "routing/engines/plain_engine_factory.h"
#include "routing/engines/section_engine_factory.h"
#include "routing/model/vl_layers.h"

namespace smd {

bool DfssspOptions::read(OptionReader& in) {
  const bool vls_ok = in.read_unsigned("max_vls", 0, kMaxDataVls, max_vls);
  const bool spread_ok = in.read_bool("spread_vls", spread_vls);
  return vls_ok && spread_ok;
}

std::vector<OptionSummary> DfssspOptions::summary() const {
  return {{"max_vls", max_vls == 0 ? "auto" : std::to_string(max_vls)}, {"spread_vls", spread_vls ? "on" : "off"}};
}

const EngineFactory& sssp_factory() {
  static const PlainEngineFactory<SsspEngine> factory("sssp");
  return factory;
}

const EngineFactory& dfsssp_factory() {
  static const SectionEngineFactory<DfssspOptions, DfssspEngine> factory;
  return factory;
}

}  // namespace smd
