// The comparison chart (routing/roce/svg_chart.h) on a hand-made Comparison: the collectives' panel comes
// first, its bars on a log axis from 1 (heights worked out here from the 220 px panel), and no bar is
// invisibly small: a per-flow share of 1/511 and a collective exactly at ideal both get a visible bar
// and their value.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <string>

#include "routing/roce/svg_chart.h"

namespace smd::roce {
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

// Bar heights keyed by their tooltip "group, scheme: value".
std::multimap<std::string, double> bars(const std::string& svg) {
  std::multimap<std::string, double> out;
  const std::regex bar("<rect [^>]*height=\"([0-9.]+)\"[^>]*><title>([^<]*)</title>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it) {
    out.emplace((*it)[2].str(), std::stod((*it)[1].str()));
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

}  // namespace
}  // namespace smd::roce
