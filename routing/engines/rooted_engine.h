// The options ftree and updn share: a list of root switch GUIDs (routing.<engine>.roots or roots_file),
// written once here (their engine base is engine.h's SectionEngine, their registry entry a
// SectionEngineFactory); each engine keeps its algorithm and what "root" means to it.
#pragma once

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"

namespace smd {

/// Reads routing.<engine>.roots (an inline list) or roots_file (OpenSM's root_guid_file format: one GUID
/// a line) into `out`; both at once is an error at roots_file. True when nothing was wrong.
inline bool read_roots(OptionReader& in, std::vector<Guid>& out) { return in.read_guid_list_or_file("roots", out); }

/// routing.<engine>.roots as parse accepted it: non-zero, distinct GUIDs; empty = the engine chooses.
/// Whether each names a switch of the fabric is only known when routing, which refuses one that does not.
struct RootGuidOptions : EngineOptions {
  RootGuidOptions() = default;
  explicit RootGuidOptions(std::vector<Guid> root_guids) : roots(std::move(root_guids)) {}

  /// Read "roots" or "roots_file" (read_roots); false when refused.
  bool read(OptionReader& in) { return read_roots(in, roots); }
  /// "roots" as summarise_guids prints it.
  std::vector<OptionSummary> summary() const { return {{"roots", summarise_guids(roots)}}; }

  std::vector<Guid> roots;
};

}  // namespace smd
