// The command-line options every ibsim probe tool in this folder shares: which port to open and how
// UmadTransport keeps SMPs in flight.
#pragma once

#include <cstdlib>
#include <string>

#include "mad/transport/umad_port.h"
#include "mad/transport/umad_transport.h"

namespace smd::tools {

/// Take argv[i] (with its value, argv[i + 1]) if it is --window, --timeout-ms, --retries, --ca or --port:
/// sets the field, advances i past the value and returns true. Anything else: false, i unchanged.
inline bool take_transport_arg(int& i, int argc, char** argv, mad::UmadTransportOptions& transport,
                               mad::UmadPortOptions& port) {
  const std::string k = argv[i];
  if (i + 1 >= argc) return false;
  const char* v = argv[i + 1];
  if (k == "--window") {
    transport.window = static_cast<unsigned>(std::atoi(v));
  } else if (k == "--timeout-ms") {
    transport.timeout_ms = static_cast<unsigned>(std::atoi(v));
  } else if (k == "--retries") {
    transport.retries = static_cast<unsigned>(std::atoi(v));
  } else if (k == "--ca") {
    port.ca_name = v;
  } else if (k == "--port") {
    port.port_num = std::atoi(v);
  } else {
    return false;
  }
  ++i;
  return true;
}

}  // namespace smd::tools
