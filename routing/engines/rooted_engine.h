// The shape ftree and updn share: an engine whose main option is a list of root switch GUIDs
// (routing.<engine>.roots or roots_file) and which may also build adaptive-routing groups. Its options, its engine base
// and its factory are written once here; each engine keeps its algorithm and what "root" means to it.
#pragma once

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/engine.h"
#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"

namespace smd {

/// routing.<engine>.roots as parse accepted it: non-zero, distinct GUIDs; empty = the engine chooses.
/// Whether each names a switch of the fabric is only known when routing, which refuses one that does not.
struct RootGuidOptions : EngineOptions {
  RootGuidOptions() = default;
  explicit RootGuidOptions(std::vector<Guid> root_guids) : roots(std::move(root_guids)) {}

  std::vector<Guid> roots;
};

/// Reads routing.<engine>.roots (an inline list) or roots_file (OpenSM's root_guid_file format: one GUID
/// a line) into `out`; both at once is an error at roots_file. True when nothing was wrong.
inline bool read_roots(OptionReader& in, std::vector<Guid>& out) {
  std::vector<Guid> inline_list;
  std::vector<Guid> from_file;
  // Both keys are read even when the first is wrong, so the earliest problem in the file is reported.
  const bool list_ok = in.read_guid_list("roots", inline_list);
  const bool file_ok = in.read_guid_list_file("roots_file", from_file);
  if (!list_ok || !file_ok) return false;
  if (!inline_list.empty() && !from_file.empty()) {
    in.fail("roots_file", "give roots or roots_file, not both");
    return false;
  }
  out = inline_list.empty() ? std::move(from_file) : std::move(inline_list);
  return true;
}

/// Base of a root-GUID engine: holds its validated options and routing.adaptive, and names itself by
/// Options::kEngine so the registry name and the engine's name cannot drift apart.
template <class Options>
class RootedEngine : public RoutingEngine {
 public:
  /// `options` as the factory validated them; `adaptive` = routing.adaptive (also build AR groups).
  RootedEngine(Options options, bool adaptive) : options_(std::move(options)), adaptive_(adaptive) {}
  std::string_view name() const override { return Options::kEngine; }

 protected:
  Options options_;
  bool adaptive_ = false;
};

/// The registry entry of a root-GUID engine: parse reads "roots" or "roots_file" (read_roots), summarise prints it as
/// summarise_guids does, create builds Engine(options, adaptive). Options derives from RootGuidOptions.
template <class Options, class Engine>
class RootedEngineFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return Options::kEngine; }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    auto options = std::make_shared<Options>();
    if (!read_roots(in, options->roots)) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    return {{"roots", summarise_guids(options.engines.get<Options>().roots)}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<Engine>(options.engines.get<Options>(), options.adaptive);
  }
};

}  // namespace smd
