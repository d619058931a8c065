#include "routing/engines/nue/nue_factory.h"

#include <string>

#include "routing/engines/nue/nue.h"
#include "routing/engines/section_engine_factory.h"
#include "routing/model/vl_layers.h"

namespace smd {

bool NueOptions::read(OptionReader& in) {
  const bool vls_ok = in.read_unsigned("max_vls", 0, kMaxDataVls, max_vls);
  const bool switches_ok = in.read_bool("include_switches", include_switches);
  return vls_ok && switches_ok;
}

std::vector<OptionSummary> NueOptions::summary() const {
  return {{"max_vls", max_vls == 0 ? "auto" : std::to_string(max_vls)},
          {"include_switches", include_switches ? "on" : "off"}};
}

const EngineFactory& nue_factory() {
  static const SectionEngineFactory<NueOptions, NueEngine> factory;
  return factory;
}

}  // namespace smd
