// The fabric view's JSON API without a browser: tiers against the generators' own level names, rings for a
// torus, CA aggregation, each cable state from a hand-made mark, drain or PerfMgr row, a node's page, and the
// HTTP answers (shape, version, 404/405/503) through answer_view and the real MetricsServer.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/control/fabric_view_json.h"
#include "smd/control/view_assets.h"
#include "smd/control/view_routes.h"

namespace smd::control::fabric_view_test {
namespace {

std::shared_ptr<FabricSnapshot> snapshot_of(Result<Topology> topo) {
  EXPECT_TRUE(topo.ok());
  auto snap = std::make_shared<FabricSnapshot>();
  snap->topo = std::make_shared<const Topology>(std::move(topo.value()));
  snap->sm_state = "MASTER";
  return snap;
}

// The cable whose one end is (guid, port), as the view lists it.
const Json* cable_at(const Json& view, Guid guid, PortNum port) {
  const std::string g = format_guid(guid);
  for (const Json& l : view["links"]) {
    if ((l["a"]["guid"] == g && l["a"]["port"] == port) || (l["b"]["guid"] == g && l["b"]["port"] == port)) return &l;
  }
  return nullptr;
}

TEST(FabricView, KaryTreeTiersAreTheGeneratorsLevels) {
  auto snap = snapshot_of(make_kary_ntree(4, 3));  // 64 hosts, 48 switches in 3 levels, 192 cables
  const Json view = fabric_view_json(*snap);
  EXPECT_EQ(view["layout"], "tiers");
  EXPECT_EQ(view["tiers"], 4);
  EXPECT_EQ(view["aggregated"], false);
  EXPECT_EQ(view["counts"]["switches"], 48);
  EXPECT_EQ(view["counts"]["cas"], 64);
  EXPECT_EQ(view["counts"]["links"], 192);
  EXPECT_EQ(view["counts"]["switch_links"], 128);  // two levels of 64 up-cables
  EXPECT_EQ(view["nodes"].size(), 48u + 64u);
  EXPECT_EQ(view["links"].size(), 192u);
  for (const Json& n : view["nodes"]) {
    const std::string name = n["name"];
    if (n["type"] == "ca") {
      EXPECT_EQ(n["tier"], 0) << name;
    } else {
      // "sw-L<level>-<i>", level 0 = leaves: tier = level + 1.
      ASSERT_EQ(name.rfind("sw-L", 0), 0u) << name;
      EXPECT_EQ(n["tier"], std::stoi(name.substr(4)) + 1) << name;
    }
  }
  // Switches first, highest tier first.
  EXPECT_EQ(view["nodes"].front()["tier"], 3);
  EXPECT_EQ(view["nodes"].back()["type"], "ca");
  EXPECT_EQ(view["counts"]["states"]["idle"], 192);
}

TEST(FabricView, TorusIsDrawnAsRingsFromTheCentre) {
  auto snap = snapshot_of(make_torus({4, 4}, 1));
  const Json view = fabric_view_json(*snap);
  EXPECT_EQ(view["layout"], "rings");
  // One centre switch on tier 1; on a 4x4 torus every switch is within 4 hops of it (tiers 1..5).
  unsigned centre = 0;
  for (const Json& n : view["nodes"]) {
    if (n["type"] == "switch" && n["tier"] == 1) ++centre;
    if (n["type"] == "switch") {
      EXPECT_GE(n["tier"].get<int>(), 1);
      EXPECT_LE(n["tier"].get<int>(), 5);
    }
  }
  EXPECT_EQ(centre, 1u);
  EXPECT_EQ(view["counts"]["switch_links"], 32);
}

TEST(FabricView, ManyCasAreCountedPerLeaf) {
  auto snap = snapshot_of(make_kary_ntree(4, 3));
  const Json view = fabric_view_json(*snap, {.max_cas_drawn = 10});
  EXPECT_EQ(view["aggregated"], true);
  EXPECT_EQ(view["nodes"].size(), 48u);     // every switch, no CA
  EXPECT_EQ(view["links"].size(), 128u);    // every switch-switch cable, no CA cable
  EXPECT_EQ(view["counts"]["links"], 192);  // the counts still cover the whole fabric
  unsigned cas = 0;
  for (const Json& n : view["nodes"]) {
    const std::string name = n["name"];
    const unsigned expected = name.rfind("sw-L0-", 0) == 0 ? 4 : 0;  // a leaf has k = 4 hosts
    EXPECT_EQ(n["cas"], expected) << name;
    cas += n["cas"].get<unsigned>();
    if (expected) {
      EXPECT_EQ(n["ca_links"]["worst"], "idle");
    }
  }
  EXPECT_EQ(cas, 64u);
}

TEST(FabricView, CableStatesHealthFirstThenErrorsThenTraffic) {
  auto snap = snapshot_of(make_two_switch(2, 3));
  const Topology& topo = *snap->topo;
  const Node& sw0 = topo.node(topo.switches()[0]);
  const Node& sw1 = topo.node(topo.switches()[1]);
  // Four cables of sw0 judged four ways: find them by their sw0 port.
  std::vector<PortNum> ports;
  for (PortNum p = 1; p <= sw0.num_ports; ++p) {
    if (sw0.ports[p].connected()) ports.push_back(p);
  }
  ASSERT_GE(ports.size(), 5u);
  UnhealthyPortView isolated;
  isolated.key = {sw0.guid, ports[0]};
  isolated.isolated = true;
  isolated.node_desc = "sw-0";
  isolated.reason = "SymbolErrorCounter +57 in 10 s (threshold 10)";
  UnhealthyPortView kept = isolated;
  kept.key = {sw0.guid, ports[1]};
  kept.isolated = false;
  snap->unhealthy = {isolated, kept};
  auto perf = std::make_shared<PerfView>();
  PortCounterRow errors;
  errors.key = {sw0.guid, ports[2]};
  errors.last_delta[static_cast<std::size_t>(PortCounter::kLinkDowned)] = 2;
  PortCounterRow waits;  // PortXmitWait is congestion, not an error: with data moving it reads as traffic
  waits.key = {sw0.guid, ports[3]};
  waits.last_delta[static_cast<std::size_t>(PortCounter::kPortXmitWait)] = 900;
  waits.data_rate[0] = 5000;
  PortCounterRow also_errors = errors;  // the error beside a mark: the mark wins
  also_errors.key = {sw0.guid, ports[0]};
  perf->ports = {also_errors, errors, waits};
  perf->passes = 3;
  perf->interval_s = 2;
  snap->perf = perf;
  snap->drained = {{{sw1.guid, 0}, "switch sw-1", false}};

  const Json view = fabric_view_json(*snap);
  auto state_at = [&](PortNum p) { return (*cable_at(view, sw0.guid, p))["state"].get<std::string>(); };
  EXPECT_EQ(state_at(ports[0]), "isolated");
  EXPECT_EQ((*cable_at(view, sw0.guid, ports[0]))["reason"],
            "sw-0 port " + std::to_string(ports[0]) + ": SymbolErrorCounter +57 in 10 s (threshold 10)");
  EXPECT_EQ(state_at(ports[1]), "unhealthy");
  EXPECT_EQ(state_at(ports[3]), "traffic");
  EXPECT_EQ((*cable_at(view, sw0.guid, ports[3]))["rate"], 5000);
  EXPECT_EQ((*cable_at(view, sw0.guid, ports[3]))["errors"], 0);
  // ports[2]: errors, unless it is a cable to the drained sw-1 (drained comes before errors).
  const bool to_sw1 = topo.node(sw0.ports[ports[2]].peer).guid == sw1.guid;
  EXPECT_EQ(state_at(ports[2]), to_sw1 ? "drained" : "errors");
  EXPECT_EQ((*cable_at(view, sw0.guid, ports[2]))["errors"], 2);
  // Every cable of the drained switch with no mark is drained.
  for (PortNum p = 1; p <= sw1.num_ports; ++p) {
    if (!sw1.ports[p].connected()) continue;
    const std::string s = (*cable_at(view, sw1.guid, p))["state"];
    EXPECT_TRUE(s == "drained" || s == "isolated" || s == "unhealthy") << "sw-1 port " << static_cast<int>(p) << ": " << s;
  }
  EXPECT_EQ(view["perf"]["passes"], 3);
  unsigned total = 0;
  for (const auto& [state, n] : view["counts"]["states"].items()) total += n.get<unsigned>();
  EXPECT_EQ(total, view["counts"]["links"].get<unsigned>());
}

TEST(FabricView, NodePageHasPortsMarksCountersAndPKeys) {
  auto snap = snapshot_of(make_two_switch(2, 3));
  const Topology& topo = *snap->topo;
  const NodeIndex sw = topo.switches()[0];
  const Node& sw0 = topo.node(sw);
  PortNum cabled = 0;
  for (PortNum p = 1; p <= sw0.num_ports && !cabled; ++p) {
    if (sw0.ports[p].connected()) cabled = p;
  }
  UnhealthyPortView mark;
  mark.key = {sw0.guid, cabled};
  mark.reason = "5 link flaps in 600 s";
  snap->unhealthy = {mark};
  auto perf = std::make_shared<PerfView>();
  PortCounterRow row;
  row.key = {sw0.guid, cabled};
  row.raw[0] = 7;
  perf->ports = {row};
  snap->perf = perf;
  auto plan = std::make_shared<PartitionPlan>();
  PortPartitions pp;
  pp.table = {0xffff, 0x8a01, 0};
  plan->ports[{sw0.guid, 0}] = pp;
  snap->partitions = plan;
  PartitionsSpec policy = default_partitions();
  PartitionSpec tenant;
  tenant.name = "tenant";
  tenant.pkey = 0x0a01;
  policy.partitions.push_back(tenant);
  snap->partition_policy = std::make_shared<const PartitionsSpec>(policy);

  auto page = node_view_json(*snap, format_guid(sw0.guid));
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ((*page)["guid"], format_guid(sw0.guid));
  EXPECT_EQ((*page)["ports"].size(), static_cast<std::size_t>(sw0.num_ports));
  EXPECT_EQ((*page)["port0_pkeys"], Json({"0xffff (Default)", "0x8a01 (tenant)"}));
  for (const Json& p : (*page)["ports"]) {
    if (p["port"] == cabled) {
      EXPECT_EQ(p["mark"]["reason"], "5 link flaps in 600 s");
      EXPECT_EQ(p["counters"]["counters"]["SymbolErrorCounter"], 7);
    } else {
      EXPECT_TRUE(p["mark"].is_null());
      EXPECT_TRUE(p["counters"].is_null());
    }
  }
  EXPECT_EQ(node_view_json(*snap, "no-such-node").error().message, "no node named 'no-such-node'");
}

TEST(ViewRoutes, ApiShapeVersionsAndRefusals) {
  std::shared_ptr<const FabricSnapshot> snap = snapshot_of(make_two_switch(2, 3));
  auto json_of = [](const ViewAnswer& a) { return Json::parse(a.body); };

  const ViewAnswer listing = answer_view("GET", "/api/v1", snap);
  EXPECT_EQ(listing.status, 200u);
  EXPECT_EQ(listing.content_type, "application/json");
  EXPECT_EQ(json_of(listing)["version"], kViewApiVersion);
  EXPECT_EQ(json_of(listing)["result"]["endpoints"].size(), 4u);

  const Json fabric = json_of(answer_view("GET", "/api/v1/fabric", snap));
  EXPECT_EQ(fabric["ok"], true);
  EXPECT_EQ(fabric["version"], 1);
  EXPECT_EQ(fabric["result"], fabric_view_json(*snap));

  const Json sm = json_of(answer_view("GET", "/api/v1/sm", snap));
  EXPECT_EQ(sm["result"]["status"]["state"], "MASTER");
  EXPECT_TRUE(sm["result"]["status"]["sweeps"].contains("repairs"));
  EXPECT_TRUE(sm["result"]["last_sweep"].contains("phases"));
  EXPECT_EQ(json_of(answer_view("GET", "/api/v1/sa", snap))["result"]["enabled"], false);

  // A node by GUID and by name (percent-encoded as a browser sends it).
  const std::string sw0 = format_guid(snap->topo->node(snap->topo->switches()[0]).guid);
  EXPECT_EQ(json_of(answer_view("GET", "/api/v1/node/" + sw0, snap))["result"]["guid"], sw0);
  const std::string host = snap->topo->node(snap->topo->cas()[0]).description;
  EXPECT_EQ(answer_view("GET", "/api/v1/node/" + host, snap).status, 200u);
  const ViewAnswer unknown = answer_view("GET", "/api/v1/node/nobody%20here", snap);
  EXPECT_EQ(unknown.status, 404u);
  EXPECT_EQ(json_of(unknown)["error"], "no node named 'nobody here'");
  EXPECT_EQ(json_of(unknown)["version"], 1);

  EXPECT_EQ(answer_view("GET", "/api/v1/nothing", snap).status, 404u);
  EXPECT_EQ(answer_view("GET", "/api/v2/fabric", snap).status, 404u);
  EXPECT_EQ(answer_view("GET", "/favicon.ico", snap).status, 404u);
  const ViewAnswer post = answer_view("POST", "/api/v1/fabric", snap);
  EXPECT_EQ(post.status, 405u);
  EXPECT_TRUE(post.allow_get);
  EXPECT_EQ(answer_view("DELETE", "/", snap).status, 405u);
  EXPECT_EQ(answer_view("GET", "/api/v1/fabric", nullptr).status, 503u);
}

TEST(ViewRoutes, ThePageAndItsFilesAreBuiltIn) {
  const auto assets = view_assets();
  ASSERT_EQ(assets.size(), 3u);
  EXPECT_EQ(assets[0].path, "/index.html");
  for (const char* path : {"/", "/view", "/index.html"}) {
    const ViewAnswer page = answer_view("GET", path, nullptr);  // served before the first publication too
    EXPECT_EQ(page.status, 200u) << path;
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
    EXPECT_NE(page.body.find("<script src=\"/view.js\">"), std::string::npos);
  }
  const ViewAnswer js = answer_view("GET", "/view.js", nullptr);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_NE(js.body.find("/api/v1/fabric"), std::string::npos);
  // Offline: nothing is fetched from another host.
  for (const ViewAsset& a : assets) {
    for (auto at = a.body.find("http"); at != std::string_view::npos; at = a.body.find("http", at + 1)) {
      EXPECT_EQ(a.body.substr(at, 26), "http://www.w3.org/2000/svg") << a.path << " at byte " << at;
    }
  }
  EXPECT_EQ(answer_view("GET", "/view.css", nullptr).content_type, "text/css; charset=utf-8");
}

}  // namespace
}  // namespace smd::control::fabric_view_test
