#include "routing/engines/engine_options.h"

#include <algorithm>

#include "routing/model/topology.h"

namespace smd {

void EngineOptionSet::set(std::string_view engine, std::shared_ptr<const EngineOptions> options) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == engine; });
  if (it != entries_.end()) {
    it->second = std::move(options);
  } else {
    entries_.emplace_back(std::string(engine), std::move(options));
  }
}

const EngineOptions* EngineOptionSet::find(std::string_view engine) const {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == engine; });
  return it == entries_.end() ? nullptr : it->second.get();
}

std::string summarise_guids(const std::vector<Guid>& guids) {
  if (guids.empty()) return "auto";
  std::string out;
  for (Guid guid : guids) out += (out.empty() ? "" : ",") + format_guid(guid);
  return out;
}

}  // namespace smd
