// `smctl status` shows the policy in effect and the keys of a reloaded file that need a restart: in the
// JSON (status_json) and in smctl's text rendering.
#include <gtest/gtest.h>

#include <sstream>

#include "smd/control/requests.h"
#include "smd/smctl/smctl_render.h"

namespace smd::control::status_policy_test {
namespace {

FabricSnapshot reloaded_snapshot() {
  FabricSnapshot snap;
  snap.sm_state = "MASTER";
  snap.policy_generation = 5;
  snap.policy_source = "/etc/smd/smd.yaml";
  snap.needs_restart = {{"control.socket", "/run/smd/a.socket", "/run/smd/b.socket"},
                        {"metrics.enabled", "true", "false"}};
  return snap;
}

TEST(StatusPolicy, JsonNamesThePolicyAndTheKeysThatNeedARestart) {
  const Json s = status_json(reloaded_snapshot());
  EXPECT_EQ(s["policy"], Json({{"generation", 5}, {"source", "/etc/smd/smd.yaml"}, {"reloads_refused", 0}}));
  EXPECT_TRUE(s["metrics"].is_null()) << "not serving metrics";
  ASSERT_EQ(s["needs_restart"].size(), 2u);
  EXPECT_EQ(s["needs_restart"][0],
            Json({{"key", "control.socket"}, {"running", "/run/smd/a.socket"}, {"file", "/run/smd/b.socket"}}));
  EXPECT_EQ(s["needs_restart"][1]["key"], "metrics.enabled");
  EXPECT_TRUE(status_json(FabricSnapshot{})["needs_restart"].empty());
}

TEST(StatusPolicy, TextShowsEachKeyThatNeedsARestart) {
  std::ostringstream out;
  render_text(out, "status", status_json(reloaded_snapshot()));
  const std::string text = out.str();
  EXPECT_NE(text.find("Policy        5 (/etc/smd/smd.yaml)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Needs restart control.socket (running /run/smd/a.socket, file /run/smd/b.socket)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Needs restart metrics.enabled (running true, file false)\n"), std::string::npos) << text;

  std::ostringstream fresh;
  render_text(fresh, "status", status_json(FabricSnapshot{}));
  EXPECT_EQ(fresh.str().find("Needs restart"), std::string::npos);
}

TEST(StatusPolicy, ARefusedReloadIsShownWithItsErrorAndSinceWhenUntilOneIsAccepted) {
  FabricSnapshot snap = reloaded_snapshot();
  snap.reloads_refused_total = 3;
  snap.reload_refused = "/etc/smd/smd.yaml:12:20: perfmgr.max_outstanding: 100 is out of range 1..64";
  snap.reload_refused_since = std::chrono::system_clock::time_point(std::chrono::seconds(1796558400));
  snap.metrics_address = "127.0.0.1:41234";
  const Json s = status_json(snap);
  EXPECT_EQ(s["policy"]["reloads_refused"], 3);
  EXPECT_EQ(s["policy"]["reload_refused"]["error"], snap.reload_refused);
  EXPECT_EQ(s["policy"]["reload_refused"]["since"], "2026-12-06T12:00:00Z");
  EXPECT_EQ(s["metrics"], "127.0.0.1:41234");
  std::ostringstream out;
  render_text(out, "status", s);
  EXPECT_NE(out.str().find("Reload        REFUSED since 2026-12-06T12:00:00Z (3 refused in all), running policy "
                           "kept: /etc/smd/smd.yaml:12:20: perfmgr.max_outstanding: 100 is out of range 1..64\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("Metrics       127.0.0.1:41234\n"), std::string::npos) << out.str();
  snap.reload_refused.clear();  // a later reload was accepted
  std::ostringstream after;
  render_text(after, "status", status_json(snap));
  EXPECT_EQ(after.str().find("REFUSED"), std::string::npos) << after.str();
}

TEST(StatusPolicy, JsonCarriesTheSweepHistoryOldestFirst) {
  FabricSnapshot snap;
  const auto t = std::chrono::system_clock::time_point{} + std::chrono::seconds(1796000000);
  snap.history = {{t, "sweep", 12.5, 0}, {t + std::chrono::seconds(2), "repair", 30.25, 0}};
  const Json h = status_json(snap)["history"];
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0]["time"], "2026-11-30T00:53:20Z");
  EXPECT_EQ(h[0]["kind"], "sweep");
  EXPECT_EQ(h[0]["ms"], 12.5);
  EXPECT_EQ(h[1]["time"], "2026-11-30T00:53:22Z");
  EXPECT_EQ(h[1]["kind"], "repair");
  EXPECT_EQ(h[1]["ms"], 30.25);
  EXPECT_TRUE(status_json(FabricSnapshot{})["history"].empty());
}

// A drain file of 170,000 parts made `smctl --json status` 26 MB: status lists the first
// kStatusDrainsListed and counts them all; the text says how many more and where the whole list is.
TEST(StatusPolicy, DrainsAreSummarisedNotListedWhole) {
  FabricSnapshot snap;
  snap.sm_state = "MASTER";
  for (std::uint64_t i = 0; i < 1000; ++i) {
    DrainedPartView d;
    d.part = {0x7000000 + i, static_cast<PortNum>(i % 200)};
    d.what = "cable " + std::to_string(i);
    d.forced = i % 4 == 0;
    snap.drained.push_back(d);
  }
  const Json s = status_json(snap);
  ASSERT_EQ(s["drained"].size(), kStatusDrainsListed);
  EXPECT_EQ(s["drained"][0]["what"], "cable 0");
  EXPECT_EQ(s["drained_total"], 1000u);
  EXPECT_EQ(s["drained_forced"], 250u);
  EXPECT_LT(s.dump().size(), 8000u);
  std::ostringstream out;
  render_text(out, "status", s);
  EXPECT_NE(out.str().find("and 980 more (1000 parts, 250 forced): state_dir/drained lists them all\n"),
            std::string::npos)
      << out.str();
  snap.drained.resize(3);
  const Json few = status_json(snap);
  EXPECT_EQ(few["drained"].size(), 3u);
  std::ostringstream short_out;
  render_text(short_out, "status", few);
  EXPECT_EQ(short_out.str().find("more ("), std::string::npos) << short_out.str();
}

}  // namespace
}  // namespace smd::control::status_policy_test
