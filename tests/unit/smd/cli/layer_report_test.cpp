// The VL-layering lines and JSON keys of `smd plan` (smd/cli/layer_report.h), on hand-made reports.
#include "smd/cli/layer_report.h"

#include <gtest/gtest.h>

#include <sstream>

namespace smd::layer_report_test {
namespace {

QualityReport layered_report() {
  QualityReport q;
  q.layered = true;
  q.layers = 2;
  q.vls_available = 8;
  q.layer_cdg = {LayerCdg{30, 7, 9, true, true}, LayerCdg{2, 2, 2, false, true}};
  return q;
}

TEST(LayerReport, JsonCarriesLayersVlsAndEachLayersGraph) {
  nlohmann::ordered_json j;
  add_layer_json(j, layered_report());
  EXPECT_EQ(j["layers"], 2);
  EXPECT_EQ(j["vls_available"], 8);
  ASSERT_EQ(j["layer_cdg"].size(), 2u);
  EXPECT_EQ(j["layer_cdg"][0]["layer"], 0);
  EXPECT_EQ(j["layer_cdg"][0]["routes"], 30);
  EXPECT_EQ(j["layer_cdg"][0]["channels"], 7);
  EXPECT_EQ(j["layer_cdg"][0]["edges"], 9);
  EXPECT_EQ(j["layer_cdg"][0]["acyclic"], true);
  EXPECT_EQ(j["layer_cdg"][1]["layer"], 1);
  EXPECT_EQ(j["layer_cdg"][1]["acyclic"], false);
  EXPECT_EQ(j["layer_cdg"][1]["ca_acyclic"], true);
}

TEST(LayerReport, TextHasOneLinePerLayer) {
  std::ostringstream out;
  print_layer_text(out, layered_report());
  EXPECT_EQ(out.str(),
            "layers        2 used (SL = VL = layer), 8 data VLs available\n"
            "layer 0       30 routes, CDG 7 channels 9 edges, acyclic\n"
            "layer 1       2 routes, CDG 2 channels 2 edges, cyclic (CA-injected traffic acyclic)\n");
}

TEST(LayerReport, SingleVlTablesAddOnlyTheLayerCount) {
  QualityReport q;
  nlohmann::ordered_json j;
  add_layer_json(j, q);
  EXPECT_EQ(j.size(), 1u);
  EXPECT_EQ(j["layers"], 1);
  std::ostringstream out;
  print_layer_text(out, q);
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace smd::layer_report_test
