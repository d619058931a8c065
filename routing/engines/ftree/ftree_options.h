// routing.ftree: the options of the fat-tree engine, as ftree_factory's parse accepted them.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/engine_options.h"

namespace smd {

struct FtreeOptions : EngineOptions {
  static constexpr std::string_view kEngine = "ftree";

  FtreeOptions() = default;
  explicit FtreeOptions(std::vector<Guid> root_guids) : roots(std::move(root_guids)) {}

  /// routing.ftree.roots: top-level (spine) switch GUIDs; empty = infer from the topology. Non-zero and
  /// distinct (parse); whether each names a switch of the fabric is only known when routing, which refuses
  /// one that does not.
  std::vector<Guid> roots;
};

}  // namespace smd
