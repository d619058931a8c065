// The report's parts on hand-made figures: HottestChannels keeps the three most loaded channels (ties by
// channel id, empty channels ignored, the cables at the top load counted); the chart's axis end and bar
// lengths; the focus is the collective whose schemes differ most; the findings name the slowest scheme
// with its time and every cable the sketch marks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "routing/roce/report_chart.h"
#include "routing/roce/report_text.h"

namespace smd::roce::roce_report_test {
namespace {

TEST(HottestChannels, KeepsTheThreeMostLoadedTiesByChannelId) {
  HottestChannels hot;
  const std::pair<std::uint32_t, double> fed[] = {{9, 2.0}, {4, 0.0}, {7, 3.0}, {2, 2.0}, {5, 3.0}, {1, 1.0}, {3, 3.0}};
  for (const auto& [channel, load] : fed) hot.add(channel, load);
  EXPECT_EQ(hot.top[0].channel, 3u);
  EXPECT_EQ(hot.top[1].channel, 5u);
  EXPECT_EQ(hot.top[2].channel, 7u);
  EXPECT_EQ(hot.top[2].load, 3.0);
  EXPECT_EQ(hot.at_max, 3u);
  HottestChannels one;
  one.add(4, 0.0);
  EXPECT_EQ(one.top[0].channel, kNoChannel);
  one.add(8, 0.5);
  EXPECT_EQ(one.top[0].channel, 8u);
  EXPECT_EQ(one.top[1].channel, kNoChannel);
  EXPECT_EQ(one.at_max, 1u);
}

HotCable cable(const char* from, PortNum port, const char* to, double load) {
  return HotCable{from, 0x100, port, to, 0x200, 1, load};
}

CollectiveResult collective(const char* name, const char* job, std::vector<double> relative) {
  CollectiveResult c;
  c.name = name;
  c.job = job;
  c.ranks = 8;
  c.leaves = 4;
  const char* schemes[] = {"ib-static", "ib-adaptive", "roce-ecmp", "roce-eecmp", "roce-spray"};
  for (std::size_t k = 0; k < relative.size(); ++k) {
    CollectiveFigures f;
    f.name = schemes[k];
    f.relative_time = relative[k];
    f.bus_bandwidth = 1 / relative[k];
    f.hottest_cables = {cable("leaf-1", static_cast<PortNum>(5 + k), "spine-0", relative[k])};
    f.cables_at_max_load = 1;
    c.schemes.push_back(f);
  }
  return c;
}

TEST(ReportChart, AxisEndAndBarLengths) {
  Comparison cmp;
  cmp.collectives.push_back(collective("alltoall", "all", {1.0, 1.0, 1.0}));
  EXPECT_EQ(report_axis_max(cmp.collectives), 1.5);
  cmp.collectives.push_back(collective("ring-allreduce", "across", {1.0, 1.25, 4.0}));
  EXPECT_EQ(report_axis_max(cmp.collectives), 5.0);
  const std::string svg = report_chart(cmp.collectives, 5.0, "caption");
  // 560 px for 0..5: 112 px per unit; the ring's roce-ecmp bar is 4 x 112 = 448 px long, at ideal 112 px.
  EXPECT_NE(svg.find("data-px-per-unit=\"112.000\""), std::string::npos);
  EXPECT_NE(svg.find("data-scheme=\"roce-ecmp\" data-value=\"4.000\" x=\"230.000\" y=\""), std::string::npos);
  EXPECT_NE(svg.find("width=\"448.000\""), std::string::npos);
  EXPECT_NE(svg.find("width=\"140.000\""), std::string::npos);  // 1.25
  EXPECT_EQ(svg.find("width=\"0.000\""), std::string::npos);
}

TEST(ReportText, FocusAndFindingsFromTheNumbers) {
  Comparison cmp;
  cmp.collectives.push_back(collective("alltoall", "all", {1.0, 1.1, 1.2}));
  cmp.collectives.push_back(collective("ring-allreduce", "across", {2.0, 1.0, 3.0}));
  cmp.collectives.push_back(collective("pipeline", "all", {1.0, 1.0, 1.0}));
  const ReportFocus focus = report_focus(cmp);
  ASSERT_EQ(focus.kind, ReportFocus::Kind::kCollective);
  EXPECT_EQ(focus.index, 1u);  // 3.0 / 1.0 beats 1.2 / 1.0
  EXPECT_EQ(focus_label(cmp, focus), "ring-allreduce (job across)");
  const auto marks = focus_marks(cmp, focus);
  ASSERT_EQ(marks.size(), 3u);
  EXPECT_EQ(marks[2].scheme, 2u);
  EXPECT_EQ(marks[2].cable.from_port, 7);
  const auto findings = report_findings(cmp, nullptr, "", "");
  std::string all;
  for (const auto& f : findings) all += f + "\n";
  EXPECT_NE(all.find("ring-allreduce (job across, 8 ranks on 4 leaves): roce-ecmp is slowest at 3.000 x ideal"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("ib-adaptive reaches 1.000 x"), std::string::npos) << all;
  EXPECT_NE(all.find("The same time under every scheme: pipeline (whole fabric) 1.000 x"), std::string::npos) << all;
  for (const auto& m : marks) EXPECT_NE(all.find(cable_text(m.cable)), std::string::npos) << cable_text(m.cable);
  EXPECT_EQ(cable_text(marks[0].cable), "leaf-1[5] -> spine-0[1]");
}

TEST(ReportText, LossFindingsSayWhatChanged) {
  Comparison before, after;
  before.collectives.push_back(collective("alltoall", "all", {1.0, 1.054, 1.078}));
  after.collectives.push_back(collective("alltoall", "all", {1.987, 1.698, 1.078}));
  const auto findings = report_findings(before, &after, "sw-L0-0[13]", "local repair");
  std::string all;
  for (const auto& f : findings) all += f + "\n";
  EXPECT_NE(all.find("After losing sw-L0-0[13] (IB static: local repair"), std::string::npos) << all;
  EXPECT_NE(all.find("ib-static 1.000 -> 1.987 x ideal"), std::string::npos) << all;
  EXPECT_EQ(all.find("roce-ecmp 1.078 ->"), std::string::npos) << all;  // unchanged: not listed
}

}  // namespace
}  // namespace smd::roce::roce_report_test
