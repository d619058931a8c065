// routing.updn: the options of the up*/down* engine, as updn_factory's parse accepted them.
#pragma once

#include <string_view>

#include "routing/engines/rooted_engine.h"

namespace smd {

/// routing.updn.roots: the switches ranked 0 by the BFS; empty = choose them automatically.
struct UpdnOptions : RootGuidOptions {
  static constexpr std::string_view kEngine = "updn";
  using RootGuidOptions::RootGuidOptions;
};

}  // namespace smd
