// routing.ftree: the options of the fat-tree engine, as ftree_factory's parse accepted them.
#pragma once

#include <string_view>

#include "routing/engines/rooted_engine.h"

namespace smd {

/// routing.ftree.roots: the top-level (spine) switch GUIDs; empty = infer the levels from the topology.
struct FtreeOptions : RootGuidOptions {
  static constexpr std::string_view kEngine = "ftree";
  using RootGuidOptions::RootGuidOptions;
};

}  // namespace smd
