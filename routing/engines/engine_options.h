// Routing options as the engines take them: the routing-wide ones (routing.adaptive) plus each engine's
// own, which only that engine's folder defines, parses (its factory, engine_factory.h) and reads. Nothing
// outside an engine's folder names one of its options, so adding one touches that folder only.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

/// Base of one engine's validated options (UpdnOptions, FtreeOptions, ...). Each derived type names its
/// engine in `static constexpr std::string_view kEngine`, the key of its policy section routing.<kEngine>.
class EngineOptions {
 public:
  virtual ~EngineOptions() = default;
};

/// The options of every engine that has some, by engine name. An engine whose options were never set
/// runs with its defaults (what an absent routing.<engine> section means). Copies share the immutable
/// option objects.
class EngineOptionSet {
 public:
  /// Store `options` for `engine`, replacing what was there. The policy loader stores what each factory's
  /// parse returned; `options` must be of the type that engine's factory reads (get<T>() checks it).
  void set(std::string_view engine, std::shared_ptr<const EngineOptions> options);
  /// Typed form for code that builds options directly (tests, tools): stored under T::kEngine.
  template <class T>
  void set(T options) {
    set(T::kEngine, std::make_shared<const T>(std::move(options)));
  }

  /// The options stored for `engine`, nullptr when none were.
  const EngineOptions* find(std::string_view engine) const;
  /// T's options, or T's defaults when none (or an object of another type) were stored for T::kEngine.
  template <class T>
  const T& get() const {
    if (const auto* typed = dynamic_cast<const T*>(find(T::kEngine))) return *typed;
    static const T defaults;
    return defaults;
  }

 private:
  std::vector<std::pair<std::string, std::shared_ptr<const EngineOptions>>> entries_;
};

/// Everything an engine is built with, validated when the policy loads (config/) and consumed by the
/// engines' factories (phase two, which cannot fail).
struct RoutingOptions {
  bool adaptive = false;  ///< routing.adaptive: also compute AR groups (engines that support them)
  /// Data VLs a VL-layered engine may spread its layers over: 1 unless qos.enabled, then the policy's
  /// qos max_vls of CA ports and switch external ports, the lesser (each port still limits it by its VLCap). 1..15.
  std::uint8_t data_vls = 1;
  EngineOptionSet engines;  ///< routing.<engine>: each engine's own options, absent = its defaults
};

/// How a list of GUIDs reads in the one-line policy summary: "auto" when empty (the engine chooses),
/// else "0x%016llx" values joined by commas.
std::string summarise_guids(const std::vector<Guid>& guids);

}  // namespace smd
