#include "smd/cli/collectives_output.h"

#include <cmath>
#include <cstdio>

#include "routing/base/safe_text.h"

namespace smd {
namespace {

/// A finite number, or null: JSON has no infinity.
nlohmann::ordered_json finite(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nullptr; }

}  // namespace

nlohmann::ordered_json hot_cables_json(const std::vector<roce::HotCable>& cables) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& c : cables) {
    out.push_back({{"from", valid_utf8(c.from)},
                   {"from_guid", format_guid(c.from_guid)},
                   {"from_port", c.from_port},
                   {"to", valid_utf8(c.to)},
                   {"to_guid", format_guid(c.to_guid)},
                   {"to_port", c.to_port},
                   {"load", c.load}});
  }
  return out;
}

nlohmann::ordered_json collectives_json(const std::vector<roce::CollectiveResult>& collectives) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& c : collectives) {
    auto schemes = nlohmann::ordered_json::array();
    for (const auto& f : c.schemes) {
      schemes.push_back({{"name", f.name},
                         {"time", finite(f.time)},
                         {"relative_time", finite(f.relative_time)},
                         {"bus_bandwidth", f.bus_bandwidth},
                         {"slowest_phase", f.slowest_phase},
                         {"slowest_phase_ratio", finite(f.slowest_phase_ratio)},
                         {"unrouted", f.unrouted},
                         {"hottest_cables", hot_cables_json(f.hottest_cables)},
                         {"cables_at_max_load", f.cables_at_max_load}});
    }
    out.push_back({{"name", c.name},
                   {"job", c.job},
                   {"leaves", c.leaves},
                   {"ranks", c.ranks},
                   {"phases", c.phases},
                   {"distinct_phases", c.distinct_phases},
                   {"flows", c.flows},
                   {"ideal_time", c.ideal_time},
                   {"bus_factor", c.bus_factor},
                   {"ideal_bus_bandwidth", c.ideal_bus_bandwidth},
                   {"schemes", std::move(schemes)}});
  }
  return out;
}

void print_collectives(std::ostream& out, const std::vector<roce::CollectiveResult>& collectives) {
  if (collectives.empty()) return;
  out << "collectives: time relative to a non-blocking fabric of the same line rate, NCCL bus bandwidth as a "
         "share of line rate\n";
  char line[320];
  std::string job;
  std::snprintf(line, sizeof line, "%-16s %-12s %6s %8s %10s %8s %8s %14s\n", "collective", "scheme", "ranks", "phases",
                "time/ideal", "busBw", "ideal-bw", "slowest-phase");
  out << line;
  for (const auto& c : collectives) {
    if (c.job != job) {
      job = c.job;
      out << "job " << job << ": " << c.ranks << " ranks on " << c.leaves << " leaves\n";
    }
    for (const auto& f : c.schemes) {
      if (f.unrouted) {
        std::snprintf(line, sizeof line, "%-16s %-12s %6zu %8llu %10s %8s %8.3f %14llu\n", c.name.c_str(),
                      f.name.c_str(), c.ranks, static_cast<unsigned long long>(c.phases), "unrouted", "-",
                      c.ideal_bus_bandwidth, static_cast<unsigned long long>(f.unrouted));
      } else {
        char slowest[32];
        std::snprintf(slowest, sizeof slowest, "%zu (x%.2f)", f.slowest_phase, f.slowest_phase_ratio);
        std::snprintf(line, sizeof line, "%-16s %-12s %6zu %8llu %10.3f %8.3f %8.3f %14s\n", c.name.c_str(),
                      f.name.c_str(), c.ranks, static_cast<unsigned long long>(c.phases), f.relative_time,
                      f.bus_bandwidth, c.ideal_bus_bandwidth, slowest);
      }
      out << line;
    }
  }
}

}  // namespace smd
