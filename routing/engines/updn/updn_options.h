// routing.updn: the options of the up*/down* engine, as updn_factory's parse accepted them.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/engine_options.h"

namespace smd {

struct UpdnOptions : EngineOptions {
  static constexpr std::string_view kEngine = "updn";

  UpdnOptions() = default;
  explicit UpdnOptions(std::vector<Guid> root_guids) : roots(std::move(root_guids)) {}

  /// routing.updn.roots: root switch GUIDs; empty = choose automatically. Non-zero and distinct (parse);
  /// whether each names a switch of the fabric is only known when routing, which refuses one that does not.
  std::vector<Guid> roots;
};

}  // namespace smd
