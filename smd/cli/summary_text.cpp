#include "smd/cli/summary_text.h"

#include <iomanip>

#include "routing/base/safe_text.h"

namespace smd {

void print_summary(std::ostream& out, const SweepSummary& s, unsigned attempt) {
  out << "smd sweep " << attempt;
  if (s.resumed) out << " (re-sweep of " << s.gaps << " unread attributes)";
  out << ": " << (s.subnet_up ? "SUBNET UP" : "SUBNET NOT UP") << "\n";
  out << "  fabric:   " << s.switches << " switches, " << s.cas << " CAs, " << s.links << " links, " << s.lids
      << " ports with LIDs\n";
  out << "  routing:  engine " << (s.engine.empty() ? "-" : s.engine);
  // Reasons and problems may name nodes by NodeDescription: printed without control characters.
  for (const auto& d : s.declined) out << "; declined " << printable_text(d);
  out << "\n";
  out << "  SMPs:     " << s.smps_sent << " sent, " << s.retries << " retries, " << s.timeouts << " timeouts";
  if (s.discovery_rounds) out << "; discovery asked again " << s.discovery_rounds << "x";
  out << "\n";
  out << "  writes:   " << s.port_sets << " PortInfo Sets, " << s.lft_blocks_written << " LFT blocks written, "
      << s.lft_blocks_skipped << " unchanged\n";
  out << "  phases:\n";
  for (const PhaseTime& p : s.phases) {
    out << "    " << std::left << std::setw(48) << p.phase << std::right << std::fixed << std::setprecision(1)
        << std::setw(10) << p.ms << " ms\n";
  }
  out << "    " << std::left << std::setw(48) << "total" << std::right << std::setw(10) << s.total_ms << " ms\n";
  if (!s.problems.empty()) {
    out << "  problems (" << s.problems.size() << "):\n";
    const std::size_t shown = std::min<std::size_t>(s.problems.size(), 50);
    for (std::size_t i = 0; i < shown; ++i) out << "    " << printable_text(s.problems[i].to_string()) << "\n";
    if (shown < s.problems.size()) out << "    ... and " << s.problems.size() - shown << " more\n";
  }
  out.flush();
}

}  // namespace smd
