// report_text: see report_text.h.
#include "routing/roce/report_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "routing/base/safe_text.h"
#include "routing/roce/figure_text.h"

namespace smd::roce {
namespace {
std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += i == 0 ? "" : (i + 1 == items.size() ? " and " : ", ");
    out += items[i];
  }
  return out;
}

std::string job_text(const CollectiveResult& c) {
  return c.job == "all" ? std::string("whole fabric") : "job " + printable_text(c.job);
}

/// Same value, for figures computed from the same counts by different schemes.
bool same(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return std::isfinite(a) == std::isfinite(b);
  return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(a));
}

/// Slowest / fastest finite relative time of a collective (1 when fewer than two are finite).
double spread(const CollectiveResult& c) {
  double lo = INFINITY, hi = 0;
  for (const auto& f : c.schemes) {
    if (!std::isfinite(f.relative_time)) continue;
    lo = std::min(lo, f.relative_time);
    hi = std::max(hi, f.relative_time);
  }
  return lo > 0 && std::isfinite(lo) ? hi / lo : 1.0;
}

/// "the hottest cable A[1] -> B[2] carries 4 flows (and 11 more cables as much)".
std::string hottest_clause(const std::vector<HotCable>& cables, std::uint32_t at_max) {
  if (cables.empty()) return "no switch cable carries a flow";
  std::string s = "its hottest switch cable " + cable_text(cables[0]) + " carries " + load_text(cables[0].load) +
                  (cables[0].load == 1 ? " flow" : " flows");
  if (at_max > 1) s += " (" + std::to_string(at_max - 1) + " more cables as much)";
  return s;
}

/// One collective whose schemes differ: the slowest, the fastest, and why (their hottest cables).
std::string collective_finding(const CollectiveResult& c) {
  std::vector<std::string> unrouted, fastest, slowest;
  double lo = INFINITY, hi = 0;
  for (const auto& f : c.schemes) {
    if (!std::isfinite(f.relative_time)) continue;
    lo = std::min(lo, f.relative_time);
    hi = std::max(hi, f.relative_time);
  }
  const CollectiveFigures* worst = nullptr;
  const CollectiveFigures* best = nullptr;
  for (const auto& f : c.schemes) {
    if (!std::isfinite(f.relative_time)) {
      unrouted.push_back(f.name);
    } else if (same(f.relative_time, hi)) {
      slowest.push_back(f.name);
      if (!worst) worst = &f;
    } else if (same(f.relative_time, lo)) {
      fastest.push_back(f.name);
      if (!best) best = &f;
    }
  }
  std::string s = printable_text(c.name) + " (" + job_text(c) + ", " + std::to_string(c.ranks) + " ranks on " +
                  std::to_string(c.leaves) + " leaves): ";
  if (worst) {
    s += joined(slowest) + (slowest.size() > 1 ? " are" : " is") + " slowest at " + relative_text(hi) +
         " x ideal (bus bandwidth " + relative_text(worst->bus_bandwidth) + " of line rate)";
    if (best)
      s += ", " + joined(fastest) + " reach" + (fastest.size() > 1 ? "" : "es") + " " + relative_text(lo) + " x";
    s += ". Why: in " + worst->name + "'s slowest phase (phase " + std::to_string(worst->slowest_phase) + ", " +
         relative_text(worst->slowest_phase_ratio) + " x its ideal) " +
         hottest_clause(worst->hottest_cables, worst->cables_at_max_load);
    if (best) {
      s += "; under " + best->name + " " + hottest_clause(best->hottest_cables, best->cables_at_max_load);
    }
    s += ".";
  }
  if (!unrouted.empty()) {
    s += std::string(worst ? " " : "") + joined(unrouted) + " never finish: flows without a route.";
  }
  return s;
}

void collective_findings(const Comparison& cmp, std::vector<std::string>& out) {
  std::vector<std::string> alike;
  for (const auto& c : cmp.collectives) {
    bool all_same = true;
    for (const auto& f : c.schemes) all_same &= same(f.relative_time, c.schemes.front().relative_time);
    if (all_same && !c.schemes.empty()) {
      alike.push_back(printable_text(c.name) + " (" + job_text(c) + ") " +
                      relative_text(c.schemes.front().relative_time) + " x");
    } else {
      out.push_back(collective_finding(c));
    }
  }
  if (!alike.empty()) {
    out.push_back("The same time under every scheme: " + joined(alike) +
                  " ideal (no routing loses anything there: no switch cable carries more than its share).");
  }
}

void hottest_finding(const Comparison& cmp, const std::string& when, std::vector<std::string>& out) {
  const ReportFocus focus = report_focus(cmp);
  if (focus.kind == ReportFocus::Kind::kNone) return;
  std::vector<std::string> per_scheme;
  auto add = [&](const std::string& scheme, const std::vector<HotCable>& cables, std::uint32_t at_max) {
    if (cables.empty()) {
      per_scheme.push_back(scheme + ": no switch cable used");
      return;
    }
    std::vector<std::string> names;
    for (const auto& c : cables) names.push_back(cable_text(c) + " (" + load_text(c.load) + ")");
    per_scheme.push_back(
        scheme + ": " + joined(names) +
        (at_max > cables.size() ? ", " + std::to_string(at_max) + " cables at the top load" : std::string()));
  };
  const bool collective = focus.kind == ReportFocus::Kind::kCollective;
  if (collective) {
    for (const auto& f : cmp.collectives[focus.index].schemes) add(f.name, f.hottest_cables, f.cables_at_max_load);
  } else {
    for (const auto& f : cmp.patterns[focus.index].schemes) add(f.name, f.hottest_cables, f.cables_at_max_load);
  }
  out.push_back("Hottest switch cables " + when + "in " + focus_label(cmp, focus) +
                (collective ? "'s slowest phase" : "") + ", flows on each (marked on the fabric): " +
                [&] {
                  std::string s;
                  for (std::size_t i = 0; i < per_scheme.size(); ++i) s += (i ? "; " : "") + per_scheme[i];
                  return s;
                }() +
                ".");
}

void pattern_findings(const Comparison& cmp, std::vector<std::string>& out) {
  for (const auto& p : cmp.patterns) {
    if (p.schemes.empty()) continue;
    auto by = [&](auto value, bool highest) {
      double v = value(p.schemes.front());
      for (const auto& f : p.schemes) v = highest ? std::max(v, value(f)) : std::min(v, value(f));
      std::vector<std::string> names;
      for (const auto& f : p.schemes)
        if (same(value(f), v)) names.push_back(f.name);
      return std::make_pair(v, joined(names));
    };
    auto throughput = [](const SchemeFigures& f) { return f.maxmin_throughput; };
    auto load = [](const SchemeFigures& f) { return f.max_switch_link_load; };
    const auto [t_lo, t_lo_names] = by(throughput, false);
    const auto [t_hi, t_hi_names] = by(throughput, true);
    const auto [l_lo, l_lo_names] = by(load, false);
    const auto [l_hi, l_hi_names] = by(load, true);
    out.push_back("Pattern " + printable_text(p.name) + " (" + std::to_string(p.instances) +
                  " instances): max-min throughput per flow " + share_text(t_lo) + " of line rate under " + t_lo_names +
                  ", " + share_text(t_hi) + " under " + t_hi_names + "; the most loaded switch cable carries " +
                  load_text(l_lo) + " flows under " + l_lo_names + ", " + load_text(l_hi) + " under " + l_hi_names +
                  ".");
  }
}

/// Every collective and pattern figure the loss changed, scheme by scheme.
void loss_findings(const Comparison& before, const Comparison& after, const std::string& loss_text,
                   const std::string& ib_tables, std::vector<std::string>& out) {
  out.push_back("After losing " + printable_text(loss_text) + " (IB static: " + printable_text(ib_tables) +
                "; IB adaptive: around the loss at once; RoCE: the FIB BGP converges to on the remaining cables):");
  std::vector<std::string> unchanged;
  for (std::size_t i = 0; i < before.collectives.size() && i < after.collectives.size(); ++i) {
    const auto& b = before.collectives[i];
    const auto& a = after.collectives[i];
    std::vector<std::string> changes;
    for (std::size_t k = 0; k < b.schemes.size() && k < a.schemes.size(); ++k) {
      const auto& fb = b.schemes[k];
      const auto& fa = a.schemes[k];
      if (same(fb.relative_time, fa.relative_time)) continue;
      std::string c =
          fa.name + " " + relative_text(fb.relative_time) + " -> " + relative_text(fa.relative_time) + " x ideal";
      if (!fa.hottest_cables.empty() && std::isfinite(fa.relative_time)) {
        c += " (hottest after: " + cable_text(fa.hottest_cables[0]) + ", " + load_text(fa.hottest_cables[0].load) +
             " flows; before " + (fb.hottest_cables.empty() ? std::string("0") : load_text(fb.hottest_cables[0].load)) +
             ")";
      }
      if (fa.unrouted > fb.unrouted) c += " (" + std::to_string(fa.unrouted) + " flows without a route)";
      changes.push_back(c);
    }
    const std::string what = printable_text(b.name) + " (" + job_text(b) + ")";
    if (changes.empty()) {
      unchanged.push_back(what);
    } else {
      out.push_back(what + " after the loss: " + joined(changes) + ".");
    }
  }
  if (!unchanged.empty()) out.push_back("Unchanged by the loss under every scheme: " + joined(unchanged) + ".");
  for (std::size_t i = 0; i < before.patterns.size() && i < after.patterns.size(); ++i) {
    std::vector<std::string> changes;
    for (std::size_t k = 0; k < before.patterns[i].schemes.size() && k < after.patterns[i].schemes.size(); ++k) {
      const auto& fb = before.patterns[i].schemes[k];
      const auto& fa = after.patterns[i].schemes[k];
      if (same(fb.max_switch_link_load, fa.max_switch_link_load) && same(fb.maxmin_throughput, fa.maxmin_throughput))
        continue;
      changes.push_back(fa.name + " max switch-cable load " + load_text(fb.max_switch_link_load) + " -> " +
                        load_text(fa.max_switch_link_load) + ", max-min throughput " +
                        relative_text(fb.maxmin_throughput) + " -> " + relative_text(fa.maxmin_throughput));
    }
    if (!changes.empty()) {
      out.push_back("Pattern " + printable_text(before.patterns[i].name) + " after the loss: " + joined(changes) + ".");
    }
  }
}

}  // namespace

std::string cable_text(const HotCable& cable) {
  return printable_text(cable.from) + "[" + std::to_string(cable.from_port) + "] -> " + printable_text(cable.to) + "[" +
         std::to_string(cable.to_port) + "]";
}

ReportFocus report_focus(const Comparison& cmp) {
  ReportFocus focus;
  double widest = 0;
  for (std::size_t i = 0; i < cmp.collectives.size(); ++i) {
    const double s = spread(cmp.collectives[i]);
    if (focus.kind == ReportFocus::Kind::kNone || s > widest * (1 + 1e-12)) {
      focus = ReportFocus{ReportFocus::Kind::kCollective, i};
      widest = s;
    }
  }
  if (focus.kind != ReportFocus::Kind::kNone) return focus;
  for (std::size_t i = 0; i < cmp.patterns.size(); ++i) {
    double lo = INFINITY, hi = 0;
    for (const auto& f : cmp.patterns[i].schemes) {
      lo = std::min(lo, f.max_switch_link_load);
      hi = std::max(hi, f.max_switch_link_load);
    }
    const double s = lo > 0 && std::isfinite(lo) ? hi / lo : 1.0;
    if (focus.kind == ReportFocus::Kind::kNone || s > widest * (1 + 1e-12)) {
      focus = ReportFocus{ReportFocus::Kind::kPattern, i};
      widest = s;
    }
  }
  return focus;
}

std::string focus_label(const Comparison& cmp, ReportFocus focus) {
  switch (focus.kind) {
    case ReportFocus::Kind::kCollective: {
      const auto& c = cmp.collectives[focus.index];
      return printable_text(c.name) + " (" + job_text(c) + ")";
    }
    case ReportFocus::Kind::kPattern: return "pattern " + printable_text(cmp.patterns[focus.index].name);
    default: return "nothing";
  }
}

std::vector<SketchMark> focus_marks(const Comparison& cmp, ReportFocus focus) {
  std::vector<SketchMark> marks;
  auto add = [&](std::size_t k, const std::string& name, const std::vector<HotCable>& cables) {
    for (const auto& c : cables) marks.push_back(SketchMark{k, name, c});
  };
  if (focus.kind == ReportFocus::Kind::kCollective) {
    const auto& schemes = cmp.collectives[focus.index].schemes;
    for (std::size_t k = 0; k < schemes.size(); ++k) add(k, schemes[k].name, schemes[k].hottest_cables);
  } else if (focus.kind == ReportFocus::Kind::kPattern) {
    const auto& schemes = cmp.patterns[focus.index].schemes;
    for (std::size_t k = 0; k < schemes.size(); ++k) add(k, schemes[k].name, schemes[k].hottest_cables);
  }
  return marks;
}

std::vector<std::string> report_findings(const Comparison& before, const Comparison* after,
                                         const std::string& loss_text, const std::string& ib_tables) {
  std::vector<std::string> out;
  collective_findings(before, out);
  hottest_finding(before, after ? "before the loss " : "", out);
  pattern_findings(before, out);
  if (after) {
    loss_findings(before, *after, loss_text, ib_tables, out);
    hottest_finding(*after, "after the loss ", out);
  }
  for (const auto& n : before.notes) out.push_back("Note: " + printable_text(n));
  return out;
}

}  // namespace smd::roce
