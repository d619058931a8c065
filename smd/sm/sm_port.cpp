#include "smd/sm/sm_port.h"

namespace smd {

Result<std::unique_ptr<mad::UmadPort>> open_sm_port(const Policy& policy) {
  mad::UmadPortOptions options;
  options.ca_name = policy.sm.ca;
  options.port_num = policy.sm.port == 0 ? -1 : static_cast<int>(policy.sm.port);
  options.port_guid = policy.sm.port_guid;
  return mad::UmadPort::open(options);
}

mad::UmadTransportOptions transport_options(const Policy& policy) {
  mad::UmadTransportOptions options;
  options.window = policy.mad.window;
  options.timeout_ms = policy.mad.timeout_ms;
  options.retries = policy.mad.retries;
  return options;
}

}  // namespace smd
