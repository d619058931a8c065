#include "routing/engines/torus_2qos/torus_2qos_factory.h"

#include <array>
#include <string>

#include "routing/engines/section_engine_factory.h"
#include "routing/engines/torus_2qos/torus_2qos.h"

namespace smd {
namespace {

constexpr std::size_t kMaxTorusConfBytes = 1 << 20;
constexpr std::array<const char*, kTorusDims> kDimNames = {"x", "y", "z"};

/// The inline keys into `g`; true when any was given (`given`), false when one was refused.
bool read_inline(OptionReader& in, TorusGeometry& g, bool& given) {
  bool ok = true;
  TorusSeed seed;
  for (unsigned d = 0; d < kTorusDims; ++d) {
    const std::string dim = kDimNames[d];
    unsigned radix = 1;  // the default the policy's effective view shows
    ok = in.read_unsigned(dim + "_radix", 1, 255, radix) && ok;
    g.radix[d] = radix;
    given = given || radix > 1;
    bool mesh = false;
    ok = in.read_bool(dim + "_mesh", mesh) && ok;
    g.ring[d] = !mesh;
    unsigned dateline = 0;
    ok = in.read_unsigned(dim + "_dateline", 0, 255, dateline) && ok;
    seed.dateline[d] = static_cast<int>(dateline);
    for (unsigned plus = 0; plus < 2; ++plus) {
      const std::string key = dim + (plus ? "p" : "m") + "_link";
      std::vector<Guid> link;
      if (!in.read_guid_list(key, link)) {
        ok = false;
        continue;
      }
      if (link.empty()) continue;
      given = true;
      if (link.size() != 2) {
        in.fail(key, "a link is two switch GUIDs, [from, to]");
        ok = false;
        continue;
      }
      if (seed.origin != 0 && seed.origin != link[0]) {
        in.fail(key, "every seed link must start at the same switch");
        ok = false;
        continue;
      }
      seed.origin = link[0];
      seed.neighbour[2 * d + plus] = link[1];
    }
  }
  if (seed.origin != 0) g.seeds.push_back(seed);
  return ok;
}

}  // namespace

bool Torus2QosOptions::read(OptionReader& in) {
  OptionReader::File file;
  const bool file_ok = in.read_file("config_file", kMaxTorusConfBytes, file);
  bool given = false;
  TorusGeometry inline_geometry;
  const bool inline_ok = read_inline(in, inline_geometry, given);
  if (!file_ok || !inline_ok) return false;
  if (!file.path.empty()) {
    if (given) {
      in.fail("config_file", "give config_file or the inline geometry (x_radix, xp_link, ...), not both");
      return false;
    }
    auto parsed = parse_torus_conf(file.text, file.resolved);
    if (!parsed) {
      in.fail("config_file", parsed.error().message);
      return false;
    }
    config_file = file.path;
    geometry = std::move(*parsed);
  } else {
    geometry = std::move(inline_geometry);
  }
  if (geometry.switches() > 1 && geometry.seeds.empty()) {
    in.fail(file.path.empty() ? "xp_link" : "config_file", "a torus needs a seed: xp_link (and yp_link, zp_link) from one switch");
    return false;
  }
  return true;
}

std::vector<OptionSummary> Torus2QosOptions::summary() const {
  std::string shape;
  for (unsigned d = 0; d < kTorusDims; ++d) {
    shape += (d ? "x" : "") + std::to_string(geometry.radix[d]) + (geometry.ring[d] ? "" : "m");
  }
  return {{"geometry", geometry.switches() > 1 ? shape : "none"},
          {"config_file", config_file.empty() ? "none" : config_file}};
}

const EngineFactory& torus_2qos_factory() {
  static const SectionEngineFactory<Torus2QosOptions, Torus2QosEngine> factory;
  return factory;
}

}  // namespace smd
