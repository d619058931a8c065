// qos_once: `smd --once` with a QoS policy set in code, for tests/integration/qos_tables_test.sh until
// the policy loader reads `qos:` (the test then runs smd itself). Loads the policy file as smd does, puts
// in the QoS spec below (or leaves QoS off), writes that spec as JSON for the independent checker, and
// runs the one sweep of smd --once (smd/cli/once_command.h).
//
//   qos_once --config FILE --spec-out FILE [--qos on|off]
//
// Exit status: that of smd --once (0 subnet up).
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "config/policy_loader.h"
#include "smd/cli/once_command.h"

namespace {

// Unlike OpenSM's defaults on every port type, so the checker can tell what smd wrote from what ibsim
// starts with (SL i -> VL i, VLArb low 0:0 1..7:4, high 0:4 1..7:0). VLHighLimit stays 0: ibsim does not
// store it. Hosts run 4 data VLs (OperationalVLs VL0-3) and map every SL below VL 4.
smd::QosSpec test_spec() {
  smd::QosSpec q;
  q.enabled = true;
  for (std::size_t sl = 0; sl < 16; ++sl) {
    q.ca.sl2vl[sl] = static_cast<std::uint8_t>(3 - sl % 4);
    q.switch_external.sl2vl[sl] = static_cast<std::uint8_t>((sl + 1) % 8);
  }
  q.switch_external.sl2vl[15] = 15;  // drop
  q.ca.max_vls = 4;
  q.ca.vlarb_high = {{1, 8}, {2, 16}};
  q.ca.vlarb_low = {{0, 32}, {3, 64}, {2, 255}};
  // Nine entries against ibsim's VLArbitrationLowCap 8: the ninth is not written.
  q.switch_external.vlarb_low = {{1, 4}, {2, 8}, {3, 12}, {4, 16}, {5, 20}, {6, 24}, {7, 28}, {0, 1}, {1, 2}};
  q.switch_external.vlarb_high = {{7, 100}, {6, 50}};
  // QOS_ONCE_HIGH_LIMIT: VLHighLimit of the switch external ports, to see whether a simulator stores it.
  if (const char* hl = std::getenv("QOS_ONCE_HIGH_LIMIT")) {
    q.switch_external.high_limit = static_cast<std::uint8_t>(std::strtoul(hl, nullptr, 10));
  }
  return q;
}

void write_entries(std::ostream& o, const std::vector<smd::VlArbEntry>& es) {
  o << "[";
  for (std::size_t i = 0; i < es.size(); ++i) {
    o << (i ? ", " : "") << "[" << unsigned(es[i].vl) << ", " << unsigned(es[i].weight) << "]";
  }
  o << "]";
}

void write_spec(std::ostream& o, const smd::QosSpec& q) {
  auto port = [&](const char* name, const smd::QosPortSpec& p, bool last) {
    o << "  \"" << name << "\": {\"max_vls\": " << unsigned(p.max_vls) << ", \"high_limit\": " << unsigned(p.high_limit)
      << ", \"sl2vl\": [";
    for (std::size_t sl = 0; sl < 16; ++sl) o << (sl ? ", " : "") << unsigned(p.sl2vl[sl]);
    o << "], \"vlarb_high\": ";
    write_entries(o, p.vlarb_high);
    o << ", \"vlarb_low\": ";
    write_entries(o, p.vlarb_low);
    o << "}" << (last ? "\n" : ",\n");
  };
  o << "{\n  \"enabled\": " << (q.enabled ? "true" : "false") << ",\n";
  port("ca", q.ca, false);
  port("switch_port0", q.switch_port0, false);
  port("switch_external", q.switch_external, false);
  port("router", q.router, true);
  o << "}\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string config, spec_out;
  bool qos = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--config") == 0) {
      config = argv[i + 1];
    } else if (std::strcmp(argv[i], "--spec-out") == 0) {
      spec_out = argv[i + 1];
    } else if (std::strcmp(argv[i], "--qos") == 0) {
      qos = std::strcmp(argv[i + 1], "off") != 0;
    } else {
      std::fprintf(stderr, "usage: qos_once --config FILE --spec-out FILE [--qos on|off]\n");
      return 2;
    }
  }
  if (config.empty() || spec_out.empty()) {
    std::fprintf(stderr, "usage: qos_once --config FILE --spec-out FILE [--qos on|off]\n");
    return 2;
  }
  auto policy = smd::load_policy_file(config);
  if (!policy.ok()) {
    std::fprintf(stderr, "qos_once: %s\n", policy.error().message.c_str());
    return 2;
  }
  if (qos) policy.value().qos = test_spec();
  std::ofstream out(spec_out);
  write_spec(out, policy.value().qos);
  out.close();
  return smd::run_once(policy.value(), std::cout);
}
