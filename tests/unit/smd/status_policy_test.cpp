// `smctl status` shows the policy in effect and the keys of a reloaded file that need a restart: in the
// JSON (status_json) and in smctl's text rendering.
#include <gtest/gtest.h>

#include <sstream>

#include "smd/control/requests.h"
#include "smd/smctl/smctl_render.h"

namespace smd::control {
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
  EXPECT_EQ(s["policy"], Json({{"generation", 5}, {"source", "/etc/smd/smd.yaml"}}));
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

}  // namespace
}  // namespace smd::control
