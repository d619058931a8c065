// The comparison chart (routing/roce/svg_chart.h) on a hand-made Comparison: the collectives' panel comes
// first, its bars on a log axis from 1 (heights worked out here from the 220 px panel), and no bar is
// invisibly small: a per-flow share of 1/511 and a collective exactly at ideal both get a visible bar
// and their value.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <string_view>

#include "routing/roce/svg_chart.h"

namespace smd::roce::roce_svg_chart_test {
namespace {

Comparison sample() {
  Comparison c;
  c.endpoints = 512;
  for (const char* pattern : {"shift", "all-to-all"}) {
    PatternResult p{pattern, 1, {}};
    for (const char* scheme : {"ib-static", "ib-adaptive", "roce-ecmp"}) {
      SchemeFigures f;
      f.name = scheme;
      f.mean_bottleneck_share = std::string(pattern) == "shift" ? 1.0 : 1.0 / 511;
      f.maxmin_throughput = f.mean_bottleneck_share;
      p.schemes.push_back(f);
    }
    c.patterns.push_back(p);
  }
  CollectiveResult ring;
  ring.name = "ring-allreduce";
  const double relative[] = {1.0, 2.0, 10.0};
  const char* names[] = {"ib-static", "ib-adaptive", "roce-ecmp"};
  for (int s = 0; s < 3; ++s) {
    CollectiveFigures f;
    f.name = names[s];
    f.relative_time = relative[s];
    ring.schemes.push_back(f);
  }
  c.collectives.push_back(ring);
  return c;
}

// Bar heights keyed by their tooltip "group, scheme: value": each <rect ...> directly followed by a <title>.
// Spelled out rather than a std::regex: GCC 12's <regex> trips -Wmaybe-uninitialized under the sanitizers.
std::multimap<std::string, double> bars(const std::string& svg) {
  std::multimap<std::string, double> out;
  for (std::size_t at = svg.find("<rect "); at != std::string::npos; at = svg.find("<rect ", at + 1)) {
    const std::size_t end = svg.find('>', at);
    if (end == std::string::npos) break;
    const std::string_view rect(svg.data() + at, end - at);
    const std::size_t h = rect.find(" height=\"");
    const std::string_view title_open = "<title>";
    if (h == std::string_view::npos || svg.compare(end + 1, title_open.size(), title_open) != 0) continue;
    const std::size_t value = h + 9;
    const std::string height(rect.substr(value, rect.find('"', value) - value));
    const std::size_t text = end + 1 + title_open.size();
    const std::size_t close = svg.find("</title>", text);
    if (close == std::string::npos) break;
    out.emplace(svg.substr(text, close - text), std::stod(height));
  }
  return out;
}

TEST(RoceSvgChart, CollectivesFirstOnALogAxisAndNoInvisibleBar) {
  const std::string svg = svg_chart(sample(), "t <&>");
  EXPECT_NE(svg.find("t &lt;&amp;&gt;"), std::string::npos);
  const auto collectives = svg.find("relative to ideal");
  const auto ebb = svg.find("mean bottleneck share");
  ASSERT_NE(collectives, std::string::npos);
  ASSERT_NE(ebb, std::string::npos);
  EXPECT_LT(collectives, ebb);
  const auto b = bars(svg);
  ASSERT_EQ(b.size(), 3u + 3 * 2 * 3);
  for (const auto& [what, h] : b) EXPECT_GE(h, 2.0) << what;
  // Axis 1..10 (the nice top of the largest ratio) over 220 px: ratio x is 220 log(x) / log(10) px high.
  EXPECT_NEAR(b.find("ring-allreduce, roce-ecmp: 10")->second, 220.0, 0.01);
  EXPECT_NEAR(b.find("ring-allreduce, ib-adaptive: 2")->second, 220.0 * std::log10(2.0), 0.01);
  EXPECT_DOUBLE_EQ(b.find("ring-allreduce, ib-static: 1")->second, 2.0);
  // 1/511 on a 0..1 axis would be 0.43 px: drawn 2 px, and its value printed above it.
  EXPECT_DOUBLE_EQ(b.find("all-to-all, roce-ecmp: 0.00196")->second, 2.0);
  EXPECT_NE(svg.find(">0.00196</text>"), std::string::npos);
  EXPECT_NEAR(b.find("shift, ib-static: 1")->second, 220.0, 0.01);
}

TEST(RoceSvgChart, UnroutedCollectiveIsLabelledNotInfinite) {
  Comparison c = sample();
  c.collectives[0].schemes[2].relative_time = std::numeric_limits<double>::infinity();
  const std::string svg = svg_chart(c, "t");
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  EXPECT_NE(svg.find("ring-allreduce, roce-ecmp: unrouted"), std::string::npos);
}

// Two jobs: one group of bars per (job, collective), in the comparison's order, each job written on a
// second line under its group and in its bars' tooltips; the whole fabric ("all") gets no job line.
TEST(RoceSvgChart, OneGroupPerJob) {
  Comparison c = sample();
  c.collectives[0].job = "all";
  CollectiveResult frag = c.collectives[0];
  frag.job = "fragmented:32,0.5";
  frag.schemes[2].relative_time = 3.0;
  c.collectives.push_back(frag);
  const std::string svg = svg_chart(c, "t");
  const auto b = bars(svg);
  ASSERT_EQ(b.size(), 2u * 3 + 3 * 2 * 3);
  EXPECT_EQ(b.count("ring-allreduce, roce-ecmp: 10"), 1u);
  EXPECT_EQ(b.count("fragmented:32,0.5 ring-allreduce, roce-ecmp: 3"), 1u);
  EXPECT_EQ(svg.find(">all</text>"), std::string::npos);
  const auto job_line = svg.find("font-size=\"10\">fragmented:32,0.5</text>");
  ASSERT_NE(job_line, std::string::npos);
  // The job line follows the second group's collective label, after the first group's.
  const auto first = svg.find(">ring-allreduce</text>");
  const auto second = svg.find(">ring-allreduce</text>", first + 1);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(second, job_line);
}

}  // namespace
}  // namespace smd::roce::roce_svg_chart_test
